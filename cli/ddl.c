/* The DDL channels of `create`: choice, Thrift2/shell/REST/print, the shell script, the
 * SPLITS_FILE and the JSON plan; --family/--attr parsing. */
#include "ddl.h"

#include "../core/activity.h"
#include "../core/family.h"
#include "../core/thrift.h"
#include "../core/tname.h"
#include "../rest/hbase.h"
#include "../rest/shellrun.h"
#include "../rest/tempfile.h"
#include "../rest/thrift2.h"
#include "cli.h"
#include "output.h"
#include "rest_cli.h"
#include "splitspec.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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

		rc = name[k]
		         ? hb_error_set(err, HB_EINVAL,
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
			if (hb_cfattr_known(up) || !strcmp(up, "NAME"))
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
static int check_known_attr(const char *spec, const char *key, const char *v, struct hb_error *err)
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
				    "invalid --attr '%s': %s must be a whole number from 1 "
				    "to %lld",
				    spec, key, max);
			return 0;
		}
		case ATTR_BOOL:
			/* Java's Boolean.parseBoolean reads anything but "true" as false. */
			if (strcasecmp(v, "true") && strcasecmp(v, "false"))
				return hb_error_set(err, HB_EINVAL,
				                    "invalid --attr '%s': %s must be true or false",
				                    spec, key);
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
				return hb_error_set(
				    err, HB_EINVAL,
				    "invalid --attr '%s': %s must be a Java class name", spec, key);
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

			if (!hb_cfattr_known(a->key)) {
				unknown = 1;
				continue;
			}
			rc = hb_buf_addf(out, ", %s => ", a->key);
			/* numbers go unquoted (the shell passes them to JInteger) */
			if (!rc && hb_cfattr_is_number(a->key))
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

/* ---------------------------------------------------------------- channels */

static const char *const via_names[] = {"thrift2", "shell", "rest", "print", "none"};

const char *cli_via_name(enum cli_via via)
{
	return via_names[via];
}

static const char *shell_command(void)
{
	return cli_g.hbase_shell ? cli_g.hbase_shell : "hbase shell -n";
}

/* The shell command's argv[0] on PATH? -1 (message printed) for an unusable command. */
static int shell_available(void)
{
	struct hb_argv av;
	struct hb_error err = {0};
	int found;

	if (hb_argv_split(&av, shell_command(), &err)) {
		cli_fail(&err);
		return -1;
	}
	found = hb_shell_command_found(av.v[0]);
	hb_argv_release(&av);
	return found;
}

int cli_ddl_pick(enum cli_via *out, const char *via, size_t n)
{
	int thrift = cli_g.thrift_url && *cli_g.thrift_url;

	if (!via || !strcmp(via, "auto")) {
		int sh = thrift ? 0 : shell_available();

		if (sh < 0)
			return HB_EINVAL;
		if (thrift)
			*out = CLI_VIA_THRIFT2;
		else if (sh)
			*out = CLI_VIA_SHELL;
		else if (n == 1)
			*out = CLI_VIA_REST;
		else
			*out = CLI_VIA_NONE; /* a table made from '--via print' is adopted */
		return 0;
	}
	if (!strcmp(via, "thrift2"))
		*out = CLI_VIA_THRIFT2;
	else if (!strcmp(via, "shell"))
		*out = CLI_VIA_SHELL;
	else if (!strcmp(via, "rest"))
		*out = CLI_VIA_REST;
	else if (!strcmp(via, "print"))
		*out = CLI_VIA_PRINT;
	else
		return cli_usage_error("create",
		                       "invalid --via '%s' (expected auto, thrift2, "
		                       "shell, rest or print)",
		                       via);
	if (*out == CLI_VIA_THRIFT2 && !thrift) {
		cli_error("--via thrift2 needs the Thrift2 server's URL (--thrift URL, "
		          "HBTAB_THRIFT or the config file)");
		return HB_EINVAL;
	}
	if (*out == CLI_VIA_REST && n > 1) {
		cli_error("--via rest cannot create %zu regions: the REST gateway's schema "
		          "resource always creates a single region and no REST resource splits",
		          n);
		cli_error("use '--via thrift2' (HBase >= 2.2 with --thrift URL), '--via shell', "
		          "or '--via print' for a script to run in 'hbase shell'");
		return HB_EINVAL;
	}
	return 0;
}

