/* hbtab regions: a table's regions from REST /T/regions or from a scan of hbase:meta. */
#include "../core/audit.h"
#include "../core/key.h"
#include "../core/regioninfo.h"
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "output.h"
#include "rest_cli.h"

#include <inttypes.h>
#include <string.h>

/* Streams the JSON document: the list can hold 100,000s of regions. */
static int print_json(const char *table, int meta, int state, const struct hb_regions *rs,
                      const struct hb_findings *f)
{
	struct hb_buf b = HB_BUF_INIT, tmp = HB_BUF_INIT;
	size_t i;
	int rc;

	rc = hb_buf_adds(&b, "{\"table\":") || cli_json_str(&b, table, strlen(table)) ||
	     hb_buf_addf(&b, ",\"source\":\"%s\"", meta ? "meta" : "rest");
	if (!rc) {
		rc = hb_buf_adds(&b, ",\"table_state\":");
		if (!rc)
			rc = state < 0 ? hb_buf_adds(&b, "null")
			               : hb_buf_addf(&b, "\"%s\"", hb_tablestate_name(state));
	}
	if (!rc)
		rc = hb_buf_adds(&b, ",\"regions\":[");
	for (i = 0; !rc && i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at(rs, i, &v);

		rc = hb_buf_adds(&b, i ? ",{\"start\":" : "{\"start\":") ||
		     cli_json_tsb(&b, r->start, r->start_len, &tmp) ||
		     hb_buf_adds(&b, ",\"end\":") || cli_json_tsb(&b, r->end, r->end_len, &tmp) ||
		     hb_buf_adds(&b, ",\"name\":");
		if (!rc)
			rc = r->name ? cli_json_tsb(&b, r->name, r->name_len, &tmp)
			             : hb_buf_adds(&b, "null");
		if (!rc)
			rc = hb_buf_adds(&b, ",\"server\":");
		if (!rc)
			rc = r->server ? cli_json_str(&b, r->server, strlen(r->server))
			               : hb_buf_adds(&b, "null");
		if (!rc)
			rc = hb_buf_addf(&b, ",\"id\":%" PRIu64, r->id);
		if (!rc)
			rc = hb_buf_adds(&b, ",\"state\":");
		if (!rc)
			rc = r->state ? cli_json_str(&b, r->state, strlen(r->state))
			              : hb_buf_adds(&b, "null");
		if (!rc && meta) {
			rc = hb_buf_adds(&b, ",\"encoded\":");
			if (!rc)
				rc = r->encoded ? cli_json_str(&b, r->encoded, strlen(r->encoded))
				                : hb_buf_adds(&b, "null");
			if (!rc)
				rc = hb_buf_addf(&b,
				                 ",\"start_code\":%" PRId64
				                 ",\"replica_id\":%d,\"offline\":%s,\"split\":%s",
				                 r->start_code, r->replica_id,
				                 r->offline ? "true" : "false",
				                 r->split ? "true" : "false");
		}
		if (!rc)
			rc = hb_buf_addc(&b, '}');
		if (!rc)
			rc = cli_stream_flush(&b, 0);
	}
	if (!rc)
		rc = hb_buf_adds(&b, "],\"findings\":[");
	for (i = 0; !rc && i < f->n; i++) {
		rc = hb_buf_addf(&b, "%s{\"kind\":\"%s\",\"region\":", i ? "," : "", f->v[i].kind);
		if (!rc)
			rc = f->v[i].region < 0 ? hb_buf_adds(&b, "null")
			                        : hb_buf_addf(&b, "%ld", f->v[i].region);
		if (!rc)
			rc = hb_buf_adds(&b, ",\"message\":") ||
			     cli_json_str(&b, f->v[i].message, strlen(f->v[i].message)) ||
			     hb_buf_addc(&b, '}');
	}
	if (!rc)
		rc = hb_buf_adds(&b, "]}\n");
	if (!rc)
		rc = cli_stream_flush(&b, 1);
	hb_buf_release(&b);
	hb_buf_release(&tmp);
	return rc;
}

