/* What the DDL channels send: --family / --attr rules, the hbase shell script, the SPLITS_FILE
 * lines and the JSON plan, all computed from the schema model. */
#include "ddlscript.h"

#include "family.h"
#include "jsonstr.h"
#include "tname.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Checks text for control bytes and malformed UTF-8 (it ends up in Ruby and JSON). */
static int check_text(const char *what, const char *s, struct hb_error *err)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (u[i]) {
		unsigned char c = u[i];
		size_t need = 0, j;

		if (c < 0x20 || c == 0x7f)
			return hb_error_set(err, HB_EINVAL,
			                    "invalid %s: control character \\x%02X at byte %zu",
			                    what, c, i);
		if (c >= 0x80) {
			if ((c & 0xE0) == 0xC0 && c >= 0xC2)
				need = 1;
			else if ((c & 0xF0) == 0xE0)
				need = 2;
			else if ((c & 0xF8) == 0xF0 && c <= 0xF4)
				need = 3;
			else
				return hb_error_set(err, HB_EINVAL,
				                    "invalid %s: not UTF-8 at byte %zu", what, i);
			for (j = 1; j <= need; j++)
				if ((u[i + j] & 0xC0) != 0x80)
					return hb_error_set(err, HB_EINVAL,
					                    "invalid %s: not UTF-8 at byte %zu",
					                    what, i);
		}
		i += need + 1;
	}
	return 0;
}

static void upcase(char *s)
{
	for (; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			*s = (char)(*s - 32);
}

/* One "ATTR=VALUE" item p (modified) of the family spec, added to f; what names the spec. */
static int family_attr(struct hb_family *f, const char *what, const char *spec, char *p,
                       struct hb_error *err)
{
	char *eq = strchr(p, '=');
	char key[128], up[128];
	int rc;

	if (!eq || eq == p)
		return hb_error_set(err, HB_EINVAL,
		                    "invalid %s '%s': expected NAME:ATTR=VALUE,... but got '%s'",
		                    what, spec, p);
	*eq = 0;
	if (strlen(p) >= sizeof(key))
		return hb_error_set(err, HB_EINVAL, "invalid %s '%s': attribute name too long",
		                    what, spec);
	memcpy(key, p, strlen(p) + 1);
	memcpy(up, key, strlen(key) + 1);
	upcase(up);
	if (hb_cfattr_known(up) || !strcmp(up, "NAME"))
		memcpy(key, up, strlen(up) + 1);
	if (!strcmp(key, "NAME") || !strcmp(key, "METADATA") || !strcmp(key, "CONFIGURATION"))
		return hb_error_set(err, HB_EINVAL,
		                    "invalid %s '%s': attribute '%s' cannot be set here", what,
		                    spec, key);
	rc = check_text("family attribute name", key, err);
	if (!rc)
		rc = check_text("family attribute value", eq + 1, err);
	if (!rc && hb_attrs_get(&f->attrs, key))
		rc = hb_error_set(err, HB_EINVAL, "invalid %s '%s': '%s' given twice", what, spec,
		                  key);
	if (!rc && hb_attrs_set(&f->attrs, key, eq + 1))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	return rc;
}

/* HBase would take "info,VERSIONS=3" as a family name: it is a missing ':'. */
static int missing_colon(const char *what, const char *spec, const char *name, struct hb_error *err)
{
	size_t k = strcspn(name, ",");

	if (name[k])
		return hb_error_set(err, HB_EINVAL,
		                    "invalid %s '%s': attributes follow a ':' (did you mean "
		                    "'%.*s:%s'?)",
		                    what, spec, (int)k, name, name + k + 1);
	return hb_error_set(err, HB_EINVAL,
	                    "invalid %s '%s': attributes follow a ':' (NAME:ATTR=VALUE,...)", what,
	                    spec);
}

int hb_ddlscript_add_family(struct hb_schema *s, const char *spec, const char *what,
                            struct hb_error *err)
{
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	char *name = strndup(spec, nlen), *list = NULL, *p;
	struct hb_family *f;
	int rc = 0;

	if (!name)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!colon && strchr(name, '=')) {
		rc = missing_colon(what ? what : "family", spec, name, err);
		goto done;
	}
	rc = hb_family_check(name, err);
	if (!rc)
		rc = check_text("family name", name, err);
	if (!rc && hb_schema_family(s, name))
		rc = hb_error_set(err, HB_EINVAL, "family '%s' is given twice", name);
	if (!rc && hb_schema_add_family(s, name, &f))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (rc || !colon)
		goto done;
	list = strdup(colon + 1);
	if (!list) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	for (p = list; !rc && p && *p;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = 0;
		rc = family_attr(f, what ? what : "family", spec, p, err);
		p = comma ? comma + 1 : NULL;
	}
	if (!rc)
		rc = hb_family_normalize(f, err);
done:
	free(list);
	free(name);
	return rc;
}

