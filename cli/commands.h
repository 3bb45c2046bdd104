/* The commands' descriptors, one cmd_<name>.c each; main.c lists them and runs them. */
#ifndef HB_CLI_COMMANDS_H
#define HB_CLI_COMMANDS_H

#include "cli.h"

extern const struct cli_command cli_cmd_splits;
extern const struct cli_command cli_cmd_create;
extern const struct cli_command cli_cmd_regions;
extern const struct cli_command cli_cmd_audit;
extern const struct cli_command cli_cmd_meta;
extern const struct cli_command cli_cmd_status;
extern const struct cli_command cli_cmd_tables;
extern const struct cli_command cli_cmd_describe;
extern const struct cli_command cli_cmd_drop;
extern const struct cli_command cli_cmd_snapshot;
extern const struct cli_command cli_cmd_enable;
extern const struct cli_command cli_cmd_disable;
extern const struct cli_command cli_cmd_truncate;
extern const struct cli_command cli_cmd_rotate;
extern const struct cli_command cli_cmd_simulate;
extern const struct cli_command cli_cmd_repair;
extern const struct cli_command cli_cmd_advise;
extern const struct cli_command cli_cmd_report;
extern const struct cli_command cli_cmd_reshape;

#endif
