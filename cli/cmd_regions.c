/* hbtab regions: a table's regions from REST /T/regions or from a scan of hbase:meta. */
#include "../core/audit.h"
#include "../core/key.h"
#include "../core/regioninfo.h"
#include "../rest/states.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "output.h"
#include "rest_cli.h"

#include <stdint.h>
#include <string.h>

/* Appends v in decimal. */
static int add_int(struct hb_buf *b, long long v)
{
	if (v >= 0)
		return hb_buf_add_uint(b, (unsigned long long)v);
	return hb_buf_addc(b, '-') || hb_buf_add_uint(b, 0ull - (unsigned long long)v);
}

/* One region as a JSON object (meta adds what only hbase:meta knows). */
static int json_region(struct hb_buf *b, int meta, size_t i, const struct hb_region *r)
{
	int rc = hb_buf_adds(b, i ? ",{\"start\":" : "{\"start\":") ||
	         cli_json_tsb(b, r->start, r->start_len, NULL) || hb_buf_adds(b, ",\"end\":") ||
	         cli_json_tsb(b, r->end, r->end_len, NULL) || hb_buf_adds(b, ",\"name\":") ||
	         (r->name ? cli_json_tsb(b, r->name, r->name_len, NULL) : hb_buf_adds(b, "null")) ||
	         hb_buf_adds(b, ",\"server\":") || cli_json_strz(b, r->server) ||
	         hb_buf_adds(b, ",\"id\":") || hb_buf_add_uint(b, r->id) ||
	         hb_buf_adds(b, ",\"state\":") || cli_json_strz(b, r->state);

	if (!rc && meta)
		rc = hb_buf_adds(b, ",\"encoded\":") || cli_json_strz(b, r->encoded) ||
		     hb_buf_adds(b, ",\"start_code\":") || add_int(b, r->start_code) ||
		     hb_buf_adds(b, ",\"replica_id\":") || add_int(b, r->replica_id) ||
		     hb_buf_adds(b, r->offline ? ",\"offline\":true" : ",\"offline\":false") ||
		     hb_buf_adds(b, r->split ? ",\"split\":true" : ",\"split\":false");
	return rc || hb_buf_addc(b, '}');
}

/* Streams the JSON document: the list can hold 100,000s of regions. */
static int print_json(const char *table, int meta, int read_meta, int state,
                      const struct hb_regions *rs, const struct hb_findings *f)
{
	struct hb_buf b = HB_BUF_INIT;
	size_t i;
	int rc;

	rc = hb_buf_adds(&b, "{\"table\":") || cli_json_str(&b, table, strlen(table)) ||
	     hb_buf_addf(&b, ",\"source\":\"%s\",\"read_from\":\"%s\",\"table_state\":",
	                 meta ? "meta" : "rest", read_meta ? "meta" : "rest") ||
	     (state < 0 ? hb_buf_adds(&b, "null")
	                : hb_buf_addf(&b, "\"%s\"", hb_tablestate_name(state))) ||
	     hb_buf_adds(&b, ",\"regions\":[");
	for (i = 0; !rc && i < rs->n; i++) {
		struct hb_region_view v;

		rc = json_region(&b, meta, i, hb_regions_at(rs, i, &v)) ? HB_ENOMEM
		                                                        : cli_stream_flush(&b, 0);
	}
	if (!rc)
		rc = hb_buf_adds(&b, "],") || cli_json_findings(&b, f) || hb_buf_adds(&b, "}\n");
	if (!rc)
		rc = cli_stream_flush(&b, 1);
	hb_buf_release(&b);
	return rc;
}

static int add_tsb_cell(struct cli_table *t, const void *k, size_t n, struct hb_buf *tmp)
{
	hb_buf_reset(tmp);
	if (hb_tsb_append(tmp, k, n) || hb_buf_add(tmp, "", 0))
		return HB_ENOMEM;
	return cli_table_add(t, tmp->data);
}

static int add_id_cell(struct cli_table *t, uint64_t id, struct hb_buf *tmp)
{
	hb_buf_reset(tmp);
	return hb_buf_add_uint(tmp, id) ? HB_ENOMEM : cli_table_add(t, tmp->data);
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
			rc = cli_table_add(&t, r->encoded) || add_id_cell(&t, r->id, &tmp) ||
			     cli_table_add(&t, r->state) ||
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

/* The listing in the output format asked for; on text, the findings go to stderr. */
static int print(const char *table, int meta, int read_meta, int state, const struct hb_regions *rs,
                 const struct hb_findings *f)
{
	size_t i;
	int rc;

	if (cli_g.output == CLI_OUT_JSON)
		return print_json(table, meta, read_meta, state, rs, f);
	rc = print_text(meta, rs);
	for (i = 0; !rc && i < f->n; i++)
		cli_error("%s: %s", f->v[i].kind, f->v[i].message);
	return rc;
}

static const char *source;
static const struct cli_option opts[] = {
    CLI_CHOICE(0, "source", &source, "SRC",
               "rest (/T/regions, online regions only) or meta (hbase:meta scan); default: "
               "/T/regions' listing, made from hbase:meta where it can be read",
               "rest meta"),
    CLI_END,
};

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct hb_table_avail av;
	struct hb_regions rs;
	struct hb_findings f;
	int rc, meta = source && !strcmp(source, "meta");

	hb_regions_init(&rs);
	hb_findings_init(&f);
	/* without --source: /T/regions' listing, made from hbase:meta where it can be read */
	rc = hb_rest_regions_checked(x->rest, x->table,
	                             meta     ? HB_SOURCE_META
	                             : source ? HB_SOURCE_REST
	                                      : HB_SOURCE_AUTO,
	                             cli_thrift2_channel(), &rs, &av, &f, &err);
	cli_progress_done();
	if (!rc && !source && av.read_meta)
		cli_verbose("regions of table '%s' read from hbase:meta", x->table);
	else if (!rc && !source)
		cli_verbose(
		    "regions of table '%s' read from REST /T/regions (hbase:meta not read: %s)",
		    x->table, av.meta_why.msg);
	if (!rc)
		rc = print(x->table, meta, av.read_meta, av.table_state, &rs, &f);
	rc = cli_regions_status(x->table, rc, &err, f.n);
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
