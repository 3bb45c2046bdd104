/* What `create` sends through the shell and print channels: the hbase shell script, the
 * SPLITS_FILE lines and the JSON plan; plus the --family / --attr parsers. */
#ifndef HB_CLI_DDL_H
#define HB_CLI_DDL_H

#include "../core/buf.h"
#include "../core/hb.h"
#include "../core/key.h"
#include "../core/schema.h"

/* Above this many split keys the shell channel writes a SPLITS_FILE instead of a list. */
#define CLI_DDL_INLINE_MAX 1000

/* Default family when no --family is given. */
#define CLI_DDL_DEFAULT_FAMILY "cf"

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
