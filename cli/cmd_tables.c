/* hbtab tables: the user tables the REST gateway lists (system tables are not listed). */
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "output.h"
#include "rest_cli.h"

static const char usage[] = "tables";

int cmd_tables(int argc, char **argv)
{
	static const struct cli_option opts[] = {CLI_END};
	static const char *const hdr[] = {"TABLE"};
	struct hb_error err = {0};
	struct hb_rest *c = NULL;
	struct hb_names names;
	struct cli_table t;
	size_t i;
	int n = cli_parse(argc, argv, opts, usage), rc;

	if (n < 0)
		return n == CLI_PARSE_EXIT ? 0 : 2;
	if (n != 1) {
		cli_usage_error(argv[0], "unexpected argument '%s'", argv[1]);
		return 2;
	}
	hb_names_init(&names);
	rc = cli_rest_open(&c, &err);
	if (!rc)
		rc = hb_rest_list_tables(c, &names, &err);
	if (rc) {
		rc = cli_fail(&err);
		goto done;
	}
	if (cli_g.output == CLI_OUT_JSON) {
		cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "tables");

		rc = arr ? 0 : HB_ENOMEM;
		for (i = 0; !rc && i < names.n; i++)
			if (!cJSON_AddItemToArray(arr, cJSON_CreateString(names.v[i])))
				rc = HB_ENOMEM;
		if (!rc)
			rc = cli_json_print(root);
		cJSON_Delete(root);
	} else {
		rc = cli_table_init(&t, 1, hdr);
		for (i = 0; !rc && i < names.n; i++)
			rc = cli_table_add(&t, names.v[i]);
		if (!rc)
			rc = cli_table_print(&t, 0);
		cli_table_release(&t);
	}
	rc = cli_exit(rc);
done:
	hb_names_release(&names);
	hb_rest_free(c);
	return rc;
}
