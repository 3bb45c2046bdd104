/* hbtab describe: not yet part of this build. */
#include "cli.h"
#include "commands.h"

int cmd_describe(int argc, char **argv)
{
	static const struct cli_option opts[] = {CLI_END};
	int n = cli_parse(argc, argv, opts, "describe");

	if (n < 0)
		return n == CLI_PARSE_EXIT ? 0 : 2;
	cli_error("'describe' is not available in this build");
	return 4;
}
