/* hbtab meta get/set: the partition-count metadata row (row totalPartition, qualifier N). */
#include "../core/key.h"
#include "../rest/hbase.h"
#include "../rest/metarow.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "output.h"
#include "rest_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const fields[] = {HB_METAROW_N,       HB_METAROW_KEYSPACE, HB_METAROW_SPLITS,
                                     HB_METAROW_CREATED, HB_METAROW_CREATOR,  HB_METAROW_ROTATE};

struct meta_ctx {
	struct hb_metarow row;
	const char *table;
	struct hb_rest *c;
};

static int read_row(struct meta_ctx *m, struct hb_row *out, int *found, struct hb_error *err)
{
	return hb_metarow_read(m->c, &m->row, out, found, err);
}

static const struct hb_cell *field(const struct meta_ctx *m, const struct hb_row *r, const char *q)
{
	return hb_metarow_cell(&m->row, r, q);
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
	/* a finding, not an error: under -o json the document, every field null */
	if (!found && cli_g.output != CLI_OUT_JSON) {
		rc = hb_error_set(err, HB_EFINDING,
		                  "no metadata row '%s' in table '%s' (family '%s')",
		                  m->row.row_shown.data, m->table, m->row.family);
		goto done;
	}
	nc = field(m, &r, HB_METAROW_N);
	if (nc && hb_metarow_parse_n(nc->value, nc->value_len, &nval)) {
		hb_tsb_append_quoted(&tmp, nc->value, nc->value_len);
		cli_warn("metadata row of table '%s' holds an invalid N '%s'", m->table,
		         hb_buf_str(&tmp));
		hb_buf_reset(&tmp);
	}
	if (cli_g.output == CLI_OUT_JSON) {
		cJSON *root = cJSON_CreateObject();
		int ok = cli_json_add_str(root, "table", m->table) &&
		         cli_json_add_str(root, "family", m->row.family) &&
		         cli_json_add_str(root, "row", m->row.row_tsb.data) &&
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
	else if (!found)
		rc = hb_error_set(err, HB_EFINDING,
		                  "no metadata row '%s' in table '%s' (family '%s')",
		                  m->row.row_shown.data, m->table, m->row.family);
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
	if (cli_g.quiet) /* a change that succeeded: nothing to say */
		return 0;
	if (!changed)
		printf("%s: N is already %ld (unchanged)\n", m->table, n);
	else if (prev)
		printf("%s: N changed from %s to %ld\n", m->table, prev, n);
	else
		printf("%s: N set to %ld\n", m->table, n);
	return 0;
}

/* Parses N, then the row's owner sets it (put-if-absent, or --force's checked put). */
static int meta_set(struct meta_ctx *m, const char *nstr, int force, struct hb_error *err)
{
	struct hb_buf prev = HB_BUF_INIT;
	long n;
	int had = 0, changed = 0, rc;

	if (cli_parse_long(nstr, 1, HB_METAROW_MAX_N, "N", &n, err))
		return HB_EINVAL;
	rc = hb_metarow_set_n(m->c, &m->row, n, force, &prev, &had, &changed, err);
	if (!rc)
		rc = print_set(m, n, had ? prev.data : NULL, changed);
	hb_buf_release(&prev);
	return rc;
}

static const char *family_opt, *row_opt;
static int force;
static const struct cli_option opts[] = {
    CLI_STRING(0, "metadata-family", &family_opt, "F",
               "family of the metadata row (default: the table's first family)"),
    CLI_STRING(0, "metadata-row", &row_opt, "R",
               "row key of the metadata row, toStringBinary (default totalPartition)"),
    CLI_FLAG(0, "force", &force, "meta set: replace a different stored N"),
    CLI_END,
};

static int check_get(struct cli_ctx *x)
{
	if (force) {
		cli_usage_error(x->cmd->name, "--force applies only to 'meta set'");
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

static int check_set(struct cli_ctx *x)
{
	struct hb_error err = {0};
	long v;

	if (cli_parse_long(x->argv[2], 1, HB_METAROW_MAX_N, "N", &v, &err)) {
		cli_usage_error(x->cmd->name, "%s", err.msg);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

static int run(struct cli_ctx *x, int set)
{
	struct hb_error err = {0};
	struct meta_ctx m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.table = x->table;
	m.c = x->rest;
	rc = hb_metarow_locate(&m.row, m.c, m.table, family_opt, row_opt, &err);
	if (!rc)
		rc = set ? meta_set(&m, x->argv[2], force, &err) : meta_get(&m, &err);
	/* a disabled table refuses scans and writes (503) and its row GETs find nothing (404) */
	if ((rc == HB_ESERVER || rc == HB_EFINDING) && m.c &&
	    cli_explain_disabled(m.c, m.table, &err))
		rc = HB_ESERVER;
	hb_metarow_release(&m.row);
	return cli_status(rc, &err, 0);
}

static int run_get(struct cli_ctx *x)
{
	return run(x, 0);
}

static int run_set(struct cli_ctx *x)
{
	return run(x, 1);
}

static const struct cli_command meta_get_cmd = {
    .name = "get",
    .usage = "meta get TABLE [--metadata-family F] [--metadata-row R]",
    .opts = opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE,
    .check = check_get,
    .run = run_get,
};

static const struct cli_command meta_set_cmd = {
    .name = "set",
    .usage = "meta set TABLE N [--force] [--metadata-family F] [--metadata-row R]",
    .opts = opts,
    .args = "TABLE N",
    .min_args = 2,
    .max_args = 2,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check_set,
    .run = run_set,
};

static const struct cli_command *const subs[] = {&meta_get_cmd, &meta_set_cmd, NULL};

const struct cli_command cli_cmd_meta = {
    .name = "meta",
    .summary = "read or set the partition-count metadata row",
    .usage = "meta get TABLE [--metadata-family F] [--metadata-row R]\n"
             "meta set TABLE N [--force] [--metadata-family F] [--metadata-row R]",
    .opts = opts,
    .subs = subs,
};
