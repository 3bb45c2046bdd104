/* Running the configured hbase shell command on a script: spawn, capture, timeout, errors. */
#define _GNU_SOURCE /* POSIX_SPAWN_SETSID (glibc 2.26+, musl) */
#include "rest/shellrun.h"
#include "core/activity.h"
#include "core/clock.h"
#include "rest/tempfile.h"

#include "core/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int hb_argv_push(struct hb_argv *a, const char *s)
{
	char **nv = realloc(a->v, (a->n + 2) * sizeof(*nv));
	char *c;

	if (!nv)
		return HB_ENOMEM;
	a->v = nv;
	c = strdup(s);
	if (!c)
		return HB_ENOMEM;
	a->v[a->n++] = c;
	a->v[a->n] = NULL;
	return 0;
}

void hb_argv_release(struct hb_argv *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

int hb_argv_split(struct hb_argv *out, const char *cmd, struct hb_error *err)
{
	struct hb_buf w = HB_BUF_INIT;
	const char *p = cmd;
	int rc = 0;

	out->v = NULL;
	out->n = 0;
	for (;;) {
		int in_word = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		hb_buf_reset(&w);
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			in_word = 1;
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');

				if (!q) {
					rc =
					    hb_error_set(err, HB_EINVAL,
					                 "invalid shell command '%s': unterminated "
					                 "single quote",
					                 cmd);
					goto done;
				}
				rc = hb_buf_add(&w, p + 1, (size_t)(q - p - 1));
				p = q + 1;
			} else if (*p == '"') {
				p++;
				while (*p && *p != '"') {
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					rc = hb_buf_addc(&w, *p++);
					if (rc)
						break;
				}
				if (!rc && !*p) {
					rc =
					    hb_error_set(err, HB_EINVAL,
					                 "invalid shell command '%s': unterminated "
					                 "double quote",
					                 cmd);
					goto done;
				}
				p++;
			} else if (*p == '\\' && p[1]) {
				rc = hb_buf_addc(&w, p[1]);
				p += 2;
			} else {
				rc = hb_buf_addc(&w, *p++);
			}
			if (rc)
				break;
		}
		if (!rc && in_word)
			rc = hb_buf_adds(&w, "") ? HB_ENOMEM : hb_argv_push(out, hb_buf_str(&w));
		if (rc) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			goto done;
		}
	}
	if (!out->n)
		rc = hb_error_set(err, HB_EINVAL, "the hbase shell command is empty");
done:
	hb_buf_release(&w);
	if (rc)
		hb_argv_release(out);
	return rc;
}

int hb_shell_command_found(const char *name)
{
	const char *path, *p;
	struct hb_buf b = HB_BUF_INIT;
	int found = 0;

	if (!name || !*name)
		return 0;
	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	for (p = path; !found;) {
		size_t n = strcspn(p, ":");
		struct stat st;

		hb_buf_reset(&b);
		if (n)
			hb_buf_add(&b, p, n);
		else
			hb_buf_addc(&b, '.');
		hb_buf_addc(&b, '/');
		hb_buf_adds(&b, name);
		if (b.data && !stat(b.data, &st) && S_ISREG(st.st_mode) && !access(b.data, X_OK))
			found = 1;
		if (!p[n])
			break;
		p += n + 1;
	}
	hb_buf_release(&b);
	return found;
}

int hb_shell_write_temp(char *tmpl, size_t suffix_len, const void *data, size_t len,
                        struct hb_error *err)
{
	const char *p = data;
	int fd, cerr;

	/* Created and registered with the signals blocked: an interrupt removes the file. */
	hb_interrupt_block(1);
	fd = mkstemps(tmpl, (int)suffix_len);
	cerr = errno;
	if (fd >= 0 && hb_interrupt_add_file(tmpl)) {
		close(fd);
		unlink(tmpl);
		hb_interrupt_block(0);
		return hb_error_set(err, HB_EINVAL,
		                    "cannot create a temporary file '%s': path too "
		                    "long or too many temporary files",
		                    tmpl);
	}
	hb_interrupt_block(0);
	if (fd < 0)
		return hb_error_set(err, HB_EINVAL, "cannot create a temporary file '%s': %s", tmpl,
		                    strerror(cerr));
	if (fchmod(fd, 0600))
		goto fail;
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail;
		p += w;
		len -= (size_t)w;
	}
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	return 0;
fail : {
	int e = errno;

	if (fd >= 0)
		close(fd);
	hb_shell_remove_temp(tmpl);
	return hb_error_set(err, HB_EINVAL, "cannot write '%s': %s", tmpl, strerror(e));
}
}

