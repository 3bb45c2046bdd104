/* hbtab audit's output: a table's audit and a planned split set's, as text and as JSON. */
#include "audit_out.h"
#include "../core/key.h"
#include "cli.h"
#include "hotkeys_out.h"
#include "output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- a table, JSON */

/* Region i of r (through v) with its result. */
static const struct hb_region *region_at(const struct hb_audit_report *r, size_t i,
                                         struct hb_region_view *v, struct hb_audit_region *ar)
{
	hb_audit_at(&r->a, i, ar);
	return hb_regions_at(&r->rs, i, v);
}

/* The last number a column formatted, and its text: the shares of evenly split regions
 * repeat, so most rows format none. */
struct num_memo {
	double v;
	int used;
	char text[64];
};

/* v as a JSON number (cli_num). */
static const char *memo_json(struct num_memo *m, double v)
{
	if (!m->used || memcmp(&m->v, &v, sizeof(v))) {
		m->v = v;
		m->used = 1;
		cli_num(m->text, v);
	}
	return m->text;
}

/* v (a fraction) as a percentage with two decimals. */
static const char *memo_percent(struct num_memo *m, double v)
{
	if (!m->used || memcmp(&m->v, &v, sizeof(v))) {
		m->v = v;
		m->used = 1;
		snprintf(m->text, sizeof(m->text), "%.2f%%", 100.0 * v);
	}
	return m->text;
}

/* What the rows of a table's regions reuse from row to row. */
struct rows_fmt {
	struct hb_buf tmp;
	struct num_memo share, write_share;
};

static int json_head(struct hb_buf *b, const struct hb_audit_report *r)
{
	return hb_buf_addf(b, "{\"healthy\":%s,\"table\":", r->a.findings.n ? "false" : "true") ||
	       cli_json_strz(b, r->table) ||
	       hb_buf_addf(b, ",\"source\":\"%s\",\"read_from\":\"%s\",\"keyspace\":", r->source,
	                   r->read_meta ? "meta" : "rest") ||
	       cli_json_strz(b, r->ks && !r->any_key ? hb_buf_str(&r->ks_canon) : NULL) ||
	       hb_buf_adds(b, ",\"total_keys\":") ||
	       cli_json_strz(b, r->any_key ? NULL : r->a.total_keys) ||
	       hb_buf_addf(b, ",\"metadata_row\":%s,\"regions\":[",
	                   !r->table || r->metadata < 0 ? "null"
	                   : r->metadata                ? "true"
	                                                : "false");
}

static int json_region(struct hb_buf *b, const struct hb_audit_report *r, size_t i,
                       struct rows_fmt *f)
{
	struct hb_region_view v;
	struct hb_audit_region ar;
	const struct hb_region *g = region_at(r, i, &v, &ar);
	int rc;

	rc = hb_buf_adds(b, i ? ",{\"index\":" : "{\"index\":") || hb_buf_add_uint(b, i) ||
	     hb_buf_adds(b, ",\"start\":") || cli_json_tsb(b, g->start, g->start_len, NULL) ||
	     hb_buf_adds(b, ",\"end\":") || cli_json_tsb(b, g->end, g->end_len, NULL);
	if (!rc)
		rc = ar.reachable < 0
		         ? hb_buf_adds(b, ",\"reachable\":null,\"share\":null,\"keys\":null")
		     : r->any_key
		         ? hb_buf_adds(b, ar.reachable
		                              ? ",\"reachable\":true,\"share\":null,\"keys\":null"
		                              : ",\"reachable\":false,\"share\":null,\"keys\":null")
		         : hb_buf_adds(b, ar.reachable ? ",\"reachable\":true,\"share\":"
		                                       : ",\"reachable\":false,\"share\":") ||
		               hb_buf_adds(b, memo_json(&f->share, ar.share)) ||
		               hb_buf_adds(b, ",\"keys\":") || cli_json_strz(b, ar.keys);
	if (!rc && r->table) {
		rc = hb_buf_adds(b, hb_region_is_live(g) ? ",\"live\":true,\"name\":"
		                                         : ",\"live\":false,\"name\":");
		if (!rc)
			rc = g->name ? cli_json_tsb(b, g->name, g->name_len, NULL)
			             : hb_buf_adds(b, "null");
		if (!rc)
			rc = hb_buf_adds(b, ",\"server\":") || cli_json_strz(b, g->server);
	}
	if (!rc && r->have_hot)
		rc = hb_buf_adds(b, ",\"writes\":") || hb_buf_add_uint(b, r->hot.r[i].writes) ||
		     hb_buf_adds(b, ",\"reads\":") || hb_buf_add_uint(b, r->hot.r[i].reads) ||
		     hb_buf_adds(b, ",\"write_share\":") ||
		     hb_buf_adds(b, memo_json(&f->write_share, hb_hotspots_share(&r->hot, i)));
	return rc || hb_buf_addc(b, '}');
}

