/* The DDL channels of `create` on the command line (Thrift2, hbase shell, REST, print): picking
 * one from --via and the settings, and making the table through it with those settings. */
#ifndef HB_CLI_DDL_H
#define HB_CLI_DDL_H

#include "../core/hb.h"
#include "../core/key.h"
#include "../core/schema.h"
#include "../rest/channel.h"
#include "../rest/rest.h"

#include <stddef.h>

/* The channel a table is made through. CLI_VIA_NONE: none can make the planned table here
 * (an existing one is still verified, as a table made from '--via print' is adopted). */
enum cli_via { CLI_VIA_THRIFT2, CLI_VIA_SHELL, CLI_VIA_REST, CLI_VIA_PRINT, CLI_VIA_NONE };

/* "thrift2", "shell", "rest", "print", "none". */
const char *cli_via_name(enum cli_via via);

/*
 * Picks the channel for a table of nregions regions from a --via value (NULL or "auto": a
 * Thrift2 URL, else an hbase shell on PATH, else REST for one region, else none). HB_EINVAL
 * with the message printed (a bad value, thrift2 without a URL, rest for several regions).
 */
int cli_ddl_pick(enum cli_via *out, const char *via, size_t nregions);

/* The shell channel's command line: --hbase-shell, else "hbase shell -n". */
const char *cli_ddl_shell_command(void);

/* 0 when the hbase shell command is on PATH; else HB_EINVAL saying merges and splits go
 * through it (repair's and reshape's --apply check it before anything runs). */
int cli_ddl_shell_usable(struct hb_error *err);

/* repair's and reshape's --via (auto, shell or print; NULL: auto) with --apply: *print_only
 * set; nonzero (the usage message printed for cmd) for another value, or print with --apply. */
int cli_ddl_via_steps(const char *cmd, const char *via, int apply, int *print_only);
/* 1 when the shell command's argv[0] is on PATH, 0 when not, -1 (message printed) for a
 * command line that cannot be split. */
int cli_ddl_shell_available(void);

/* The channel via (not CLI_VIA_PRINT) as the value the create flow takes, with the command
 * line's settings. */
void cli_ddl_channel(struct hb_ddl_channel *out, enum cli_via via);
/* A table of nregions regions found absent with no channel to make it (CLI_VIA_NONE): prints
 * why and fills err with what to do. */
void cli_ddl_no_channel(size_t nregions, struct hb_error *err);

/* '--via print': writes the hbase shell script, or the JSON plan under -o json, to stdout;
 * default_family says the family was not given (a comment / "default_family" names it).
 * Returns an exit status. */
int cli_ddl_print(const struct hb_schema *s, const struct hb_keys *splits, int default_family);

#endif
