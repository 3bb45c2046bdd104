/* hbase:meta's listing of a table's regions: one scan, or a large table's rows in ranges read side
 * by side. */
#include "rest/metalist.h"
#include "core/activity.h"
#include "core/interrupt.h"
#include "core/key.h"
#include "core/regioninfo.h"
#include "core/restpb_cells.h"
#include "rest/cells.h"
#include "rest/meta.h"
#include "rest/regions.h"
#include "rest/resource.h"
#include "rest/rest_priv.h"
#include "rest/row.h"
#include "rest/scan.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

static int meta_regions_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                             hb_region_restart_fn restart, void *ctx, int *state_out,
                             struct hb_error *err);

int hb_rest_meta_regions(struct hb_rest *c, const char *table, struct hb_regions *out,
                         int *state_out, struct hb_error *err)
{
	struct hb_region_list l = {out, out->n};
	int rc = meta_regions_scan(c, table, hb_region_list_push, hb_region_list_restart, &l,
	                           state_out, err);

	if (rc)
		hb_regions_truncate(out, l.n0);
	else
		hb_regions_sort(out);
	return rc;
}

/* ---- hbase:meta's listing of a large table in ranges read side by side ---- */

/*
 * The gateway's stateless scan fetches hbase.rest.scan.fetchsize (10) rows per call to the
 * region server (docs/hbase-wire.md §3.2, §6.6), so one scan of a large table's meta rows is
 * mostly waiting. The listing starts as one stateless scan of at most RANGES_AFTER rows, asked
 * for as JSON: the gateway closes its region-server scanner at limit= only on its JSON path
 * (§6.6), so a table with more rows leaves nothing open behind it, and a table with fewer is
 * read whole by it. After it, a sample of the table's meta rows (those whose encoded name, an
 * MD5, ends in "00": about 1 in 256, spread evenly) gives boundaries after the last row read;
 * the ranges from the first boundary on are fetched side by side, each one more stateless scan
 * on its own connection, kept whole (memory or a temporary file), while the first connection
 * reads on from the last row to the first boundary. Every scan runs to its end row: nothing is
 * left open on the server, no answer is broken off, and a read-only gateway serves every
 * request. The scans are handed on in order, each boundary checked like the listing's end
 * (hb_meta_rows_before), and the first region of each scan checked to start where the regions
 * handed on before it end (hb_meta_cover): the scans read hbase:meta at different instants, and a
 * merge or split across a seam between two of them shows there as an overlap or a hole that no
 * one read of hbase:meta has. When either check fails the listing is read again, once, as one
 * scan: one read point, one view (HB_META_SEAM). A sample that fails or gives no boundary leaves
 * the first connection to read on to the end; a range whose fetch failed is scanned again on
 * the first connection.
 */
#define RANGES_AFTER 4096
/*
 * A listing whose sample holds at least STATEFUL_SAMPLED rows after the first scan (about
 * 16,000 rows) reads the rest through one stateful scanner instead of ranges: its
 * region-server fetch is STATEFUL_CACHING rows a call (ScannerModel's caching), not the
 * stateless scan's 10, and the gateway's work per row falls to a third or less (on real 2.6.1,
 * 100,000 rows: 2.1 processor-seconds of the cluster against 5.8 for the ranges,
 * docs/hbase-wire.md §6.6); its rows come from one region scanner, one read point. A gateway
 * that opens no scanner (read-only: 403) gets the ranges, from the same sample.
 */
#define STATEFUL_SAMPLED 64
#define STATEFUL_CACHING 1000
#define STATEFUL_REFUSED 5 /* ranges_read: no scanner opened, nothing handed on */
#define RANGES_MAX       4
#define RANGES_PER       8 /* sampled rows (about 2048 rows) a range gets at least */
/* A range expected to be larger than this (each sampled row stands for 256, of about 300
 * bytes each in protobuf) is kept in a temporary file: a million regions stay in the memory
 * of a few, and the file system's work is paid only where memory would not do. */
