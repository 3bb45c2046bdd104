/* hbtab's entry point: global options, the command table, help, version and completion. */
#include "cli.h"
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#ifndef HB_VERSION
#define HB_VERSION "0.0.0"
#endif

static int cmd_help(int argc, char **argv);
static int cmd_complete(int argc, char **argv);

const struct cli_command cli_commands[] = {
	{"splits", cmd_splits, "compute pre-split keys offline"},
	{"create", cmd_create, "create a pre-split table and verify it byte for byte"},
	{"regions", cmd_regions, "list a table's regions from REST or hbase:meta"},
	{"audit", cmd_audit, "find unreachable regions, chain defects, drift and hot-spots"},
	{"rotate", cmd_rotate, "keep daily/hourly tables created ahead and retire old ones"},
	{"meta", cmd_meta, "read or set the partition-count metadata row"},
	{"status", cmd_status, "show the cluster's version and servers"},
	{"tables", cmd_tables, "list tables"},
	{"describe", cmd_describe, "show a table's schema"},
	{"drop", cmd_drop, "disable and delete a table"},
	{"simulate", cmd_simulate, "simulate write distribution and region splits of a key design"},
	{"help", cmd_help, "show help for a command"},
	{"__complete", cmd_complete, NULL},
};
const size_t cli_ncommands = HB_ARRAY_LEN(cli_commands);

const struct cli_command *cli_find_command(const char *name)
{
	size_t i;

	for (i = 0; i < cli_ncommands; i++)
		if (!strcmp(cli_commands[i].name, name))
			return &cli_commands[i];
	return NULL;
}

static void print_main_help(void)
{
	size_t i;

	cli_print_global_help();
	puts("\nCommands");
	for (i = 0; i < cli_ncommands; i++)
		if (cli_commands[i].summary)
			printf("    %-26s%s\n", cli_commands[i].name, cli_commands[i].summary);
	puts("\nRun 'hbtab COMMAND --help' or 'man hbtab-COMMAND' for a command's options.");
}

static int cmd_help(int argc, char **argv)
{
	static const struct cli_option opts[] = {CLI_END};
	const struct cli_command *c;
	char *av[3];

	argc = cli_parse(argc, argv, opts, "help [COMMAND]");
	if (argc < 0)
		return argc == CLI_PARSE_EXIT ? 0 : 2;
	if (argc < 2) {
		print_main_help();
		return 0;
	}
	c = cli_find_command(argv[1]);
	if (!c || !c->summary) {
		cli_usage_error(NULL, "unknown command '%s'", argv[1]);
		return 2;
	}
	av[0] = argv[1];
	av[1] = "--help";
	av[2] = NULL;
	return c->fn(2, av);
}

/*
 * hbtab __complete            -> command names, one per line
 * hbtab __complete CMD        -> CMD's options: "--name<TAB>ARG<TAB>choices<TAB>-x"
 */
static int cmd_complete(int argc, char **argv)
{
	const struct cli_command *c;
	char *av[2];
	size_t i;

	if (argc < 2) {
		for (i = 0; i < cli_ncommands; i++)
			if (cli_commands[i].summary)
				puts(cli_commands[i].name);
		return 0;
	}
	c = cli_find_command(argv[1]);
	if (!c || !c->summary)
		return 0;
	cli_complete_mode = 1;
	av[0] = argv[1];
	av[1] = NULL;
	c->fn(1, av);
	return 0;
}

static int run(int argc, char **argv)
{
	const struct cli_command *c;
	int first;

	first = cli_parse_leading_globals(argc, argv);
	if (first < 0)
		return 2;
	if (cli_g.version) {
		printf("hbtab %s\n", HB_VERSION);
		return 0;
	}
	if (first >= argc) {
		if (cli_g.help) {
			print_main_help();
			return 0;
		}
		cli_usage_error(NULL, "no command given");
		return 2;
	}
	c = cli_find_command(argv[first]);
	if (!c) {
		cli_usage_error(NULL, "unknown command '%s'", argv[first]);
		return 2;
	}
	return c->fn(argc - first, argv + first);
}

int main(int argc, char **argv)
{
	return cli_finish_stdout(run(argc, argv));
}
