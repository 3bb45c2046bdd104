/* hbtab truncate: every row of a table deleted, its split points kept, only with --yes
 * (cli/lifecycle.c, rest/lifecycle.c). */
#include "commands.h"
#include "lifecycle.h"

static const struct cli_option opts[] = {
    CLI_FLAG(0, "yes", &cli_lc.yes, "really delete every row of the table"),
    CLI_LC_VIA_WAIT,
    CLI_END,
};

const struct cli_command cli_cmd_truncate = {
    CLI_LC_COMMAND("truncate", "delete every row of a table, keeping its split points",
                   "truncate TABLE --yes [--via auto|thrift2|shell] [--wait SEC]"),
};