/* What a known table attribute (TableDescriptorBuilder's keys) must look like. */
enum attr_kind { ATTR_LONG, ATTR_INT, ATTR_BOOL, ATTR_DURABILITY, ATTR_CLASS };

static const struct {
	const char *key;
	enum attr_kind kind;
} known_attrs[] = {
    {"MAX_FILESIZE", ATTR_LONG},
    {"MEMSTORE_FLUSHSIZE", ATTR_LONG},
    {"NORMALIZER_TARGET_REGION_SIZE_MB", ATTR_LONG},
    {"NORMALIZER_TARGET_REGION_SIZE", ATTR_LONG},
    {"NORMALIZER_TARGET_REGION_COUNT", ATTR_INT},
    {"REGION_REPLICATION", ATTR_INT},
    {"PRIORITY", ATTR_INT},
    {"KeyPrefixRegionSplitPolicy.prefix_length", ATTR_INT},
    {"prefix_split_key_policy.prefix_length", ATTR_INT},
    {"hbase.regionserver.region.split_restriction.prefix_length", ATTR_INT},
    {"READONLY", ATTR_BOOL},
    {"COMPACTION_ENABLED", ATTR_BOOL},
    {"SPLIT_ENABLED", ATTR_BOOL},
    {"MERGE_ENABLED", ATTR_BOOL},
    {"NORMALIZATION_ENABLED", ATTR_BOOL},
    {"REGION_MEMSTORE_REPLICATION", ATTR_BOOL},
    {"DURABILITY", ATTR_DURABILITY},
    {"SPLIT_POLICY", ATTR_CLASS},
};

/* A Java class name: dot-separated identifiers. */
static int is_class_name(const char *v)
{
	int start = 1;

	if (!*v)
		return 0;
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;

		if (c == '.') {
			if (start)
				return 0;
			start = 1;
			continue;
		}
		if (!(isalpha(c) || c == '_' || c == '$' || (!start && isdigit(c))))
			return 0;
		start = 0;
	}
	return !start;
}

/* Checks the value of a table attribute HBase parses (Long/Integer/Boolean/enum/class). */
static int check_known_attr(const char *what, const char *spec, const char *key, const char *v,
                            struct hb_error *err)
{
	static const char *const durability[] = {"USE_DEFAULT", "SKIP_WAL", "ASYNC_WAL", "SYNC_WAL",
	                                         "FSYNC_WAL"};
	size_t i, j;

