/* Option-table driven parsing, --help, completion listing and the small output helpers. */
#include "cli.h"
#include "config.h"
#include "../core/key.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct cli_global cli_g;
int cli_complete_mode;

static const struct cli_option global_opts[] = {
	CLI_GROUP("Global options"),
	CLI_STRING(0, "rest", &cli_g.rest_url, "URL", "REST gateway (default http://localhost:8080)"),
	CLI_STRING(0, "thrift", &cli_g.thrift_url, "URL", "Thrift2 server in HTTP mode"),
	CLI_STRING(0, "profile", &cli_g.profile, "NAME", "configuration profile"),
	CLI_CHOICE('o', "output", &cli_g.output_str, "FORMAT", "text or json", "text json"),
	CLI_STRING(0, "timeout", &cli_g.timeout_str, "SEC", "per-request timeout in seconds"),
	CLI_STRING(0, "retries", &cli_g.retries_str, "N", "retries for idempotent requests"),
	CLI_STRING(0, "cacert", &cli_g.cacert, "FILE", "CA certificates to verify the server"),
	CLI_STRING(0, "cert", &cli_g.cert, "FILE", "client certificate"),
	CLI_STRING(0, "key", &cli_g.key, "FILE", "client private key"),
	CLI_FLAG(0, "insecure", &cli_g.insecure, "do not verify TLS certificates"),
	CLI_STRING(0, "user", &cli_g.user, "NAME", "basic-auth user (password from HBTAB_PASSWORD or ~/.netrc)"),
	CLI_FLAG(0, "negotiate", &cli_g.negotiate, "Kerberos SPNEGO authentication"),
	CLI_STRING(0, "hbase-shell", &cli_g.hbase_shell, "CMD", "hbase shell command (default 'hbase shell -n')"),
	CLI_FLAG('q', "quiet", &cli_g.quiet, "print findings and errors only"),
	CLI_FLAG('v', "verbose", &cli_g.verbose, "trace requests on stderr"),
	CLI_FLAG(0, "no-progress", &cli_g.no_progress, "no progress indicator"),
	CLI_CHOICE(0, "color", &cli_g.color_str, "WHEN", "auto, always or never", "auto always never"),
	CLI_FLAG('h', "help", &cli_g.help, "show this help"),
	CLI_FLAG('V', "version", &cli_g.version, "print the version"),
	CLI_END,
};

void cli_strlist_release(struct cli_strlist *l)
{
	free(l->items);
	l->items = NULL;
	l->n = l->cap = 0;
}

static int strlist_push(struct cli_strlist *l, const char *s)
{
	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 8;
		const char **p = realloc(l->items, ncap * sizeof(*p));

		if (!p)
			return HB_ENOMEM;
		l->items = p;
		l->cap = ncap;
	}
	l->items[l->n++] = s;
	return 0;
}

/*
 * Writes one diagnostic to stderr. Messages quote names, paths and server text, so control
 * bytes (ESC could drive the terminal), DEL and bytes that are not UTF-8 are shown as \xHH;
 * newlines and tabs are kept for multi-line reports.
 */
static void emit(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void emit(const char *prefix, const char *fmt, va_list ap)
{
	struct hb_buf b = HB_BUF_INIT;
	size_t i;

	fflush(stdout);
	fputs(prefix, stderr);
	if (hb_buf_vaddf(&b, fmt, ap)) {
		fputs("(message too long)\n", stderr);
		hb_buf_release(&b);
		return;
	}
	for (i = 0; i < b.len;) {
		unsigned char c = (unsigned char)b.data[i];
		size_t l = hb_utf8_len(b.data + i, b.len - i);

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F || !l) {
			fprintf(stderr, "\\x%02X", c);
			i++;
		} else {
			fwrite(b.data + i, 1, l, stderr);
			i += l;
		}
	}
	fputc('\n', stderr);
	hb_buf_release(&b);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit("hbtab: ", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	if (cli_g.quiet)
		return;
	va_start(ap, fmt);
	emit("hbtab: warning: ", fmt, ap);
	va_end(ap);
}

void cli_verbose(const char *fmt, ...)
{
	va_list ap;

	if (!cli_g.verbose)
		return;
	va_start(ap, fmt);
	emit("hbtab: ", fmt, ap);
	va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit("hbtab: ", fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "hbtab: see 'hbtab %s --help'\n", cmd);
	else
		fputs("hbtab: see 'hbtab --help'\n", stderr);
	return HB_EINVAL;
}

int cli_fail(const struct hb_error *err)
{
	cli_error("%s", err->msg[0] ? err->msg : "failed");
	return hb_exit_status(err->code ? err->code : HB_ESERVER);
}

int cli_exit(int rc)
{
	return hb_exit_status(rc);
}

int cli_parse_long(const char *s, long min, long max, const char *what, long *out,
		   struct hb_error *err)
{
	char *end;
	long v;

	if (!s || !*s)
		return hb_error_set(err, HB_EINVAL, "%s must be a number, got ''", what);
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || end == s || ((*s < '0' || *s > '9') && *s != '-'))
		return hb_error_set(err, HB_EINVAL, "%s must be a whole number, got '%s'", what, s);
	if (errno == ERANGE || v < min || v > max)
		return hb_error_set(err, HB_EINVAL, "%s must be between %ld and %ld, got '%s'", what,
				    min, max, s);
	*out = v;
	return 0;
}