int cli_ddl_print(const struct hb_schema *s, const struct hb_keys *splits, int default_family)
{
	struct hb_buf out = HB_BUF_INIT;
	int rc;

	if (cli_g.output == CLI_OUT_JSON) {
		rc = cli_ddl_json_plan(&out, s, splits);
		/* the plan is one object: the default-family flag goes in before its end */
		if (!rc && out.len >= 2 && !memcmp(out.data + out.len - 2, "}\n", 2)) {
			out.len -= 2;
			rc = hb_buf_addf(&out, ",\"default_family\":%s}\n",
			                 default_family ? "true" : "false");
		}
	} else {
		rc = default_family && s->nfamilies
		         ? hb_buf_addf(
		               &out, "# column family '%s': the default (--family names others)\n",
		               s->families[0].name)
		         : 0;
		if (!rc)
			rc = cli_ddl_shell_script(&out, s, splits, NULL);
	}
	if (!rc)
		rc = cli_write_stdout(out.data, out.len);
	hb_buf_release(&out);
	return cli_exit(rc);
}

/* Names the create call for the progress line while it blocks. */
static void activity(const char *table, const char *channel)
{
	char label[200];

	snprintf(label, sizeof(label), "creating table '%s' %s", table, channel);
	hb_activity_begin(label);
}

static int ddl_thrift2(const struct hb_schema *s, const struct hb_keys *splits, double wait,
                       int *race, struct hb_error *err)
{
	struct hb_thrift2 *t = NULL;
	enum hb_thrift_outcome outcome = HB_TR_VOID;
	int rc;

	/* createTable is synchronous: the server returns once every region is assigned */
	rc = cli_thrift2_open(&t, cli_g.timeout + wait, err);
	if (rc)
		return rc;
	activity(s->table, "over Thrift2");
	rc = hb_thrift2_create_table(t, s, splits, &outcome, err);
	hb_activity_end();
	/* A TIOError is what TableExistsException becomes: re-check before failing. */
	if (rc && outcome == HB_TR_IOERROR)
		*race = CLI_DDL_RACE_OTHER;
	hb_thrift2_free(t);
	return rc;
}

/* Sorts out what a finished shell run means (the caller re-reads the table after any
 * failure): the exit status is a hint and the text only the message. */
static int shell_outcome(const char *table, const struct hb_shell_result *res, double timeout,
                         int *race, struct hb_error *err)
{
	char line[512];

	/*
	 * 2.4.8 exits 1 after a clean run and some builds never exit (docs/hbase-versions.md,
	 * "hbase shell"): without an ERROR line the table that appears is ours.
	 */
	if (hb_shell_error_line(res, line, sizeof(line))) {
		const char *cls, *msg;
		size_t cls_len;

		hb_shell_error_parts(line, &cls, &cls_len, &msg);
		*race = CLI_DDL_RACE_OTHER;
		if (cls)
			return hb_error_set(err, HB_ESERVER,
			                    "shell create '%s' failed (%.*s, %s %d): %s", table,
			                    (int)cls_len, cls, res->exited ? "exit" : "signal",
			                    res->exited ? res->status : res->signal, msg);
		return hb_error_set(err, HB_ESERVER, "shell create '%s' failed (%s %d): %s", table,
		                    res->exited ? "exit" : "signal",
		                    res->exited ? res->status : res->signal, msg);
	}
	if (res->timed_out) {
		*race = CLI_DDL_RACE_OURS;
		return hb_error_set(err, HB_ENET,
		                    "shell create '%s' timed out after %.0f s and was killed (some "
		                    "hbase shells hang after the script ends)",
		                    table, timeout);
	}
	if (!res->exited || res->status) {
		if (!hb_shell_last_line(res, line, sizeof(line)))
			memcpy(line, "(no output)", 12);
		*race = res->exited ? CLI_DDL_RACE_OURS : CLI_DDL_RACE_OTHER;
		return hb_error_set(err, HB_ESERVER, "shell create '%s' failed (%s %d): %s", table,
		                    res->exited ? "exit" : "signal",
		                    res->exited ? res->status : res->signal, line);
	}
	return 0;
}