	for (i = 0; i < HB_ARRAY_LEN(known_attrs); i++) {
		if (strcmp(known_attrs[i].key, key))
			continue;
		switch (known_attrs[i].kind) {
		case ATTR_LONG:
		case ATTR_INT: {
			long long max = known_attrs[i].kind == ATTR_INT ? 2147483647LL : LLONG_MAX;
			char *end = (char *)v;
			long long n;

			errno = 0;
			n = *v == '-' || *v == '+' || isspace((unsigned char)*v)
			        ? -1
			        : strtoll(v, &end, 10);
			if (n < 1 || errno || *end || n > max)
				return hb_error_set(
				    err, HB_EINVAL,
				    "invalid %s '%s': %s must be a whole number from 1 "
				    "to %lld",
				    what, spec, key, max);
			return 0;
		}
		case ATTR_BOOL:
			/* Java's Boolean.parseBoolean reads anything but "true" as false. */
			if (strcasecmp(v, "true") && strcasecmp(v, "false"))
				return hb_error_set(err, HB_EINVAL,
				                    "invalid %s '%s': %s must be true or false",
				                    what, spec, key);
			return 0;
		case ATTR_DURABILITY:
			for (j = 0; j < HB_ARRAY_LEN(durability); j++)
				if (!strcmp(v, durability[j]))
					return 0;
			return hb_error_set(err, HB_EINVAL,
			                    "invalid %s '%s': DURABILITY must be USE_DEFAULT, "
			                    "SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL",
			                    what, spec);
		case ATTR_CLASS:
			if (!is_class_name(v))
				return hb_error_set(err, HB_EINVAL,
				                    "invalid %s '%s': %s must be a Java class name",
				                    what, spec, key);
			return 0;
		}
	}
	return 0;
}

int hb_ddlscript_add_attr(struct hb_schema *s, const char *spec, const char *what,
                          struct hb_error *err)
{
	static const char *const reserved[] = {"SPLITS", "SPLITS_FILE", "NUMREGIONS",   "SPLITALGO",
	                                       "NAME",   "METADATA",    "CONFIGURATION"};
	const char *eq = strchr(spec, '=');
	char *key;
	size_t i;
	int rc = 0;

	if (!what)
		what = "table attribute";
	if (!eq || eq == spec)
		return hb_error_set(err, HB_EINVAL, "invalid %s '%s': expected KEY=VALUE", what,
		                    spec);
	key = strndup(spec, (size_t)(eq - spec));
	if (!key)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (i = 0; i < HB_ARRAY_LEN(reserved); i++)
		if (!strcmp(key, reserved[i]))
			rc = hb_error_set(err, HB_EINVAL,
			                  "invalid %s '%s': '%s' is not a table attribute (use "
			                  "the split-specification flags)",
			                  what, spec, key);
	if (!rc)
		rc = check_text("table attribute name", key, err);
	if (!rc)
		rc = check_text("table attribute value", eq + 1, err);
	if (!rc)
		rc = check_known_attr(what, spec, key, eq + 1, err);
	if (!rc && hb_attrs_get(&s->attrs, key))
		rc = hb_error_set(err, HB_EINVAL, "invalid %s: '%s' given twice", what, key);
	if (!rc && hb_attrs_set(&s->attrs, key, eq + 1))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	free(key);
	return rc;
}

int hb_ddlscript_ruby_str(struct hb_buf *out, const char *s)
{
	int rc = hb_buf_addc(out, '\'');

	for (; !rc && *s; s++) {
		if (*s == '\'' || *s == '\\')
			rc = hb_buf_addc(out, '\\');
		if (!rc)
			rc = hb_buf_addc(out, *s);
	}
	return rc ? rc : hb_buf_addc(out, '\'');
}

/* toStringBinary for the shell channel: quote also escapes 0x27 (the key is single-quoted). */
static int key_text(struct hb_buf *out, const unsigned char *k, size_t n, int quote)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;

	if (hb_buf_grow(out, n * 4))
		return HB_ENOMEM;
	for (i = 0; i < n; i++) {
		unsigned char c = k[i];
		int esc = c < 0x20 || c > 0x7E || c == '\\' || (quote && c == '\'') ||
		          (c == ' ' && (i == 0 || i + 1 == n));

		if (esc) {
			char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};

			memcpy(out->data + out->len, e, 4);
			out->len += 4;
		} else {
			out->data[out->len++] = (char)c;
		}
	}
	out->data[out->len] = '\0';
	return 0;
}

