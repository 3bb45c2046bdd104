/* Entry points of the subcommands, one cmd_<name>.c each. Each takes argv[0] = the command
 * name, parses its options with cli_parse and returns the process exit status (0..5). */
#ifndef HB_CLI_COMMANDS_H
#define HB_CLI_COMMANDS_H

int cmd_splits(int argc, char **argv);
int cmd_create(int argc, char **argv);
int cmd_regions(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_meta(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_tables(int argc, char **argv);
int cmd_describe(int argc, char **argv);
int cmd_drop(int argc, char **argv);
int cmd_rotate(int argc, char **argv);
int cmd_simulate(int argc, char **argv);

#endif