static int ddl_shell(const struct hb_schema *s, const struct hb_keys *splits, double wait,
                     int *race, struct hb_error *err)
{
	const char *tmp = hb_temp_dir();
	struct hb_buf script = HB_BUF_INIT, body = HB_BUF_INIT, spath = HB_BUF_INIT,
	              fpath = HB_BUF_INIT;
	struct hb_argv av = {NULL, 0};
	struct hb_shell_result res;
	int rc, have_file = 0, have_script = 0;

	hb_shell_result_init(&res);
	rc = hb_argv_split(&av, shell_command(), err);
	if (rc)
		goto done;
	if (splits->n > CLI_DDL_INLINE_MAX) {
		if (hb_buf_addf(&fpath, "%s/hbtab-splits-XXXXXX.txt", tmp) ||
		    cli_ddl_splits_file(&body, splits)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			goto done;
		}
		rc = hb_shell_write_temp(fpath.data, 4, body.data, body.len, err);
		if (rc)
			goto done;
		have_file = 1;
	}
	if (hb_buf_addf(&spath, "%s/hbtab-create-XXXXXX.rb", tmp) ||
	    cli_ddl_shell_script(&script, s, splits, have_file ? fpath.data : NULL)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	rc = hb_shell_write_temp(spath.data, 3, script.data, script.len, err);
	if (rc)
		goto done;
	have_script = 1;
	if (hb_argv_push(&av, spath.data)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	cli_verbose("running %s %s", cli_g.hbase_shell, spath.data);
	activity(s->table, "with the hbase shell");
	rc = hb_shell_run(&av, cli_g.timeout + wait, &res, err);
	hb_activity_end();
	if (rc)
		goto done;
	cli_verbose("shell ended after %.2f s (exit %d, signal %d)", res.seconds, res.status,
	            res.signal);
	rc = shell_outcome(s->table, &res, cli_g.timeout + wait, race, err);
done:
	if (have_script)
		hb_shell_remove_temp(spath.data);
	if (have_file)
		hb_shell_remove_temp(fpath.data);
	hb_argv_release(&av);
	hb_shell_result_release(&res);
	hb_buf_release(&script);
	hb_buf_release(&body);
	hb_buf_release(&spath);
	hb_buf_release(&fpath);
	return rc;
}

int cli_ddl_create(enum cli_via via, struct hb_rest *rest, const struct hb_schema *s,
                   const struct hb_keys *splits, double wait, int *race, struct hb_error *err)
{
	int rc;

	switch (via) {
	case CLI_VIA_THRIFT2:
		return ddl_thrift2(s, splits, wait, race, err);
	case CLI_VIA_SHELL:
		return ddl_shell(s, splits, wait, race, err);
	case CLI_VIA_REST:
		/* Only reached after hb_rest_table_exists said "absent" (never PUT over a table).
		 */
		activity(s->table, "over REST");
		rc = hb_rest_create_schema(rest, s, err);
		hb_activity_end();
		if (rc == HB_ESAFETY)
			*race = CLI_DDL_RACE_OTHER;
		return rc;
	case CLI_VIA_NONE:
		cli_error("cannot create a pre-split table: no Thrift2 server is configured "
		          "(--thrift URL) and the hbase shell command '%s' is not on PATH",
		          shell_command());
		cli_error("the REST gateway always creates a single region (it has no split "
		          "keys), so it cannot make %zu regions",
		          splits->n + 1);
		return hb_error_set(err, HB_EINVAL,
		                    "use '--via print' to get a script for 'hbase shell', or set "
		                    "--thrift / --hbase-shell");
	case CLI_VIA_PRINT:
		break;
	}
	HB_BUG("print reached the DDL step");
	return HB_EINVAL;
}
