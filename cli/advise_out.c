/* hbtab advise's output: the recommendation, every input with where it came from, each cost. */
#include "advise_out.h"
#include "cli.h"
#include "output.h"

#include <stdio.h>
#include <string.h>

void cli_advice_init(struct cli_advice *v)
{
	memset(v, 0, sizeof(*v));
}

void cli_advice_release(struct cli_advice *v)
{
	hb_buf_release(&v->size_from);
	hb_buf_release(&v->spec_now);
	hb_buf_release(&v->spec_rec);
	cli_advice_init(v);
}

/* bytes as "512 B", "12.0 MiB", "10.0 GiB" into out (32 bytes), which it returns. */
static const char *size_text(char *out, uint64_t bytes)
{
	static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	double v = (double)bytes;
	int u = -1;

	if (bytes < 1024) {
		snprintf(out, 32, "%llu B", (unsigned long long)bytes);
		return out;
	}
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(out, 32, "%.1f %s", v, unit[u]);
	return out;
}

#define SIZE(b) size_text((char[32]){0}, (b))

/* The rule applied, in words. */
static int why(struct hb_buf *b, const struct cli_advice *v)
{
	const struct hb_advise *a = &v->a;
	int rc;

	rc = hb_buf_addf(b,
	                 "N = max(%llu servers x %llu regions per server = %llu, ceil(%s / %s "
	                 "target region size) = %llu)",
	                 (unsigned long long)v->servers, (unsigned long long)v->per_server,
	                 (unsigned long long)a->n_servers, SIZE(v->size), SIZE(a->target),
	                 (unsigned long long)a->n_size);
	if (!rc && a->n_wanted != (a->size_decides ? a->n_size : a->n_servers))
		rc = hb_buf_addf(b, ", rounded up to a multiple of %llu servers: %llu",
		                 (unsigned long long)v->servers, (unsigned long long)a->n_wanted);
	if (!rc)
		rc = hb_buf_adds(
		    b, a->size_decides
		           ? ". The size decides: fewer regions would start above half "
		             "the size HBase splits them at."
		           : ". The servers decide: every server holds as many of the "
		             "table's regions and serves as many scanners of a full scan; "
		             "the data fits in fewer regions.");
	if (!rc && a->bound == HB_ADVISE_BOUND_SPEC)
		rc = hb_buf_addf(b, " The split specification can make %llu regions at most.",
		                 (unsigned long long)a->n);
	if (!rc && a->bound == HB_ADVISE_BOUND_BUCKETS)
		rc = hb_buf_addf(b,
		                 " The key space has %llu buckets: more regions would hold no key.",
		                 (unsigned long long)v->buckets);
	if (!rc && v->keys_depend_on_n)
		rc = hb_buf_adds(b, " The row keys of this design hold N (a partition or salt "
		                    "bucket): another N means a new table and the rows written "
		                    "again, not new boundaries.");
	if (!rc && v->spec_note)
		rc = hb_buf_addf(b, " %s", v->spec_note);
	return rc ? HB_ENOMEM : 0;
}

/* ---------------------------------------------------------------- JSON */

static cJSON *json_cost(cJSON *root, const char *name, const struct hb_advise_cost *c,
                        int have_skew, double skew)
{
	cJSON *o = cJSON_AddObjectToObject(root, name);

	if (!o || !cJSON_AddNumberToObject(o, "regions", (double)c->n) ||
	    !cJSON_AddNumberToObject(o, "regions_per_server", c->per_server) ||
	    !cJSON_AddNumberToObject(o, "region_size", (double)c->region_size) ||
	    !cJSON_AddNumberToObject(o, "split_fill", c->split_fill) ||
	    !cJSON_AddNumberToObject(o, "scan_scanners", (double)c->scanners) ||
	    !cJSON_AddNumberToObject(o, "scanners_per_server", (double)c->scanners_per_server) ||
	    !(have_skew ? cJSON_AddNumberToObject(o, "skew", skew)
	                : cJSON_AddNullToObject(o, "skew")))
		return NULL;
	return o;
}