int hb_ddlscript_shell_key(struct hb_buf *out, const void *k, size_t n)
{
	return key_text(out, k, n, 1);
}

int hb_ddlscript_file_key(struct hb_buf *out, const void *k, size_t n)
{
	return key_text(out, k, n, 0);
}

static int add_metadata(struct hb_buf *out, const struct hb_attrs *a, int skip_known)
{
	size_t i, n = 0;
	int rc = 0;

	for (i = 0; i < a->n; i++)
		if (!skip_known || !hb_cfattr_known(a->v[i].key))
			n++;
	if (!n)
		return 0;
	rc = hb_buf_adds(out, "METADATA => {");
	for (i = 0, n = 0; !rc && i < a->n; i++) {
		if (skip_known && hb_cfattr_known(a->v[i].key))
			continue;
		if (n++)
			rc = hb_buf_adds(out, ", ");
		if (!rc)
			rc = hb_ddlscript_ruby_str(out, a->v[i].key);
		if (!rc)
			rc = hb_buf_adds(out, " => ");
		if (!rc)
			rc = hb_ddlscript_ruby_str(out, a->v[i].value);
	}
	return rc ? rc : hb_buf_adds(out, "}");
}

/* ",\n  {NAME => 'F', ATTR => V, ..., METADATA => {...}}" for family f. */
static int shell_family(struct hb_buf *out, const struct hb_family *f)
{
	size_t k;
	int unknown = 0, rc;

	rc = hb_buf_adds(out, ",\n  {NAME => ");
	if (!rc)
		rc = hb_ddlscript_ruby_str(out, f->name);
	for (k = 0; !rc && k < f->attrs.n; k++) {
		const struct hb_attr *a = &f->attrs.v[k];

		if (!hb_cfattr_known(a->key)) {
			unknown = 1;
			continue;
		}
		rc = hb_buf_addf(out, ", %s => ", a->key);
		/* numbers go unquoted (the shell passes them to JInteger) */
		if (!rc && hb_cfattr_is_number(a->key))
			rc = hb_buf_adds(out, a->value);
		else if (!rc)
			rc = hb_ddlscript_ruby_str(out, a->value);
	}
	if (!rc && unknown) {
		rc = hb_buf_adds(out, ", ");
		if (!rc)
			rc = add_metadata(out, &f->attrs, 1);
	}
	return rc ? rc : hb_buf_adds(out, "}");
}

/* "SPLITS_FILE => 'path'" or "SPLITS => [\n    'k', ...\n  ]". */
static int shell_splits(struct hb_buf *out, const struct hb_keys *splits, const char *splits_path)
{
	size_t k;
	int rc;

	if (splits_path) {
		rc = hb_buf_adds(out, "SPLITS_FILE => ");
		return rc ? rc : hb_ddlscript_ruby_str(out, splits_path);
	}
	rc = hb_buf_adds(out, "SPLITS => [");
	for (k = 0; !rc && k < splits->n; k++) {
		size_t kl;
		const unsigned char *key = hb_keys_at(splits, k, &kl);

		rc = hb_buf_adds(out, k ? ",\n    '" : "\n    '");
		if (!rc)
			rc = hb_ddlscript_shell_key(out, key, kl);
		if (!rc)
			rc = hb_buf_addc(out, '\'');
	}
	return rc ? rc : hb_buf_adds(out, "\n  ]");
}

int hb_ddlscript_shell_script(struct hb_buf *out, const struct hb_schema *s,
                              const struct hb_keys *splits, const char *splits_path)
{
	size_t i;
	int rc, have_splits = splits && splits->n;

	rc = hb_buf_adds(out, "# hbtab create: one table, verified afterwards over REST\ncreate ");
	if (!rc)
		rc = hb_ddlscript_ruby_str(out, s->table);
	for (i = 0; !rc && i < s->nfamilies; i++)
		rc = shell_family(out, &s->families[i]);
	if (!rc && (have_splits || s->attrs.n)) {
		rc = hb_buf_adds(out, ",\n  {");
		if (!rc && s->attrs.n)
			rc = add_metadata(out, &s->attrs, 0);
		if (!rc && have_splits && s->attrs.n)
			rc = hb_buf_adds(out, ",\n   ");
		if (!rc && have_splits)
			rc = shell_splits(out, splits, splits_path);
		if (!rc)
			rc = hb_buf_adds(out, "}");
	}
	return rc ? rc : hb_buf_adds(out, "\nexit\n");
}

