/* The DDL channels of `create` (Thrift2, hbase shell, REST, print): picking one, making the
 * table through it, and what it sends (the hbase shell script, the SPLITS_FILE lines, the
 * JSON plan); plus the --family / --attr parsers. */
#ifndef HB_CLI_DDL_H
#define HB_CLI_DDL_H

#include "../core/buf.h"
#include "../core/hb.h"
#include "../core/key.h"
#include "../core/schema.h"
#include "../rest/rest.h"

#include <stddef.h>

/* Above this many split keys the shell channel writes a SPLITS_FILE instead of a list. */
#define CLI_DDL_INLINE_MAX 1000

/* Default family when no --family is given. */
#define CLI_DDL_DEFAULT_FAMILY "cf"

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

/* What a failed cli_ddl_create says about a table that exists afterwards. */
#define CLI_DDL_RACE_OTHER 1 /* an error was reported: someone else may have made it */
#define CLI_DDL_RACE_OURS  2 /* only an exit status or a hang: the table is ours */

/*
 * Makes table s with splits through channel via (not CLI_VIA_PRINT); rest is used by the REST
 * channel, which is only called on a table known to be absent. wait adds to the channel's
 * timeout. On failure err says why and *race what a table existing afterwards means.
 * CLI_VIA_NONE prints why no channel can make it and returns HB_EINVAL.
 */
int cli_ddl_create(enum cli_via via, struct hb_rest *rest, const struct hb_schema *s,
                   const struct hb_keys *splits, double wait, int *race, struct hb_error *err);

/* '--via print': writes the hbase shell script, or the JSON plan under -o json, to stdout;
 * default_family says the family was not given (a comment / "default_family" names it).
 * Returns an exit status. */
int cli_ddl_print(const struct hb_schema *s, const struct hb_keys *splits, int default_family);

/*
 * Parses one --family value "NAME[:ATTR=VAL,...]" and adds the family to s: name checked
 * (hbase family rules), known attribute names upper-cased and values normalized; unknown
 * attributes kept. HB_EINVAL for a bad name, duplicate family, bad attribute; HB_ENOMEM.
 */
int cli_ddl_add_family(struct hb_schema *s, const char *spec, struct hb_error *err);

/* Parses one --attr KEY=VAL into s's table attributes. HB_EINVAL (format, reserved keys such
 * as SPLITS or SPLITS_FILE, control bytes, non-UTF-8). */
int cli_ddl_add_attr(struct hb_schema *s, const char *spec, struct hb_error *err);

/* Appends s as a Ruby single-quoted string literal ('it\'s' style; backslashes doubled). */
int cli_ddl_ruby_str(struct hb_buf *out, const char *s);

/*
 * Appends an hbase shell script: `create 'T', {NAME => 'F', ...}, ..., {SPLITS => [...]}`
 * (or SPLITS_FILE => splits_path when splits_path is non-NULL), table attributes in
 * METADATA, then `exit`. Keys are single-quoted toStringBinary with 0x27 and edge spaces
 * escaped, so Ruby quoting, strip() and toBytesBinary give back the exact bytes.
 */
int cli_ddl_shell_script(struct hb_buf *out, const struct hb_schema *s,
                         const struct hb_keys *splits, const char *splits_path);

/* Appends the SPLITS_FILE body: one key per line (see cli_splitspec_file_key), '\n' ended. */
int cli_ddl_splits_file(struct hb_buf *out, const struct hb_keys *splits);

/* Appends the JSON plan {"table","families":[{"name","attrs"}],"attrs","regions",
 * "splits":[{"key":TSB,"base64":B64}]} followed by a newline. */
int cli_ddl_json_plan(struct hb_buf *out, const struct hb_schema *s, const struct hb_keys *splits);

#endif
