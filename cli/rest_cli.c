/* The REST client as the commands see it: settings from cli_g, traces, progress, table names. */
#include "rest_cli.h"
#include "../core/clock.h"
#include "../core/tname.h"
#include "../rest/hbase.h"
#include "../rest/thrift2.h"
#include "cli.h"
#include "exit.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static int progress_drawn;
static double progress_last;

static int progress_enabled(void)
{
	return !cli_g.no_progress && !cli_g.quiet && !cli_g.verbose && isatty(STDERR_FILENO);
}

void cli_progress(const char *label, size_t done, size_t total)
{
	double t;

	if (!progress_enabled())
		return;
	t = hb_now();
	if (progress_drawn && t - progress_last < 0.1)
		return;
	progress_last = t;
	if (total)
		fprintf(stderr, "\r%s: %zu/%zu ", label ? label : "working", done, total);
	else
		fprintf(stderr, "\r%s: %zu ", label ? label : "working", done);
	fflush(stderr);
	progress_drawn = 1;
}

void cli_progress_done(void)
{
	if (progress_drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		progress_drawn = 0;
	}
}

static void on_progress(void *ctx, size_t done, size_t total)
{
	cli_progress(ctx, done, total);
}

static void on_trace(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "hbtab: %s\n", line);
}

/*
 * The settings every channel (REST, Thrift2) takes from the global options, with the same
 * names in hb_rest_opts and hb_thrift2_opts; the password only from HBTAB_PASSWORD (else
 * ~/.netrc via CURLOPT_NETRC) and only with --user.
 */
#define CONN_APPLY(o, timeout_s)                                                              \
	do {                                                                                 \
		(o)->timeout = (timeout_s);                                                  \
		(o)->retries = cli_g.retries;                                                \
		(o)->cacert = cli_g.cacert;                                                  \
		(o)->cert = cli_g.cert;                                                      \
		(o)->key = cli_g.key;                                                        \
		(o)->insecure = cli_g.insecure;                                              \
		(o)->user = cli_g.user;                                                      \
		(o)->password = conn_password();                                             \
		(o)->negotiate = cli_g.negotiate;                                            \
		(o)->trace = cli_g.verbose ? on_trace : NULL;                                \
		(o)->trace_ctx = NULL;                                                       \
	} while (0)

/* HBTAB_PASSWORD when --user is given; the warning about an unused one is printed once. */
static const char *conn_password(void)
{
	static int warned;
	const char *pw = getenv("HBTAB_PASSWORD");

	if (!pw || !*pw)
		return NULL;
	if (!cli_g.user) {
		if (!warned++)
			cli_warn("HBTAB_PASSWORD is set but --user is not; the password is not used");
		return NULL;
	}
	return pw;
}

/* A basic-auth password over plain http is readable on the wire: say so for every URL. */
static void warn_plain_password(const char *url)
{
	if (cli_g.user && conn_password() && url && !strncasecmp(url, "http://", 7))
		cli_warn("sending a basic-auth password over plain http to '%s'", url);
}

int cli_rest_open(struct hb_rest **out, struct hb_error *err)
{
	struct hb_rest_opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	o.base_url = cli_g.rest_url;
	CONN_APPLY(&o, cli_g.timeout);
	rc = hb_rest_new(out, &o, err);
	if (rc)
		return rc;
	warn_plain_password(cli_g.rest_url);
	hb_rest_set_progress(*out, on_progress, "reading");
	return 0;
}

int cli_thrift2_open(struct hb_thrift2 **out, double timeout, struct hb_error *err)
{
	struct hb_thrift2_opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	o.url = cli_g.thrift_url;
	CONN_APPLY(&o, timeout);
	rc = hb_thrift2_new(out, &o, err);
	if (rc)
		return rc;
	warn_plain_password(cli_g.thrift_url);
	return 0;
}

int cli_rest_regions(struct hb_rest *c, const char *table, int meta, struct hb_regions *rs,
                     int *state, struct hb_error *err)
{
	/* Meta rows name default-namespace tables without "default:". */
	const char *meta_name = strncmp(table, "default:", 8) ? table : table + 8;
	int rc = meta ? hb_rest_meta_regions(c, meta_name, rs, state, err)
	              : hb_rest_get_regions(c, table, rs, err);

	cli_progress_done();
	if (!rc && meta && !rs->n && *state < 0) {
		cli_error("table '%s' not found in hbase:meta", table);
		return CLI_EXIT_SERVER;
	}
	if (rc == HB_ENOTFOUND && !meta) {
		cli_error("table '%s' not found", table);
		return CLI_EXIT_SERVER;
	}
	return rc;
}

int cli_check_table(const char *cmd, const char *name)
{
	struct hb_error err = {0};
	struct hb_tname tn;

	(void)cmd;
	if (hb_tname_parse(&tn, name, &err)) {
		cli_error("%s", err.msg);
		return HB_EINVAL;
	}
	/* JAX-RS literal routes win over /{table} (docs/hbase-wire.md §0). */
	if (!tn.has_ns &&
	    (!strcmp(name, "version") || !strcmp(name, "status") || !strcmp(name, "namespaces"))) {
		cli_error("table '%s' cannot be reached over REST (the name collides with a REST "
		          "resource); use 'default:%s'",
		          name, name);
		return HB_EINVAL;
	}
	return 0;
}
