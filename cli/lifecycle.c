/* What enable, disable and truncate share on the command line: the options' values, the
 * checks, the channel's choice, the call into rest/lifecycle.c and the report. */
#include "lifecycle.h"

#include "../core/regioninfo.h"
#include "../rest/lifecycle.h"
#include "../rest/thrift2.h"
#include "create.h"
#include "ddl.h"
#include "exit.h"
#include "output.h"
#include "rest_cli.h"

#include <stdio.h>
#include <string.h>

struct cli_lc_opts cli_lc;

static enum hb_lc_verb verb_of(const struct cli_ctx *x)
{
	return !strcmp(x->cmd->name, "enable")    ? HB_LC_ENABLE
	       : !strcmp(x->cmd->name, "disable") ? HB_LC_DISABLE
	                                          : HB_LC_TRUNCATE;
}

int cli_lc_check(struct cli_ctx *x)
{
	enum hb_lc_verb verb = verb_of(x);
	double wait;

	if (cli_create_parse_wait(x->cmd->name, cli_lc.wait, &wait))
		return CLI_EXIT_USAGE;
	if (cli_lc.via && strcmp(cli_lc.via, "auto") && strcmp(cli_lc.via, "thrift2") &&
	    strcmp(cli_lc.via, "shell"))
		return cli_usage_exit(x->cmd->name,
		                      "invalid --via '%s' (expected auto, thrift2 or shell)",
		                      cli_lc.via);
	if (verb == HB_LC_DISABLE && !cli_lc.yes) {
		cli_error("refusing to disable table '%s' without --yes (its regions go offline: "
		          "every read and write fails until it is enabled again)",
		          x->table);
		return CLI_EXIT_REFUSED;
	}
	if (verb == HB_LC_TRUNCATE && !cli_lc.yes) {
		cli_error(
		    "refusing to truncate table '%s' without --yes (this deletes all its rows; "
		    "the split points are kept)",
		    x->table);
		return CLI_EXIT_REFUSED;
	}
	return CLI_EXIT_OK;
}

/* The channel: a Thrift2 server when one is configured (auto or thrift2), else the shell.
 * Under auto a Thrift2 server without the call hands over to the shell when it is found. */
static int pick(struct hb_lc_req *q, int *want_thrift)
{
	int thrift = cli_g.thrift_url && *cli_g.thrift_url, sh;

	*want_thrift = thrift;
	q->shell = cli_ddl_shell_command();
	if (cli_lc.via && !strcmp(cli_lc.via, "thrift2")) {
		if (!thrift) {
			cli_error("--via thrift2 needs the Thrift2 server's URL (--thrift URL, "
			          "HBTAB_THRIFT or the config file)");
			return CLI_EXIT_USAGE;
		}
		return CLI_EXIT_OK;
	}
	if (cli_lc.via && !strcmp(cli_lc.via, "shell")) {
		q->use_shell = 1;
		return CLI_EXIT_OK;
	}
	sh = cli_ddl_shell_available();
	if (sh < 0)
		return CLI_EXIT_USAGE;
	q->shell_fallback = sh;
	if (thrift)
		return CLI_EXIT_OK;
	if (sh) {
		q->use_shell = 1;
		return CLI_EXIT_OK;
	}
	cli_error("cannot %s table '%s': no Thrift2 server is configured (--thrift URL) and the "
	          "hbase shell command '%s' is not on PATH (--hbase-shell); the REST gateway has "
	          "no call for it",
	          hb_lc_verb_name(q->verb), q->table, q->shell);
	return CLI_EXIT_USAGE;
}

/* One word of a command line as a POSIX shell reads it back: bare when it holds only safe
 * characters, else in single quotes ('\'' for a quote inside). */
static int shell_word(struct hb_buf *b, const char *w)
{
	const char *p;
	int rc = 0;

	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	                    "_-.,:/=@%+") == strlen(w))
		return hb_buf_adds(b, w);
	rc = hb_buf_addc(b, '\'');
	for (p = w; !rc && *p; p++)
		rc = *p == '\'' ? hb_buf_adds(b, "'\\''") : hb_buf_addc(b, *p);
	return rc ? rc : hb_buf_addc(b, '\'');
}

/* The command line that runs this truncate again: this process's own (/proc/self/cmdline,
 * which the option parsing does not reorder) without --deadline, since a rerun needs the time
 * a truncate takes; where that cannot be read, the command's essentials. */
