/* hbtab drop: disable and delete a table through DELETE /T/schema, only with --yes, after a
 * snapshot of it with --snapshot. */
#include "../rest/drop.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "output.h"
#include "snapshot.h"

#include <stdio.h>

static int yes, if_exists, dry_run, snapshot;
static struct hb_shell_channel sh;

static const struct cli_option opts[] = {
    CLI_FLAG(0, "yes", &yes, "really disable and delete the table and its data"),
    CLI_FLAG(0, "if-exists", &if_exists, "a table that does not exist is not an error"),
    CLI_FLAG(0, "dry-run", &dry_run, "check that the table exists; drop nothing"),
    CLI_FLAG(0, "snapshot", &snapshot,
             "take a snapshot first (hbase shell); drop only once it is listed"),
    CLI_END,
};

static int check(struct cli_ctx *x)
{
	if (!yes && !dry_run) {
		cli_error("refusing to drop table '%s' without --yes (this deletes all its data)",
		          x->table);
		return CLI_EXIT_REFUSED;
	}
	if (snapshot) {
		struct hb_error err = {0};
		char what[600];

		cli_snapshot_channel(&sh);
		snprintf(what, sizeof(what), "drop '%s' with --snapshot", x->table);
		return cli_status(hb_snapshot_channel_check(&sh, what, &err), &err, 0);
	}
	return CLI_EXIT_OK;
}

static int report(const char *table, int existed, int dropped, const char *snap)
{
	int rc = 0, failed = 0;

	if (cli_g.output == CLI_OUT_JSON) {
		cJSON *root = cJSON_CreateObject();

		rc = cli_json_add_str(root, "table", table) &&
		             cJSON_AddBoolToObject(root, "dropped", dropped) &&
		             cJSON_AddBoolToObject(root, "existed", existed) &&
		             cJSON_AddBoolToObject(root, "dry_run", dry_run) &&
		             (!snapshot || cli_json_add_str(root, "snapshot", snap))
		         ? cli_json_print(root)
		         : HB_ENOMEM;
		cJSON_Delete(root);
	} else if (!existed) {
		if (!cli_g.quiet)
			failed = printf("table '%s' does not exist; nothing dropped\n", table) < 0;
	} else if (dry_run) {
		failed = printf("would drop %s\n", table) < 0; /* what a dry run exists to print */
	} else {
		if (snap) /* under -q too: the name is the one handle that restores the table */
			cli_snapshot_print(table, snap);
		if (!cli_g.quiet)
			failed = printf("dropped %s\n", table) < 0;
	}
	return failed ? HB_EINVAL : rc;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct hb_drop_req req = {x->table, NULL, NULL, NULL, dry_run};
	struct hb_snapshot_before snap = {&sh, ""};
	struct hb_drop_out out;
	int exists, rc;

	if (snapshot) { /* a table leaves only once a snapshot of it is listed */
		req.before = hb_snapshot_before_drop;
		req.before_ctx = &snap;
	}

	rc = hb_rest_drop_checked(x->rest, &req, &out, &err);
	exists = !rc && (out.outcome == HB_DROP_DROPPED || out.outcome == HB_DROP_WOULD);
	if (!rc && !exists && !if_exists)
		rc = hb_error_set(&err, HB_ESERVER, "table '%s' not found", x->table);
	else if (!rc)
		rc = report(x->table, exists, out.outcome == HB_DROP_DROPPED,
		            out.outcome == HB_DROP_DROPPED && snapshot ? snap.name : NULL);
	return cli_status(rc, &err, 0);
}

const struct cli_command cli_cmd_drop = {
    .name = "drop",
    .summary = "disable and delete a table",
    .usage = "drop TABLE --yes [--if-exists] [--snapshot]\ndrop TABLE --dry-run [--if-exists] "
             "[--snapshot]",
    .opts = opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check,
    .run = run,
};
