/* What the DDL channels send, as pure transforms of the schema model: the --family / --attr
 * rules, the hbase shell script, the SPLITS_FILE lines and the JSON plan of '--via print'. */
#ifndef HB_CORE_DDLSCRIPT_H
#define HB_CORE_DDLSCRIPT_H

#include "buf.h"
#include "hb.h"
#include "key.h"
#include "schema.h"

#include <stddef.h>

/* Above this many split keys the shell channel writes a SPLITS_FILE instead of a list. */
#define HB_DDLSCRIPT_INLINE_MAX 1000

/* Default family when the caller gives none. */
#define HB_DDLSCRIPT_DEFAULT_FAMILY "cf"

/*
 * Parses one family spec "NAME[:ATTR=VAL,...]" and adds the family to s: name checked
 * (hbase family rules), known attribute names upper-cased and values normalized; unknown
 * attributes kept. HB_EINVAL for a bad name, duplicate family, bad attribute ("invalid WHAT
 * 'SPEC': ...", what naming the spec as the caller does; NULL: "family"); HB_ENOMEM.
 */
int hb_ddlscript_add_family(struct hb_schema *s, const char *spec, const char *what,
                            struct hb_error *err);

/* Parses one table attribute spec KEY=VAL into s's table attributes. HB_EINVAL (format,
 * reserved keys such as SPLITS or SPLITS_FILE, values HBase would not parse, control bytes,
 * non-UTF-8) naming the spec as what (NULL: "table attribute"). */
int hb_ddlscript_add_attr(struct hb_schema *s, const char *spec, const char *what,
                          struct hb_error *err);

/* Appends s as a Ruby single-quoted string literal ('it\'s' style; backslashes doubled). */
int hb_ddlscript_ruby_str(struct hb_buf *out, const char *s);

/* Appends a key for an hbase shell single-quoted string: toStringBinary with 0x27 as \x27
 * and spaces at either end as \x20, so Ruby quoting, strip() and toBytesBinary keep it. */
int hb_ddlscript_shell_key(struct hb_buf *out, const void *k, size_t n);
/* Appends a key as one SPLITS_FILE line (no newline): toStringBinary with spaces at either
 * end as \x20, so both chomp-era and strip-era shells read back the same bytes. */
int hb_ddlscript_file_key(struct hb_buf *out, const void *k, size_t n);

/*
 * Appends an hbase shell script: `create 'T', {NAME => 'F', ...}, ..., {SPLITS => [...]}`
 * (or SPLITS_FILE => splits_path when splits_path is non-NULL), table attributes in
 * METADATA, then `exit`. Keys are hb_ddlscript_shell_key text between single quotes. HB_ENOMEM.
 */
int hb_ddlscript_shell_script(struct hb_buf *out, const struct hb_schema *s,
                              const struct hb_keys *splits, const char *splits_path);

/* Appends the SPLITS_FILE body: one hb_ddlscript_file_key line per key, '\n' ended. HB_ENOMEM. */
int hb_ddlscript_splits_file(struct hb_buf *out, const struct hb_keys *splits);

/* Appends the JSON plan {"table","created":false,"verified":false,"via":"print",
 * "families":[{"name","attrs"}],"attrs","regions","splits":[{"key":TSB,"base64":B64}]}
 * followed by a newline. HB_ENOMEM. */
int hb_ddlscript_json_plan(struct hb_buf *out, const struct hb_schema *s,
                           const struct hb_keys *splits);

#endif
