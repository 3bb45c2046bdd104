/* hbase:meta's listing of a large table: a first scan, then the rest in ranges read side by
 * side. */
#include "rest/metaranges.h"
#include "core/activity.h"
#include "core/interrupt.h"
#include "core/key.h"
#include "core/regioninfo.h"
#include "rest/cells.h"
#include "rest/resource.h"
#include "rest/rest_priv.h"
#include "rest/row.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * The listing starts as one stateless scan of at most RANGES_AFTER rows, asked for as JSON:
 * the gateway closes its region-server scanner at limit= only on its JSON path
 * (docs/hbase-wire.md §6.6), so a table with more rows leaves nothing open behind it, and a
 * table with fewer is read whole by it.
 *
 * After it, on a connection of its own, a sample of the table's meta rows after the first
 * scan's last row is asked for (those whose encoded name, an MD5, ends in "00": about 1 in
 * 256, spread evenly), read in a thread of its own.
 *
 * A sample that ends with fewer than STATEFUL_SAMPLED rows (a listing of under about 20,000
 * rows) gives the boundaries of up to RANGES_MAX - 1 ranges, each a stateless scan on its own
 * connection kept whole (memory or a temporary file), fetched side by side while the first
 * connection reads on to the first boundary. Every stateless scan runs to its end row:
 * nothing is left open on the server, no answer is broken off, and a read-only gateway serves
 * every request.
 *
 * Once the sample holds STATEFUL_SAMPLED rows, the first connection reads on through a
 * stateful scanner, whose region-server fetch is STATEFUL_CACHING rows a call (ScannerModel's
 * caching), not the stateless scan's hbase.rest.scan.fetchsize (10): the gateway's work per
 * row falls to a third or less (§6.6). The region server reads every row of the listing for
 * the sample (about 6 processor-seconds at a million rows), so its end is not waited for:
 * when it has come, the sampled rows after the row the first connection has reached give the
 * boundaries of up to RANGES_MAX - 1 ranges, each read by a stateful scanner of its own on its
 * own connection, its batches kept; the first connection's scanner ends at the first boundary.
 * A listing the first connection reads to its end before the sample comes has no ranges. A
 * gateway that opens no scanner (read-only: 403) gets the stateless ranges.
 *
 * The ranges are handed on in order, each boundary checked like the listing's end
 * (hb_meta_rows_before), and the first region of each checked to start where the regions
 * handed on before it end (hb_meta_cover): the ranges read hbase:meta at different instants,
 * and a merge or split across a seam between two of them shows there as an overlap or a hole
 * that no one read of hbase:meta has. When either check fails the listing is read again, once,
 * as one scan: one read point, one view (HB_META_SEAM). A sample that fails or gives no
 * boundary leaves the first connection to read on to the end; a range whose fetch failed is
 * scanned again on the first connection.
 */
#define RANGES_AFTER     4096
#define STATEFUL_SAMPLED 64
/* On real 2.6.1, a million rows in four stateful scanners: 7.1 s with 5000 rows a call, 8.5 s
 * with 1000 (docs/hbase-wire.md §6.6). */
#define STATEFUL_CACHING 5000
#define STATEFUL_REFUSED 5 /* no scanner opened on the first connection, nothing handed on */
#define AT_BOUND         6 /* the first connection's scanner reached the first boundary */
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
	struct hb_scan_spec spec; /* a stateful range's scanner (kept set) */
	int kept;
	struct hb_rest *c; /* its own connection */
	struct hb_rest_resp r;
	struct hb_error err;
	int rc;
	int running; /* its thread was started and is not joined yet */
	int spool;   /* its answer goes to a temporary file, not memory */
	pthread_t th;
	char what[700];
};

/* The sampled start keys after the first scan's last row that a stateless bound can carry
 * (printable), read in a thread of their own. */