int hb_ddlscript_splits_file(struct hb_buf *out, const struct hb_keys *splits)
{
	size_t k;
	int rc = 0;

	for (k = 0; !rc && k < splits->n; k++) {
		size_t kl;
		const unsigned char *key = hb_keys_at(splits, k, &kl);

		rc = hb_ddlscript_file_key(out, key, kl);
		if (!rc)
			rc = hb_buf_addc(out, '\n');
	}
	return rc;
}

static int json_attrs(struct hb_buf *out, const struct hb_attrs *a)
{
	size_t i;
	int rc = hb_buf_addc(out, '{');

	for (i = 0; !rc && i < a->n; i++) {
		if (i)
			rc = hb_buf_addc(out, ',');
		if (!rc)
			rc = hb_json_strz(out, a->v[i].key);
		if (!rc)
			rc = hb_buf_addc(out, ':');
		if (!rc)
			rc = hb_json_strz(out, a->v[i].value);
	}
	return rc ? rc : hb_buf_addc(out, '}');
}

/* {"key":TSB,"base64":B64} of one split key. */
static int json_split(struct hb_buf *out, const unsigned char *key, size_t kl)
{
	struct hb_buf t = HB_BUF_INIT;
	int rc = hb_buf_adds(out, "{\"key\":");

	if (!rc)
		rc = hb_tsb_append(&t, key, kl);
	if (!rc)
		rc = hb_json_strz(out, hb_buf_str(&t));
	hb_buf_release(&t);
	if (!rc)
		rc = hb_buf_adds(out, ",\"base64\":\"");
	if (!rc)
		rc = hb_b64_encode(out, key, kl);
	return rc ? rc : hb_buf_adds(out, "\"}");
}

int hb_ddlscript_json_plan(struct hb_buf *out, const struct hb_schema *s,
                           const struct hb_keys *splits)
{
	size_t i, n = splits ? splits->n : 0;
	int rc;

	rc = hb_buf_adds(out, "{\"table\":");
	if (!rc)
		rc = hb_json_strz(out, s->table);
	/* the fields of every create document: nothing was created or verified by a plan */
	if (!rc)
		rc = hb_buf_adds(out, ",\"created\":false,\"verified\":false,\"via\":\"print\"");
	if (!rc)
		rc = hb_buf_adds(out, ",\"families\":[");
	for (i = 0; !rc && i < s->nfamilies; i++) {
		rc = hb_buf_adds(out, i ? ",{\"name\":" : "{\"name\":");
		if (!rc)
			rc = hb_json_strz(out, s->families[i].name);
		if (!rc)
			rc = hb_buf_adds(out, ",\"attrs\":");
		if (!rc)
			rc = json_attrs(out, &s->families[i].attrs);
		if (!rc)
			rc = hb_buf_addc(out, '}');
	}
	if (!rc)
		rc = hb_buf_adds(out, "],\"attrs\":");
	if (!rc)
		rc = json_attrs(out, &s->attrs);
	if (!rc)
		rc = hb_buf_addf(out, ",\"regions\":%zu,\"splits\":[", n + 1);
	for (i = 0; !rc && i < n; i++) {
		size_t kl;
		const unsigned char *key = hb_keys_at(splits, i, &kl);

		if (i)
			rc = hb_buf_addc(out, ',');
		if (!rc)
			rc = json_split(out, key, kl);
	}
	return rc ? rc : hb_buf_adds(out, "]}\n");
}