void hb_shell_remove_temp(const char *path)
{
	unlink(path);
	hb_interrupt_remove_file(path);
}

void hb_shell_result_init(struct hb_shell_result *r)
{
	memset(r, 0, sizeof(*r));
	hb_buf_init(&r->out, 0);
	hb_buf_init(&r->err, 0);
}

void hb_shell_result_release(struct hb_shell_result *r)
{
	hb_buf_release(&r->out);
	hb_buf_release(&r->err);
	hb_shell_result_init(r);
}

static void keep(struct hb_shell_result *r, struct hb_buf *b, const char *p, size_t n)
{
	size_t room = b->len < HB_SHELL_MAX_OUTPUT ? HB_SHELL_MAX_OUTPUT - b->len : 0;
	size_t k = n < room ? n : room;

	if (k && hb_buf_add(b, p, k))
		k = 0;
	r->dropped += n - k;
}

/* A child being run: the read ends of its stdout and stderr pipes (-1 once closed), its
 * state and its timers. */
struct child {
	pid_t pid;
	int fd[2];
	int open_fds, reaped, term_sent, st;
	double deadline, kill_at;
};

static void close_fds(int *fds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

/* Starts argv in its own session and process group with stdin from /dev/null and stdout and
 * stderr into new pipes, registered with core/interrupt.h. HB_EINVAL when it cannot be
 * started. */
static int spawn(struct child *ch, const struct hb_argv *argv, struct hb_error *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int p[4] = {-1, -1, -1, -1}, e; /* stdout read, write; stderr read, write */
	sigset_t none;

	if (pipe(p) || pipe(p + 2)) {
		e = errno;
		close_fds(p, 4);
		return hb_error_set(err, HB_EINVAL, "cannot create a pipe: %s", strerror(e));
	}
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[2], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[3], 2);
	posix_spawn_file_actions_addclose(&fa, p[1]);
	posix_spawn_file_actions_addclose(&fa, p[3]);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&at, &none);
#ifdef POSIX_SPAWN_SETSID
	/* A session of its own: no controlling terminal. A shell whose JRuby believes it writes
	 * to a terminal lets jline run stty on /dev/tty; from a background process group of
	 * hbtab's terminal that stops on SIGTTOU and the step hangs (seen from 2.4.17 without
	 * JRuby's native support). Without a terminal jline gives up at once. Its process group
	 * is its own as well (the session leader's). */
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
#else
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
#endif
	/* Started and registered with the signals blocked: an interrupt kills its group. */
	hb_interrupt_block(1);
	e = posix_spawnp(&ch->pid, argv->v[0], &fa, &at, argv->v, environ);
	if (!e)
		hb_interrupt_add_group(ch->pid);
	hb_interrupt_block(0);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	ch->fd[0] = p[0];
	ch->fd[1] = p[2];
	close(p[1]);
	close(p[3]);
	if (e)
		return hb_error_set(err, HB_EINVAL, "cannot run '%s': %s", argv->v[0], strerror(e));
	return 0;
}

/* At the deadline SIGTERM to the group, SIGKILL 3 s later; reaps the child once it ended. */
static void child_timers(struct child *ch, struct hb_shell_result *res, double t)
{
	if (!ch->term_sent && t >= ch->deadline) {
		kill(-ch->pid, SIGTERM);
		ch->term_sent = 1;
		res->timed_out = 1;
		ch->kill_at = t + 3;
	} else if (ch->term_sent && ch->kill_at && t >= ch->kill_at) {
		kill(-ch->pid, SIGKILL);
		ch->kill_at = 0;
	}
	if (!ch->reaped && waitpid(ch->pid, &ch->st, WNOHANG) == ch->pid) {
		ch->reaped = 1;
		/* Orphaned children may keep the pipes open: end them too. */
		kill(-ch->pid, SIGTERM);
	}
}

/* Keeps what the open pipes have to read, waiting at most until the next timer is due (t is
 * now). -1 when poll failed. */
