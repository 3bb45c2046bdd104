/* Table descriptors: table attributes and column families with their attributes, as strings. */
#ifndef HB_SCHEMA_H
#define HB_SCHEMA_H

#include "diff.h"
#include "hb.h"

#include <stddef.h>

struct hb_attr {
	char *key;
	char *value;
};

struct hb_attrs {
	struct hb_attr *v;
	size_t n, cap;
};

struct hb_family {
	char *name;
	struct hb_attrs
	    attrs; /* VERSIONS, TTL, COMPRESSION, BLOOMFILTER, ... as HBase names them */
};

struct hb_schema {
	char *table;           /* "ns:qual" or "qual" for the default namespace */
	struct hb_attrs attrs; /* table attributes (SPLIT_POLICY, MAX_FILESIZE, ...) */
	struct hb_family *families;
	size_t nfamilies, cap;
};

void hb_attrs_init(struct hb_attrs *a);
void hb_attrs_release(struct hb_attrs *a);
/* Sets key to value (replacing an existing key). HB_ENOMEM. */
int hb_attrs_set(struct hb_attrs *a, const char *key, const char *value);
/* The value for key, or NULL. */
const char *hb_attrs_get(const struct hb_attrs *a, const char *key);

void hb_schema_init(struct hb_schema *s);
void hb_schema_release(struct hb_schema *s);
/* Sets the table name (copied). HB_ENOMEM. */
int hb_schema_set_table(struct hb_schema *s, const char *table);
/* Appends a family named name (copied) and returns it in *out. HB_ENOMEM. */
int hb_schema_add_family(struct hb_schema *s, const char *name, struct hb_family **out);
/* The family named name, or NULL. */
struct hb_family *hb_schema_family(const struct hb_schema *s, const char *name);

/*
 * Compares a table's schema (have) with the request (want): every requested family present
 * with each requested attribute equal (case-insensitively, as HBase prints enum and boolean
 * values), no family beyond the request, every requested table attribute equal byte for
 * byte. Attributes HBase adds on its own are not differences. Each difference is a line in
 * d. 1 when equal, 0 when not.
 */
int hb_schema_compare(struct hb_diff *d, const struct hb_schema *want,
                      const struct hb_schema *have);

#endif
