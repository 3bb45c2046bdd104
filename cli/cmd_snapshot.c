/* hbtab snapshot: a snapshot of a table through the hbase shell, proven by listing it. */
#include "../rest/hbase.h"
#include "../rest/snapshot.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "output.h"
#include "snapshot.h"

#include <stdio.h>
#include <time.h>

static const struct cli_option opts[] = {
    CLI_END,
};

static struct hb_shell_channel sh;

static int check(struct cli_ctx *x)
{
	struct hb_error err = {0};
	char what[600];

	if (x->argc > 2 && hb_snapshot_check_name(x->argv[2], &err))
		return cli_usage_error("snapshot", "%s", err.msg), CLI_EXIT_USAGE;
	cli_snapshot_channel(&sh);
	snprintf(what, sizeof(what), "snapshot '%s'", x->table);
	return cli_status(hb_snapshot_channel_check(&sh, what, &err), &err, 0);
}

static int print_json(const char *table, const char *name)
{
	cJSON *root = cJSON_CreateObject();
	char restore[2 * HB_SNAPSHOT_NAME_MAX + 40];
	int rc;

	snprintf(restore, sizeof(restore), "clone_snapshot '%s', '%s'", name, table);
	rc = cli_json_add_str(root, "table", table) && cli_json_add_str(root, "snapshot", name) &&
	             cJSON_AddBoolToObject(root, "listed", 1) &&
	             cli_json_add_str(root, "restore", restore)
	         ? cli_json_print(root)
	         : HB_ENOMEM;
	cJSON_Delete(root);
	return rc;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	char name[HB_SNAPSHOT_NAME_MAX];
	int exists = 0, rc;

	if (x->argc > 2)
		snprintf(name, sizeof(name), "%s", x->argv[2]);
	else if (hb_snapshot_default_name(name, sizeof(name), x->table, time(NULL)))
		return cli_usage_error("snapshot", "table name '%s' too long for a snapshot name",
		                       x->table),
		       CLI_EXIT_USAGE;
	rc = hb_rest_table_exists(x->rest, x->table, &exists, &err);
	if (!rc && !exists)
		rc = hb_error_set(&err, HB_ESERVER, "table '%s' not found", x->table);
	if (!rc)
		rc = hb_snapshot_take(&sh, x->table, name, &err);
	if (!rc && cli_g.output == CLI_OUT_JSON)
		rc = print_json(x->table, name);
	else if (!rc)
		cli_snapshot_print(x->table, name);
	return cli_status(rc, &err, 0);
}

const struct cli_command cli_cmd_snapshot = {
    .name = "snapshot",
    .summary = "take a snapshot of a table (with the hbase shell) and prove it by listing it",
    .usage = "snapshot TABLE [NAME]",
    .opts = opts,
    .args = "TABLE [NAME]",
    .min_args = 1,
    .max_args = 2,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check,
    .run = run,
};
