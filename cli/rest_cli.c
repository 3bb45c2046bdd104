/* The REST client as the commands see it: settings from cli_g, traces, progress, table names. */
#include "rest_cli.h"
#include "../core/tname.h"
#include "../rest/hbase.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int progress_drawn;
static double progress_last;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int progress_enabled(void)
{
	return !cli_g.no_progress && !cli_g.quiet && !cli_g.verbose && isatty(STDERR_FILENO);
}

void cli_progress(const char *label, size_t done, size_t total)
{
	double t;

	if (!progress_enabled())
		return;
	t = now_s();
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

int cli_rest_open(struct hb_rest **out, struct hb_error *err)
{
	struct hb_rest_opts o;
	const char *pw = getenv("HBTAB_PASSWORD");
	int rc;

	memset(&o, 0, sizeof(o));
	o.base_url = cli_g.rest_url;
	o.timeout = cli_g.timeout;
	o.retries = cli_g.retries;
	o.cacert = cli_g.cacert;
	o.cert = cli_g.cert;
	o.key = cli_g.key;
	o.insecure = cli_g.insecure;
	o.user = cli_g.user;
	o.negotiate = cli_g.negotiate;
	if (pw && *pw) {
		if (!cli_g.user)
			cli_warn(
			    "HBTAB_PASSWORD is set but --user is not; the password is not used");
		else
			o.password = pw;
	}
	if (cli_g.verbose) {
		o.trace = on_trace;
		o.trace_ctx = NULL;
	}
	rc = hb_rest_new(out, &o, err);
	if (rc)
		return rc;
	if (cli_g.user && o.password && !strncmp(cli_g.rest_url, "http://", 7))
		cli_warn("sending a basic-auth password over plain http to '%s'", cli_g.rest_url);
	hb_rest_set_progress(*out, on_progress, "reading");
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
		return 4;
	}
	if (rc == HB_ENOTFOUND && !meta) {
		cli_error("table '%s' not found", table);
		return 4;
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
	/* JAX-RS literal routes win over /{table} (hbase-wire.md §0). */
	if (!tn.has_ns &&
	    (!strcmp(name, "version") || !strcmp(name, "status") || !strcmp(name, "namespaces"))) {
		cli_error("table '%s' cannot be reached over REST (the name collides with a REST "
		          "resource); use 'default:%s'",
		          name, name);
		return HB_EINVAL;
	}
	return 0;
}