static int json_inputs(cJSON *root, const struct cli_advice *v)
{
	cJSON *in = cJSON_AddObjectToObject(root, "inputs");

	return !in || !cJSON_AddNumberToObject(in, "servers", (double)v->servers) ||
	       !cli_json_add_str(in, "servers_from", v->servers_from) ||
	       !cJSON_AddNumberToObject(in, "store_size", (double)v->size) ||
	       !cli_json_add_str(in, "store_size_from", hb_buf_str(&v->size_from)) ||
	       !cJSON_AddNumberToObject(in, "split_size", (double)v->split_size) ||
	       !cli_json_add_str(in, "split_size_from", v->split_from) ||
	       !cJSON_AddNumberToObject(in, "regions_per_server", (double)v->per_server) ||
	       !cJSON_AddNumberToObject(in, "target_region_size", (double)v->a.target) ||
	       !(v->buckets ? cJSON_AddNumberToObject(in, "buckets", (double)v->buckets)
	                    : cJSON_AddNullToObject(in, "buckets")) ||
	       !cJSON_AddBoolToObject(in, "keys_depend_on_n", v->keys_depend_on_n);
}

static int json_rule(cJSON *root, const struct cli_advice *v)
{
	cJSON *r = cJSON_AddObjectToObject(root, "rule");
	const char *bound = v->a.bound == HB_ADVISE_BOUND_SPEC      ? "splitspec"
	                    : v->a.bound == HB_ADVISE_BOUND_BUCKETS ? "buckets"
	                                                            : NULL;

	return !r || !cJSON_AddNumberToObject(r, "n_for_servers", (double)v->a.n_servers) ||
	       !cJSON_AddNumberToObject(r, "n_for_size", (double)v->a.n_size) ||
	       !cJSON_AddNumberToObject(r, "n_wanted", (double)v->a.n_wanted) ||
	       !cJSON_AddBoolToObject(r, "size_decides", v->a.size_decides) ||
	       !cli_json_add_str(r, "limited_by", bound);
}

static int print_json(const struct cli_advice *v)
{
	cJSON *root = cJSON_CreateObject(), *now, *s;
	struct hb_buf w = HB_BUF_INIT;
	int rc = HB_ENOMEM;

	if (!root || !cli_json_add_str(root, "table", v->table) ||
	    !cJSON_AddNumberToObject(root, "N", (double)v->a.n) ||
	    !cli_json_add_str(root, "splitspec",
	                      v->spec_rec.len ? hb_buf_str(&v->spec_rec) : NULL) ||
	    !cli_json_add_str(root, "current_splitspec",
	                      v->spec_now.len ? hb_buf_str(&v->spec_now) : NULL) ||
	    json_inputs(root, v) || json_rule(root, v) ||
	    !(now = json_cost(root, "now", &v->now, v->have_skew, v->skew_now)) ||
	    !json_cost(root, "recommended", &v->rec, v->have_skew, v->skew_rec))
		goto done;
	if (v->table && !cJSON_AddNumberToObject(now, "largest_region", (double)v->largest))
		goto done;
	if (!v->have_skew) {
		if (!cJSON_AddNullToObject(root, "skew_sample"))
			goto done;
	} else if (!(s = cJSON_AddObjectToObject(root, "skew_sample")) ||
	           !cli_json_add_str(s, "source", v->skew_source) ||
	           !cJSON_AddNumberToObject(s, "keys", (double)v->skew_keys) ||
	           !cli_json_add_str(s, "keyspace", v->keyspace)) {
		goto done;
	}
	if (!cli_json_add_str(root, "skew_note", v->skew_note) || why(&w, v) ||
	    !cli_json_add_str(root, "why", hb_buf_str(&w)))
		goto done;
	rc = cli_json_print(root);
done:
	hb_buf_release(&w);
	cJSON_Delete(root);
	return rc;
}

/* ---------------------------------------------------------------- text */

static int text_inputs(struct cli_table *t, const struct cli_advice *v)
{
	return cli_table_add(t, "live region servers") ||
	       cli_table_addf(t, "%llu", (unsigned long long)v->servers) ||
	       cli_table_add(t, v->servers_from) || cli_table_add(t, "store size") ||
	       cli_table_add(t, SIZE(v->size)) || cli_table_add(t, hb_buf_str(&v->size_from)) ||
	       cli_table_add(t, "split size") || cli_table_add(t, SIZE(v->split_size)) ||
	       cli_table_add(t, v->split_from) || cli_table_add(t, "regions per server wanted") ||
	       cli_table_addf(t, "%llu", (unsigned long long)v->per_server) ||
	       cli_table_add(t, "K of the rule (--regions-per-server)") ||
	       cli_table_add(t, "target region size") || cli_table_add(t, SIZE(v->a.target)) ||
	       cli_table_add(t, "half the split size: a region doubles before it splits");
}

static int cost_row(struct cli_table *t, const char *name, const char *now, const char *rec)
{
	return cli_table_add(t, name) || cli_table_add(t, now) || cli_table_add(t, rec);
}