#define RANGES_IN_MEMORY (16u << 20)
#define RANGES_SAMPLE                                                                              \
	"RowFilter(=,'regexstring:00\\.$') AND FirstKeyOnlyFilter() AND KeyOnlyFilter()"

struct range {
	struct hb_buf from; /* "T,<start key>,": before every row of that start key */
	struct hb_buf path;
	struct hb_rest *c; /* its own connection */
	struct hb_rest_resp r;
	struct hb_error err;
	int rc;
	int running; /* its thread was started and is not joined yet */
	int spool;   /* its answer goes to a temporary file, not memory */
	pthread_t th;
	char what[700];
};

struct ranges {
	struct hb_rest *c;
	struct hb_meta_state *ms;
	const struct hb_scan_spec *spec; /* the whole listing's */
	size_t rows;                     /* rows the first scan gave */
	struct hb_buf at;                /* the key of its last row */
	size_t n;                        /* ranges after the first connection's */
	struct range rg[RANGES_MAX - 1];
	int stateful; /* the sample found enough rows for one stateful scanner: ranges set, waiting
	               */
};

/* The start key of a region row of the table, or NULL (the state row, another table's). */
static const unsigned char *row_start(const struct hb_meta_state *ms, const struct hb_row *row,
                                      size_t *len)
{
	struct hb_region_name rn;

	if (hb_meta_table_region(ms, row, &rn))
		return NULL;
	*len = rn.start_len;
	return row->key + (rn.start - row->key);
}

/* The sampled start keys after the first scan's last row that a stateless bound can carry
 * (printable). */
struct sample {
	const struct hb_meta_state *ms;
	const unsigned char *after;
	size_t after_len;
	struct hb_keys keys;
};

static int sampled_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct sample *sm = ctx;
	size_t len;
	const unsigned char *k = row_start(sm->ms, row, &len);

	if (!k || !hb_rest_url_safe(k, len) || hb_key_cmp(k, len, sm->after, sm->after_len) <= 0)
		return 0;
	return hb_keys_push(&sm->keys, k, len) ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

/* Boundaries from the sample (in meta order, as the scan gave them): up to RANGES_MAX - 1,
 * evenly among the sampled keys, distinct. */
