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
    CLI_LC_COMMAND("disable", "disable a table (its regions go offline)",
                   "disable TABLE --yes [--via auto|thrift2|shell] [--wait SEC]"),
};
