/* A run ended by a signal or by --deadline reports itself as a failed run (made beforehand,
 * written by the handler with async-signal-safe calls only). */
#include "exitreport.h"

#include "cli.h"
#include "exit.h"

#include "core/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The -o json error objects, per signal (SIGPIPE has none: standard output is gone). */
#define JSON_INT  "{\"error\": \"interrupted (SIGINT)\", \"exit\": 130}\n"
#define JSON_TERM "{\"error\": \"terminated (SIGTERM)\", \"exit\": 143}\n"
static char json_deadline[320];

/* The reports per signal, split around the run's time (the handler writes the digits); the
 * path and the temporary name beside it. */
enum { REP_INT, REP_TERM, REP_PIPE, REP_ALRM, REP_N };
static struct {
	char *head[REP_N], *tail[REP_N];
	char *path, *tmp;
	int to_stdout; /* --format prometheus: standard output gets it too */
} rep;
static volatile sig_atomic_t rep_armed;

static void put(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static int index_of(int sig)
{
	return sig == SIGINT    ? REP_INT
	       : sig == SIGPIPE ? REP_PIPE
	       : sig == SIGALRM ? REP_ALRM
	                        : REP_TERM;
}

/* The report of sig with the time now, on fd. */
static void put_report(int fd, int sig)
{
	struct timespec ts;
	char digits[24];
	size_t i = sizeof(digits);
	unsigned long long v;
	int k = index_of(sig);

	clock_gettime(CLOCK_REALTIME, &ts);
	v = ts.tv_sec > 0 ? (unsigned long long)ts.tv_sec : 0;
	do
		digits[--i] = (char)('0' + v % 10);
	while ((v /= 10) && i);
	put(fd, rep.head[k], strlen(rep.head[k]));
	put(fd, digits + i, sizeof(digits) - i);
	put(fd, rep.tail[k], strlen(rep.tail[k]));
}

void cli_exit_report_write(int sig)
{
	const char *j = sig == SIGINT    ? JSON_INT
	                : sig == SIGTERM ? JSON_TERM
	                : sig == SIGALRM ? json_deadline
	                                 : "";
	int fd;

	if (*j && cli_g.output == CLI_OUT_JSON && !cli_stdout_used && !cli_stdout_failed)
		put(1, j, strlen(j));
	if (!rep_armed)
		return;
	rep_armed = 0;
	if (rep.to_stdout && !cli_stdout_used && !cli_stdout_failed)
		put_report(1, sig);
	if (!rep.path)
		return;
	/* as cli_prom_write_file: a file beside it, 0644, synced, renamed over it */
	unlink(rep.tmp);
	fd = open(rep.tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	if (fd < 0)
		return;
	put_report(fd, sig);
	if (fchmod(fd, 0644) || fsync(fd) || close(fd) || rename(rep.tmp, rep.path))
		unlink(rep.tmp);
}

void cli_exit_report_deadline(const char *msg)
{
	size_t n = strlen(msg);

	/* without "hbtab: " and the newline; the message is ASCII with nothing to escape */
	if (n > 8)
		snprintf(json_deadline, sizeof(json_deadline),
		         "{\"error\": \"%.*s\", \"exit\": %d}\n", (int)(n - 8), msg + 7,
		         CLI_EXIT_SERVER);
}

/* The report split at the run's time: "... timestamp_seconds{...} " | digits | "\n...". */
static int split_report(const char *text, char **head, char **tail)
{
	static const char sample[] = "\n" CLI_EXIT_REPORT_TIME_METRIC "{";
	const char *at = strstr(text, sample), *eol;

	if (!at || !(eol = strchr(at + 1, '\n')) || eol - at < 3 || memcmp(eol - 2, " 0", 2))
		return -1;
	*head = strndup(text, (size_t)(eol - 1 - text));
	*tail = strdup(eol);
	return *head && *tail ? 0 : -1;
}

int cli_exit_report_set(const char *path, int to_stdout, char *const text[4])
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	char *head[REP_N] = {0}, *tail[REP_N] = {0}, *p = NULL, *tmp = NULL;
	int i, rc = 0;

	cli_exit_report_clear();
	for (i = 0; !rc && i < REP_N; i++)
		rc = split_report(text[i], &head[i], &tail[i]);
	if (!rc && path) {
		size_t n = strlen(path) + 40;

		p = strdup(path);
		tmp = malloc(n);
		if (!p || !tmp)
			rc = -1;
		else /* dot-named, not *.prom: the textfile collector never reads it */
			snprintf(tmp, n, "%.*s.%s.sig%ld", slash ? (int)(slash + 1 - path) : 0,
			         path, slash ? slash + 1 : path, (long)getpid());
	}
	if (rc) {
		for (i = 0; i < REP_N; i++) {
			free(head[i]);
			free(tail[i]);
		}
		free(p);
		free(tmp);
		return -1;
	}
	hb_interrupt_block(1);
	for (i = 0; i < REP_N; i++) {
		rep.head[i] = head[i];
		rep.tail[i] = tail[i];
	}
	rep.path = p;
	rep.tmp = tmp;
	rep.to_stdout = to_stdout;
	rep_armed = 1;
	hb_interrupt_block(0);
	return 0;
}

void cli_exit_report_clear(void)
{
	int i;

	hb_interrupt_block(1);
	rep_armed = 0;
	hb_interrupt_block(0);
	for (i = 0; i < REP_N; i++) {
		free(rep.head[i]);
		free(rep.tail[i]);
	}
	free(rep.path);
	free(rep.tmp);
	memset(&rep, 0, sizeof(rep));
}
