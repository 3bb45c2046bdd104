/* hbtab audit: reachability, chain integrity, drift and hot-spots of a table or a split set. */
#include "../core/activity.h"
#include "../core/audit.h"
#include "../core/clock.h"
#include "../core/key.h"
#include "../core/keyspace.h"
#include "../core/regioninfo.h"
#include "../core/schema.h"
#include "../rest/hbase.h"
#include "../rest/metarow.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "output.h"
#include "rest_cli.h"
#include "splitspec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_WINDOW 10.0

struct audit_run {
	const char *table;  /* NULL for a planned split set */
	const char *source; /* "rest", "meta" or "splits" */
	struct hb_regions rs;
	struct hb_keyspace *ks;
	int any_key; /* no key space known: ks is '*', any row key; no shares */
	struct hb_buf ks_canon;
	struct hb_audit a;
	struct hb_hotspots hot;
	int have_hot;
	double window;
	double elapsed; /* measured between the two counter readings; 0 with one reading */
	int metadata;   /* table form: 1 the metadata row exists, 0 it does not, -1 unknown */
};

/* ---------------------------------------------------------------- output */

static int json_strn(struct hb_buf *b, const char *s)
{
	return s ? cli_json_str(b, s, strlen(s)) : hb_buf_adds(b, "null");
}

/* Streams the JSON document (the list can hold 100,000s of regions). */
static int print_json(const struct audit_run *r)
{
	struct hb_buf b = HB_BUF_INIT, tmp = HB_BUF_INIT;
	const struct hb_findings *f = &r->a.findings;
	size_t i;
	int rc;

	rc = hb_buf_addf(&b, "{\"healthy\":%s,\"table\":", f->n ? "false" : "true") ||
	     json_strn(&b, r->table) ||
	     hb_buf_addf(&b, ",\"source\":\"%s\",\"keyspace\":", r->source) ||
	     json_strn(&b, r->ks && !r->any_key ? hb_buf_str(&r->ks_canon) : NULL) ||
	     hb_buf_adds(&b, ",\"total_keys\":") ||
	     json_strn(&b, r->any_key ? NULL : r->a.total_keys) ||
	     hb_buf_addf(&b, ",\"metadata_row\":%s,\"regions\":[",
	                 !r->table || r->metadata < 0 ? "null"
	                 : r->metadata                ? "true"
	                                              : "false");
	for (i = 0; !rc && i < r->rs.n; i++) {
		struct hb_region_view v;
		const struct hb_region *g = hb_regions_at(&r->rs, i, &v);
		struct hb_audit_region ar;

		hb_audit_at(&r->a, i, &ar);
		rc = hb_buf_addf(&b, "%s{\"index\":%zu,\"start\":", i ? "," : "", i) ||
		     cli_json_tsb(&b, g->start, g->start_len, &tmp) ||
		     hb_buf_adds(&b, ",\"end\":") || cli_json_tsb(&b, g->end, g->end_len, &tmp);
		if (!rc)
			rc =
			    ar.reachable < 0
			        ? hb_buf_adds(&b,
			                      ",\"reachable\":null,\"share\":null,\"keys\":null")
			    : r->any_key
			        ? hb_buf_addf(&b, ",\"reachable\":%s,\"share\":null,\"keys\":null",
			                      ar.reachable ? "true" : "false")
			        : hb_buf_addf(&b, ",\"reachable\":%s,\"share\":%s,\"keys\":",
			                      ar.reachable ? "true" : "false", CLI_NUM(ar.share)) ||
			              json_strn(&b, ar.keys);
		if (!rc && r->table) {
			rc = hb_buf_addf(
			    &b, ",\"live\":%s,\"name\":", hb_region_is_live(g) ? "true" : "false");
			if (!rc)
				rc = g->name ? cli_json_tsb(&b, g->name, g->name_len, &tmp)
				             : hb_buf_adds(&b, "null");
			if (!rc)
				rc = hb_buf_adds(&b, ",\"server\":") || json_strn(&b, g->server);
		}
		if (!rc && r->have_hot)
			rc = hb_buf_addf(&b, ",\"writes\":%llu,\"reads\":%llu,\"write_share\":%s",
			                 (unsigned long long)r->hot.r[i].writes,
			                 (unsigned long long)r->hot.r[i].reads,
			                 CLI_NUM(hb_hotspots_share(&r->hot, i)));
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
			rc = hb_buf_adds(&b, ",\"message\":") || json_strn(&b, f->v[i].message) ||
			     hb_buf_addc(&b, '}');
	}
	if (!rc)
		rc = hb_buf_addc(&b, ']');
	if (!rc && r->have_hot) {
		rc =
		    hb_buf_addf(&b,
		                ",\"hotspots\":{\"window\":%s,\"elapsed\":%s,"
		                "\"total_writes\":%llu,"
		                "\"total_reads\":%llu,\"fair_share\":%s,\"sequential_region\":",
		                CLI_NUM(r->window), CLI_NUM(r->elapsed),
		                (unsigned long long)r->hot.total_writes,
		                (unsigned long long)r->hot.total_reads, CLI_NUM(r->hot.fair_share));
		if (!rc)
			rc = r->hot.sequential_region < 0
			         ? hb_buf_adds(&b, "null")
			         : hb_buf_addf(&b, "%ld", r->hot.sequential_region);
		if (!rc)
			rc = hb_buf_adds(&b, ",\"servers\":[");
		for (i = 0; !rc && i < r->hot.ns; i++) {
			const struct hb_hot_server *s = &r->hot.s[i];

			rc = hb_buf_adds(&b, i ? ",{\"name\":" : "{\"name\":") ||
			     json_strn(&b, s->name) ||
			     hb_buf_addf(&b,
			                 ",\"regions\":%zu,\"writes\":%llu,\"reads\":%llu,"
			                 "\"write_share\":%s}",
			                 s->regions, (unsigned long long)s->writes,
			                 (unsigned long long)s->reads, CLI_NUM(s->write_share));
		}
		if (!rc)
			rc = hb_buf_adds(&b, "]}");
	}
	if (!rc)
		rc = hb_buf_adds(&b, "}\n");
	if (!rc)
		rc = cli_stream_flush(&b, 1);
	hb_buf_release(&b);
	hb_buf_release(&tmp);
	return rc;
}

