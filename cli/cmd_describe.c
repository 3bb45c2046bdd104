/* hbtab describe: a table's attributes and column families as the REST schema reports them. */
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "output.h"

static cJSON *attrs_json(cJSON *parent, const char *key, const struct hb_attrs *a)
{
	cJSON *o = cJSON_AddObjectToObject(parent, key);
	size_t i;

	for (i = 0; o && i < a->n; i++)
		if (!cJSON_AddStringToObject(o, a->v[i].key, a->v[i].value))
			return NULL;
	return o;
}

static int print_json(const struct hb_schema *s)
{
	cJSON *root = cJSON_CreateObject(), *fams;
	size_t i;
	int rc = HB_ENOMEM;

	if (!cli_json_add_str(root, "table", s->table) ||
	    !attrs_json(root, "attributes", &s->attrs) ||
	    !(fams = cJSON_AddArrayToObject(root, "families")))
		goto done;
	for (i = 0; i < s->nfamilies; i++) {
		cJSON *f = cJSON_CreateObject();

		if (!f || !cJSON_AddItemToArray(fams, f) ||
		    !cli_json_add_str(f, "name", s->families[i].name) ||
		    !attrs_json(f, "attributes", &s->families[i].attrs))
			goto done;
	}
	rc = cli_json_print(root);
done:
	cJSON_Delete(root);
	return rc;
}

/* One line per attribute: FAMILY (or "(table)" for table attributes), ATTRIBUTE, VALUE. */
static int print_text(const struct hb_schema *s)
{
	static const char *const hdr[] = {"FAMILY", "ATTRIBUTE", "VALUE"};
	struct cli_table t;
	size_t i, j;
	int rc = cli_table_init(&t, 3, hdr), wrc = 0;

	for (i = 0; !rc && i < s->attrs.n; i++)
		rc = cli_table_add(&t, "(table)") || cli_table_add(&t, s->attrs.v[i].key) ||
		     cli_table_add(&t, s->attrs.v[i].value);
	for (i = 0; !rc && i < s->nfamilies; i++) {
		const struct hb_family *f = &s->families[i];

		if (!f->attrs.n)
			rc = cli_table_add(&t, f->name) || cli_table_add(&t, "-") ||
			     cli_table_add(&t, "-");
		for (j = 0; !rc && j < f->attrs.n; j++)
			rc = cli_table_add(&t, f->name) || cli_table_add(&t, f->attrs.v[j].key) ||
			     cli_table_add(&t, f->attrs.v[j].value);
	}
	if (!rc)
		wrc = cli_table_print(&t, 0); /* a failed write is reported when stdout is closed */
	cli_table_release(&t);
	return rc ? HB_ENOMEM : wrc;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct hb_schema s;
	int rc;

	hb_schema_init(&s);
	rc = hb_rest_get_schema(x->rest, x->table, &s, &err);
	if (rc == HB_ENOTFOUND)
		rc = hb_error_set(&err, HB_ESERVER, "table '%s' not found", x->table);
	else if (!rc)
		rc = cli_g.output == CLI_OUT_JSON ? print_json(&s) : print_text(&s);
	hb_schema_release(&s);
	return cli_status(rc, &err, 0);
}

const struct cli_command cli_cmd_describe = {
    .name = "describe",
    .summary = "show a table's schema",
    .usage = "describe TABLE",
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE,
    .run = run,
};