int cli_stdout_failed;

int cli_write_stdout(const void *p, size_t n)
{
	if (cli_stdout_failed)
		return HB_EINVAL;
	if (n && fwrite(p, 1, n, stdout) != n) {
		cli_error("cannot write to standard output: %s", strerror(errno));
		cli_stdout_failed = 1;
		return HB_EINVAL;
	}
	return 0;
}

int cli_finish_stdout(int status)
{
	if (cli_stdout_failed)
		return status ? status : 2;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("cannot write to standard output: %s", strerror(errno ? errno : EIO));
		cli_stdout_failed = 1;
		return status ? status : 2;
	}
	return status;
}

/* Both tables, in order: the command's own, then the global one. */
static const struct cli_option *const *tables(const struct cli_option *opts)
{
	static const struct cli_option *t[3];

	t[0] = opts;
	t[1] = global_opts;
	t[2] = NULL;
	return t;
}

static const struct cli_option *find_long(const struct cli_option *opts, const char *name,
					  size_t len)
{
	const struct cli_option *const *t;
	const struct cli_option *o;

	for (t = tables(opts); *t; t++)
		for (o = *t; o->type != CLI_OPT_END; o++)
			if (o->long_name && strlen(o->long_name) == len &&
			    !strncmp(o->long_name, name, len))
				return o;
	return NULL;
}

static const struct cli_option *find_short(const struct cli_option *opts, char c)
{
	const struct cli_option *const *t;
	const struct cli_option *o;

	for (t = tables(opts); *t; t++)
		for (o = *t; o->type != CLI_OPT_END; o++)
			if (o->short_name == c)
				return o;
	return NULL;
}

static void print_usage_lines(FILE *f, const char *usage)
{
	const char *p = usage;
	int first = 1;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		fprintf(f, "%s hbtab %.*s\n", first ? "usage:" : "   or:", (int)len, p);
		first = 0;
		p += len + (nl ? 1 : 0);
	}
}

static void print_help(const struct cli_option *opts, const char *usage)
{
	const struct cli_option *const *t;
	const struct cli_option *o;

	print_usage_lines(stdout, usage);
	for (t = tables(opts); *t; t++) {
		for (o = *t; o->type != CLI_OPT_END; o++) {
			char lhs[96];

			if (o->flags & CLI_OPT_HIDDEN)
				continue;
			if (o->type == CLI_OPT_GROUP) {
				printf("\n%s\n", o->help);
				continue;
			}
			if (o->short_name && o->long_name)
				snprintf(lhs, sizeof(lhs), "-%c, --%s", o->short_name, o->long_name);
			else if (o->long_name)
				snprintf(lhs, sizeof(lhs), "    --%s", o->long_name);
			else
				snprintf(lhs, sizeof(lhs), "-%c", o->short_name);
			if (o->argname) {
				size_t l = strlen(lhs);

				snprintf(lhs + l, sizeof(lhs) - l, " %s", o->argname);
			}
			if (strlen(lhs) > 26)
				printf("    %s\n%30s%s\n", lhs, "", o->help);
			else
				printf("    %-26s%s\n", lhs, o->help);
		}
	}
}

/* Completion listing: one option per line: "--name", its argument name (empty for a flag), its
 * choices, and its short form ("-o") or nothing, separated by tabs. */