/*
 * Where region rows go: a cli_table on a terminal (aligned, with a header), else streamed as
 * the same tab-separated lines cli_table prints, so 100,000s of rows need no table in memory.
 */
struct sink {
	struct cli_table *t; /* NULL: stream to b */
	struct hb_buf *b;
	size_t col, ncols;
};

static int sink_add(struct sink *k, const char *s)
{
	int rc = 0;

	if (k->t)
		return cli_table_add(k->t, s);
	if (k->col)
		rc = hb_buf_addc(k->b, '\t');
	for (s = s ? s : "-"; !rc && *s;) {
		size_t n = strcspn(s, "\t\n");

		rc = hb_buf_add(k->b, s, n);
		s += n;
		if (!rc && *s)
			rc = hb_buf_adds(k->b, *s++ == '\t' ? "\\t" : "\\n");
	}
	if (!rc && ++k->col == k->ncols) {
		k->col = 0;
		rc = hb_buf_addc(k->b, '\n');
		if (!rc)
			rc = cli_stream_flush(k->b, 0);
	}
	return rc;
}

static int sink_addf(struct sink *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int sink_addf(struct sink *k, const char *fmt, ...)
{
	char cell[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cell, sizeof(cell), fmt, ap);
	va_end(ap);
	return sink_add(k, cell);
}

static int sink_tsb(struct sink *k, const void *key, size_t n, struct hb_buf *tmp)
{
	hb_buf_reset(tmp);
	if (hb_tsb_append(tmp, key, n) || hb_buf_add(tmp, "", 0))
		return HB_ENOMEM;
	return sink_add(k, tmp->data);
}

static int sink_share(struct sink *k, double share, int reachable)
{
	if (reachable < 0)
		return sink_add(k, NULL);
	if (share > 0 && share < 0.0001)
		return sink_add(k, "<0.01%");
	return sink_addf(k, "%.2f%%", 100.0 * share);
}

/* Findings first ("kind: message"), then (unless -q) a summary and every region. */
static int print_text(const struct audit_run *r)
{
	static const char *const hdr[] = {"INDEX", "START",  "END",    "REACHABLE",  "SHARE",
	                                  "KEYS",  "SERVER", "WRITES", "WRITE_SHARE"};
	const struct hb_findings *f = &r->a.findings;
	struct hb_buf out = HB_BUF_INIT, tmp = HB_BUF_INIT;
	struct cli_table t;
	struct sink k = {NULL, &out, 0, 6};
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < f->n; i++) {
		rc = hb_buf_addf(&out, "%s%s%s: %s\n", cli_color(CLI_RED), f->v[i].kind,
		                 cli_color(CLI_RESET), f->v[i].message) ||
		     cli_stream_flush(&out, 0);
	}
	if (!rc && !cli_g.quiet) {
		if (f->n)
			rc = hb_buf_addc(&out, '\n');
		if (!rc)
			rc = hb_buf_addf(&out, "%s%s%s: %zu region%s, %zu finding%s",
			                 cli_color(f->n ? CLI_RED : CLI_GREEN),
			                 f->n ? "unhealthy" : "healthy", cli_color(CLI_RESET),
			                 r->rs.n, r->rs.n == 1 ? "" : "s", f->n,
			                 f->n == 1 ? "" : "s");
		if (!rc && r->table && !r->metadata)
			rc = hb_buf_adds(&out, ", no metadata row (N and drift not checked)");
		else if (!rc && r->table && r->metadata < 0)
			rc = hb_buf_adds(&out, ", metadata row unknown (N and drift not checked)");
		if (!rc && r->any_key)
			rc = hb_buf_adds(&out, ", no key space known (regions checked against any "
			                       "row key; give --keyspace for shares)");
		else if (!rc && r->ks)
			rc = hb_buf_addf(
			    &out, ", keyspace '%s' (%s key%s%s)", hb_buf_str(&r->ks_canon),
			    r->a.total_keys ? r->a.total_keys : "?",
			    r->a.total_keys && !strcmp(r->a.total_keys, "1") ? "" : "s",
			    hb_keyspace_has_star(r->ks) ? ", counted by prefix" : "");
		if (!rc && r->have_hot)
			rc = r->elapsed > 0
			         ? hb_buf_addf(&out, ", %llu write%s in %.1f s",
			                       (unsigned long long)r->hot.total_writes,
			                       HB_PLURAL(r->hot.total_writes), r->elapsed)
			         : hb_buf_addf(&out, ", %llu write%s since the regions opened",
			                       (unsigned long long)r->hot.total_writes,
			                       HB_PLURAL(r->hot.total_writes));
		if (!rc)
			rc = hb_buf_adds(&out, "\n\n");
	}
	if (!rc)
		rc = cli_stream_flush(&out, 1);
	if (rc || cli_g.quiet)
		goto done;
	if (r->table)
		k.ncols = r->have_hot ? 9 : 7;
	if (cli_stdout_tty()) {
		rc = cli_table_init(&t, k.ncols, hdr);
		if (rc)
			goto done;
		k.t = &t;
	}
	for (i = 0; !rc && i < r->rs.n; i++) {
		struct hb_region_view v;
		const struct hb_region *g = hb_regions_at(&r->rs, i, &v);
		struct hb_audit_region ar;

		hb_audit_at(&r->a, i, &ar);
		rc = sink_addf(&k, "%zu", i) || sink_tsb(&k, g->start, g->start_len, &tmp) ||
		     sink_tsb(&k, g->end, g->end_len, &tmp) ||
		     sink_add(&k, ar.reachable < 0 ? NULL
		                  : ar.reachable   ? "yes"
		                                   : "no") ||
		     sink_share(&k, ar.share, r->any_key ? -1 : ar.reachable) ||
		     sink_add(&k, r->any_key ? NULL : ar.keys);
		if (!rc && k.ncols > 6)
			rc = sink_add(&k, g->server);
		if (!rc && k.ncols > 7)
			rc = sink_addf(&k, "%llu", (unsigned long long)r->hot.r[i].writes) ||
			     sink_addf(&k, "%.2f%%", 100.0 * hb_hotspots_share(&r->hot, i));
	}
	if (k.t) {
		if (!rc)
			rc = cli_table_print(&t, 0);
		cli_table_release(&t);
	} else if (!rc) {
		rc = cli_stream_flush(&out, 1);
	}
done:
	hb_buf_release(&out);
	hb_buf_release(&tmp);
	return rc ? HB_ENOMEM : 0;
}

