/* hbtab disable: a table disabled (its regions go offline), only with --yes (cli/lifecycle.c,
 * rest/lifecycle.c). */
#include "commands.h"
#include "lifecycle.h"

static const struct cli_option opts[] = {
    CLI_FLAG(0, "yes", &cli_lc.yes, "really take the table offline"),
    CLI_LC_VIA_WAIT,
    CLI_END,
};

const struct cli_command cli_cmd_disable = {
    .name = "disable",
    .summary = "disable a table (its regions go offline)",
    .usage = "disable TABLE --yes [--via auto|thrift2|shell] [--wait SEC]",
    .opts = opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = cli_lc_check,
    .run = cli_lc_run,
    .release = cli_lc_release,
};
