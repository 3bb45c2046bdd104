/* hbtab tables: the user tables the REST gateway lists (system tables are not listed). */
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "output.h"

#include <fnmatch.h>
#include <stdlib.h>

static int run(struct cli_ctx *x)
{
	static const char *const hdr[] = {"TABLE"};
	struct hb_error err = {0};
	struct hb_names names;
	struct cli_table t;
	size_t i;
	int rc;

	hb_names_init(&names);
	rc = hb_rest_list_tables(x->rest, &names, &err);
	if (rc)
		goto done;
	if (x->argc > 1) { /* keep the names the glob matches, in order */
		size_t o = 0;

		for (i = 0; i < names.n; i++)
			if (!fnmatch(x->argv[1], names.v[i], 0))
				names.v[o++] = names.v[i];
			else
				free(names.v[i]);
		names.n = o;
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
done:
	hb_names_release(&names);
	return cli_status(rc, &err, 0);
}

const struct cli_command cli_cmd_tables = {
    .name = "tables",
    .summary = "list tables",
    .usage = "tables [PATTERN]",
    .args = "PATTERN",
    .max_args = 1,
    .flags = CLI_CMD_HBASE,
    .run = run,
};
