/* Shell-script, SPLITS_FILE and JSON-plan generation for `create`; --family/--attr parsing. */
#include "ddl.h"

#include "../core/thrift.h"
#include "../core/tname.h"
#include "output.h"
#include "splitspec.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
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

int cli_ddl_add_family(struct hb_schema *s, const char *spec, struct hb_error *err)
{
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	char *name = strndup(spec, nlen), *list = NULL, *p;
	struct hb_family *f;
	int rc = 0;

	if (!name)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	/* HBase would take "info,VERSIONS=3" as a family name; it is a missing ':' */
	if (!colon && strchr(name, '=')) {
		size_t k = strcspn(name, ",");

		rc = name[k] ? hb_error_set(err, HB_EINVAL,
		                            "invalid --family '%s': attributes follow a ':' (did you "
		                            "mean '%.*s:%s'?)",
		                            spec, (int)k, name, name + k + 1)
		             : hb_error_set(err, HB_EINVAL,
		                            "invalid --family '%s': attributes follow a ':' "
		                            "(NAME:ATTR=VALUE,...)",
		                            spec);
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
		char *comma = strchr(p, ','), *eq;
		char key[128];

		if (comma)
			*comma = 0;
		eq = strchr(p, '=');
		if (!eq || eq == p) {
			rc = hb_error_set(
			    err, HB_EINVAL,
			    "invalid --family '%s': expected NAME:ATTR=VALUE,... but got "
			    "'%s'",
			    spec, p);
			break;
		}
		*eq = 0;
		if (strlen(p) >= sizeof(key)) {
			rc = hb_error_set(err, HB_EINVAL,
			                  "invalid --family '%s': attribute name too "
			                  "long",
			                  spec);
			break;
		}
		memcpy(key, p, strlen(p) + 1);
		{
			char up[128];

			memcpy(up, key, strlen(key) + 1);
			upcase(up);
			if (hb_thrift_family_attr_known(up) || !strcmp(up, "NAME"))
				memcpy(key, up, strlen(up) + 1);
		}
		if (!strcmp(key, "NAME") || !strcmp(key, "METADATA") ||
		    !strcmp(key, "CONFIGURATION")) {
			rc = hb_error_set(
			    err, HB_EINVAL,
			    "invalid --family '%s': attribute '%s' cannot be set here", spec, key);
			break;
		}
		rc = check_text("family attribute name", key, err);
		if (!rc)
			rc = check_text("family attribute value", eq + 1, err);
		if (!rc && hb_attrs_get(&f->attrs, key))
			rc = hb_error_set(err, HB_EINVAL, "invalid --family '%s': '%s' given twice",
			                  spec, key);
		if (!rc && hb_attrs_set(&f->attrs, key, eq + 1))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		p = comma ? comma + 1 : NULL;
	}
	if (!rc)
		rc = hb_thrift_family_normalize(f, err);
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
static int check_known_attr(const char *spec, const char *key, const char *v,
                            struct hb_error *err)
{
	static const char *const durability[] = {"USE_DEFAULT", "SKIP_WAL", "ASYNC_WAL",
	                                         "SYNC_WAL", "FSYNC_WAL"};
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
			n = *v == '-' || *v == '+' || isspace((unsigned char)*v) ? -1 : strtoll(v, &end, 10);
			if (n < 1 || errno || *end || n > max)
				return hb_error_set(err, HB_EINVAL,
				                    "invalid --attr '%s': %s must be a whole number from 1 "
				                    "to %lld",
				                    spec, key, max);
			return 0;
		}
		case ATTR_BOOL:
			/* Java's Boolean.parseBoolean reads anything but "true" as false. */
			if (strcasecmp(v, "true") && strcasecmp(v, "false"))
				return hb_error_set(err, HB_EINVAL,
				                    "invalid --attr '%s': %s must be true or false", spec,
				                    key);
			return 0;
		case ATTR_DURABILITY:
			for (j = 0; j < HB_ARRAY_LEN(durability); j++)
				if (!strcmp(v, durability[j]))
					return 0;
			return hb_error_set(err, HB_EINVAL,
			                    "invalid --attr '%s': DURABILITY must be USE_DEFAULT, "
			                    "SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL",
			                    spec);
		case ATTR_CLASS:
			if (!is_class_name(v))
				return hb_error_set(err, HB_EINVAL,
				                    "invalid --attr '%s': %s must be a Java class name", spec,
				                    key);
			return 0;
		}
	}
	return 0;
}

