/* Diagnostics on stderr, exit statuses, checked writes to stdout, and the global settings. */
#include "../core/key.h"
#include "../core/num.h"
#include "cli.h"
#include "exit.h"
#include "progress.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct cli_global cli_g;

/* The first error printed, for the JSON error object (main.c). */
static char first_error[HB_ERRMSG_MAX];

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

	cli_progress_done();
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

/* An error: the first one is kept (unescaped; JSON escapes it when printed), then printed. */
static void error_v(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static void error_v(const char *fmt, va_list ap)
{
	va_list copy;

	va_copy(copy, ap);
	if (!first_error[0])
		vsnprintf(first_error, sizeof(first_error), fmt, copy);
	va_end(copy);
	emit("hbtab: ", fmt, ap);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_v(fmt, ap);
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

void cli_warn_always(const char *fmt, ...)
{
	va_list ap;

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

static void usage_v(const char *cmd, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

static void usage_v(const char *cmd, const char *fmt, va_list ap)
{
	error_v(fmt, ap);
	/* error_v erased any progress line */
	if (cmd)
		fprintf(stderr, "hbtab: see 'hbtab %s --help'\n", cmd);
	else
		fputs("hbtab: see 'hbtab --help'\n", stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_v(cmd, fmt, ap);
	va_end(ap);
	return HB_EINVAL;
}

int cli_usage_exit(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_v(cmd, fmt, ap);
	va_end(ap);
	return CLI_EXIT_USAGE;
}

int cli_exit(int rc)
{
	switch (rc) {
	case HB_OK:
		return CLI_EXIT_OK;
	case HB_EFINDING:
		return CLI_EXIT_FINDINGS;
	case HB_EINVAL:
		return CLI_EXIT_USAGE;
	case HB_ENET:
		return CLI_EXIT_NETWORK;
	case HB_ESAFETY:
		return CLI_EXIT_REFUSED;
	default:
		return CLI_EXIT_SERVER;
	}
}

int cli_fail(const struct hb_error *err)
{
	cli_error("%s", err->msg[0] ? err->msg : "failed");
	return cli_exit(err->code ? err->code : HB_ESERVER);
}

int cli_status(int rc, struct hb_error *err, size_t findings)
{
	if (!rc)
		return findings ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
	if (rc == HB_ENOMEM && !err->msg[0])
		hb_error_set(err, HB_ENOMEM, "out of memory");
	return err->msg[0] ? cli_fail(err) : cli_exit(rc);
}

int cli_parse_long(const char *s, long min, long max, const char *what, long *out,
                   struct hb_error *err)
{
	return hb_parse_long(s, min, max, what, out, err);
}

int cli_parse_i64(const char *s, const char *what, int64_t *out, struct hb_error *err)
{
	return hb_parse_i64(s, what, out, err);
}

int cli_stdout_failed;
int cli_stdout_used;
int cli_stdout_closed;

/* EPIPE: the reader went away (| head); that is not worth a message, only the status. */
static void stdout_failed(int e)
{
	if (cli_stdout_closed)
		e = EBADF;
	if (!cli_stdout_failed && e != EPIPE)
		cli_error("cannot write to standard output: %s", strerror(e ? e : EIO));
	cli_stdout_failed = 1;
}

int cli_write_stdout(const void *p, size_t n)
{
	if (cli_stdout_failed)
		return HB_EINVAL;
	cli_progress_done();
	if (n && fwrite(p, 1, n, stdout) != n) {
		stdout_failed(errno);
		return HB_EINVAL;
	}
	if (n)
		cli_stdout_used = 1;
	return 0;
}

int cli_finish_stdout(int status)
{
	if (!cli_stdout_failed && (fflush(stdout) != 0 || ferror(stdout)))
		stdout_failed(errno);
	return cli_stdout_failed ? CLI_EXIT_OUTPUT : status;
}

const char *cli_first_error(void)
{
	return first_error;
}
