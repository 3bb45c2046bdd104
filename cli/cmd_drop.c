/* hbtab drop: disable and delete a table through DELETE /T/schema, only with --yes. */
#include "../rest/drop.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "output.h"

static int yes, if_exists, dry_run;

static const struct cli_option opts[] = {
    CLI_FLAG(0, "yes", &yes, "really disable and delete the table and its data"),
    CLI_FLAG(0, "if-exists", &if_exists, "a table that does not exist is not an error"),
    CLI_FLAG(0, "dry-run", &dry_run, "check that the table exists; drop nothing"),
    CLI_END,
};

static int check(struct cli_ctx *x)
{
	if (!yes && !dry_run) {
		cli_error("refusing to drop table '%s' without --yes (this deletes all its data)",
		          x->table);
		return CLI_EXIT_REFUSED;
	}
	return CLI_EXIT_OK;
}

static int report(const char *table, int existed, int dropped)
{
	int rc = 0, failed = 0;

	if (cli_g.output == CLI_OUT_JSON) {
		cJSON *root = cJSON_CreateObject();

		rc = cli_json_add_str(root, "table", table) &&
		             cJSON_AddBoolToObject(root, "dropped", dropped) &&
		             cJSON_AddBoolToObject(root, "existed", existed) &&
		             cJSON_AddBoolToObject(root, "dry_run", dry_run)
		         ? cli_json_print(root)
		         : HB_ENOMEM;
		cJSON_Delete(root);
	} else if (!existed) {
		if (!cli_g.quiet)
			failed = printf("table '%s' does not exist; nothing dropped\n", table) < 0;
	} else if (dry_run) {
		failed = printf("would drop %s\n", table) < 0; /* what a dry run exists to print */
	} else if (!cli_g.quiet) {
		failed = printf("dropped %s\n", table) < 0;
	}
	return failed ? HB_EINVAL : rc;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct hb_drop_req req = {x->table, NULL, NULL, NULL, dry_run};
	struct hb_drop_out out;
	int exists;

	if (hb_rest_drop_checked(x->rest, &req, &out, &err))
		return cli_fail(&err);
	exists = out.outcome == HB_DROP_DROPPED || out.outcome == HB_DROP_WOULD;
	if (!exists && !if_exists) {
		cli_error("table '%s' not found", x->table);
		return CLI_EXIT_SERVER;
	}
	return cli_exit(report(x->table, exists, out.outcome == HB_DROP_DROPPED));
}

const struct cli_command cli_cmd_drop = {
    .name = "drop",
    .summary = "disable and delete a table",
    .usage = "drop TABLE --yes [--if-exists]\ndrop TABLE --dry-run [--if-exists]",
    .opts = opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check,
    .run = run,
};
