/* hbtab enable, disable, truncate: a table's state changed through Thrift2 or the hbase shell,
 * waited for and read back (the work is in rest/lifecycle.c). */
#include "../core/regioninfo.h"
#include "../rest/lifecycle.h"
#include "../rest/thrift2.h"
#include "cli.h"
#include "commands.h"
#include "create.h"
#include "ddl.h"
#include "exit.h"
#include "output.h"
#include "rest_cli.h"

#include <stdio.h>
#include <string.h>

static const char *wait_str, *via_str;
static int yes;

#define LC_VIA_WAIT                                                                                \
	CLI_CHOICE(0, "via", &via_str, "CHANNEL",                                                  \
	           "auto (default: thrift2 with --thrift, else the shell), thrift2 or shell",      \
	           "auto thrift2 shell"),                                                          \
	    CLI_STRING(0, "wait", &wait_str, "SEC",                                                \
	               "how long to wait for the state asked for (60)")

static const struct cli_option enable_opts[] = {LC_VIA_WAIT, CLI_END};
static const struct cli_option disable_opts[] = {
    CLI_FLAG(0, "yes", &yes, "really take the table offline"),
    LC_VIA_WAIT,
    CLI_END,
};
static const struct cli_option truncate_opts[] = {
    CLI_FLAG(0, "yes", &yes, "really delete every row of the table"),
    LC_VIA_WAIT,
    CLI_END,
};

static enum hb_lc_verb verb_of(const struct cli_ctx *x)
{
	return !strcmp(x->cmd->name, "enable")    ? HB_LC_ENABLE
	       : !strcmp(x->cmd->name, "disable") ? HB_LC_DISABLE
	                                          : HB_LC_TRUNCATE;
}

static int check(struct cli_ctx *x)
{
	enum hb_lc_verb verb = verb_of(x);
	double wait;

	if (cli_create_parse_wait(x->cmd->name, wait_str, &wait))
		return CLI_EXIT_USAGE;
	if (via_str && strcmp(via_str, "auto") && strcmp(via_str, "thrift2") &&
	    strcmp(via_str, "shell"))
		return cli_usage_exit(
		    x->cmd->name, "invalid --via '%s' (expected auto, thrift2 or shell)", via_str);
	if (verb == HB_LC_DISABLE && !yes) {
		cli_error("refusing to disable table '%s' without --yes (its regions go offline: "
		          "every read and write fails until it is enabled again)",
		          x->table);
		return CLI_EXIT_REFUSED;
	}
	if (verb == HB_LC_TRUNCATE && !yes) {
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
	if (via_str && !strcmp(via_str, "thrift2")) {
		if (!thrift) {
			cli_error("--via thrift2 needs the Thrift2 server's URL (--thrift URL, "
			          "HBTAB_THRIFT or the config file)");
			return CLI_EXIT_USAGE;
		}
		return CLI_EXIT_OK;
	}
	if (via_str && !strcmp(via_str, "shell")) {
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
			     cJSON_AddBoolToObject(root, "metadata_restored", r->metadata);
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

static int run(struct cli_ctx *x)
{
	struct hb_lc_req q;
	struct hb_lc_result r;
	struct hb_thrift2 *t = NULL;
	struct hb_error err = {0};
	int st, want_thrift = 0, rc;

	memset(&q, 0, sizeof(q));
	q.verb = verb_of(x);
	q.table = x->table;
	q.timeout = cli_g.timeout;
	cli_create_parse_wait(x->cmd->name, wait_str, &q.wait);
	st = pick(&q, &want_thrift);
	if (st)
		return st;
	/* Thrift2's calls are synchronous: the master's procedure may take the whole --wait */
	if (want_thrift && cli_thrift2_open(&t, cli_g.timeout + q.wait, &err))
		return cli_fail(&err);
	q.thrift = t;
	cli_verbose("%s '%s' via %s", hb_lc_verb_name(q.verb), q.table,
	            q.use_shell || !t ? "the hbase shell" : "Thrift2");
	rc = hb_lc_run(x->rest, &q, &r, &err);
	hb_thrift2_free(t);
	if (rc)
		return cli_fail(&err);
	return cli_exit(report(&q, &r));
}

static void release(void)
{
	wait_str = via_str = NULL;
	yes = 0;
}

const struct cli_command cli_cmd_enable = {
    .name = "enable",
    .summary = "enable a table and wait until its regions are online",
    .usage = "enable TABLE [--via auto|thrift2|shell] [--wait SEC]",
    .opts = enable_opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check,
    .run = run,
    .release = release,
};

const struct cli_command cli_cmd_disable = {
    .name = "disable",
    .summary = "disable a table (its regions go offline)",
    .usage = "disable TABLE --yes [--via auto|thrift2|shell] [--wait SEC]",
    .opts = disable_opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check,
    .run = run,
    .release = release,
};

const struct cli_command cli_cmd_truncate = {
    .name = "truncate",
    .summary = "delete every row of a table, keeping its split points",
    .usage = "truncate TABLE --yes [--via auto|thrift2|shell] [--wait SEC]",
    .opts = truncate_opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check,
    .run = run,
    .release = release,
};