static int json_hotspots(struct hb_buf *b, const struct hb_audit_report *r)
{
	const struct hb_hotspots *h = &r->hot;
	size_t i;
	int rc = hb_buf_addf(b,
	                     ",\"hotspots\":{\"window\":%s,\"elapsed\":%s,"
	                     "\"total_writes\":%llu,"
	                     "\"total_reads\":%llu,\"fair_share\":%s,\"sequential_region\":",
	                     CLI_NUM(r->window), CLI_NUM(r->elapsed),
	                     (unsigned long long)h->total_writes,
	                     (unsigned long long)h->total_reads, CLI_NUM(h->fair_share));

	if (!rc)
		rc = h->sequential_region < 0 ? hb_buf_adds(b, "null")
		                              : hb_buf_addf(b, "%ld", h->sequential_region);
	if (!rc)
		rc = hb_buf_adds(b, ",\"servers\":[");
	for (i = 0; !rc && i < h->ns; i++) {
		const struct hb_hot_server *s = &h->s[i];

		rc = hb_buf_adds(b, i ? ",{\"name\":" : "{\"name\":") ||
		     cli_json_strz(b, s->name) ||
		     hb_buf_addf(b,
		                 ",\"regions\":%zu,\"writes\":%llu,\"reads\":%llu,"
		                 "\"write_share\":%s}",
		                 s->regions, (unsigned long long)s->writes,
		                 (unsigned long long)s->reads, CLI_NUM(s->write_share));
	}
	return rc || hb_buf_addc(b, ']') ||
	       cli_hot_keys_json(b, r->hot_keys, hb_buf_str(&r->ks_canon)) || hb_buf_addc(b, '}');
}

int cli_audit_print_json(const struct hb_audit_report *r)
{
	struct hb_buf b = HB_BUF_INIT;
	struct rows_fmt f;
	size_t i;
	int rc = json_head(&b, r) ? HB_ENOMEM : 0;

	memset(&f, 0, sizeof(f));
	for (i = 0; !rc && i < r->rs.n; i++) {
		rc = json_region(&b, r, i, &f) ? HB_ENOMEM : 0;
		if (!rc)
			rc = cli_stream_flush(&b, 0);
	}
	if (!rc)
		rc = hb_buf_adds(&b, "],") || cli_json_findings(&b, &r->a.findings) ? HB_ENOMEM : 0;
	if (!rc && r->have_hot)
		rc = json_hotspots(&b, r) ? HB_ENOMEM : 0;
	if (!rc)
		rc = hb_buf_adds(&b, "}\n") ? HB_ENOMEM : cli_stream_flush(&b, 1);
	hb_buf_release(&b);
	return rc;
}

/* ---------------------------------------------------------------- a table, text */

/*
 * Where region rows go: a cli_table on a terminal (aligned, with a header), else streamed as
 * the same tab-separated lines cli_table prints, so 100,000s of rows need no table in memory.
 */
