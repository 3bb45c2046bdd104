/* Column-family attribute rules shared by every DDL channel. */
#include "family.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ROWPREFIX_FIXED_LENGTH (3) is refused in hb_cfattr_value: HBase's descriptor check needs
 * the family configuration RowPrefixBloomFilter.prefix_length with it. */
static const char *const bloom_values[] = {"NONE", "ROW", "ROWCOL", NULL};
/* Compression.Algorithm names; LZMA and BROTLI exist from HBase 2.5. */
static const char *const compression_values[] = {"LZO",   "GZ",   "NONE", "SNAPPY", "LZ4",
                                                 "BZIP2", "ZSTD", "LZMA", "BROTLI", NULL};
static const char *const encoding_values[] = {"NONE",      "PREFIX",       "DIFF",
                                              "FAST_DIFF", "ROW_INDEX_V1", NULL};
static const char *const kdc_values[] = {"FALSE", "TRUE", "TTL", NULL};

static const struct hb_cfattr rules[] = {
    {"BLOCKSIZE", HB_CFATTR_INT, 1, NULL},
    {"BLOOMFILTER", HB_CFATTR_ENUM, 0, bloom_values},
    {"COMPRESSION", HB_CFATTR_ENUM, 0, compression_values},
    {"DATA_BLOCK_ENCODING", HB_CFATTR_ENUM, 0, encoding_values},
    {"KEEP_DELETED_CELLS", HB_CFATTR_ENUM, 0, kdc_values},
    {"VERSIONS", HB_CFATTR_INT, 1, NULL},
    {"MIN_VERSIONS", HB_CFATTR_INT, 0, NULL},
    {"REPLICATION_SCOPE", HB_CFATTR_INT, 0, NULL},
    {"TTL", HB_CFATTR_TTL, 1, NULL},
    {"BLOCKCACHE", HB_CFATTR_BOOL, 0, NULL},
    {"IN_MEMORY", HB_CFATTR_BOOL, 0, NULL},
};

const struct hb_cfattr *hb_cfattr_find(const char *key)
{
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(rules); i++)
		if (!strcmp(rules[i].name, key))
			return &rules[i];
	return NULL;
}

int hb_cfattr_known(const char *key)
{
	return hb_cfattr_find(key) != NULL;
}

int hb_cfattr_is_number(const char *key)
{
	const struct hb_cfattr *r = hb_cfattr_find(key);

	return r && (r->kind == HB_CFATTR_INT || r->kind == HB_CFATTR_TTL);
}

static int ascii_upper_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char ca = *a >= 'a' && *a <= 'z' ? (char)(*a - 32) : *a;

		if (ca != *b)
			return 0;
	}
	return !*a && !*b;
}

/* Parses a decimal int32 >= min; returns 0 and *out, or -1. */
static int parse_i32(const char *s, long min, int32_t *out)
{
	char *end;
	long v;

	if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v < min || v > INT32_MAX)
		return -1;
	*out = (int32_t)v;
	return 0;
}

static int bad_enum(const struct hb_cfattr *r, const char *val, const char *family,
                    struct hb_error *err)
{
	char list[256] = "";
	size_t used = 0, i;

	for (i = 0; r->values[i]; i++) {
		size_t l = strlen(r->values[i]);

		if (used + l + 3 >= sizeof(list))
			break;
		if (i) {
			memcpy(list + used, ", ", 2);
			used += 2;
		}
		memcpy(list + used, r->values[i], l + 1);
		used += l;
	}
	return hb_error_set(err, HB_EINVAL, "invalid %s '%s' for family '%s': expected one of %s",
	                    r->name, val, family, list);
}

int hb_cfattr_value(const struct hb_cfattr *r, const char *val, const char *family, int32_t *num,
                    const char **canon, struct hb_error *err)
{
	size_t i;

	*canon = NULL;
	*num = 0;
	switch (r->kind) {
	case HB_CFATTR_TTL:
		if (ascii_upper_eq(val, "FOREVER")) {
			*num = INT32_MAX;
			*canon = "2147483647";
			return 0;
		}
		/* fall through */
	case HB_CFATTR_INT:
		if (parse_i32(val, r->min, num))
			return hb_error_set(err, HB_EINVAL,
			                    "invalid %s '%s' for family '%s': a whole number from "
			                    "%ld to 2147483647%s expected",
			                    r->name, val, family, r->min,
			                    r->kind == HB_CFATTR_TTL ? " (seconds) or FOREVER"
			                                             : "");
		return 0;
	case HB_CFATTR_BOOL:
		if (ascii_upper_eq(val, "TRUE")) {
			*num = 1;
			*canon = "true";
			return 0;
		}
		if (ascii_upper_eq(val, "FALSE")) {
			*canon = "false";
			return 0;
		}
		return hb_error_set(err, HB_EINVAL,
		                    "invalid %s '%s' for family '%s': true or false expected",
		                    r->name, val, family);
	case HB_CFATTR_ENUM:
		if (r->values == bloom_values && ascii_upper_eq(val, "ROWPREFIX_FIXED_LENGTH"))
			return hb_error_set(err, HB_EINVAL,
			                    "BLOOMFILTER ROWPREFIX_FIXED_LENGTH for family '%s' "
			                    "would be refused by "
			                    "HBase: it needs the family configuration "
			                    "RowPrefixBloomFilter.prefix_length, "
			                    "which hbtab does not set (use ROW or ROWCOL, or "
			                    "create the table in the "
			                    "hbase shell with that configuration)",
			                    family);
		for (i = 0; r->values[i]; i++)
			if (ascii_upper_eq(val, r->values[i])) {
				*num = (int32_t)i;
				*canon = r->values[i];
				return 0;
			}
		return bad_enum(r, val, family, err);
	}
	return hb_error_set(err, HB_EINVAL, "invalid %s '%s'", r->name, val);
}

int hb_family_normalize(struct hb_family *f, struct hb_error *err)
{
	size_t i;

	for (i = 0; i < f->attrs.n; i++) {
		struct hb_attr *a = &f->attrs.v[i];
		const struct hb_cfattr *r = hb_cfattr_find(a->key);
		const char *canon;
		int32_t v;
		int rc;

		if (!r)
			continue;
		rc = hb_cfattr_value(r, a->value, f->name, &v, &canon, err);
		if (rc)
			return rc;
		if (canon && strcmp(canon, a->value)) {
			char *c = strdup(canon);

			if (!c)
				return hb_error_set(err, HB_ENOMEM, "out of memory");
			free(a->value);
			a->value = c;
		}
	}
	return 0;
}