static void print_completion(const struct cli_option *opts)
{
	const struct cli_option *const *t;
	const struct cli_option *o;

	for (t = tables(opts); *t; t++)
		for (o = *t; o->type != CLI_OPT_END; o++) {
			if (!o->long_name || (o->flags & CLI_OPT_HIDDEN))
				continue;
			printf("--%s\t%s\t%s\t", o->long_name,
			       o->type == CLI_OPT_FLAG ? "" : (o->argname ? o->argname : "ARG"),
			       o->choices ? o->choices : "");
			if (o->short_name)
				printf("-%c", o->short_name);
			putchar('\n');
		}
}

static int set_value(const char *cmd, const struct cli_option *o, const char *val)
{
	switch (o->type) {
	case CLI_OPT_FLAG:
		*(int *)o->value = 1;
		return 0;
	case CLI_OPT_STRING:
		if (o->choices) {
			const char *p = o->choices;
			size_t vl = strlen(val);
			int ok = 0;

			while (*p) {
				const char *sp = strchr(p, ' ');
				size_t l = sp ? (size_t)(sp - p) : strlen(p);

				if (l == vl && !strncmp(p, val, l))
					ok = 1;
				p += l + (sp ? 1 : 0);
			}
			if (!ok)
				return cli_usage_error(cmd, "invalid value '%s' for --%s (expected %s)", val,
						       o->long_name, o->choices);
		}
		*(const char **)o->value = val;
		return 0;
	case CLI_OPT_LIST:
		if (strlist_push(o->value, val))
			return cli_usage_error(cmd, "out of memory");
		return 0;
	default:
		HB_BUG("option without a value type");
	}
}

/* The option loop. With leading set, stops at the first positional argument and returns its
 * index; otherwise compacts positionals into argv[1..] and returns their count + 1. */
static int parse_loop(int argc, char **argv, const struct cli_option *opts, int leading)
{
	const char *cmd = leading ? NULL : argv[0];
	int i, out = 1, only_args = 0;

	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		const struct cli_option *o;

		if (only_args || a[0] != '-' || !a[1]) {
			if (leading)
				return i;
			argv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			if (leading)
				return i + 1;
			only_args = 1;
			continue;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);

			o = find_long(opts, name, len);
			if (!o || o->type == CLI_OPT_GROUP)
				return cli_usage_error(cmd, "unknown option '--%.*s'", (int)len, name);
			if (o->type == CLI_OPT_FLAG) {
				if (eq)
					return cli_usage_error(cmd, "option '--%s' takes no value",
							       o->long_name);
				set_value(cmd, o, NULL);
			} else if (eq) {
				if (set_value(cmd, o, eq + 1))
					return HB_EINVAL;
			} else {
				if (i + 1 >= argc)
					return cli_usage_error(cmd, "option '--%s' needs a value (%s)",
							       o->long_name, o->argname);
				if (set_value(cmd, o, argv[++i]))
					return HB_EINVAL;
			}
			continue;
		}
		/* Short options, possibly bundled: -qv, -ojson, -o json. */
		for (const char *p = a + 1; *p; p++) {
			o = find_short(opts, *p);
			if (!o)
				return cli_usage_error(cmd, "unknown option '-%c'", *p);
			if (o->type == CLI_OPT_FLAG) {
				set_value(cmd, o, NULL);
				continue;
			}
			if (p[1]) {
				if (set_value(cmd, o, p + 1))
					return HB_EINVAL;
			} else {
				if (i + 1 >= argc)
					return cli_usage_error(cmd, "option '-%c' needs a value (%s)", *p,
							       o->argname);
				if (set_value(cmd, o, argv[++i]))
					return HB_EINVAL;
			}
			break;
		}
	}
	if (leading)
		return argc;
	argv[out] = NULL;
	return out;
}

int cli_parse_leading_globals(int argc, char **argv)
{
	static const struct cli_option none[] = {CLI_END};

	return parse_loop(argc, argv, none, 1);
}

int cli_parse(int argc, char **argv, const struct cli_option *opts, const char *usage)
{
	const char *cmd = argv[0];
	int out;

	if (cli_complete_mode) {
		print_completion(opts);
		return CLI_PARSE_EXIT;
	}
	out = parse_loop(argc, argv, opts, 0);
	if (out < 0)
		return out;
	if (cli_g.help) {
		print_help(opts, usage);
		return CLI_PARSE_EXIT;
	}
	if (cli_config_resolve(cmd))
		return HB_EINVAL;
	return out;
}

/* Exposed for "hbtab --help" and "hbtab help". */
void cli_print_global_help(void)
{
	static const struct cli_option none[] = {CLI_END};

	print_help(none, "[GLOBAL OPTIONS] COMMAND [ARGS]");
}
