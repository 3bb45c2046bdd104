/* hbtab enable: a table enabled, waited for until its regions are online (cli/lifecycle.c,
 * rest/lifecycle.c). */
#include "commands.h"
#include "lifecycle.h"

static const struct cli_option opts[] = {
    CLI_LC_VIA_WAIT,
    CLI_END,
};

const struct cli_command cli_cmd_enable = {
    CLI_LC_COMMAND("enable", "enable a table and wait until its regions are online",
                   "enable TABLE [--via auto|thrift2|shell] [--wait SEC]"),
};
