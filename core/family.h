/* Column-family attribute rules: which attributes HBase types (numbers, booleans, enums) and
 * their canonical text, for every channel that sends a family (Thrift2, hbase shell, REST). */
#ifndef HB_FAMILY_H
#define HB_FAMILY_H

#include "hb.h"
#include "schema.h"

#include <stdint.h>

enum hb_cfattr_kind {
	HB_CFATTR_INT,  /* a whole number >= min */
	HB_CFATTR_BOOL, /* true or false */
	HB_CFATTR_ENUM, /* one of values, upper case */
	HB_CFATTR_TTL,  /* seconds >= min, or FOREVER */
};

/* The rule of one typed attribute (ColumnFamilyDescriptorBuilder's names). */
struct hb_cfattr {
	const char *name;
	enum hb_cfattr_kind kind;
	long min;
	const char *const *values; /* HB_CFATTR_ENUM: the names, NULL-terminated */
};

/* The rule for key (exact, upper-case name), or NULL for an attribute HBase keeps as text. */
const struct hb_cfattr *hb_cfattr_find(const char *key);
/* 1 when key has a rule (VERSIONS, TTL, COMPRESSION, ...). */
int hb_cfattr_known(const char *key);
/* 1 when key's value is a number (the shell passes it unquoted). */
int hb_cfattr_is_number(const char *key);

/*
 * Checks val against rule r for family `family` (named in the message): *num gets the number
 * (INT/TTL; FOREVER is 2147483647) or the boolean, *canon the canonical text when it differs
 * in form (upper-case enum name, "true"/"false", "2147483647"), else NULL. HB_EINVAL naming
 * the attribute and what is expected.
 */
int hb_cfattr_value(const struct hb_cfattr *r, const char *val, const char *family, int32_t *num,
                    const char **canon, struct hb_error *err);

/*
 * Checks and normalizes a family's typed attributes in place: numbers checked, enum names
 * upper-cased, booleans "true"/"false", TTL FOREVER as 2147483647. Other keys pass through.
 * HB_EINVAL naming the attribute; HB_ENOMEM.
 */
int hb_family_normalize(struct hb_family *f, struct hb_error *err);

#endif