static int child_read(struct child *ch, struct hb_shell_result *res, double t)
{
	struct pollfd pf[2];
	nfds_t np = 0;
	double wait_s;
	int ms, i;

	for (i = 0; i < 2; i++)
		if (ch->fd[i] >= 0) {
			pf[np].fd = ch->fd[i];
			pf[np++].events = POLLIN;
		}
	if (!np) {
		if (!ch->reaped)
			hb_sleep(0.02);
		return 0;
	}
	wait_s = (ch->term_sent ? (ch->kill_at ? ch->kill_at : t + 0.1) : ch->deadline) - t;
	if (!ch->reaped && wait_s > 0.1)
		wait_s = 0.1;
	if (ch->reaped && !ch->term_sent && wait_s > 0.5)
		wait_s = 0.5;
	ms = wait_s <= 0 ? 0 : (int)(wait_s * 1000) + 1;
	if (poll(pf, np, ms) < 0 && errno != EINTR)
		return -1;
	for (i = 0; i < (int)np; i++) {
		char buf[8192];
		int which = pf[i].fd == ch->fd[0] ? 0 : 1;
		ssize_t n;

		if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(pf[i].fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close_fds(&ch->fd[which], 1);
			ch->open_fds--;
			continue;
		}
		keep(res, which ? &res->err : &res->out, buf, (size_t)n);
	}
	return 0;
}

int hb_shell_run(const struct hb_argv *argv, double timeout, struct hb_shell_result *res,
                 struct hb_error *err)
{
	struct child ch = {-1, {-1, -1}, 2, 0, 0, 0, 0, 0};
	double start = hb_now();
	int rc;

	if (!argv->n)
		return hb_error_set(err, HB_EINVAL, "the hbase shell command is empty");
	ch.deadline = start + (timeout > 0 ? timeout : 1e9);
	rc = spawn(&ch, argv, err);
	while (!rc && (ch.open_fds > 0 || !ch.reaped)) {
		double t = hb_now();

		hb_activity_tick();
		child_timers(&ch, res, t);
		if (child_read(&ch, res, t) < 0)
			break;
		if (ch.reaped && ch.open_fds > 0 && hb_now() > ch.deadline + 5)
			break;
	}
	if (!rc) {
		hb_interrupt_remove_group(ch.pid);
		if (WIFEXITED(ch.st)) {
			res->exited = 1;
			res->status = WEXITSTATUS(ch.st);
		} else if (WIFSIGNALED(ch.st)) {
			res->signal = WTERMSIG(ch.st);
		}
		res->seconds = hb_now() - start;
	}
	close_fds(ch.fd, 2);
	return rc;
}

static void copy_line(char *out, size_t cap, const char *p, size_t n)
{
	size_t i;

	if (!cap)
		return;
	if (n >= cap)
		n = cap - 1;
	for (i = 0; i < n; i++)
		out[i] = ((unsigned char)p[i] < 0x20 || p[i] == 0x7f) ? '?' : p[i];
	out[n] = 0;
}

static int contains(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; i + k <= n; i++)
		if (!memcmp(s + i, needle, k))
			return 1;
	return 0;
}

/* "ERROR <ExceptionClass>: <message>" (Shell.exception_handler, HBase 2.4.0+), the class a
 * Ruby constant path for a Java exception ("Java::OrgApacheHadoopHbase::TableExistsException"):
 * the index of the colon after the class, or 0. */
static size_t modern_error(const char *s, size_t m)
{
	size_t i;

	if (m < 8 || memcmp(s, "ERROR ", 6))
		return 0;
	for (i = 6; i < m && s[i] != ' '; i++) {
		if (s[i] != ':')
			continue;
		if (i + 1 < m && s[i + 1] == ':') {
			i++; /* a "::" of the constant path */
			continue;
		}
		return i > 6 && (i + 1 == m || s[i + 1] == ' ') ? i : 0;
	}
	return 0;
}

void hb_shell_error_parts(const char *line, const char **cls, size_t *cls_len, const char **msg)
{
	size_t n = strlen(line), colon;

	*cls = NULL;
	*cls_len = 0;
	*msg = line;
	if (n >= 6 && !memcmp(line, "ERROR:", 6)) {
		*msg = line + 6;
	} else if ((colon = modern_error(line, n)) != 0) {
		*cls = line + 6;
		*cls_len = colon - 6;
		*msg = line + colon + 1;
	}
	while (**msg == ' ')
		(*msg)++;
}