static int add_tsb_cell(struct cli_table *t, const void *k, size_t n, struct hb_buf *tmp)
{
	hb_buf_reset(tmp);
	if (hb_tsb_append(tmp, k, n) || hb_buf_add(tmp, "", 0))
		return HB_ENOMEM;
	return cli_table_add(t, tmp->data);
}

static int print_text(int meta, const struct hb_regions *rs)
{
	static const char *const hdr[] = {"START",   "END", "NAME",  "SERVER",
	                                  "ENCODED", "ID",  "STATE", "FLAGS"};
	struct hb_buf tmp = HB_BUF_INIT;
	struct cli_table t;
	size_t i;
	int rc = cli_table_init(&t, meta ? 8 : 4, hdr);

	if (!rc)
		cli_table_stream(&t);
	for (i = 0; !rc && i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at(rs, i, &v);

		rc = add_tsb_cell(&t, r->start, r->start_len, &tmp) ||
		     add_tsb_cell(&t, r->end, r->end_len, &tmp);
		if (!rc)
			rc = r->name ? add_tsb_cell(&t, r->name, r->name_len, &tmp)
			             : cli_table_add(&t, NULL);
		if (!rc)
			rc = cli_table_add(&t, r->server);
		if (!rc && meta)
			rc = cli_table_add(&t, r->encoded) ||
			     cli_table_addf(&t, "%" PRIu64, r->id) || cli_table_add(&t, r->state) ||
			     cli_table_add(&t, r->offline && r->split ? "offline,split"
			                       : r->offline           ? "offline"
			                       : r->split             ? "split"
			                                              : "-");
	}
	if (!rc)
		rc = cli_table_print(&t, 0);
	cli_table_release(&t);
	hb_buf_release(&tmp);
	return rc ? HB_ENOMEM : 0;
}

static const char *source;
static const struct cli_option opts[] = {
    CLI_CHOICE(0, "source", &source, "SRC",
               "rest (/T/regions, online regions only) or meta (hbase:meta scan)", "rest meta"),
    CLI_END,
};

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct hb_regions rs;
	struct hb_findings f;
	int rc, meta = source && !strcmp(source, "meta"), state = -1, avail = -1;
	struct hb_error why = {0};

	hb_regions_init(&rs);
	hb_findings_init(&f);
	rc = cli_rest_regions(x->rest, x->table, meta, &rs, &state, &err);
	if (rc == CLI_EXIT_SERVER) /* not found: reported already */
		goto done;
	/* REST shows a closed region's last server: learn what is really online. */
	if (!rc && !meta)
		rc = cli_rest_states_why(x->rest, x->table, &rs, &state, &avail, &why, &err);
	if (!rc && hb_audit_states(&f, x->table, state, &rs))
		rc = hb_error_set(&err, HB_ENOMEM, "out of memory");
	if (!rc && avail == 0 && state == HB_TABLE_ENABLED &&
	    hb_findings_add(&f, HB_FIND_NOT_OPEN, -1,
	                    "table '%s' is not available: some regions are not online "
	                    "(Thrift2 isTableAvailable)",
	                    x->table))
		rc = hb_error_set(&err, HB_ENOMEM, "out of memory");
	/* unknown state is never health: REST lists a disabled table's regions as if online */
	if (!rc && why.code && hb_findings_add(&f, HB_FIND_STATE_UNKNOWN, -1, "%s", why.msg))
		rc = hb_error_set(&err, HB_ENOMEM, "out of memory");
	if (rc) {
		rc = cli_fail(&err);
		goto done;
	}
	rc = cli_exit(cli_g.output == CLI_OUT_JSON ? print_json(x->table, meta, state, &rs, &f)
	                                           : print_text(meta, &rs));
	if (!rc && f.n) {
		size_t i;

		if (cli_g.output != CLI_OUT_JSON)
			for (i = 0; i < f.n; i++)
				cli_error("%s: %s", f.v[i].kind, f.v[i].message);
		rc = CLI_EXIT_FINDINGS;
	}
done:
	hb_findings_release(&f);
	hb_regions_release(&rs);
	return rc;
}

const struct cli_command cli_cmd_regions = {
    .name = "regions",
    .summary = "list a table's regions from REST or hbase:meta",
    .usage = "regions TABLE [--source rest|meta]",
    .opts = opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE,
    .run = run,
};
