/* Table, namespace and column-family name rules of HBase 2.x (docs/hbase-keys.md §10). */
#ifndef HB_TNAME_H
#define HB_TNAME_H

#include "hb.h"

#include <stddef.h>

/* Names longer than this many bytes (namespace or qualifier) draw a warning: HDFS limits. */
#define HB_TNAME_WARN_BYTES 255

/* A table name split into its parts; pointers into the caller's string (not NUL-terminated). */
struct hb_tname {
	const char *ns; /* "default" when the name has no namespace */
	size_t ns_len;
	const char *qual;
	size_t qual_len;
	int has_ns;   /* 1 when the name was written "ns:qual" */
	int too_long; /* 1 when ns or qualifier exceeds HB_TNAME_WARN_BYTES */
};

/*
 * Checks name ("qual" or "ns:qual", UTF-8) against TableName's 2.x rules: namespace
 * [_letter digit]+, qualifier [_letter digit][-_. letter digit]*, `zookeeper` forbidden,
 * `-ROOT-`/`.META.` refused. Fills *out when non-NULL. HB_EINVAL with the reason.
 */
int hb_tname_parse(struct hb_tname *out, const char *name, struct hb_error *err);

/*
 * name as HBase itself writes it in hbase:meta's row keys and region names, in table
 * listings and in snapshot descriptions: "default:t" is "t" (TableName.getNameAsString leaves
 * the default namespace out); any other name unchanged. Points into name.
 */
const char *hb_tname_bare(const char *name);
/* The same for a name of n bytes, not terminated: n is made the bare name's length. */
const char *hb_tname_bare_n(const char *name, size_t *n);

/* hb_tname_parse plus what `create` refuses: system tables (namespace `hbase`). HB_EINVAL. */
int hb_tname_check_create(struct hb_tname *out, const char *name, struct hb_error *err);

/*
 * Checks a column-family name as ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName does:
 * non-empty, not starting with '.', no ISO control byte, ':', '\' or '/', not
 * `recovered.edits`. HB_EINVAL with the reason.
 */
int hb_family_check(const char *name, struct hb_error *err);

#endif