struct sample {
	const struct hb_meta_state *ms;
	const unsigned char *after;
	size_t after_len;
	struct hb_keys keys;
	struct hb_buf start;
	struct hb_scan_spec spec;
	struct hb_rest *c; /* its connection, then the first range's */
	struct hb_error err;
	int rc;
	int running; /* its thread was started and is not joined yet */
	pthread_t th;
	/* the thread's progress: done once its scan ended, signalled (cv) at STATEFUL_SAMPLED
	 * rows and at its end */
	atomic_int done;
	atomic_size_t count;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

struct ranges {
	struct hb_rest *c;
	struct hb_meta_state *ms;
	const struct hb_scan_spec *spec; /* the whole listing's */
	size_t rows;                     /* rows the first scan gave */
	struct hb_buf at;                /* the key of its last row */
	struct sample sm;
	int bounded;  /* the sample was used: ranges set and started, or none */
	int stateful; /* the ranges are stateful scanners */
	size_t n;     /* ranges after the first connection's */
	struct range rg[RANGES_MAX - 1];
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

/* Starts fn(arg) in a thread with every signal blocked (they are the first thread's to
 * handle): 1 when it runs. */
static int thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int running;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	running = !pthread_create(th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return running;
}

/* ---- The sample ---- */

static int sampled_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct sample *sm = ctx;
	size_t len;
	const unsigned char *k = row_start(sm->ms, row, &len);