struct sink {
	struct cli_table *t; /* NULL: stream to b */
	struct hb_buf *b;
	size_t col, ncols;
	struct rows_fmt f;
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

/* Key k as its toStringBinary cell: printable ASCII without a tab or newline, so streamed it
 * goes to the line as it is. */
static int sink_tsb(struct sink *k, const void *key, size_t n)
{
	struct hb_buf *tmp = &k->f.tmp;

	if (!k->t) {
		if (k->col && hb_buf_addc(k->b, '\t'))
			return HB_ENOMEM;
		k->col++; /* never the last column */
		return hb_tsb_append(k->b, key, n) ? HB_ENOMEM : 0;
	}
	hb_buf_reset(tmp);
	if (hb_tsb_append(tmp, key, n) || hb_buf_add(tmp, "", 0))
		return HB_ENOMEM;
	return sink_add(k, tmp->data);
}

static int sink_uint(struct sink *k, unsigned long long v)
{
	char d[24];
	size_t n = sizeof(d);

	d[--n] = 0;
	do {
		d[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return sink_add(k, d + n);
}

static int sink_share(struct sink *k, double share, int reachable)
{
	if (reachable < 0)
		return sink_add(k, NULL);
	if (share > 0 && share < 0.0001)
		return sink_add(k, "<0.01%");
	return sink_add(k, memo_percent(&k->f.share, share));
}

/* The summary's tail: what was not checked, the key space, the writes measured. */
static int text_summary_tail(struct hb_buf *out, const struct hb_audit_report *r)
{
	const char *total = r->a.total_keys;
	int rc = 0;

	if (r->table && !r->metadata)
		rc = hb_buf_adds(out, ", no metadata row (N and drift not checked)");
	else if (r->table && r->metadata < 0)
		rc = hb_buf_adds(out, ", metadata row unknown (N and drift not checked)");
	if (!rc && r->any_key)
		rc = hb_buf_adds(out, ", no key space known (regions checked against any "
		                      "row key; give --keyspace for shares)");
	else if (!rc && r->ks)
		rc = hb_buf_addf(out, ", keyspace '%s' (%s key%s%s)", hb_buf_str(&r->ks_canon),
		                 total ? total : "?", total && !strcmp(total, "1") ? "" : "s",
		                 hb_keyspace_has_star(r->ks) ? ", counted by prefix" : "");
	if (!rc && r->have_hot)
		rc = r->elapsed > 0 ? hb_buf_addf(out, ", %llu write%s in %.1f s",
		                                  (unsigned long long)r->hot.total_writes,
		                                  HB_PLURAL(r->hot.total_writes), r->elapsed)
		                    : hb_buf_addf(out, ", %llu write%s since the regions opened",
		                                  (unsigned long long)r->hot.total_writes,
		                                  HB_PLURAL(r->hot.total_writes));
	return rc;
}

/* Findings ("kind: message"), then (unless -q) the summary line. */
static int text_head(struct hb_buf *out, const struct hb_audit_report *r)
{
	const struct hb_findings *f = &r->a.findings;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < f->n; i++)
		rc =
		    cli_text_finding(out, f->v[i].kind, f->v[i].message, strlen(f->v[i].message)) ||
		    cli_stream_flush(out, 0);
	if (rc || cli_g.quiet)
		return rc;
	rc = (f->n && hb_buf_addc(out, '\n')) ||
	     hb_buf_addf(out, "%s%s%s: %zu region%s, %zu finding%s",
	                 cli_color(f->n ? CLI_RED : CLI_GREEN), f->n ? "unhealthy" : "healthy",
	                 cli_color(CLI_RESET), r->rs.n, r->rs.n == 1 ? "" : "s", f->n,
	                 f->n == 1 ? "" : "s") ||
	     text_summary_tail(out, r) || hb_buf_adds(out, "\n\n") ||
	     cli_hot_keys_text(out, r->hot_keys, hb_buf_str(&r->ks_canon));
	return rc;
}

static int text_region(struct sink *k, const struct hb_audit_report *r, size_t i)
{
	struct hb_region_view v;
	struct hb_audit_region ar;
	const struct hb_region *g = region_at(r, i, &v, &ar);
	int rc;

	rc = sink_uint(k, i) || sink_tsb(k, g->start, g->start_len) ||
	     sink_tsb(k, g->end, g->end_len) ||
	     sink_add(k, ar.reachable < 0 ? NULL
	                 : ar.reachable   ? "yes"
	                                  : "no") ||
	     sink_share(k, ar.share, r->any_key ? -1 : ar.reachable) ||
	     sink_add(k, r->any_key ? NULL : ar.keys);
	if (!rc && k->ncols > 6)
		rc = sink_add(k, g->server);
	if (!rc && k->ncols > 7)
		rc = sink_uint(k, r->hot.r[i].writes) ||
		     sink_add(k, memo_percent(&k->f.write_share, hb_hotspots_share(&r->hot, i)));
	return rc;
}

/* Every region: a table on a terminal, else tab-separated lines streamed. */
static int text_regions(struct hb_buf *out, const struct hb_audit_report *r)
{
	static const char *const hdr[] = {"INDEX", "START",  "END",    "REACHABLE",  "SHARE",
	                                  "KEYS",  "SERVER", "WRITES", "WRITE_SHARE"};
	struct cli_table t;
	struct sink k;
	size_t i;
	int rc = 0;

	memset(&k, 0, sizeof(k));
	k.b = out;
	k.ncols = 6;
	if (r->table)
		k.ncols = r->have_hot ? 9 : 7;
	if (cli_stdout_tty()) {
		if (cli_table_init(&t, k.ncols, hdr))
			return HB_ENOMEM;
		k.t = &t;
	}
	for (i = 0; !rc && i < r->rs.n; i++)
		rc = text_region(&k, r, i);
	if (k.t) {
		if (!rc)
			rc = cli_table_print(&t, 0);
		cli_table_release(&t);
	} else if (!rc) {
		rc = cli_stream_flush(out, 1);
	}
	hb_buf_release(&k.f.tmp);
	return rc;
}

int cli_audit_print_text(const struct hb_audit_report *r)
{
	struct hb_buf out = HB_BUF_INIT;
	int rc = text_head(&out, r);

	if (!rc)
		rc = cli_stream_flush(&out, 1);
	if (!rc && !cli_g.quiet)
		rc = text_regions(&out, r);
	hb_buf_release(&out);
	return rc ? HB_ENOMEM : 0;
}

/* ---------------------------------------------------------------- a planned split set */

/*
 * Renders the rows of a planned split set. Region i starts where region i-1 ends, so each
 * bound is formatted once and kept for the next row; a share is formatted once per distinct
 * value (evenly split chains repeat a few). The text matches sink_* and the table JSON exactly.
 */
#define SHARE_MEMO 4
struct split_out {
	int json;
	struct hb_buf *out;
	struct cli_table *t;    /* the rows pass: a terminal table, or NULL to stream into out */
	struct hb_buf line;     /* a row for t */
	size_t findings;        /* findings written */
	struct hb_buf bound[2]; /* the previous region's end, this region's end (formatted) */
	int cur;                /* index of the previous end in bound */
	struct {
		double v;
		int used;
		char text[512]; /* JSON number (cli_num) or the SHARE cell */
	} memo[SHARE_MEMO];
	unsigned memo_next;
};

static void split_out_init(struct split_out *w, int json, struct hb_buf *out)
{
	memset(w, 0, sizeof(*w));
	w->json = json;
	w->out = out;
}

static void split_out_release(struct split_out *w)
{
	hb_buf_release(&w->line);
	hb_buf_release(&w->bound[0]);
	hb_buf_release(&w->bound[1]);
}

static const char *share_text(struct split_out *w, double share)
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
static int render_region(struct hb_buf *b, struct split_out *w, size_t i, const struct hb_region *g,
                         const struct hb_audit_region *ar)
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

/* An hb_walk_row_fn: one rendered row, streamed or split at its tabs into the table. */
static int split_row(void *ctx, size_t i, const struct hb_region *g,
                     const struct hb_audit_region *ar)
{
	struct split_out *w = ctx;
	char *cell, *tab;
	int rc;

	if (!w->t) {
		rc = render_region(w->out, w, i, g, ar);
		return rc ? rc : cli_stream_flush(w->out, 0);
	}
	hb_buf_reset(&w->line);
	if (render_region(&w->line, w, i, g, ar))
		return HB_ENOMEM;
	w->line.data[--w->line.len] = 0; /* the newline */
	for (cell = w->line.data; (tab = strchr(cell, '\t')); cell = tab + 1) {
		*tab = 0;
		if (cli_table_add(w->t, cell))
			return HB_ENOMEM;
	}
	return cli_table_add(w->t, cell) ? HB_ENOMEM : 0;
}

/* An hb_walk_finding_fn: one finding as JSON or as a text line. */
static int split_finding(void *ctx, const char *kind, long region, const char *msg, size_t len,
                         int escaped)
{
	struct split_out *w = ctx;
	int rc = w->json ? cli_json_finding(w->out, !w->findings, kind, region, msg, len, escaped)
	                 : cli_text_finding(w->out, kind, msg, len);

	w->findings++;
	return rc ? HB_ENOMEM : cli_stream_flush(w->out, 0);
}

/* One pass of w handing its findings or rows to o. */
static int split_pass(struct hb_split_walk *w, struct split_out *o, enum hb_walk_pass pass,
                      struct hb_error *err)
{
	int rc;

	w->row = split_row;
	w->finding = split_finding;
	w->ctx = o;
	w->escape_messages = o->json;
	rc = hb_split_walk_pass(w, pass, err);
	if (!rc && pass == HB_WALK_FINDINGS && w->written != w->nf)
		HB_BUG("the findings pass disagrees with the count pass");
	return rc;
}

int cli_audit_splits_json(struct hb_split_walk *w, const char *ks_canon, struct hb_error *err)
{
	struct hb_buf out = HB_BUF_INIT;
	struct split_out o;
	int rc;

	split_out_init(&o, 1, &out);
	rc = hb_buf_addf(&out, "{\"healthy\":%s,\"table\":null,\"source\":\"splits\",\"keyspace\":",
	                 w->nf ? "false" : "true") ||
	             cli_json_strz(&out, ks_canon) || hb_buf_adds(&out, ",\"total_keys\":") ||
	             cli_json_strz(&out, w->total_keys) || hb_buf_adds(&out, ",\"regions\":[")
	         ? HB_ENOMEM
	         : 0;
	if (!rc)
		rc = split_pass(w, &o, HB_WALK_ROWS, err);
	if (!rc)
		rc = hb_buf_adds(&out, "],\"findings\":[") ? HB_ENOMEM : 0;
	if (!rc && w->nf)
		rc = split_pass(w, &o, HB_WALK_FINDINGS, err);
	if (!rc)
		rc = hb_buf_adds(&out, "]}\n") ? HB_ENOMEM : cli_stream_flush(&out, 1);
	split_out_release(&o);
	hb_buf_release(&out);
	return rc;
}

/* The rows of a split set: a table on a terminal, else tab-separated lines streamed. */
static int split_rows_text(struct hb_split_walk *w, struct split_out *o, struct hb_error *err)
{
	static const char *const hdr[] = {"INDEX", "START", "END", "REACHABLE", "SHARE", "KEYS"};
	struct cli_table t;
	int rc;

	if (!cli_stdout_tty())
		return split_pass(w, o, HB_WALK_ROWS, err);
	if (cli_table_init(&t, 6, hdr))
		return HB_ENOMEM;
	o->t = &t;
	rc = split_pass(w, o, HB_WALK_ROWS, err);
	if (!rc)
		rc = cli_table_print(&t, 0);
	cli_table_release(&t);
	o->t = NULL;
	return rc;
}

int cli_audit_splits_text(struct hb_split_walk *w, const char *ks_canon, struct hb_error *err)
{
	struct hb_buf out = HB_BUF_INIT;
	struct split_out o;
	size_t n = hb_split_walk_regions(w), nf = w->nf;
	int rc = 0;

	split_out_init(&o, 0, &out);
	if (nf)
		rc = split_pass(w, &o, HB_WALK_FINDINGS, err);
	if (!rc && !cli_g.quiet) {
		rc = (nf && hb_buf_addc(&out, '\n')) ||
		             hb_buf_addf(&out,
		                         "%s%s%s: %zu region%s, %zu finding%s, keyspace '%s' (%s "
		                         "key%s%s)\n\n",
		                         cli_color(nf ? CLI_RED : CLI_GREEN),
		                         nf ? "unhealthy" : "healthy", cli_color(CLI_RESET), n,
		                         n == 1 ? "" : "s", nf, nf == 1 ? "" : "s", ks_canon,
		                         w->total_keys, strcmp(w->total_keys, "1") ? "s" : "",
		                         hb_keyspace_has_star(w->ks) ? ", counted by prefix" : "")
		         ? HB_ENOMEM
		         : cli_stream_flush(&out, 1);
		if (!rc)
			rc = split_rows_text(w, &o, err);
	}
	if (!rc)
		rc = cli_stream_flush(&out, 1);
	split_out_release(&o);
	hb_buf_release(&out);
	return rc;
}