/* The shell prints a command's "Took N seconds" without ending the line when it runs a
 * script, so the error of that command follows on the same line ("Took 0.5186 secondsERROR
 * RuntimeError: Table already exists: t!", seen from HBase's 2.4.17 shell); when the shell
 * believes it writes to a terminal, the time is padded with blanks to the terminal's width
 * first (its formatter's output_str; seen from 2.4.17 when JRuby's native support is off):
 * skip both. */
static void skip_took(const char **s, size_t *m)
{
	const char *p = *s, *end = *s + *m;

	if (*m < 13 || memcmp(p, "Took ", 5))
		return;
	for (p += 5; p < end && ((*p >= '0' && *p <= '9') || *p == '.'); p++)
		;
	if ((size_t)(end - p) < 8 || memcmp(p, " seconds", 8))
		return;
	for (p += 8; p < end && *p == ' '; p++)
		;
	*m = (size_t)(end - p);
	*s = p;
}

/* A line of JRuby's own report of an exception nothing rescued: "  METHOD at FILE:LINE"
 * (blanks before it; org.jruby.runtime.backtrace.TraceType, Format.JRUBY). */
static int jruby_frame(const char *s, size_t m)
{
	const char *end = s + m, *at, *colon;

	if (!m || *s != ' ')
		return 0;
	while (s < end && *s == ' ')
		s++;
	for (at = s; at + 4 <= end && memcmp(at, " at ", 4); at++)
		;
	if (at == s || at + 4 > end)
		return 0;
	for (colon = end; colon > at + 4 && colon[-1] >= '0' && colon[-1] <= '9'; colon--)
		;
	return colon < end && colon > at + 4 && colon[-1] == ':';
}

/* "Class: message" as JRuby reports an exception nothing rescued (the class a Ruby constant
 * path: "RuntimeError", "Java::OrgApacheHadoopHbase::TableExistsException"). */