int cli_ddl_add_attr(struct hb_schema *s, const char *spec, struct hb_error *err)
{
	static const char *const reserved[] = {"SPLITS", "SPLITS_FILE", "NUMREGIONS",   "SPLITALGO",
	                                       "NAME",   "METADATA",    "CONFIGURATION"};
	const char *eq = strchr(spec, '=');
	char *key;
	size_t i;
	int rc = 0;

	if (!eq || eq == spec)
		return hb_error_set(err, HB_EINVAL, "invalid --attr '%s': expected KEY=VALUE",
		                    spec);
	key = strndup(spec, (size_t)(eq - spec));
	if (!key)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (i = 0; i < HB_ARRAY_LEN(reserved); i++)
		if (!strcmp(key, reserved[i]))
			rc = hb_error_set(err, HB_EINVAL,
			                  "invalid --attr '%s': '%s' is not a table attribute (use "
			                  "the split-specification flags)",
			                  spec, key);
	if (!rc)
		rc = check_text("table attribute name", key, err);
	if (!rc)
		rc = check_text("table attribute value", eq + 1, err);
	if (!rc)
		rc = check_known_attr(spec, key, eq + 1, err);
	if (!rc && hb_attrs_get(&s->attrs, key))
		rc = hb_error_set(err, HB_EINVAL, "invalid --attr: '%s' given twice", key);
	if (!rc && hb_attrs_set(&s->attrs, key, eq + 1))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	free(key);
	return rc;
}

int cli_ddl_ruby_str(struct hb_buf *out, const char *s)
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

/* Integer-valued family attributes go unquoted (the shell passes them to JInteger). */
static int is_int_attr(const char *k)
{
	return !strcmp(k, "VERSIONS") || !strcmp(k, "MIN_VERSIONS") || !strcmp(k, "TTL") ||
	       !strcmp(k, "BLOCKSIZE") || !strcmp(k, "REPLICATION_SCOPE");
}

static int add_metadata(struct hb_buf *out, const struct hb_attrs *a, int skip_known)
{
	size_t i, n = 0;
	int rc = 0;

	for (i = 0; i < a->n; i++)
		if (!skip_known || !hb_thrift_family_attr_known(a->v[i].key))
			n++;
	if (!n)
		return 0;
	rc = hb_buf_adds(out, "METADATA => {");
	for (i = 0, n = 0; !rc && i < a->n; i++) {
		if (skip_known && hb_thrift_family_attr_known(a->v[i].key))
			continue;
		if (n++)
			rc = hb_buf_adds(out, ", ");
		if (!rc)
			rc = cli_ddl_ruby_str(out, a->v[i].key);
		if (!rc)
			rc = hb_buf_adds(out, " => ");
		if (!rc)
			rc = cli_ddl_ruby_str(out, a->v[i].value);
	}
	return rc ? rc : hb_buf_adds(out, "}");
}