static int text_costs(struct cli_table *t, const struct cli_advice *v)
{
	const struct hb_advise_cost *n = &v->now, *r = &v->rec;
	char a[64], b[64];
	int rc;

	snprintf(a, sizeof(a), "%llu", (unsigned long long)n->n);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)r->n);
	rc = cost_row(t, "regions (N)", a, b);
	snprintf(a, sizeof(a), "%.2f", n->per_server);
	snprintf(b, sizeof(b), "%.2f", r->per_server);
	rc = rc || cost_row(t, "regions per server", a, b) ||
	     cost_row(t, "region size", SIZE(n->region_size), SIZE(r->region_size));
	snprintf(a, sizeof(a), "%.2f%%", 100.0 * n->split_fill);
	snprintf(b, sizeof(b), "%.2f%%", 100.0 * r->split_fill);
	rc = rc || cost_row(t, "of the split size", a, b);
	if (!rc && v->table)
		rc = cost_row(t, "largest region", SIZE(v->largest), "-");
	if (v->have_skew) {
		snprintf(a, sizeof(a), "%.2f", v->skew_now);
		snprintf(b, sizeof(b), "%.2f", v->skew_rec);
	} else {
		snprintf(a, sizeof(a), "-");
		snprintf(b, sizeof(b), "-");
	}
	rc = rc || cost_row(t, "skew (most keys / mean)", a, b);
	snprintf(a, sizeof(a), "%llu", (unsigned long long)n->scanners);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)r->scanners);
	rc = rc || cost_row(t, "full scan: region scanners", a, b);
	snprintf(a, sizeof(a), "%llu", (unsigned long long)n->scanners_per_server);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)r->scanners_per_server);
	return rc || cost_row(t, "full scan: scanners per server", a, b);
}

/* The heading: the answer first. */
static int head(struct hb_buf *b, const struct cli_advice *v)
{
	int rc = hb_buf_addf(b, "%s: N = %llu", v->table ? v->table : "split specification",
	                     (unsigned long long)v->a.n);

	if (!rc && v->spec_rec.len)
		rc = hb_buf_addf(b, " (%s)", hb_buf_str(&v->spec_rec));
	if (!rc && v->now.n)
		rc = hb_buf_addf(b, v->now.n == v->a.n ? ", as now\n" : ", now %llu\n",
		                 (unsigned long long)v->now.n);
	else if (!rc)
		rc = hb_buf_addc(b, '\n');
	return rc;
}

static int print_text(const struct cli_advice *v)
{
	static const char *const in_h[] = {"INPUT", "VALUE", "FROM"};
	static const char *const cost_h[] = {"COST", "NOW", "RECOMMENDED"};
	struct cli_table in, cost;
	struct hb_buf b = HB_BUF_INIT;
	int rc;

	if (cli_table_init(&in, 3, in_h) || cli_table_init(&cost, 3, cost_h))
		return HB_ENOMEM;
	rc = head(&b, v) || text_inputs(&in, v) || text_costs(&cost, v) ? HB_ENOMEM : 0;
	if (!rc)
		rc = cli_write_stdout(b.data, b.len);
	if (!rc)
		rc = cli_table_print(&in, 0);
	if (!rc)
		rc = cli_write_stdout("\n", 1);
	if (!rc)
		rc = cli_table_print(&cost, 0);
	if (!rc && v->have_skew) {
		hb_buf_reset(&b);
		rc = (strcmp(v->skew_source, "rows")
		          ? hb_buf_addf(
		                &b,
		                "skew: %llu keys drawn from '%s' routed through each split set\n",
		                (unsigned long long)v->skew_keys, v->keyspace ? v->keyspace : "")
		          : hb_buf_addf(&b,
		                        "skew: %llu sampled rows of the table routed through each "
		                        "split set\n",
		                        (unsigned long long)v->skew_keys))
		         ? HB_ENOMEM
		         : cli_write_stdout(b.data, b.len);
	}
	hb_buf_reset(&b);
	if (!rc && v->skew_note)
		rc = hb_buf_addf(&b, "skew: %s\n", v->skew_note) ? HB_ENOMEM
		                                                 : cli_write_stdout(b.data, b.len);
	hb_buf_reset(&b);
	if (!rc)
		rc = hb_buf_adds(&b, "why: ") || why(&b, v) || hb_buf_addc(&b, '\n')
		         ? HB_ENOMEM
		         : cli_write_stdout(b.data, b.len);
	hb_buf_release(&b);
	cli_table_release(&in);
	cli_table_release(&cost);
	return rc;
}

int cli_advice_print(const struct cli_advice *v)
{
	return cli_g.output == CLI_OUT_JSON ? print_json(v) : print_text(v);
}
