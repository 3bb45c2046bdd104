/* hbtab describe: a table's attributes and column families as the REST schema reports them. */
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "output.h"
#include "rest_cli.h"

static const char usage[] = "describe TABLE";

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
	int rc = cli_table_init(&t, 3, hdr);

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
		rc = cli_table_print(&t, 0);
	cli_table_release(&t);
	return rc ? HB_ENOMEM : 0;
}

int cmd_describe(int argc, char **argv)
{
	static const struct cli_option opts[] = {CLI_END};
	struct hb_error err = {0};
	struct hb_rest *c = NULL;
	struct hb_schema s;
	int n = cli_parse(argc, argv, opts, usage), rc;

	if (n < 0)
		return n == CLI_PARSE_EXIT ? 0 : 2;
	if (n != 2) {
		cli_usage_error(argv[0], n < 2 ? "missing TABLE" : "unexpected argument '%s'",
		                argv[n < 2 ? 0 : 2]);
		return 2;
	}
	if (cli_check_table(argv[0], argv[1]))
		return 2;
	hb_schema_init(&s);
	rc = cli_rest_open(&c, &err);
	if (!rc)
		rc = hb_rest_get_schema(c, argv[1], &s, &err);
	if (rc == HB_ENOTFOUND) {
		cli_error("table '%s' not found", argv[1]);
		rc = 4;
		goto done;
	}
	if (rc) {
		rc = cli_fail(&err);
		goto done;
	}
	rc = cli_exit(cli_g.output == CLI_OUT_JSON ? print_json(&s) : print_text(&s));
done:
	hb_schema_release(&s);
	hb_rest_free(c);
	return rc;
}