static void rerun_line(struct hb_buf *b, const char *table)
{
	char buf[16384];
	size_t n = 0, i;
	FILE *f = fopen("/proc/self/cmdline", "rb");
	int rc = 0, skip = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	if (n && n < sizeof(buf) - 1 && !buf[n - 1]) {
		for (i = 0; !rc && i < n; i += strlen(buf + i) + 1) {
			const char *w = buf + i;

			if (skip) {
				skip = 0;
				continue;
			}
			if (!strcmp(w, "--deadline")) {
				skip = 1;
				continue;
			}
			if (!strncmp(w, "--deadline=", 11))
				continue;
			rc = (b->len && hb_buf_addc(b, ' ')) || shell_word(b, w);
		}
		if (!rc)
			return;
	}
	hb_buf_reset(b);
	if (hb_buf_adds(b, "hbtab ") ||
	    (cli_g.rest_url &&
	     (hb_buf_adds(b, "--rest ") || shell_word(b, cli_g.rest_url) || hb_buf_addc(b, ' '))) ||
	    hb_buf_adds(b, "truncate ") || shell_word(b, table) || hb_buf_adds(b, " --yes"))
		hb_buf_reset(b);
}

static const char *state_word(int state)
{
	return state < 0 ? NULL : hb_tablestate_name(state);
}

static int report(const struct hb_lc_req *q, const struct hb_lc_result *r)
{
	static const char *const done[] = {"enabled", "disabled", "truncated"};
	int rc = 0, failed = 0;

	if (cli_g.output == CLI_OUT_JSON) {
		cJSON *root = cJSON_CreateObject();
		int ok = root && cli_json_add_str(root, "table", q->table) &&
		         cli_json_add_str(root, "action", hb_lc_verb_name(q->verb)) &&
		         cJSON_AddBoolToObject(root, "changed", r->changed) &&
		         cli_json_add_str(root, "before", state_word(r->before)) &&
		         cli_json_add_str(root, "state", state_word(r->after)) &&
		         cli_json_add_str(root, "via", r->via) &&
		         cJSON_AddNumberToObject(root, "seconds", r->seconds);

		if (ok && q->verb == HB_LC_TRUNCATE)
			ok = cJSON_AddNumberToObject(root, "regions", (double)r->regions) &&
			     cJSON_AddBoolToObject(root, "verified", r->verified) &&
			     cJSON_AddBoolToObject(root, "metadata_restored", r->metadata) &&
			     cJSON_AddBoolToObject(root, "metadata_recovered", r->recovered);
		rc = ok ? cli_json_print(root) : HB_ENOMEM;
		cJSON_Delete(root);
	} else if (!cli_g.quiet) {
		if (q->verb == HB_LC_TRUNCATE)
			failed = printf("truncated %s: %zu region%s, every boundary kept "
			                "(verified)%s\n",
			                q->table, r->regions, r->regions == 1 ? "" : "s",
			                r->metadata ? "; metadata row written back" : "") < 0;
		else if (r->changed)
			failed = printf("%s %s via %s\n", done[q->verb], q->table, r->via) < 0;
		else
			failed = printf("table '%s' is already %s; nothing changed\n", q->table,
			                done[q->verb]) < 0;
	}
	return failed ? HB_EINVAL : rc;
}

int cli_lc_run(struct cli_ctx *x)
{
	struct hb_lc_req q;
	struct hb_lc_result r;
	struct hb_thrift2 *t = NULL;
	struct hb_error err = {0};
	struct hb_buf rerun = HB_BUF_INIT;
	int st, want_thrift = 0, rc;

	memset(&q, 0, sizeof(q));
	memset(&r, 0, sizeof(r));
	q.verb = verb_of(x);
	q.table = x->table;
	q.timeout = cli_g.timeout;
	cli_create_parse_wait(x->cmd->name, cli_lc.wait, &q.wait);
	st = pick(&q, &want_thrift);
	if (st)
		return st;
	if (q.verb == HB_LC_TRUNCATE) {
		/* the metadata row's state file is named after the gateway and the table */
		q.cluster = cli_g.rest_url;
		rerun_line(&rerun, q.table);
		q.rerun = hb_buf_str(&rerun);
	}
	/* Thrift2's calls are synchronous: the master's procedure may take the whole --wait */
	rc = want_thrift ? cli_thrift2_open(&t, cli_g.timeout + q.wait, &err) : 0;
	if (!rc) {
		q.thrift = t;
		cli_verbose("%s '%s' via %s", hb_lc_verb_name(q.verb), q.table,
		            q.use_shell || !t ? "the hbase shell" : "Thrift2");
		rc = hb_lc_run(x->rest, &q, &r, &err);
		hb_thrift2_free(t);
	}
	/* what the run found and did about the metadata row is said whatever -q asks */
	if (r.warnings) {
		const char *p = r.warnings;

		while (*p) {
			size_t n = strcspn(p, "\n");

			cli_warn_always("%.*s", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	if (!rc)
		rc = report(&q, &r);
	st = cli_status(rc, &err, 0);
	if (r.kept) {
		fflush(stdout);
		fputs(r.kept, stderr);
	}
	hb_lc_result_release(&r);
	hb_buf_release(&rerun);
	return st;
}

void cli_lc_release(void)
{
	memset(&cli_lc, 0, sizeof(cli_lc));
}
