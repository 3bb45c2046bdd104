/* hbtab meta get/set: the partition-count metadata row (row totalPartition, qualifier N). */
#include "../core/key.h"
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "output.h"
#include "rest_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] = "meta get TABLE [--metadata-family F] [--metadata-row R]\n"
                            "meta set TABLE N [--force] [--metadata-family F] [--metadata-row R]";

#define DEFAULT_ROW "totalPartition"

static const char *const fields[] = {"N", "keyspace", "splits", "created", "creator", "rotate"};

struct meta_ctx {
	const char *table;
	char *family;      /* malloc'ed */
	struct hb_buf row; /* raw row key */
	struct hb_buf row_tsb;
	struct hb_rest *c;
};

/* The metadata family: --metadata-family, else the table's first family from its schema. */
static int resolve(struct meta_ctx *m, const char *family, const char *row, struct hb_error *err)
{
	struct hb_schema s;
	int rc;

	if (hb_tbb_parse(&m->row, row, strlen(row), err))
		return hb_error_prefix(err, HB_EINVAL, "invalid --metadata-row '%s'", row);
	if (!m->row.len)
		return hb_error_set(err, HB_EINVAL, "--metadata-row must not be empty");
	if (m->row.len > HB_MAX_ROW_LENGTH)
		return hb_error_set(err, HB_EINVAL,
		                    "--metadata-row is %zu bytes; HBase rows are at most %d bytes",
		                    m->row.len, HB_MAX_ROW_LENGTH);
	if (hb_tsb_append(&m->row_tsb, m->row.data, m->row.len) || hb_buf_add(&m->row_tsb, "", 0))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (family) {
		if (!*family || strchr(family, ':'))
			return hb_error_set(err, HB_EINVAL, "invalid --metadata-family '%s'",
			                    family);
		m->family = strdup(family);
		return m->family ? 0 : hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_schema_init(&s);
	rc = hb_rest_get_schema(m->c, m->table, &s, err);
	if (rc == HB_ENOTFOUND)
		rc = hb_error_set(err, HB_ENOTFOUND, "table '%s' not found", m->table);
	else if (!rc && !s.nfamilies)
		rc = hb_error_set(err, HB_ESERVER, "table '%s' has no column family", m->table);
	else if (!rc && !(m->family = strdup(s.families[0].name)))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_schema_release(&s);
	return rc;
}

/* Reads the row's cells in the metadata family. */
static int read_row(struct meta_ctx *m, struct hb_row *out, int *found, struct hb_error *err)
{
	const char *cols[2] = {m->family, NULL};
	int rc = hb_rest_get_row(m->c, m->table, m->row.data, m->row.len, cols, out, found, err);

	if (rc == HB_ENOTFOUND)
		rc = hb_error_set(err, HB_ENOTFOUND, "table '%s' or family '%s' not found",
		                  m->table, m->family);
	return rc;
}

static const struct hb_cell *field(const struct meta_ctx *m, const struct hb_row *r, const char *q)
{
	char col[512];

	snprintf(col, sizeof(col), "%s:%s", m->family, q);
	return hb_row_cell(r, col);
}

/* N as stored: decimal ASCII, 1..2^31. */
static int parse_n(const void *p, size_t n, long *out)
{
	char buf[24];
	char *end;
	long v;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (*end || errno || v < 1 || v > 2147483647L)
		return -1;
	*out = v;
	return 0;
}

static int meta_get(struct meta_ctx *m, struct hb_error *err)
{
	struct hb_row r;
	struct hb_buf tmp = HB_BUF_INIT;
	int found = 0, rc;
	size_t i;
	long nval = 0;
	const struct hb_cell *nc;

	hb_row_init(&r);
	rc = read_row(m, &r, &found, err);
	if (rc)
		goto done;
	if (!found) {
		rc = hb_error_set(err, HB_EFINDING,
		                  "no metadata row '%s' in table '%s' (family '%s')",
		                  m->row_tsb.data, m->table, m->family);
		goto done;
	}
	nc = field(m, &r, "N");
	if (nc && parse_n(nc->value, nc->value_len, &nval)) {
		hb_tsb_append(&tmp, nc->value, nc->value_len);
		cli_warn("metadata row of table '%s' holds an invalid N '%s'", m->table,
		         hb_buf_str(&tmp));
		hb_buf_reset(&tmp);
	}
	if (cli_g.output == CLI_OUT_JSON) {
		cJSON *root = cJSON_CreateObject();
		int ok = cli_json_add_str(root, "table", m->table) &&
		         cli_json_add_str(root, "family", m->family) &&
		         cli_json_add_str(root, "row", m->row_tsb.data) &&
		         (nval ? cJSON_AddNumberToObject(root, "N", (double)nval)
		               : cJSON_AddNullToObject(root, "N"));

		for (i = 1; ok && i < HB_ARRAY_LEN(fields); i++) {
			const struct hb_cell *c = field(m, &r, fields[i]);

			hb_buf_reset(&tmp);
			if (c) {
				ok = !hb_tsb_append(&tmp, c->value, c->value_len) &&
				     !hb_buf_add(&tmp, "", 0) &&
				     cli_json_add_str(root, fields[i], tmp.data);
			} else {
				ok = cli_json_add_str(root, fields[i], NULL) != NULL;
			}
		}
		rc = ok ? cli_json_print(root) : HB_ENOMEM;
		cJSON_Delete(root);
	} else {
		static const char *const hdr[] = {"FIELD", "VALUE"};
		struct cli_table t;

		rc = cli_table_init(&t, 2, hdr);
		for (i = 0; !rc && i < HB_ARRAY_LEN(fields); i++) {
			const struct hb_cell *c = field(m, &r, fields[i]);

			if (!c)
				continue;
			hb_buf_reset(&tmp);
			rc = hb_tsb_append(&tmp, c->value, c->value_len) ||
			     hb_buf_add(&tmp, "", 0) || cli_table_add(&t, fields[i]) ||
			     cli_table_add(&t, tmp.data);
		}
		if (!rc)
			rc = cli_table_print(&t, 0);
		cli_table_release(&t);
	}
	if (rc)
		rc = hb_error_set(err, rc, "cannot print the metadata row");
done:
	hb_buf_release(&tmp);
	hb_row_release(&r);
	return rc;
}

static int print_set(const struct meta_ctx *m, long n, const char *prev, int changed)
{
	if (cli_g.output == CLI_OUT_JSON) {
		cJSON *root = cJSON_CreateObject();
		int rc;

		rc = cli_json_add_str(root, "table", m->table) &&
		             cJSON_AddNumberToObject(root, "N", (double)n) &&
		             cli_json_add_str(root, "previous", prev) &&
		             cJSON_AddBoolToObject(root, "changed", changed)
		         ? cli_json_print(root)
		         : HB_ENOMEM;
		cJSON_Delete(root);
		return rc;
	}
	if (!changed)
		printf("%s: N is already %ld (unchanged)\n", m->table, n);
	else if (prev)
		printf("%s: N changed from %s to %ld\n", m->table, prev, n);
	else
		printf("%s: N set to %ld\n", m->table, n);
	return 0;
}

/*
 * If there is no row, a plain put (REST checkAndPut cannot test for absence, so two writers
 * racing here can both write; the last one wins, and we re-read to report what is stored).
 * An equal N is a no-op. A different N needs --force and is replaced with a checkAndPut
 * against the value we read, so a concurrent change is detected (304) instead of lost.
 */
static int meta_set(struct meta_ctx *m, const char *nstr, int force, struct hb_error *err)
{
	struct hb_row r;
	struct hb_buf prev = HB_BUF_INIT, col = HB_BUF_INIT;
	struct hb_cell cell;
	const struct hb_cell *nc;
	char val[24];
	long n, old = 0;
	int found = 0, applied = 0, rc;

	hb_row_init(&r);
	if (cli_parse_long(nstr, 1, 2147483647L, "N", &n, err))
		return HB_EINVAL;
	snprintf(val, sizeof(val), "%ld", n);
	if (hb_buf_addf(&col, "%s:N", m->family))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	memset(&cell, 0, sizeof(cell));
	cell.column = (unsigned char *)col.data;
	cell.column_len = col.len;
	cell.value = (unsigned char *)val;
	cell.value_len = strlen(val);
	rc = read_row(m, &r, &found, err);
	if (rc)
		goto done;
	nc = found ? field(m, &r, "N") : NULL;
	if (nc) {
		if (hb_tsb_append(&prev, nc->value, nc->value_len) || hb_buf_add(&prev, "", 0)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			goto done;
		}
		if (!parse_n(nc->value, nc->value_len, &old) && old == n) {
			rc = print_set(m, n, prev.data, 0);
			goto done;
		}
		if (!force) {
			rc =
			    hb_error_set(err, HB_ESAFETY,
			                 "table '%s' already stores N=%s in metadata row '%s'; use "
			                 "--force to change it",
			                 m->table, prev.data, m->row_tsb.data);
			goto done;
		}
		rc = hb_rest_check_and_put(m->c, m->table, m->row.data, m->row.len, &cell, 1,
		                           col.data, nc->value, nc->value_len, &applied, err);
		if (!rc && !applied)
			rc = hb_error_set(
			    err, HB_ESAFETY,
			    "N of table '%s' changed while it was being set (it was %s); "
			    "nothing written, run 'hbtab meta get %s' and retry",
			    m->table, prev.data, m->table);
	} else {
		/* Put-if-absent: an empty expected value matches an absent cell (HRegion). */
		rc = hb_rest_check_and_put(m->c, m->table, m->row.data, m->row.len, &cell, 1,
		                           col.data, "", 0, &applied, err);
		if (!rc && !applied)
			rc = hb_error_set(
			    err, HB_ESAFETY,
			    "N of table '%s' was set by someone else meanwhile; nothing written, "
			    "run 'hbtab meta get %s' and retry",
			    m->table, m->table);
	}
	if (!rc)
		rc = print_set(m, n, nc ? prev.data : NULL, 1);
done:
	hb_row_release(&r);
	hb_buf_release(&prev);
	hb_buf_release(&col);
	return rc;
}

int cmd_meta(int argc, char **argv)
{
	static const char *family, *row;
	static int force;
	static const struct cli_option opts[] = {
	    CLI_STRING(0, "metadata-family", &family, "F",
	               "family of the metadata row (default: the table's first family)"),
	    CLI_STRING(0, "metadata-row", &row, "R",
	               "row key of the metadata row, toStringBinary (default totalPartition)"),
	    CLI_FLAG(0, "force", &force, "meta set: replace a different stored N"),
	    CLI_END,
	};
	struct hb_error err = {0};
	struct meta_ctx m;
	int n = cli_parse(argc, argv, opts, usage), rc, set;

	if (n < 0)
		return n == CLI_PARSE_EXIT ? 0 : 2;
	if (n < 2) {
		cli_usage_error(argv[0], "missing 'get' or 'set'");
		return 2;
	}
	set = !strcmp(argv[1], "set");
	if (!set && strcmp(argv[1], "get")) {
		cli_usage_error(argv[0], "unknown meta subcommand '%s' (expected get or set)",
		                argv[1]);
		return 2;
	}
	if (n != (set ? 4 : 3)) {
		if (n < (set ? 4 : 3))
			cli_usage_error(argv[0], set ? "usage: meta set TABLE N" : "missing TABLE");
		else
			cli_usage_error(argv[0], "unexpected argument '%s'", argv[set ? 4 : 3]);
		return 2;
	}
	if (!set && force) {
		cli_usage_error(argv[0], "--force applies only to 'meta set'");
		return 2;
	}
	if (cli_check_table(argv[0], argv[2]))
		return 2;
	memset(&m, 0, sizeof(m));
	m.table = argv[2];
	hb_buf_init(&m.row, 0);
	hb_buf_init(&m.row_tsb, 0);
	if (set) {
		long v;

		if (cli_parse_long(argv[3], 1, 2147483647L, "N", &v, &err)) {
			cli_usage_error(argv[0], "%s", err.msg);
			return 2;
		}
	}
	rc = cli_rest_open(&m.c, &err);
	if (!rc)
		rc = resolve(&m, family, row ? row : DEFAULT_ROW, &err);
	if (!rc)
		rc = set ? meta_set(&m, argv[3], force, &err) : meta_get(&m, &err);
	rc = rc ? cli_fail(&err) : 0;
	free(m.family);
	hb_buf_release(&m.row);
	hb_buf_release(&m.row_tsb);
	hb_rest_free(m.c);
	return rc;
}
