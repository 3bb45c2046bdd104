/* hbtab status: cluster and REST versions, live and dead servers, regions and requests. */
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "output.h"

#include <inttypes.h>
#include <stdlib.h>

static int print_json(const char *cv, const struct hb_rest_version *v,
                      const struct hb_cluster_status *st)
{
	cJSON *root = cJSON_CreateObject(), *live, *dead;
	size_t i;
	int rc = HB_ENOMEM;

	if (!cli_json_add_str(root, "cluster_version", cv) ||
	    !cli_json_add_str(root, "rest_version", v->rest) ||
	    !cli_json_add_str(root, "rest_server", v->server) ||
	    !cli_json_add_str(root, "jvm", v->jvm) ||
	    !cJSON_AddNumberToObject(root, "regions", (double)st->regions) ||
	    !cJSON_AddNumberToObject(root, "requests", (double)st->requests) ||
	    !cJSON_AddNumberToObject(root, "average_load", st->average_load) ||
	    !(live = cJSON_AddArrayToObject(root, "live")) ||
	    !(dead = cJSON_AddArrayToObject(root, "dead")))
		goto done;
	for (i = 0; i < st->nlive; i++) {
		const struct hb_node *n = &st->live[i];
		cJSON *o = cJSON_CreateObject();

		if (!o || !cJSON_AddItemToArray(live, o) || !cli_json_add_str(o, "name", n->name) ||
		    !cJSON_AddNumberToObject(o, "start_code", (double)n->start_code) ||
		    !cJSON_AddNumberToObject(o, "regions", (double)n->nregions) ||
		    !cJSON_AddNumberToObject(o, "requests", (double)n->requests) ||
		    !cJSON_AddNumberToObject(o, "heap_mb", (double)n->heap_mb) ||
		    !cJSON_AddNumberToObject(o, "max_heap_mb", (double)n->max_heap_mb))
			goto done;
	}
	for (i = 0; i < st->ndead; i++)
		if (!cJSON_AddItemToArray(dead, cJSON_CreateString(st->dead[i])))
			goto done;
	rc = cli_json_print(root);
done:
	cJSON_Delete(root);
	return rc;
}

static int print_text(const char *cv, const struct hb_rest_version *v,
                      const struct hb_cluster_status *st)
{
	static const char *const kv_h[] = {"FIELD", "VALUE"};
	static const char *const srv_h[] = {"SERVER", "STATE", "REGIONS", "REQUESTS"};
	struct cli_table kv, srv;
	size_t i;
	int rc;

	if (cli_table_init(&kv, 2, kv_h) || cli_table_init(&srv, 4, srv_h))
		return HB_ENOMEM;
	rc = cli_table_add(&kv, "cluster version") || cli_table_add(&kv, cv) ||
	     cli_table_add(&kv, "rest version") || cli_table_add(&kv, v->rest) ||
	     cli_table_add(&kv, "live servers") || cli_table_addf(&kv, "%zu", st->nlive) ||
	     cli_table_add(&kv, "dead servers") || cli_table_addf(&kv, "%zu", st->ndead) ||
	     cli_table_add(&kv, "regions") || cli_table_addf(&kv, "%" PRId64, st->regions) ||
	     cli_table_add(&kv, "requests") || cli_table_addf(&kv, "%" PRId64, st->requests) ||
	     cli_table_add(&kv, "average load") || cli_table_addf(&kv, "%.2f", st->average_load);
	for (i = 0; !rc && i < st->nlive; i++)
		rc = cli_table_add(&srv, st->live[i].name) || cli_table_add(&srv, "live") ||
		     cli_table_addf(&srv, "%zu", st->live[i].nregions) ||
		     cli_table_addf(&srv, "%" PRId64, st->live[i].requests);
	for (i = 0; !rc && i < st->ndead; i++)
		rc = cli_table_add(&srv, st->dead[i]) || cli_table_add(&srv, "dead") ||
		     cli_table_add(&srv, "-") || cli_table_add(&srv, "-");
	if (!rc) {
		rc = cli_table_print(&kv, 0);
		if (!rc && srv.ncells) {
			if (cli_stdout_tty())
				putchar('\n');
			rc = cli_table_print(&srv, 0);
		}
	} else {
		rc = HB_ENOMEM;
	}
	cli_table_release(&kv);
	cli_table_release(&srv);
	return rc;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct hb_rest_version v = {0};
	struct hb_cluster_status st = {0};
	char *cv = NULL;
	int rc;

	rc = hb_rest_get_cluster_version(x->rest, &cv, &err);
	if (!rc)
		rc = hb_rest_get_version(x->rest, &v, &err);
	if (!rc)
		rc = hb_rest_get_status(x->rest, &st, &err);
	if (!rc)
		rc = cli_g.output == CLI_OUT_JSON ? print_json(cv, &v, &st)
		                                  : print_text(cv, &v, &st);
	free(cv);
	hb_rest_version_release(&v);
	hb_cluster_status_release(&st);
	return cli_status(rc, &err, 0);
}

const struct cli_command cli_cmd_status = {
    .name = "status",
    .summary = "show the cluster's version and servers",
    .usage = "status",
    .flags = CLI_CMD_HBASE,
    .run = run,
};
