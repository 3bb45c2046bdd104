/* hbtab drop: disable and delete a table through DELETE /T/schema, only with --yes. */
#include "../core/tname.h"
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "output.h"
#include "rest_cli.h"

#include <string.h>

static const char usage[] = "drop TABLE --yes";

int cmd_drop(int argc, char **argv)
{
	static int yes;
	static const struct cli_option opts[] = {
	    CLI_FLAG(0, "yes", &yes, "really disable and delete the table and its data"),
	    CLI_END,
	};
	struct hb_error err = {0};
	struct hb_rest *c = NULL;
	struct hb_tname tn;
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
	hb_tname_parse(&tn, argv[1], NULL);
	if (tn.ns_len == 5 && !memcmp(tn.ns, "hbase", 5)) {
		cli_error("refusing to drop system table '%s'", argv[1]);
		return 5;
	}
	if (!yes) {
		cli_error("refusing to drop table '%s' without --yes (this deletes all its data)",
		          argv[1]);
		return 5;
	}
	rc = cli_rest_open(&c, &err);
	if (!rc)
		rc = hb_rest_delete_table(c, argv[1], &err);
	if (rc == HB_ENOTFOUND) {
		cli_error("table '%s' not found", argv[1]);
		rc = 4;
		goto done;
	}
	if (rc) {
		rc = cli_fail(&err);
		goto done;
	}
	if (cli_g.output == CLI_OUT_JSON) {
		cJSON *root = cJSON_CreateObject();

		rc = cli_json_add_str(root, "table", argv[1]) &&
		             cJSON_AddTrueToObject(root, "dropped")
		         ? cli_json_print(root)
		         : HB_ENOMEM;
		cJSON_Delete(root);
	} else {
		rc = printf("dropped %s\n", argv[1]) < 0 ? HB_EINVAL : 0;
	}
	rc = cli_exit(rc);
done:
	hb_rest_free(c);
	return rc;
}