	if (!k || !hb_rest_url_safe(k, len) || hb_key_cmp(k, len, sm->after, sm->after_len) <= 0)
		return 0;
	if (hb_keys_push(&sm->keys, k, len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (atomic_fetch_add(&sm->count, 1) + 1 == STATEFUL_SAMPLED) {
		pthread_mutex_lock(&sm->mu);
		pthread_cond_signal(&sm->cv);
		pthread_mutex_unlock(&sm->mu);
	}
	return 0;
}

static void *sample_fetch(void *arg)
{
	struct sample *sm = arg;

	hb_activity_quiet_thread();
	sm->rc = hb_rest_scan(sm->c, "hbase:meta", &sm->spec, sampled_row, sm, &sm->err);
	pthread_mutex_lock(&sm->mu);
	atomic_store(&sm->done, 1);
	pthread_cond_signal(&sm->cv);
	pthread_mutex_unlock(&sm->mu);
	return NULL;
}

/* Waits until the sample holds STATEFUL_SAMPLED rows (1: the listing is read through stateful
 * scanners) or has ended with fewer, or failed, or never started (0). */
static int sample_wait(struct sample *sm)
{
	int large;

	if (!sm->running)
		return 0;
	pthread_mutex_lock(&sm->mu);
	while (!atomic_load(&sm->done) && atomic_load(&sm->count) < STATEFUL_SAMPLED)
		pthread_cond_wait(&sm->cv, &sm->mu);
	large = atomic_load(&sm->count) >= STATEFUL_SAMPLED;
	pthread_mutex_unlock(&sm->mu);
	return large;
}

/* Asks for the sample after the first scan's last row, in its thread, on a connection of its
 * own. Nothing started: no sample, nothing said. */
static void sample_start(struct ranges *g)
{
	static const char *const cols[] = {"info:regioninfo", NULL};
	struct sample *sm = &g->sm;
	struct hb_error err;
	struct hb_row at;

	memset(&at, 0, sizeof(at));
	at.key = (unsigned char *)g->at.data;
	at.key_len = g->at.len;
	sm->after = row_start(g->ms, &at, &sm->after_len);
	sm->spec.columns = cols;
	sm->spec.max_versions = 1;
	sm->spec.lang_filter = RANGES_SAMPLE;
	sm->spec.end = g->spec->end;
	sm->spec.end_len = g->spec->end_len;
	if (!sm->after || hb_buf_add(&sm->start, g->ms->table, g->ms->table_len) ||
	    hb_buf_addc(&sm->start, ',') || hb_rest_sibling(&sm->c, g->c, &err))
		return;
	sm->spec.start = sm->start.data;
	sm->spec.start_len = sm->start.len;
	sm->running = thread_start(&sm->th, sample_fetch, sm);
}

/* The sample's thread joined (when it runs): its keys, or HB_ENOMEM (none). */
static int sample_join(struct sample *sm)
{
	if (!sm->running)
		return sm->c ? sm->rc : HB_ENOMEM;
	pthread_join(sm->th, NULL);
	sm->running = 0;
	return sm->rc;
}

static void sample_release(struct sample *sm)
{
	sample_join(sm);
	pthread_mutex_destroy(&sm->mu);
	pthread_cond_destroy(&sm->cv);
	hb_rest_free(sm->c);
	hb_keys_release(&sm->keys);
	hb_buf_release(&sm->start);
}

/* ---- The ranges ---- */

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

/* spec read through a stateful scanner: STATEFUL_CACHING rows a region-server call, and a
 * batch of about as many rows of the listing's columns a GET. */
static void stateful_spec(struct hb_scan_spec *spec)
{
	const char *const *col;

	spec->limit = 0;
	spec->json = 0;
	spec->stateful = 1;
	spec->caching = STATEFUL_CACHING;
	for (spec->batch = 0, col = spec->columns; col && *col; col++)
		spec->batch += STATEFUL_CACHING;
}

/* A range's fetch, in its own thread: its answer or batches kept whole, in memory or a
 * temporary file. */
static void *range_fetch(void *arg)
{
	struct range *r = arg;

	hb_activity_quiet_thread();
	r->r.spool = r->spool;
	if (r->kept)
		r->rc = hb_rest_scan_kept(r->c, "hbase:meta", &r->spec, &r->r, &r->err);
	else
		r->rc = hb_rest_get_protobuf(r->c, r->path.data, &r->r, r->what, sizeof(r->what),
		                             &r->err);
	return NULL;
}

/* Range i's scan (a stateful scanner, or a stateless scan's path) and connection, and its
 * thread started. */
static int range_start(struct ranges *g, size_t i, struct hb_error *err)
{
	struct range *r = &g->rg[i];
	struct hb_scan_spec spec = range_spec(g, i);
	int rc;

	r->kept = g->stateful;
	if (r->kept) {
		r->spec = spec;
		stateful_spec(&r->spec);
		snprintf(r->what, sizeof(r->what), "the scanner on hbase:meta from row '%.*s'",
		         (int)(r->from.len < 600 ? r->from.len : 600), (const char *)r->from.data);
	} else if ((rc = hb_scan_stateless_path(&r->path, "hbase:meta", &spec, err))) {
		return rc;
	}
	if (!r->c && (rc = hb_rest_sibling(&r->c, g->c, err)))
		return rc;
	r->running = thread_start(&r->th, range_fetch, r);
	/* a range not started is scanned on the first connection */
	r->rc = r->running ? 0 : HB_ENOMEM;
	return 0;
}

/* The ranges after the start key (after, after_len) from the sample (its keys in meta order):
 * up to RANGES_MAX - 1 boundaries, evenly among the sampled keys after it, distinct; their
 * threads started. The sample's connection becomes the first range's. */
static void ranges_set(struct ranges *g, const unsigned char *after, size_t after_len)
{
	const struct hb_keys *keys = &g->sm.keys;
	size_t first = 0, n, parts, j, len, plen = 0;
	const unsigned char *k, *prev = NULL;
	struct hb_error err;

	g->bounded = 1;
	while (first < keys->n &&
	       (k = hb_keys_at(keys, first, &len), hb_key_cmp(k, len, after, after_len) <= 0))
		first++;
	n = keys->n - first;
	parts = 1 + n / RANGES_PER;
	if (parts > RANGES_MAX)
		parts = RANGES_MAX;
	for (j = 1; j < parts; j++, prev = k, plen = len) {
		struct range *r = &g->rg[g->n];

		k = hb_keys_at(keys, first + j * n / parts, &len);
		if (prev && hb_key_cmp(prev, plen, k, len) >= 0)
			continue;
		hb_buf_init(&r->from, 0);
		hb_buf_init(&r->path, 0);
		hb_rest_resp_init(&r->r);
		r->spool = (uint64_t)n / parts * 256 * 300 > RANGES_IN_MEMORY;
		if (hb_buf_add(&r->from, g->ms->table, g->ms->table_len) ||
		    hb_buf_addc(&r->from, ',') || hb_buf_add(&r->from, k, len) ||
		    hb_buf_addc(&r->from, ',')) {
			hb_buf_release(&r->from);
			break;
		}
		g->n++;
	}
	if (!g->n)
		return;
	g->rg[0].c = g->sm.c;
	g->sm.c = NULL;
	for (j = 0; j < g->n; j++)
		if (range_start(g, j, &err))
			g->rg[j].rc = HB_ENOMEM;
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

/* The first connection's stateful scanner's rows: once the sample has come, the ranges after
 * the row reached are set and started; the scanner ends at the first boundary (AT_BOUND). */
static int stateful_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct ranges *g = ctx;
	const unsigned char *k;
	size_t len;

	if (!g->bounded && atomic_load(&g->sm.done)) {
		g->bounded = 1;
		if (!sample_join(&g->sm) && (k = row_start(g->ms, row, &len)))
			ranges_set(g, k, len);
	}
	if (g->n && hb_key_cmp(row->key, row->key_len, g->rg[0].from.data, g->rg[0].from.len) >= 0)
		return AT_BOUND;
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
	if (r->kept) {
		rc = hb_scan_decode_kept(&r->r, r->what, &st, err);
	} else if (hb_rest_is_protobuf(r->r.content_type)) {
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

/* Where the first connection's read ends: the first range's boundary, or the listing's. */
static const struct hb_buf *first_end(const struct ranges *g, const struct hb_buf *end)
{
	return g->n ? &g->rg[0].from : end;
}

/* From start (after the first scan's last row) on through a stateful scanner on the first
 * connection, to the first boundary once the ranges are set, else to the listing's end (end):
 * 0, HB_META_SEAM, STATEFUL_REFUSED, or the scan's error. */
static int stateful_read(struct ranges *g, const struct hb_buf *start, const struct hb_buf *end,
                         struct hb_error *err)
{
	struct hb_meta_state *ms = g->ms;
	struct hb_scan_spec spec = *g->spec;
	size_t before = ms->regions;
	int refused = 0, rc;

	spec.start = start->data;
	spec.start_len = start->len;
	stateful_spec(&spec);
	spec.open_refused = &refused;
	ms->seam = 1;
	rc = hb_rest_scan(g->c, "hbase:meta", &spec, stateful_row, g, err);
	if (rc == AT_BOUND)
		rc = 0;
	if (rc && rc != HB_ENOMEM && refused && ms->regions == before) {
		hb_rest_tracef(g->c,
		               "the REST gateway opened no scanner on hbase:meta (%s): the rest of "
		               "table '%s''s listing is read in stateless scans",
		               err->msg, ms->table);
		memset(err, 0, sizeof(*err));
		return STATEFUL_REFUSED;
	}
	if (!rc && ms->broken)
		rc = HB_META_SEAM;
	if (!rc)
		rc = ranges_reach(g->c, ms, first_end(g, end), err);
	hb_rest_report_progress(g->c, ms->regions, 0);
	return rc;
}

/* From start (after the first scan's last row) to the first boundary through a stateless scan
 * on the first connection, the ranges set from the whole sample (a gateway that opens no
 * scanner). */
static int stateless_read(struct ranges *g, const struct hb_buf *start, const struct hb_buf *end,
                          struct hb_error *err)
{
	struct hb_meta_state *ms = g->ms;
	struct hb_scan_spec spec = *g->spec;
	int rc;

	g->stateful = 0;
	if (!sample_join(&g->sm))
		ranges_set(g, g->sm.after, g->sm.after_len);
	g->bounded = 1;
	spec.start = start->data;
	spec.start_len = start->len;
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
		rc = ranges_reach(g->c, ms, first_end(g, end), err);
	return rc;
}

/* From the first scan's last row to the listing's end (end): the first connection's read, then
 * the ranges' handed on in order. */
static int ranges_read(struct ranges *g, const struct hb_buf *end, struct hb_error *err)
{
	struct hb_meta_state *ms = g->ms;
	struct hb_buf start = HB_BUF_INIT;
	size_t i;
	int rc;

	/* after the last row: that key and a space (§6.1), a bound the stateless scan carries */
	if (hb_buf_add(&start, g->at.data, g->at.len) || hb_buf_addc(&start, ' ')) {
		hb_buf_release(&start);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_interrupt_hold(); /* released once every thread is joined */
	hb_keys_init(&g->sm.keys);
	hb_buf_init(&g->sm.start, 0);
	pthread_mutex_init(&g->sm.mu, NULL);
	pthread_cond_init(&g->sm.cv, NULL);
	g->sm.ms = ms;
	sample_start(g);
	g->stateful = sample_wait(&g->sm);
	rc = g->stateful ? stateful_read(g, &start, end, err) : STATEFUL_REFUSED;
	if (rc == STATEFUL_REFUSED)
		rc = stateless_read(g, &start, end, err);
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
	sample_release(&g->sm);
	hb_interrupt_release();
	hb_buf_release(&start);
	return rc;
}

int hb_meta_scan_ranged(struct hb_rest *c, struct hb_meta_state *ms,
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