static int jruby_type_line(const char *s, size_t m)
{
	size_t i = 0;

	for (;;) {
		if (i >= m || s[i] < 'A' || s[i] > 'Z')
			return 0;
		while (i < m && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		                 (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			i++;
		if (i + 1 < m && s[i] == ':' && s[i + 1] == ':') {
			i += 2;
			continue;
		}
		return i + 1 < m && s[i] == ':' && s[i + 1] == ' ';
	}
}

/* One line of [p, end): its start and length without the line end (*next: the line after). */
static void line_at(const char *p, const char *end, const char **s, size_t *m, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

	*s = p;
	*m = n;
	if (n && p[n - 1] == '\r')
		(*m)--;
	*next = nl ? nl + 1 : end;
}

/* Whether the "Class: message" line ending before p heads JRuby's report: the message's own
 * further lines (a Java exception's remote trace, "\tat ...") and then a frame line. */
static int jruby_report_follows(const char *p, const char *end)
{
	while (p < end) {
		const char *s, *next;
		size_t m;

		line_at(p, end, &s, &m, &next);
		if (jruby_frame(s, m))
			return 1;
		if (!m || *s != '\t')
			return 0;
		p = next;
	}
	return 0;
}

/* Lines that tell nothing about a failure: the JVM's, log4j's and the terminal probe's
 * chatter, the shell's own "java exception" note, stack frames, empty prompts, times. */
static int noise(const char *s, size_t m)
{
	static const char *const starts[] = {"stty: ",
	                                     "log4j:",
	                                     "SLF4J:",
	                                     "Picked up JAVA_TOOL_OPTIONS",
	                                     "Picked up _JAVA_OPTIONS",
	                                     "NOTE: Picked up JDK_JAVA_OPTIONS",
	                                     "\tat ",
	                                     "\t... "};
	size_t i, k;

	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		k = strlen(starts[i]);
		if (m >= k && !memcmp(s, starts[i], k))
			return 1;
	}
	if ((m == 14 && !memcmp(s, "java exception", 14)) || jruby_frame(s, m))
		return 1;
	while (m && s[m - 1] == ' ')
		m--;
	if (m > 6 && !memcmp(s, "hbase:", 6) && s[m - 1] == '>') /* "hbase:004:0>" */
		return 1;
	skip_took(&s, &m);
	return !m || (m >= 13 && !memcmp(s, "Took ", 5) && contains(s, m, " seconds"));
}

static int find_error(const struct hb_buf *b, char *out, size_t cap)
{
	const char *p = hb_buf_str(b), *end = p + b->len;

	while (p < end) {
		const char *s, *next;
		size_t m;

		line_at(p, end, &s, &m, &next);
		while (m && (*s == ' ' || *s == '\t')) {
			s++;
			m--;
		}
		skip_took(&s, &m);
		if ((m >= 6 && !memcmp(s, "ERROR:", 6)) || modern_error(s, m) ||
		    (m >= 10 && contains(s, m, "Exception:")) ||
		    (s == p && jruby_type_line(s, m) && jruby_report_follows(next, end))) {
			copy_line(out, cap, s, m);
			return 1;
		}
		p = next;
	}
	return 0;
}

int hb_shell_error_line(const struct hb_shell_result *r, char *out, size_t cap)
{
	return find_error(&r->err, out, cap) || find_error(&r->out, out, cap);
}

static int last_line(const struct hb_buf *b, char *out, size_t cap)
{
	const char *p = hb_buf_str(b), *end = p + b->len, *found = NULL;
	size_t found_len = 0;

	while (p < end) {
		const char *s, *next;
		size_t m;

		line_at(p, end, &s, &m, &next);
		while (m && s[m - 1] == ' ')
			m--;
		if (!noise(s, m)) {
			found = s;
			found_len = m;
		}
		p = next;
	}
	if (!found)
		return 0;
	copy_line(out, cap, found, found_len);
	return 1;
}

int hb_shell_last_line(const struct hb_shell_result *r, char *out, size_t cap)
{
	return last_line(&r->err, out, cap) || last_line(&r->out, out, cap);
}

int hb_shell_run_script(const char *command, const char *name, const void *script, size_t len,
                        double timeout, struct hb_shell_result *res, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_argv av = {NULL, 0};
	int rc, have_file = 0;

	rc = hb_argv_split(&av, command, err);
	if (rc)
		goto done;
	if (hb_buf_addf(&path, "%s/hbtab-%s-XXXXXX.rb", hb_temp_dir(), name)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	rc = hb_shell_write_temp(path.data, 3, script, len, err);
	if (rc)
		goto done;
	have_file = 1;
	if (hb_argv_push(&av, path.data)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	rc = hb_shell_run(&av, timeout, res, err);
done:
	if (have_file)
		hb_shell_remove_temp(path.data);
	hb_argv_release(&av);
	hb_buf_release(&path);
	return rc;
}

enum hb_shell_end hb_shell_judge(const struct hb_shell_result *res, const char *what,
                                 double timeout, struct hb_error *err)
{
	const char *how = res->exited ? "exit" : "signal";
	int code = res->exited ? res->status : res->signal;
	char line[512];

	if (hb_shell_error_line(res, line, sizeof(line))) {
		const char *cls, *msg;
		size_t cls_len;
		char denied[400];

		hb_shell_error_parts(line, &cls, &cls_len, &msg);
		/* HBase's AccessController refused a permission: said plainly, as over REST */
		if (hb_error_denied(denied, sizeof(denied), msg))
			hb_error_set(err, HB_ESERVER, "shell %s failed: %s", what, denied);
		else if (cls)
			hb_error_set(err, HB_ESERVER, "shell %s failed (%.*s, %s %d): %s", what,
			             (int)cls_len, cls, how, code, msg);
		else
			hb_error_set(err, HB_ESERVER, "shell %s failed (%s %d): %s", what, how,
			             code, msg);
		return HB_SHELL_ERROR;
	}
	if (res->timed_out) {
		hb_error_set(
		    err, HB_ENET,
		    "shell %s timed out after %.0f s and was killed (some hbase shells hang "
		    "after the script ends)",
		    what, timeout);
		return HB_SHELL_TIMED_OUT;
	}
	if (!res->exited || res->status) {
		if (!hb_shell_last_line(res, line, sizeof(line)))
			memcpy(line, "(no output)", 12);
		hb_error_set(err, HB_ESERVER, "shell %s failed (%s %d): %s", what, how, code, line);
		return HB_SHELL_FAILED;
	}
	return HB_SHELL_CLEAN;
}