int cli_ddl_shell_script(struct hb_buf *out, const struct hb_schema *s,
                         const struct hb_keys *splits, const char *splits_path)
{
	size_t i, k;
	int rc;

	rc = hb_buf_adds(out, "# hbtab create: one table, verified afterwards over REST\ncreate ");
	if (!rc)
		rc = cli_ddl_ruby_str(out, s->table);
	for (i = 0; !rc && i < s->nfamilies; i++) {
		const struct hb_family *f = &s->families[i];
		int unknown = 0;

		rc = hb_buf_adds(out, ",\n  {NAME => ");
		if (!rc)
			rc = cli_ddl_ruby_str(out, f->name);
		for (k = 0; !rc && k < f->attrs.n; k++) {
			const struct hb_attr *a = &f->attrs.v[k];

			if (!hb_thrift_family_attr_known(a->key)) {
				unknown = 1;
				continue;
			}
			rc = hb_buf_addf(out, ", %s => ", a->key);
			if (!rc && is_int_attr(a->key))
				rc = hb_buf_adds(out, a->value);
			else if (!rc)
				rc = cli_ddl_ruby_str(out, a->value);
		}
		if (!rc && unknown) {
			rc = hb_buf_adds(out, ", ");
			if (!rc)
				rc = add_metadata(out, &f->attrs, 1);
		}
		if (!rc)
			rc = hb_buf_adds(out, "}");
	}
	if (!rc && ((splits && splits->n) || s->attrs.n)) {
		int first = 1;

		rc = hb_buf_adds(out, ",\n  {");
		if (!rc && s->attrs.n) {
			rc = add_metadata(out, &s->attrs, 0);
			first = 0;
		}
		if (!rc && splits && splits->n) {
			if (!first)
				rc = hb_buf_adds(out, ",\n   ");
			if (!rc && splits_path) {
				rc = hb_buf_adds(out, "SPLITS_FILE => ");
				if (!rc)
					rc = cli_ddl_ruby_str(out, splits_path);
			} else if (!rc) {
				rc = hb_buf_adds(out, "SPLITS => [");
				for (k = 0; !rc && k < splits->n; k++) {
					size_t kl;
					const unsigned char *key = hb_keys_at(splits, k, &kl);

					rc = hb_buf_adds(out, k ? ",\n    '" : "\n    '");
					if (!rc)
						rc = cli_splitspec_shell_key(out, key, kl);
					if (!rc)
						rc = hb_buf_addc(out, '\'');
				}
				if (!rc)
					rc = hb_buf_adds(out, "\n  ]");
			}
		}
		if (!rc)
			rc = hb_buf_adds(out, "}");
	}
	if (!rc)
		rc = hb_buf_adds(out, "\nexit\n");
	return rc;
}

int cli_ddl_splits_file(struct hb_buf *out, const struct hb_keys *splits)
{
	size_t k;
	int rc = 0;

	for (k = 0; !rc && k < splits->n; k++) {
		size_t kl;
		const unsigned char *key = hb_keys_at(splits, k, &kl);

		rc = cli_splitspec_file_key(out, key, kl);
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
			rc = cli_json_str(out, a->v[i].key, strlen(a->v[i].key));
		if (!rc)
			rc = hb_buf_addc(out, ':');
		if (!rc)
			rc = cli_json_str(out, a->v[i].value, strlen(a->v[i].value));
	}
	return rc ? rc : hb_buf_addc(out, '}');
}

int cli_ddl_json_plan(struct hb_buf *out, const struct hb_schema *s, const struct hb_keys *splits)
{
	size_t i, n = splits ? splits->n : 0;
	int rc;

	rc = hb_buf_adds(out, "{\"table\":");
	if (!rc)
		rc = cli_json_str(out, s->table, strlen(s->table));
	/* the fields of every create document: nothing was created or verified by a plan */
	if (!rc)
		rc = hb_buf_adds(out, ",\"created\":false,\"verified\":false,\"via\":\"print\"");
	if (!rc)
		rc = hb_buf_adds(out, ",\"families\":[");
	for (i = 0; !rc && i < s->nfamilies; i++) {
		rc = hb_buf_adds(out, i ? ",{\"name\":" : "{\"name\":");
		if (!rc)
			rc = cli_json_str(out, s->families[i].name, strlen(s->families[i].name));
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

		rc = hb_buf_adds(out, i ? ",{\"key\":" : "{\"key\":");
		{
			struct hb_buf t = HB_BUF_INIT;

			if (!rc)
				rc = hb_tsb_append(&t, key, kl);
			if (!rc)
				rc = cli_json_str(out, t.data ? t.data : "", t.len);
			hb_buf_release(&t);
		}
		if (!rc)
			rc = hb_buf_adds(out, ",\"base64\":\"");
		if (!rc)
			rc = hb_b64_encode(out, key, kl);
		if (!rc)
			rc = hb_buf_adds(out, "\"}");
	}
	return rc ? rc : hb_buf_adds(out, "]}\n");
}