static int ranges_bounds(struct ranges *g, const struct sample *sm, struct hb_error *err)
{
	size_t parts = 1 + sm->keys.n / RANGES_PER, j, len, plen = 0;
	const unsigned char *k, *prev = NULL;

	if (parts > RANGES_MAX)
		parts = RANGES_MAX;
	for (j = 1; j < parts; j++, prev = k, plen = len) {
		struct range *r = &g->rg[g->n];

		k = hb_keys_at(&sm->keys, j * sm->keys.n / parts, &len);
		if (prev && hb_key_cmp(prev, plen, k, len) >= 0)
			continue;
		hb_buf_init(&r->from, 0);
		hb_buf_init(&r->path, 0);
		hb_rest_resp_init(&r->r);
		r->spool = (uint64_t)sm->keys.n / parts * 256 * 300 > RANGES_IN_MEMORY;
		g->n++;
		if (hb_buf_add(&r->from, g->ms->table, g->ms->table_len) ||
		    hb_buf_addc(&r->from, ',') || hb_buf_add(&r->from, k, len) ||
		    hb_buf_addc(&r->from, ','))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	return 0;
}

/* Range i's scan: the listing's, from its boundary to the next one (or the listing's end). */
static struct hb_scan_spec range_spec(const struct ranges *g, size_t i)
{
	struct hb_scan_spec spec = *g->spec;

	spec.start = g->rg[i].from.data;
	spec.start_len = g->rg[i].from.len;
	if (i + 1 < g->n) {
		spec.end = g->rg[i + 1].from.data;
		spec.end_len = g->rg[i + 1].from.len;
	}
	return spec;
}

/* A range's fetch, in its own thread: the answer kept whole, in memory or a temporary file. */
static void *range_fetch(void *arg)
{
	struct range *r = arg;

	hb_activity_quiet_thread();
	r->r.spool = r->spool;
	r->rc = hb_rest_get_protobuf(r->c, r->path.data, &r->r, r->what, sizeof(r->what), &r->err);
	return NULL;
}

/* Range i's path and connection, and its thread started with every signal blocked (they are
 * the first thread's to handle). */
static int range_start(struct ranges *g, size_t i, struct hb_error *err)
{
	struct range *r = &g->rg[i];
	struct hb_scan_spec spec = range_spec(g, i);
	sigset_t all, old;
	int rc;

	if ((rc = hb_scan_stateless_path(&r->path, "hbase:meta", &spec, err)) ||
	    (!r->c && (rc = hb_rest_sibling(&r->c, g->c, err))))
		return rc;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r->running = !pthread_create(&r->th, NULL, range_fetch, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* a range not started is scanned on the first connection */
	r->rc = r->running ? 0 : HB_ENOMEM;
	return 0;
}

/* Starts the ranges' threads (their bounds and the first one's connection set). */
static void ranges_go(struct ranges *g)
{
	struct hb_error err;
	size_t i;

	if (g->n)
		hb_interrupt_hold(); /* released once every range's thread is joined */
	for (i = 0; i < g->n; i++)
		if (range_start(g, i, &err))
			g->rg[i].rc = HB_ENOMEM;
}

/* The ranges set but not started (the stateful scanner read the rest) given back. */
static void ranges_drop(struct ranges *g)
{
	size_t i;

	hb_rest_free(g->rg[0].c);
	g->rg[0].c = NULL;
	for (i = 0; i < g->n; i++)
		hb_buf_release(&g->rg[i].from);
	g->n = 0;
}

/* Asks for the sample (on the connection of the first range) and sets the ranges' bounds
 * after the first scan's last row; starts them unless the sample found enough rows for one
 * stateful scanner. Nothing started: no ranges, nothing said. */
static void ranges_start(struct ranges *g)
{
	static const char *const cols[] = {"info:regioninfo", NULL};
	struct hb_buf start = HB_BUF_INIT;
	struct hb_rest *c = NULL;
	struct hb_scan_spec spec;
	struct hb_error err;
	struct hb_row at;
	struct sample sm;
	size_t i;

	memset(&sm, 0, sizeof(sm));
	sm.ms = g->ms;
	hb_keys_init(&sm.keys);
	memset(&at, 0, sizeof(at));
	at.key = (unsigned char *)g->at.data;
	at.key_len = g->at.len;
	sm.after = row_start(g->ms, &at, &sm.after_len);
	memset(&spec, 0, sizeof(spec));
	spec.columns = cols;
	spec.max_versions = 1;
	spec.lang_filter = RANGES_SAMPLE;
	spec.end = g->spec->end;
	spec.end_len = g->spec->end_len;
	if (!sm.after || hb_buf_add(&start, g->ms->table, g->ms->table_len) ||
	    hb_buf_addc(&start, ',') || hb_rest_sibling(&c, g->c, &err))
		goto done;
	spec.start = start.data;
	spec.start_len = start.len;
	if (hb_rest_scan(c, "hbase:meta", &spec, sampled_row, &sm, &err) ||
	    ranges_bounds(g, &sm, &err))
		g->n = 0;
	else if (sm.keys.n >= STATEFUL_SAMPLED)
		g->stateful = 1; /* the ranges wait: they serve if no scanner opens */
	if (g->n) {
		g->rg[0].c = c;
		c = NULL;
	}
	if (!g->stateful)
		ranges_go(g);
done:
	for (i = g->n; i < RANGES_MAX - 1 && g->rg[i].from.data; i++)
		hb_buf_release(&g->rg[i].from);
	hb_rest_free(c);
	hb_keys_release(&sm.keys);
	hb_buf_release(&start);
}

/* The first scan's rows, its last row's key kept. */
static int first_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct ranges *g = ctx;

	g->rows++;
	hb_buf_reset(&g->at);
	if (hb_buf_add(&g->at, row->key, row->key_len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return hb_meta_row(g->ms, row, err);
}

/* A range's kept answer handed on row by row; the pages read are given back as the reader
 * moves on. *unframeable: a chunk could not be framed (the range must be asked for as JSON). */
static int range_decode(struct range *r, struct hb_meta_state *ms, int *unframeable,
                        struct hb_error *err)
{
	struct hb_scan_state st;
	struct hb_scan_stream ss;
	int rc;

	hb_scan_state_init(&st, NULL, hb_meta_row, ms);
	memset(&ss, 0, sizeof(ss));
	ss.st = &st;
	if (hb_rest_is_protobuf(r->r.content_type)) {
		hb_scanpb_stream_init(&ss.ps, r->what);
		rc = hb_scan_pb_end(&ss, &r->r, err);
		hb_scanpb_stream_release(&ss.ps);
	} else {
		rc = hb_scan_decode_cellset_kept(&r->r, r->what, &st, err);
	}
	if (!rc)
		rc = hb_scan_flush_pending(&st, err);
	*unframeable = rc == HB_EINVAL && ss.unframeable;
	hb_scan_state_release(&st);
	return rc;
}

/* A range scanned again: its rows up to the last one handed on (when it handed any) are
 * passed over. */
struct rescan {
	struct hb_meta_state *ms;
	struct hb_buf last;
	int skipping;
};

static int rescanned_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct rescan *rs = ctx;

	if (rs->skipping) {
		rs->skipping = !(row->key_len == rs->last.len &&
		                 !memcmp(row->key, rs->last.data, row->key_len));
		return 0;
	}
	return hb_meta_row(rs->ms, row, err);
}

/* Range i handed on: its kept answer, or (its fetch failed, or a chunk of it could not be
 * framed) the range scanned again on the first connection. */
static int range_hand_on(struct ranges *g, size_t i, struct hb_error *err)
{
	struct range *r = &g->rg[i];
	struct hb_scan_spec spec = range_spec(g, i);
	struct rescan rs;
	size_t before = g->ms->regions;
	int rc = r->rc, unframeable = 0, seam = g->ms->seam;

	if (!rc) {
		rc = range_decode(r, g->ms, &unframeable, err);
		if (!unframeable)
			return rc;
	}
	memset(&rs, 0, sizeof(rs));
	rs.ms = g->ms;
	rs.skipping = g->ms->regions > before;
	if (!rs.skipping)
		g->ms->seam = seam; /* the rescan is the range's first read */
	hb_buf_init(&rs.last, 0);
	if (rs.skipping && hb_buf_add(&rs.last, g->ms->last_key->data, g->ms->last_key->len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	rc = hb_rest_scan(g->c, "hbase:meta", &spec, rescanned_row, &rs, err);
	if (!rc && rs.skipping)
		rc = hb_error_set(
		    err, HB_ESERVER,
		    "hbase:meta, asked again for a range of table '%s', no longer lists "
		    "the last row read from it",
		    g->ms->table);
	hb_buf_release(&rs.last);
	return rc;
}

/* Whether the listing handed on so far reaches end: 0, HB_META_SEAM when hbase:meta now holds a
 * region row before it that was not handed on, or the scan's error. */
static int ranges_reach(struct hb_rest *c, struct hb_meta_state *ms, const struct hb_buf *end,
                        struct hb_error *err)
{
	int rc;

	if (ms->regions && ms->last_end_empty)
		return 0;
	rc = hb_meta_rows_before(c, ms, end, err);
	return rc == 1 ? HB_META_SEAM : rc;
}

/* From start (after the first scan's last row) to the listing's end (end) through one
 * stateful scanner: 0, HB_META_SEAM, STATEFUL_REFUSED, or the scan's error. */
static int stateful_read(struct ranges *g, const struct hb_buf *start, const struct hb_buf *end,
                         struct hb_error *err)
{
	struct hb_meta_state *ms = g->ms;
	struct hb_scan_spec spec = *g->spec;
	const char *const *col;
	size_t before = ms->regions;
	int refused = 0, rc;

	spec.start = start->data;
	spec.start_len = start->len;
	spec.limit = 0;
	spec.json = 0;
	spec.stateful = 1;
	spec.caching = STATEFUL_CACHING;
	spec.open_refused = &refused;
	/* a batch of cells: about STATEFUL_CACHING rows of the listing's columns a GET */
	for (spec.batch = 0, col = spec.columns; col && *col; col++)
		spec.batch += STATEFUL_CACHING;
	ms->seam = 1;
	rc = hb_rest_scan(g->c, "hbase:meta", &spec, hb_meta_row, ms, err);
	if (rc && rc != HB_ENOMEM && refused && ms->regions == before) {
		hb_rest_tracef(g->c,
		               "the REST gateway opened no scanner on hbase:meta (%s): the rest of "
		               "table '%s''s listing is read in ranges",
		               err->msg, ms->table);
		memset(err, 0, sizeof(*err));
		return STATEFUL_REFUSED;
	}
	if (!rc && ms->broken)
		rc = HB_META_SEAM;
	if (!rc)
		rc = ranges_reach(g->c, ms, end, err);
	hb_rest_report_progress(g->c, ms->regions, 0);
	return rc;
}

/* From the first scan's last row on: through one stateful scanner, or to the first boundary
 * (the ranges' reads then handed on in order), or without ranges to the listing's end (end). */
static int ranges_read(struct ranges *g, const struct hb_buf *end, struct hb_error *err)
{
	struct hb_meta_state *ms = g->ms;
	struct hb_scan_spec spec = *g->spec;
	struct hb_buf start = HB_BUF_INIT;
	size_t i;
	int rc;

	/* after the last row: that key and a space (§6.1), a bound the stateless scan carries */
	if (hb_buf_add(&start, g->at.data, g->at.len) || hb_buf_addc(&start, ' ')) {
		hb_buf_release(&start);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	ranges_start(g);
	if (g->stateful) {
		rc = stateful_read(g, &start, end, err);
		if (rc != STATEFUL_REFUSED) {
			ranges_drop(g);
			hb_buf_release(&start);
			return rc;
		}
		g->stateful = 0;
		ranges_go(g);
	}
	spec.start = start.data;
	spec.start_len = start.len;
	spec.limit = 0;
	spec.json = 0;
	if (g->n) {
		spec.end = g->rg[0].from.data;
		spec.end_len = g->rg[0].from.len;
	}
	ms->seam = 1;
	rc = hb_rest_scan(g->c, "hbase:meta", &spec, hb_meta_row, ms, err);
	if (!rc && ms->broken)
		rc = HB_META_SEAM;
	if (!rc)
		rc = ranges_reach(g->c, ms, g->n ? &g->rg[0].from : end, err);
	for (i = 0; i < g->n; i++) {
		struct range *r = &g->rg[i];

		if (r->running)
			pthread_join(r->th, NULL);
		if (!rc) {
			ms->seam = 1;
			rc = range_hand_on(g, i, err);
		}
		if (!rc && ms->broken)
			rc = HB_META_SEAM;
		if (!rc)
			rc = ranges_reach(g->c, ms, i + 1 < g->n ? &g->rg[i + 1].from : end, err);
		hb_rest_report_progress(g->c, ms->regions, 0);
		hb_rest_resp_release(&r->r);
		hb_rest_free(r->c);
		hb_buf_release(&r->path);
	}
	for (i = 0; i < g->n; i++)
		hb_buf_release(&g->rg[i].from);
	if (g->n)
		hb_interrupt_release();
	hb_buf_release(&start);
	return rc;
}

/* The whole listing (the listing's end row end): the first scan, then what follows it in
 * ranges. 0, 1 when the first scan was the whole listing (its end is still to be checked),
 * HB_META_SEAM (read it again as one scan), or an error. */
static int meta_scan_ranged(struct hb_rest *c, struct hb_meta_state *ms,
                            const struct hb_scan_spec *spec, const struct hb_buf *end,
                            struct hb_error *err)
{
	struct hb_scan_spec first = *spec;
	struct ranges g;
	int rc;

	memset(&g, 0, sizeof(g));
	g.c = c;
	g.ms = ms;
	g.spec = spec;
	hb_buf_init(&g.at, 0);
	first.limit = RANGES_AFTER;
	first.json = 1;
	rc = hb_rest_scan(c, "hbase:meta", &first, first_row, &g, err);
	if (!rc && g.rows < RANGES_AFTER)
		rc = 1; /* it ended before its limit: the whole listing */
	/* a row a stateless bound cannot follow: the listing is one scan, read again */
	else if (!rc && !hb_rest_url_safe(g.at.data, g.at.len))
		rc = HB_META_AGAIN;
	else if (!rc)
		rc = ranges_read(&g, end, err);
	hb_buf_release(&g.at);
	return rc;
}

/*
 * The region rows of TABLE in hbase:meta with the columns cols, each handed to fn, then the
 * table-state row. Only the info family is named: 1.x meta has no "table" family, and naming
 * it fails the scan. how says what a row holds (states_only, last_name). With restart (which
 * empties what fn was given), a large table's listing may be read in ranges.
 */
static int meta_scan(struct hb_rest *c, const char *table, const char *const *cols,
                     const struct hb_meta_state *how, hb_meta_region_fn fn,
                     hb_region_restart_fn restart, void *ctx, int *state_out, struct hb_error *err)
{
	struct hb_buf start = HB_BUF_INIT, end = HB_BUF_INIT, last = HB_BUF_INIT,
	              cover = HB_BUF_INIT;
	struct hb_scan_spec spec;
	struct hb_meta_state ms;
	int rc, state = -1, idle = -1, check;

	/* [table, table" ,,") takes the state row and every region row */
	rc = hb_rest_meta_table_spec(&spec, &start, &end, table, cols, err);
	if (rc)
		goto done;
	spec.lang_filter = how->filter;
	memset(&ms, 0, sizeof(ms));
	ms.table = table;
	ms.table_len = strlen(table);
	ms.fn = fn;
	ms.ctx = ctx;
	ms.state = &state;
	ms.err = err;
	ms.states_only = how->states_only;
	ms.last_name = how->last_name;
	ms.last_name_len = how->last_name_len;
	ms.filter = how->filter;
	ms.last_key = &last;
	if (how->filter || how->states_only || !restart) {
		rc = hb_rest_scan(c, "hbase:meta", &spec, hb_meta_row, &ms, err);
	} else {
		/* a listing's scans stream a row per region: at a million regions one takes
		 * minutes, so --timeout bounds the gateway's silence there, not the whole scan */
		idle = hb_rest_idle_timeout(c, 1);
		ms.cover = &cover;
		rc = meta_scan_ranged(c, &ms, &spec, &end, err);
		ms.cover = NULL;
		check = rc != 0;
		if (rc == HB_META_SEAM || rc == HB_META_AGAIN) {
			/* the ranges did not read one hbase:meta: one scan, one read point */
			if (rc == HB_META_SEAM)
				hb_rest_tracef(
				    c,
				    "hbase:meta's listing of table '%s' in ranges is not one "
				    "view of it (it changed between the ranges' reads, or the "
				    "table has a hole or an overlap at a seam): read again as "
				    "one scan",
				    table);
			if (restart(ctx)) {
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
				goto done;
			}
			hb_buf_reset(&last);
			ms.regions = 0;
			ms.last_end_empty = 0;
			ms.broken = 0;
			rc = hb_rest_scan(c, "hbase:meta", &spec, hb_meta_row, &ms, err);
		} else if (rc == 1) {
			rc = 0; /* one scan: its end is checked below */
		}
		hb_rest_idle_timeout(c, idle);
		idle = -1;
		if (!rc && !check)
			goto state_row; /* every boundary and the end were checked */
	}
	if (!rc && how->filter && !(ms.regions && ms.last_end_empty))
		rc = 1;
	else if (!rc)
		rc = hb_meta_check_listing(c, &ms, &end, err);
state_row:
	if (!rc && state_out) {
		/* The 2.x table-state row "<table>" (table:state); 1.x has none (ZooKeeper). */
		struct hb_row srow;
		int found = 0;

		hb_row_init(&srow);
		rc = hb_rest_get_row(c, "hbase:meta", table, strlen(table), NULL, &srow, &found,
		                     err);
		if (!rc && found)
			hb_meta_row(&ms, &srow, err);
		hb_row_release(&srow);
	}
done:
	if (idle >= 0)
		hb_rest_idle_timeout(c, idle);
	if (state_out)
		*state_out = state;
	hb_buf_release(&start);
	hb_buf_release(&end);
	hb_buf_release(&last);
	hb_buf_release(&cover);
	return rc;
}

/* what a region is made of: its RegionInfo, where it is open and its state */
static const char *const region_cols[] = {"info:regioninfo", "info:server", "info:serverstartcode",
                                          "info:state", NULL};

static int meta_regions_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                             hb_region_restart_fn restart, void *ctx, int *state_out,
                             struct hb_error *err)
{
	struct hb_meta_state how;

	memset(&how, 0, sizeof(how));
	return meta_scan(c, table, region_cols, &how, fn, restart, ctx, state_out, err);
}

int hb_rest_meta_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn, void *ctx,
                      int *state_out, struct hb_error *err)
{
	return meta_regions_scan(c, table, fn, NULL, ctx, state_out, err);
}

int hb_rest_meta_scan_restart(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                              hb_region_restart_fn restart, void *ctx, int *state_out,
                              struct hb_error *err)
{
	return meta_regions_scan(c, table, fn, restart, ctx, state_out, err);
}

int hb_rest_meta_states(struct hb_rest *c, const char *table, const void *last_name,
                        size_t last_name_len, hb_meta_region_fn fn, void *ctx, int *state_out,
                        struct hb_error *err)
{
	static const char *const cols[] = {"info:state", NULL};
	struct hb_meta_state how;

	memset(&how, 0, sizeof(how));
	how.states_only = 1;
	how.last_name = last_name;
	how.last_name_len = last_name_len;
	return meta_scan(c, table, cols, &how, fn, NULL, ctx, state_out, err);
}

/* The filter of hb_rest_meta_states_not_open into f: 0, or 1 when last_name cannot be put in
 * one (the gateway reads the text as UTF-8 and a quote would need escaping). */
static int not_open_filter(struct hb_buf *f, const unsigned char *last_name, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (last_name[i] < 0x20 || last_name[i] > 0x7e || last_name[i] == '\'')
			return 1;
	if (hb_buf_adds(f, "SingleColumnValueFilter('info','state',!=,'binary:OPEN',false,true)"
	                   " OR RowFilter(=,'binary:") ||
	    hb_buf_add(f, last_name, n) || hb_buf_adds(f, "')"))
		return HB_ENOMEM;
	return 0;
}

int hb_rest_meta_states_not_open(struct hb_rest *c, const char *table, const void *last_name,
                                 size_t last_name_len, hb_meta_region_fn fn, void *ctx,
                                 int *state_out, struct hb_error *err)
{
	/* a row whose state is missing still has its RegionInfo, so it is in the answer */
	static const char *const cols[] = {"info:regioninfo", "info:state", NULL};
	struct hb_buf filter = HB_BUF_INIT;
	struct hb_meta_state how;
	int rc;

	if (!last_name || !last_name_len)
		return 1;
	rc = not_open_filter(&filter, last_name, last_name_len);
	if (rc)
		return rc == HB_ENOMEM ? hb_error_set(err, rc, "out of memory") : rc;
	memset(&how, 0, sizeof(how));
	how.states_only = 1;
	how.last_name = last_name;
	how.last_name_len = last_name_len;
	how.filter = filter.data;
	rc = meta_scan(c, table, cols, &how, fn, NULL, ctx, state_out, err);
	hb_buf_release(&filter);
	return rc;
}