static int finish(struct audit_run *r)
{
	int rc;

	hb_findings_sort(&r->a.findings);
	rc = cli_g.output == CLI_OUT_JSON ? print_json(r) : print_text(r);
	if (rc)
		return cli_exit(rc);
	return r->a.findings.n ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- table form */

/* The metadata row's qualifiers as NUL-terminated copies (NULL = absent). */
struct meta_values {
	int present;
	char *n, *keyspace, *splits;
};

static void meta_values_release(struct meta_values *m)
{
	free(m->n);
	free(m->keyspace);
	free(m->splits);
	memset(m, 0, sizeof(*m));
}

/* A NUL-terminated copy of a cell (NULL = absent); a NUL inside is kept visible as \x00. */
static int copy_cell(char **out, const struct hb_cell *c)
{
	if (!c)
		return 0;
	*out = malloc(c->value_len + 1);
	if (!*out)
		return HB_ENOMEM;
	memcpy(*out, c->value, c->value_len);
	(*out)[c->value_len] = 0;
	if (strlen(*out) != c->value_len) {
		struct hb_buf t = HB_BUF_INIT;

		free(*out);
		if (hb_tsb_append(&t, c->value, c->value_len) || hb_buf_add(&t, "", 0))
			return HB_ENOMEM;
		*out = hb_buf_detach(&t, NULL);
	}
	return 0;
}

/* Reads the metadata row (family: --metadata-family, else the table's first family). */
static int read_metadata(struct hb_rest *c, const char *table, const char *family_opt,
                         const char *row_opt, struct meta_values *out, struct hb_error *err)
{
	struct hb_metarow m;
	struct hb_row cells;
	int found = 0, rc;

	hb_row_init(&cells);
	rc = hb_metarow_locate(&m, c, table, family_opt, row_opt, err);
	if (!rc)
		rc = hb_metarow_read(c, &m, &cells, &found, err);
	if (!rc) {
		out->present = found;
		if (found &&
		    (copy_cell(&out->n, hb_metarow_cell(&m, &cells, HB_METAROW_N)) ||
		     copy_cell(&out->keyspace, hb_metarow_cell(&m, &cells, HB_METAROW_KEYSPACE)) ||
		     copy_cell(&out->splits, hb_metarow_cell(&m, &cells, HB_METAROW_SPLITS))))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_row_release(&cells);
	hb_metarow_release(&m);
	return rc;
}

/* Matches each region load of a status read to the audited regions as it is read. */
struct load_match {
	struct hb_region_counts *counts;
	const struct hb_regions *rs;
	const char *table;
	int t1;
};

static int match_load(void *ctx, const struct hb_node *node, const struct hb_region_load *rl,
                      struct hb_error *err)
{
	struct load_match *m = ctx;
	struct hb_audit_load l;

	(void)err;
	l.name = rl->name;
	l.name_len = rl->name_len;
	l.server = node->name; /* kept by the status until the counts are used */
	l.reads = rl->read_requests > 0 ? (uint64_t)rl->read_requests : 0;
	l.writes = rl->write_requests > 0 ? (uint64_t)rl->write_requests : 0;
	hb_audit_match_load(m->counts, m->rs, m->table, &l, m->t1);
	return 0;
}

/* Write shares from two readings of /status/cluster (one with no window), each region's
 * counters matched to the audited regions as the reading streams: a cluster's million
 * region loads are never held. */
static int hotspots(struct audit_run *r, struct hb_rest *c, const struct hb_hot_params *p,
                    struct hb_error *err)
{
	struct hb_cluster_status s0, s1;
	struct load_match m;
	int *reach = NULL;
	double t0 = 0;
	size_t i;
	int rc;

	memset(&s0, 0, sizeof(s0));
	memset(&s1, 0, sizeof(s1));
	m.rs = &r->rs;
	m.table = r->table;
	if (!strncmp(m.table, "default:", 8))
		m.table += 8; /* region names carry no namespace for the default one */
	m.counts = calloc(r->rs.n ? r->rs.n : 1, sizeof(*m.counts));
	if (r->ks)
		reach = calloc(r->rs.n ? r->rs.n : 1, sizeof(*reach));
	if (!m.counts || (r->ks && !reach)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	if (r->window > 0) {
		m.t1 = 0;
		rc = hb_rest_get_status_each(c, &s0, match_load, &m, err);
		if (rc)
			goto done;
		t0 = hb_now();
		hb_activity_sleep("measuring writes", r->window);
	}
	m.t1 = 1;
	rc = hb_rest_get_status_each(c, &s1, match_load, &m, err);
	if (rc)
		goto done;
	/* the writes counted are those between the two readings, however long they took */
	r->elapsed = r->window > 0 ? hb_now() - t0 : 0;
	for (i = 0; reach && i < r->rs.n; i++) {
		struct hb_audit_region res;

		hb_audit_at(&r->a, i, &res);
		reach[i] = res.reachable;
	}
	if (hb_audit_hotspots(&r->hot, &r->a.findings, &r->rs, m.counts, reach, p)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	r->have_hot = 1;
done:
	free(m.counts);
	free(reach);
	hb_cluster_status_release(&s0);
	hb_cluster_status_release(&s1);
	return rc;
}

struct table_opts {
	const char *keyspace, *source, *window, *meta_family, *meta_row, *hot_factor,
	    *hot_min_writes, *placement_factor;
	int hotspots, require_metadata;
};

/* Regions per live server against an even spread (a failed status read is only warned
 * about: placement is advice, the audit's other findings stand). */
static int placement(struct audit_run *r, struct hb_rest *c, double factor)
{
	struct hb_cluster_status st;
	struct hb_error err = {0};
	const char **names;
	size_t i;
	int rc;

	memset(&st, 0, sizeof(st));
	if (hb_rest_get_status_nodes(c, &st, &err)) {
		cli_progress_done();
		cli_warn("cannot check region placement: %s", err.msg);
		hb_cluster_status_release(&st);
		return 0;
	}
	cli_progress_done();
	names = calloc(st.nlive ? st.nlive : 1, sizeof(*names));
	if (!names) {
		hb_cluster_status_release(&st);
		return HB_ENOMEM;
	}
	for (i = 0; i < st.nlive; i++)
		names[i] = st.live[i].name ? st.live[i].name : "";
	rc = hb_audit_placement(&r->a.findings, &r->rs, names, st.nlive, factor);
	free(names);
	hb_cluster_status_release(&st);
	return rc;
}

static struct table_opts o;
static const char *servers; /* --servers S: N = auto of a split set, offline */
static struct hb_hot_params hot_params = HB_HOT_PARAMS_DEFAULT;
static double window = DEFAULT_WINDOW;
static double placement_factor = HB_PLACEMENT_FACTOR_DEFAULT;

/* The table options, checked offline. */
static int check_table_opts(void)
{
	struct hb_error err = {0};

	if (o.placement_factor) {
		char *end;

		errno = 0;
		placement_factor = strtod(o.placement_factor, &end);
		if (*end || end == o.placement_factor || errno || !(placement_factor >= 1) ||
		    placement_factor > 1e6)
			return cli_usage_exit("audit",
			                      "invalid --placement-factor '%s' (a number >= 1)",
			                      o.placement_factor);
	}
	if (o.source && strcmp(o.source, "meta") && strcmp(o.source, "rest"))
		return cli_usage_exit("audit", "invalid --source '%s' (expected rest or meta)",
		                      o.source);
	if (!o.hotspots && (o.window || o.hot_factor || o.hot_min_writes))
		return cli_usage_exit("audit", "--%s needs --hotspots",
		                      o.window       ? "window"
		                      : o.hot_factor ? "hot-factor"
		                                     : "hot-min-writes");
	if (o.window) {
		char *end;

		errno = 0;
		window = strtod(o.window, &end);
		if (*end || end == o.window || errno || !(window >= 0) || window > 86400)
			return cli_usage_exit("audit", "invalid --window '%s' (seconds, 0..86400)",
			                      o.window);
	}
	if (o.hot_factor) {
		char *end;

		errno = 0;
		hot_params.factor = strtod(o.hot_factor, &end);
		if (*end || end == o.hot_factor || errno || !(hot_params.factor >= 1) ||
		    hot_params.factor > 1e6)
			return cli_usage_exit("audit", "invalid --hot-factor '%s' (a number >= 1)",
			                      o.hot_factor);
	}
	if (o.hot_min_writes) {
		long v;

		if (cli_parse_long(o.hot_min_writes, 0, 2147483647L, "--hot-min-writes", &v, &err))
			return cli_fail(&err);
		hot_params.min_writes = (uint64_t)v;
	}
	return CLI_EXIT_OK;
}

static int compare_region(void *ctx, const struct hb_region *g, struct hb_error *err)
{
	return hb_compare_add(ctx, g) ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

static int audit_table(struct audit_run *r, struct hb_rest *c)
{
	struct hb_error err = {0};
	struct meta_values md = {0};
	struct hb_audit_meta am;
	const struct table_opts *op = &o;
	int meta = o.source && !strcmp(o.source, "meta"), state = -1, avail = -1, disabled, rc;
	struct hb_error why = {0};

	r->window = window;
	r->source = meta ? "meta" : "rest";
	rc = cli_rest_regions(c, r->table, meta, &r->rs, &state, &err);
	if (rc == CLI_EXIT_SERVER) /* not found: reported already */
		goto done;
	/* REST shows a closed region's last server: learn what is really online. */
	if (!rc && !meta)
		rc = cli_rest_states_why(c, r->table, &r->rs, &state, &avail, &why, &err);
	if (rc)
		goto fail;
	hb_regions_sort(&r->rs);
	/* A disabled table cannot be read (TableNotEnabledException): no metadata row. */
	disabled = state == HB_TABLE_DISABLED || state == HB_TABLE_DISABLING;
	if (!disabled) {
		rc = read_metadata(c, r->table, op->meta_family, op->meta_row, &md, &err);
		if (rc == HB_ESERVER)
			cli_explain_disabled(c, r->table, &err);
		if (rc)
			goto fail;
	}
	if (!r->ks && md.keyspace && md.keyspace[0]) {
		struct hb_error kerr = {0};

		/* An unparsable stored key space is reported as drift below. */
		if (!hb_keyspace_parse(&r->ks, md.keyspace, &kerr) &&
		    hb_keyspace_format(&r->ks_canon, r->ks)) {
			rc = HB_ENOMEM;
			goto fail;
		}
	}
	if (!r->ks) {
		/* Without a key space, a region is still unreachable when no row key at all
		 * fits in it (an empty range, or [start, start\x00) style slivers). */
		if (hb_keyspace_parse(&r->ks, "*", &err)) {
			rc = HB_ENOMEM;
			goto fail;
		}
		r->any_key = 1;
	}
	rc = hb_audit_reach(&r->a, r->ks, &r->rs, &err);
	if (rc == HB_EINVAL)
		hb_error_prefix(&err, rc, "keyspace '%s'", hb_buf_str(&r->ks_canon));
	if (!rc)
		rc = hb_audit_chain(&r->a.findings, &r->rs, meta);
	if (!rc)
		rc = hb_audit_states(&r->a.findings, r->table, state, &r->rs);
	if (!rc && avail == 0 && state == HB_TABLE_ENABLED)
		rc = hb_findings_add(&r->a.findings, HB_FIND_NOT_OPEN, -1,
		                     "table '%s' is not available: some regions are not online "
		                     "(Thrift2 isTableAvailable)",
		                     r->table);
	/* Unknown state is never health: REST lists a disabled table's regions with their last
	 * servers, and answers its row reads with 404 as if the metadata row were missing. */
	if (!rc && why.code)
		rc = hb_findings_add(&r->a.findings, HB_FIND_STATE_UNKNOWN, -1, "%s%s", why.msg,
		                     md.present
		                         ? ""
		                         : "; the table may be disabled, which would also hide "
		                           "its metadata row and stored key space");
	if (rc)
		goto fail;
	if (meta) {
		struct hb_error oerr = {0};
		struct hb_compare cmp;

		/* REST's list is compared as it is read, never held beside meta's. */
		rc = hb_compare_begin(&cmp, &r->rs);
		if (!rc) {
			rc = hb_rest_regions_scan(c, r->table, compare_region, &cmp, &oerr);
			if (rc && rc != HB_ENOMEM)
				cli_warn("cannot compare with REST /regions: %s", oerr.msg);
			else if (!rc)
				rc = hb_compare_end(&cmp, &r->a.findings, "hbase:meta",
				                    "REST /regions");
			rc = rc == HB_ENOMEM ? rc : 0;
		}
		hb_compare_release(&cmp);
		if (rc)
			goto fail;
	}
	r->metadata = md.present ? 1 : why.code ? -1 : 0;
	am.present = md.present;
	am.require = op->require_metadata;
	am.n = md.n;
	am.keyspace = md.keyspace && md.keyspace[0] ? md.keyspace : NULL;
	am.splits = md.splits;
	rc = disabled || r->metadata < 0
	         ? 0
	         : hb_audit_drift(&r->a.findings, &am, &r->rs, op->keyspace, &err);
	if (!rc && op->hotspots)
		rc = hotspots(r, c, &hot_params, &err);
	if (!rc && placement(r, c, placement_factor))
		rc = hb_error_set(&err, HB_ENOMEM, "out of memory");
	if (rc)
		goto fail;
	rc = finish(r);
	goto done;
fail:
	cli_progress_done();
	if (rc == HB_ENOMEM && !err.msg[0])
		hb_error_set(&err, HB_ENOMEM, "out of memory");
	rc = cli_fail(&err);
done:
	meta_values_release(&md);
	return rc;
}

/* ---------------------------------------------------------------- planned split set */

/*
 * A planned split set is audited as a stream over its key list: each region [k(i-1), k(i))
 * is viewed in the list and decided without being stored, so memory stays at the key list
 * plus a few buffers whatever the number of regions or findings. Findings come first in the
 * text output and "healthy" first in JSON, but are only known at the end, so the list is
 * walked more than once: a first pass only counts the findings (any error shows there, before
 * anything is printed), then one pass writes the findings and another the rows, each straight
 * to standard output in the order the format wants. Deciding a region again costs less than
 * keeping its rendered finding (hundreds of bytes, a million times over) until it is due.
 */
/*
 * Renders the rows of a planned split set. Region i starts where region i-1 ends, so each
 * bound is formatted once and kept for the next row; a share is formatted once per distinct
 * value (evenly split chains repeat a few). The text matches sink_* and print_json exactly.
 */
#define SHARE_MEMO 4
struct row_render {
	int json;
	struct hb_buf bound[2]; /* the previous region's end, this region's end (formatted) */
	int cur;                /* index of the previous end in bound */
	struct {
		double v;
		int used;
		char text[512]; /* JSON number (cli_num) or the SHARE cell */
	} memo[SHARE_MEMO];
	unsigned memo_next;
};

static void row_render_init(struct row_render *w, int json)
{
	memset(w, 0, sizeof(*w));
	w->json = json;
}

static void row_render_release(struct row_render *w)
{
	hb_buf_release(&w->bound[0]);
	hb_buf_release(&w->bound[1]);
}

static const char *share_text(struct row_render *w, double share)
{
	unsigned j;

	for (j = 0; j < SHARE_MEMO; j++)
		if (w->memo[j].used && !memcmp(&w->memo[j].v, &share, sizeof(share)))
			return w->memo[j].text;
	j = w->memo_next;
	w->memo_next = (w->memo_next + 1) % SHARE_MEMO;
	w->memo[j].v = share;
	w->memo[j].used = 1;
	if (w->json)
		cli_num(w->memo[j].text, share);
	else if (share > 0 && share < 0.0001)
		snprintf(w->memo[j].text, sizeof(w->memo[j].text), "<0.01%%");
	else
		snprintf(w->memo[j].text, sizeof(w->memo[j].text), "%.2f%%", 100.0 * share);
	return w->memo[j].text;
}

/* Formats key k as a row cell: its JSON string, or its toStringBinary text. */
static int bound_format(struct hb_buf *b, int json, const unsigned char *k, size_t n)
{
	hb_buf_reset(b);
	if (json)
		return cli_json_tsb(b, k, n, NULL);
	return hb_tsb_append(b, k, n) || hb_buf_add(b, "", 0);
}

/* Renders region i's row (JSON object or tab-separated line) into b. Rows come in order:
 * region i's start must be region i-1's end (the first region starts empty). */
static int render_region(struct hb_buf *b, struct row_render *w, size_t i,
                         const struct hb_region *g, const struct hb_audit_region *ar)
{
	struct hb_buf *start = &w->bound[w->cur], *end = &w->bound[!w->cur];
	int rc;

	if (!i && bound_format(start, w->json, g->start, g->start_len))
		return HB_ENOMEM;
	if (bound_format(end, w->json, g->end, g->end_len))
		return HB_ENOMEM;
	w->cur = !w->cur;
	if (w->json) {
		rc = hb_buf_adds(b, i ? ",{\"index\":" : "{\"index\":") || hb_buf_add_uint(b, i) ||
		     hb_buf_adds(b, ",\"start\":") || hb_buf_add(b, start->data, start->len) ||
		     hb_buf_adds(b, ",\"end\":") || hb_buf_add(b, end->data, end->len) ||
		     hb_buf_adds(b, ar->reachable ? ",\"reachable\":true,\"share\":"
		                                  : ",\"reachable\":false,\"share\":") ||
		     hb_buf_adds(b, share_text(w, ar->share)) || hb_buf_adds(b, ",\"keys\":\"") ||
		     hb_buf_adds(b, ar->keys) || hb_buf_add(b, "\"}", 2);
		return rc ? HB_ENOMEM : 0;
	}
	/* Offline cells hold no tab or newline: keys are in toStringBinary form. */
	rc = hb_buf_add_uint(b, i) || hb_buf_addc(b, '\t') ||
	     hb_buf_add(b, start->data, start->len) || hb_buf_addc(b, '\t') ||
	     hb_buf_add(b, end->data, end->len) ||
	     hb_buf_adds(b, ar->reachable ? "\tyes\t" : "\tno\t") ||
	     hb_buf_adds(b, share_text(w, ar->share)) || hb_buf_addc(b, '\t') ||
	     hb_buf_adds(b, ar->keys) || hb_buf_addc(b, '\n');
	return rc ? HB_ENOMEM : 0;
}

/* Writes one finding to out, in the order finish() would print them (by region, table-wide
 * ones last: regions arrive in order, so no sort). escaped: message (len bytes) is a JSON
 * string body already (hb_reach_stream escape_messages). */
static int render_finding(struct hb_buf *out, int json, const char *kind, long region,
                          const char *message, size_t len, int escaped, size_t *count, long *last)
{
	int rc;

	if ((region >= 0 && (*last < -1 || region < *last)) ||
	    (region < 0 && *last >= -1 && region != -1))
		HB_BUG("streamed findings out of region order");
	*last = region >= 0 ? region : -2;
	if (json)
		rc = hb_buf_adds(out, *count ? ",{\"kind\":\"" : "{\"kind\":\"") ||
		     hb_buf_adds(out, kind) || hb_buf_adds(out, "\",\"region\":") ||
		     (region < 0 ? hb_buf_adds(out, "null")
		                 : hb_buf_add_uint(out, (unsigned long long)region)) ||
		     (escaped ? hb_buf_adds(out, ",\"message\":\"") ||
		                    hb_buf_add(out, message, len) || hb_buf_adds(out, "\"}")
		              : hb_buf_adds(out, ",\"message\":") ||
		                    cli_json_str(out, message, len) || hb_buf_addc(out, '}'));
	else
		rc = hb_buf_adds(out, cli_color(CLI_RED)) || hb_buf_adds(out, kind) ||
		     hb_buf_adds(out, cli_color(CLI_RESET)) || hb_buf_add(out, ": ", 2) ||
		     hb_buf_add(out, message, len) || hb_buf_addc(out, '\n');
	(*count)++;
	return rc ? HB_ENOMEM : cli_stream_flush(out, 0);
}

/* render_finding for each of f (its messages not escaped), then empties f. */
static int render_findings(struct hb_buf *out, int json, struct hb_findings *f, size_t *count,
                           long *last)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < f->n; i++)
		rc = render_finding(out, json, f->v[i].kind, f->v[i].region, f->v[i].message,
		                    strlen(f->v[i].message), 0, count, last);
	hb_findings_release(f);
	return rc;
}

/* The passes over a split set's regions. */
enum walk_pass {
	WALK_COUNT,    /* count the findings, print nothing */
	WALK_FINDINGS, /* write the findings */
	WALK_ROWS,     /* write the rows */
};

struct walk {
	const struct hb_keys *keys;
	struct hb_keyspace *ks;
	const char *ks_canon;
	int json;
	size_t nf;           /* WALK_COUNT: findings counted */
	size_t chain_nf;     /* WALK_COUNT: how many of them the chain check made */
	size_t written;      /* WALK_FINDINGS: findings written */
	char *total_keys;    /* WALK_COUNT: #K in decimal (owned) */
	struct cli_table *t; /* WALK_ROWS: a terminal table, or NULL to stream into out */
	struct hb_buf *out;
};

/* Writes one rendered row: streamed, or split at its tabs into the terminal table. */
static int emit_row(struct walk *w, struct row_render *rw, size_t i, const struct hb_region *g,
                    const struct hb_audit_region *ar, struct hb_buf *line)
{
	char *cell, *tab;
	int rc;

	if (!w->t) {
		rc = render_region(w->out, rw, i, g, ar);
		return rc ? rc : cli_stream_flush(w->out, 0);
	}
	hb_buf_reset(line);
	if (render_region(line, rw, i, g, ar))
		return HB_ENOMEM;
	line->data[--line->len] = 0; /* the newline */
	for (cell = line->data; (tab = strchr(cell, '\t')); cell = tab + 1) {
		*tab = 0;
		if (cli_table_add(w->t, cell))
			return HB_ENOMEM;
	}
	return cli_table_add(w->t, cell) ? HB_ENOMEM : 0;
}

static int walk(struct walk *w, enum walk_pass pass, struct hb_error *err)
{
	struct hb_reach_stream reach;
	struct hb_chain_stream chain;
	struct hb_findings fc; /* the chain's findings */
	struct row_render rw;
	struct hb_buf line = HB_BUF_INIT;
	size_t i, n = w->keys->n + 1; /* regions [empty, k0) [k0, k1) ... [k(n-2), empty) */
	/* Only the findings pass makes findings: reach leaves each message in reach.msg (escaped
	 * for JSON already), written at once. The count pass counts unreachable regions in reach
	 * and takes the (few) chain findings as they come. The findings pass counts no keys and,
	 * when the count pass had no chain finding, leaves out the chain check too: a pass over
	 * the same list decides the same. */
	int chain_check = pass == WALK_COUNT || (pass == WALK_FINDINGS && w->chain_nf);
	long last = -1;
	int rc;

	if (pass == WALK_COUNT)
		w->nf = w->chain_nf = 0;
	w->written = 0;
	hb_findings_init(&fc);
	hb_chain_stream_init(&chain, 0);
	row_render_init(&rw, w->json);
	rc = hb_reach_stream_begin(&reach, w->ks, err);
	if (rc == HB_EINVAL)
		hb_error_prefix(err, rc, "--keyspace '%s'", w->ks_canon);
	reach.decide_only = pass == WALK_FINDINGS;
	reach.escape_messages = pass == WALK_FINDINGS && w->json;
	reach.keep_message = pass == WALK_FINDINGS;
	for (i = 0; !rc && i < n; i++) {
		struct hb_region g;
		struct hb_audit_region ar;
		size_t sl = 0, el = 0;

		memset(&g, 0, sizeof(g));
		g.start = i ? (unsigned char *)hb_keys_at(w->keys, i - 1, &sl) : NULL;
		g.end = i < w->keys->n ? (unsigned char *)hb_keys_at(w->keys, i, &el) : NULL;
		g.start_len = sl;
		g.end_len = el;
		if (pass == WALK_COUNT && !(i & 1023))
			cli_progress("auditing regions", i, n);
		rc = hb_reach_stream_next(&reach, i, &g, &ar, NULL, err);
		if (rc == HB_EINVAL)
			hb_error_prefix(err, rc, "--keyspace '%s'", w->ks_canon);
		if (!rc && chain_check && hb_chain_stream_next(&chain, &fc, i, &g))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		if (!rc && pass == WALK_ROWS)
			rc = emit_row(w, &rw, i, &g, &ar, &line);
		if (!rc && fc.n && pass == WALK_COUNT) {
			w->chain_nf += fc.n;
			hb_findings_release(&fc);
		}
		if (!rc && reach.msg.len)
			rc = render_finding(w->out, w->json, HB_FIND_UNREACHABLE, (long)i,
			                    reach.msg.data, reach.msg.len, w->json, &w->written,
			                    &last);
		if (!rc && fc.n)
			rc = render_findings(w->out, w->json, &fc, &w->written, &last);
	}
	if (pass == WALK_COUNT)
		cli_progress_done();
	if (!rc && chain_check && hb_chain_stream_end(&chain, &fc))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc && pass == WALK_COUNT) {
		w->chain_nf += fc.n;
		w->nf = w->chain_nf + reach.unreachable;
		w->total_keys = reach.total_keys;
		reach.total_keys = NULL;
	} else if (!rc && fc.n) {
		rc = render_findings(w->out, w->json, &fc, &w->written, &last);
	}
	if (rc == HB_ENOMEM && !err->msg[0])
		hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_reach_stream_release(&reach);
	hb_chain_stream_release(&chain);
	hb_findings_release(&fc);
	row_render_release(&rw);
	hb_buf_release(&line);
	return rc;
}

/* The findings pass: the same findings the count pass counted, written to standard output. */
static int walk_findings(struct walk *w, struct hb_error *err)
{
	int rc = walk(w, WALK_FINDINGS, err);

	if (!rc && w->written != w->nf)
		HB_BUG("the findings pass disagrees with the count pass");
	return rc;
}

static int audit_splits(struct audit_run *r, const struct cli_splitspec *ss)
{
	static const char *const hdr[] = {"INDEX", "START", "END", "REACHABLE", "SHARE", "KEYS"};
	struct hb_error err = {0};
	struct hb_keys keys;
	struct hb_buf out = HB_BUF_INIT;
	struct cli_table t;
	struct walk w;
	int json = cli_g.output == CLI_OUT_JSON, rc;
	size_t n, nf;

	r->source = "splits";
	hb_keys_init(&keys);
	memset(&w, 0, sizeof(w));
	w.keys = &keys;
	w.ks = r->ks;
	w.ks_canon = hb_buf_str(&r->ks_canon);
	w.json = json;
	w.out = &out;
	rc = cli_splitspec_compute(&keys, ss, &err);
	if (!rc)
		rc = walk(&w, WALK_COUNT, &err);
	if (rc) {
		rc = cli_fail(&err);
		goto done;
	}
	n = keys.n + 1;
	nf = w.nf;
	if (json) {
		rc = hb_buf_addf(&out,
		                 "{\"healthy\":%s,\"table\":null,\"source\":\"splits\","
		                 "\"keyspace\":",
		                 nf ? "false" : "true") ||
		     json_strn(&out, hb_buf_str(&r->ks_canon)) ||
		     hb_buf_adds(&out, ",\"total_keys\":") || json_strn(&out, w.total_keys) ||
		     hb_buf_adds(&out, ",\"regions\":[");
		if (!rc)
			rc = walk(&w, WALK_ROWS, &err);
		if (!rc)
			rc = hb_buf_adds(&out, "],\"findings\":[");
		if (!rc && nf)
			rc = walk_findings(&w, &err);
		if (!rc)
			rc = hb_buf_adds(&out, "]}\n") || cli_stream_flush(&out, 1);
	} else {
		if (nf)
			rc = walk_findings(&w, &err);
		if (!rc && !cli_g.quiet) {
			rc = (nf && hb_buf_addc(&out, '\n')) ||
			     hb_buf_addf(
			         &out,
			         "%s%s%s: %zu region%s, %zu finding%s, keyspace '%s' (%s "
			         "key%s%s)\n\n",
			         cli_color(nf ? CLI_RED : CLI_GREEN), nf ? "unhealthy" : "healthy",
			         cli_color(CLI_RESET), n, n == 1 ? "" : "s", nf, nf == 1 ? "" : "s",
			         hb_buf_str(&r->ks_canon), w.total_keys,
			         strcmp(w.total_keys, "1") ? "s" : "",
			         hb_keyspace_has_star(r->ks) ? ", counted by prefix" : "") ||
			     cli_stream_flush(&out, 1);
			if (!rc && cli_stdout_tty()) {
				rc = cli_table_init(&t, 6, hdr) ? HB_ENOMEM : 0;
				if (!rc) {
					w.t = &t;
					rc = walk(&w, WALK_ROWS, &err);
					if (!rc)
						rc = cli_table_print(&t, 0);
					cli_table_release(&t);
				}
			} else if (!rc) {
				rc = walk(&w, WALK_ROWS, &err);
			}
		}
		if (!rc)
			rc = cli_stream_flush(&out, 1);
	}
	if (rc) {
		rc = err.msg[0] ? cli_fail(&err) : cli_exit(rc);
		goto done;
	}
	rc = nf ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
done:
	free(w.total_keys);
	hb_keys_release(&keys);
	hb_buf_release(&out);
	return rc;
}

static struct cli_splitspec ss;
static const struct cli_option opts[] = {
    CLI_STRING(0, "keyspace", &o.keyspace, "SPEC",
               "row-key space, e.g. 'hex{16}', 'u64<20 byte{8}' (default: the metadata "
               "row's)"),
    CLI_CHOICE(0, "source", &o.source, "SRC",
               "rest (/T/regions) or meta (hbase:meta scan, compared with REST)", "rest meta"),
    CLI_FLAG(0, "hotspots", &o.hotspots,
             "measure write hot-spots from /status/cluster request counters"),
    CLI_STRING(0, "window", &o.window, "SEC",
               "seconds between the two counter readings (10; 0 = since region open)"),
    CLI_STRING(0, "hot-factor", &o.hot_factor, "X",
               "flag regions above X times their fair share of writes (2)"),
    CLI_STRING(0, "hot-min-writes", &o.hot_min_writes, "N",
               "... and with at least N writes in the window (100)"),
    CLI_STRING(0, "placement-factor", &o.placement_factor, "X",
               "name servers holding more than ceil(X x an even share) of the table's "
               "regions (1.2)"),
    CLI_STRING(0, "metadata-family", &o.meta_family, "F",
               "family of the metadata row (default: the table's first)"),
    CLI_STRING(0, "metadata-row", &o.meta_row, "ROW", "metadata row key (default: totalPartition)"),
    CLI_FLAG(0, "require-metadata", &o.require_metadata,
             "a table without a metadata row is a finding"),
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_STRING(0, "servers", &servers, "S",
               "with N = auto: region servers to count, no server asked (split set only)"),
    CLI_END,
};

/* TABLE or a split set, not both; a split set needs --keyspace and is audited offline. */
static int check(struct cli_ctx *x)
{
	if (x->table && cli_splitspec_given(&ss))
		return cli_usage_exit("audit",
		                      "give either TABLE or a split specification, not both");
	if (!x->table && !cli_splitspec_given(&ss))
		return cli_usage_exit("audit", "missing TABLE or a split specification");
	if (!x->table) {
		if (!o.keyspace)
			return cli_usage_exit("audit", "auditing a split set needs --keyspace");
		if (o.source || o.hotspots || o.window || o.meta_family || o.meta_row ||
		    o.hot_factor || o.hot_min_writes || o.require_metadata || o.placement_factor)
			return cli_usage_exit(
			    "audit", "--source, --hotspots, --window, --hot-*, --placement-factor, "
			             "--metadata-* and --require-metadata need a TABLE");
		/* N = auto: K x --servers, offline; without --servers the cluster counts */
		if (cli_splitspec_check_servers("audit", &ss, servers))
			return CLI_EXIT_USAGE;
		x->offline = !cli_splitspec_needs_cluster(&ss);
		return CLI_EXIT_OK;
	}
	if (servers)
		return cli_usage_exit("audit", "--servers goes with a split set (N = auto)");
	return check_table_opts();
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct audit_run r;
	int rc;

	memset(&r, 0, sizeof(r));
	hb_regions_init(&r.rs);
	hb_buf_init(&r.ks_canon, 0);
	hb_audit_init(&r.a);
	hb_hotspots_init(&r.hot);
	if (o.keyspace) {
		rc = hb_keyspace_parse(&r.ks, o.keyspace, &err);
		if (rc == HB_EINVAL) {
			cli_error("--keyspace '%s': %s", o.keyspace, err.msg);
			rc = CLI_EXIT_USAGE;
			goto done;
		}
		if (rc || hb_keyspace_format(&r.ks_canon, r.ks)) {
			cli_error("out of memory");
			rc = CLI_EXIT_SERVER;
			goto done;
		}
	}
	if (x->table) {
		r.table = x->table;
		rc = audit_table(&r, x->rest);
	} else if (!x->offline && cli_splitspec_prepare(&ss, x->rest, &err)) {
		rc = cli_fail(&err);
	} else {
		rc = audit_splits(&r, &ss);
	}
done:
	hb_keyspace_free(r.ks);
	hb_buf_release(&r.ks_canon);
	hb_audit_release(&r.a);
	hb_hotspots_release(&r.hot);
	hb_regions_release(&r.rs);
	return rc;
}

const struct cli_command cli_cmd_audit = {
    .name = "audit",
    .summary = "find unreachable regions, chain defects, drift and hot-spots",
    .usage = "audit TABLE [--keyspace SPEC] [--source rest|meta] [--hotspots [--window SEC]]\n"
             "audit " CLI_SPLITSPEC_USAGE " --keyspace SPEC",
    .opts = opts,
    .args = "TABLE",
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE,
    .check = check,
    .run = run,
};
