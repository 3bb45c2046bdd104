/* enable, disable and truncate (keeping the split points): each run, the truncate verified and its
 * metadata row kept and written back; one verb sent and waited for is rest/lifecycle_verb.c's. */
#include "rest/lifecycle.h"

#include "rest/hbase.h"
#include "rest/rest_priv.h"
#include "rest/shellrun.h"
#include "rest/statefile.h"
#include "rest/thrift2.h"

#include "core/activity.h"
#include "core/audit.h"
#include "core/bounds.h"
#include "core/clock.h"
#include "core/diff.h"
#include "core/interrupt.h"
#include "core/key.h"
#include "core/metarow.h"
#include "core/region.h"
#include "core/regioninfo.h"
#include "core/tname.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The split keys of a sorted chain of regions: every start but the first. */
static int split_keys(struct hb_keys *out, const struct hb_regions *rs)
{
	size_t i;

	for (i = 1; i < rs->n; i++) {
		const unsigned char *s, *e;
		size_t sl, el;

		hb_regions_bounds(rs, i, &s, &sl, &e, &el);
		if (hb_keys_push(out, s, sl))
			return HB_ENOMEM;
	}
	return 0;
}

/* Reads hbtab's metadata row (HB_METAROW_ROW, every family) into the initialised row;
 * *found 0 when the table has none. */
static int read_metarow(struct hb_rest *rest, const char *table, struct hb_row *row, int *found,
                        struct hb_error *err)
{
	return hb_rest_get_row(rest, table, HB_METAROW_ROW, strlen(HB_METAROW_ROW), NULL, row,
	                       found, err);
}

/* Writes the metadata row read before the truncate back, its cells at the server's time (an
 * old timestamp could fall outside a family's TTL at once), and reads it back. A plain put is
 * idempotent: any failure (a 500 the request engine does not retry among them) is tried
 * again, as many times as the engine retries a request, with the same back-off. */
static int restore_metarow(struct hb_rest *rest, const char *table, const struct hb_row *row,
                           struct hb_error *err)
{
	struct hb_cell *cells = calloc(row->ncells ? row->ncells : 1, sizeof(*cells));
	long tries = 1 + hb_rest_retry_budget(rest), i;
	double delay = 0.5;
	size_t k;
	int rc = 0;

	if (!cells)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (k = 0; k < row->ncells; k++) {
		cells[k] = row->cells[k];
		cells[k].timestamp = 0;
	}
	for (i = 0; i < tries; i++) {
		struct hb_row back;
		int found = 0;

		if (i) {
			hb_activity_sleep("writing the metadata row back failed; retrying", delay);
			delay = delay * 2 > 8 ? 8 : delay * 2;
		}
		hb_row_init(&back);
		rc = hb_rest_put_row(rest, table, row->key, row->key_len, cells, row->ncells, err);
		if (!rc)
			rc = read_metarow(rest, table, &back, &found, err);
		if (!rc && !(found && hb_row_has_cells(&back, row)))
			rc = hb_error_set(
			    err, HB_ESERVER,
			    "the row read back after the write does not hold every cell "
			    "written");
		hb_row_release(&back);
		if (!rc || rc == HB_ENOMEM || hb_interrupted)
			break;
	}
	if (rc)
		hb_error_prefix(err, rc,
		                "table '%s' was truncated, but its metadata row could not "
		                "be written back",
		                table);
	free(cells);
	return rc;
}

/* HB_EFINDING naming what differs between the regions after truncate and the keys before. */
static int boundaries_changed(const char *table, const struct hb_regions *rs,
                              const struct hb_keys *before, struct hb_error *err)
{
	struct hb_diff d;
	struct hb_buf m = HB_BUF_INIT;
	const char *p;
	int rc;

	hb_diff_init(&d, 10);
	rc = hb_bounds_diff(&d, rs, before);
	if (!rc)
		rc = hb_buf_addf(&m,
		                 "table '%s': the region boundaries after truncate differ from "
		                 "those before",
		                 table);
	for (p = hb_buf_str(&d.lines); !rc && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		rc = hb_buf_adds(&m, p == d.lines.data ? ": " : "; ");
		if (!rc)
			rc = hb_buf_add(&m, p, n);
		p += n + (nl ? 1 : 0);
	}
	if (!rc)
		hb_error_set(err, HB_EFINDING, "%s", hb_buf_str(&m));
	hb_buf_release(&m);
	hb_diff_release(&d);
	return rc ? hb_error_set(err, HB_ENOMEM, "out of memory") : HB_EFINDING;
}

/* One run: the request as it goes on (truncate may change channel on the way), what is
 * reported, the regions last read, the table's state, and a failed shell run's message. */
struct lc_run {
	struct hb_rest *rest;
	struct hb_lc_req r;
	struct hb_lc_result *out;
	struct hb_regions rs;
	struct hb_error hint;
	double started;
	int state, raced, unclear;
};

/* Sends verb (target: send_verb's) and waits for the state want. */
static int send_wait(struct lc_run *x, enum hb_lc_verb verb, int target, int want, int need_online,
                     struct hb_error *err)
{
	int rc = hb_lc_send_verb(x->rest, &x->r, verb, target, x->out, &x->raced, &x->unclear,
	                         &x->hint, err);

	if (!rc)
		rc = hb_lc_wait_for(x->rest, &x->r, want, need_online, x->started, &x->rs,
		                    &x->state, err);
	return rc;
}

/* The region ids of a list, sorted: a truncate gives every region a new one. */
static int region_ids(const struct hb_regions *rs, uint64_t **ids)
{
	size_t i, j;

	*ids = malloc((rs->n ? rs->n : 1) * sizeof(**ids));
	if (!*ids)
		return HB_ENOMEM;
	for (i = 0; i < rs->n; i++) {
		struct hb_region_view v;
		uint64_t id = hb_regions_at_unnamed(rs, i, &v)->id;

		for (j = i; j > 0 && (*ids)[j - 1] > id; j--)
			(*ids)[j] = (*ids)[j - 1];
		(*ids)[j] = id;
	}
	return 0;
}

/* 1 when no region of rs has an id of before (n of them, sorted): the regions are new. */
static int regions_new(const struct hb_regions *rs, const uint64_t *before, size_t n)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		struct hb_region_view v;
		uint64_t id = hb_regions_at_unnamed(rs, i, &v)->id;
		size_t lo = 0, hi = n;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (before[mid] < id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n && before[lo] == id)
			return 0;
	}
	return 1;
}

/* What a truncate keeps of the metadata row while it is out of the table. */
struct kept {
	struct hb_buf path;  /* the state file ("" when none is kept) */
	struct hb_buf cells; /* the row, printable */
	int saved;           /* the state file holds the row */
	int armed;           /* the truncate was (or is being) sent: the file stays on a signal */
	struct hb_statefile old; /* a state file an earlier run left, when found */
	int have_old;
	int path_rc; /* the state file cannot be named: why */
	struct hb_error path_err;
};

/* The lines that tell the operator where the row is and how it comes back. */
static int kept_text(const struct lc_run *x, const struct kept *k, const char *lead,
                     struct hb_buf *out)
{
	return hb_buf_addf(out,
	                   "hbtab: %s; the row as it was before the truncate:\n"
	                   "hbtab:   row '%s': %s\n"
	                   "hbtab:   kept in %s\n"
	                   "hbtab:   to write it back, run the same command again: %s\n"
	                   "hbtab:   (it writes the row back first, then truncates as asked)\n",
	                   lead, HB_METAROW_ROW, hb_buf_str(&k->cells), hb_buf_str(&k->path),
	                   x->r.rerun && *x->r.rerun ? x->r.rerun : "hbtab truncate TABLE --yes");
}

static int add_warning(struct hb_lc_result *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int add_warning(struct hb_lc_result *out, const char *fmt, ...)
{
	struct hb_buf b = HB_BUF_INIT;
	va_list ap;
	int rc;

	if (out->warnings && hb_buf_adds(&b, out->warnings))
		return HB_ENOMEM;
	va_start(ap, fmt);
	rc = hb_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!rc)
		rc = hb_buf_addc(&b, '\n');
	if (rc) {
		hb_buf_release(&b);
		return HB_ENOMEM;
	}
	free(out->warnings);
	out->warnings = hb_buf_detach(&b, NULL);
	return 0;
}

/* Saves the row before the truncate is sent: the state file written, its path registered so
 * that a signal before the truncate is sent removes it (the row is still in the table). */
static int keep_row(struct lc_run *x, struct kept *k, const struct hb_row *row,
                    struct hb_error *err)
{
	int rc;

	if (!x->r.cluster)
		return 0;
	if (hb_row_describe(&k->cells, row))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (k->path_rc) {
		*err = k->path_err;
		rc = k->path_rc;
	} else {
		rc = hb_statefile_save(hb_buf_str(&k->path), "truncate", x->r.cluster, x->r.table,
		                       row, err);
	}
	if (rc)
		return hb_error_prefix(
		    err, rc,
		    "refusing to truncate table '%s': its metadata row cannot be "
		    "kept while it is out of the table",
		    x->r.table);
	k->saved = 1;
	hb_interrupt_block(1);
	hb_interrupt_add_file(hb_buf_str(&k->path));
	hb_interrupt_block(0);
	return 0;
}

/* The truncate is about to be sent: from now on the state file stays whatever happens, and
 * the exit hook of a signal or --deadline prints where the row is. */
static void arm(struct lc_run *x, struct kept *k)
{
	struct hb_buf note = HB_BUF_INIT;
	char lead[400];

	if (!k->saved || k->armed)
		return;
	snprintf(lead, sizeof(lead),
	         "truncate of table '%s' stopped before its metadata row was written back (HBase "
	         "may go on truncating; the table may stay disabled until it is done)",
	         x->r.table);
	if (!kept_text(x, k, lead, &note))
		hb_interrupt_set_note(hb_buf_str(&note));
	hb_buf_release(&note);
	hb_interrupt_block(1);
	hb_interrupt_remove_file(hb_buf_str(&k->path));
	hb_interrupt_block(0);
	k->armed = 1;
}

/* The row is back in the table (or never left it): the state file goes. */
static int unkeep(struct kept *k, struct hb_error *err)
{
	int rc = 0;

	hb_interrupt_set_note(NULL);
	if (k->saved) {
		if (!k->armed) {
			hb_interrupt_block(1);
			hb_interrupt_remove_file(hb_buf_str(&k->path));
			hb_interrupt_block(0);
		}
		rc = hb_statefile_remove(hb_buf_str(&k->path), err);
		k->saved = k->armed = 0;
	}
	return rc;
}

/*
 * A state file an earlier run left for this table: its row written back when the table has
 * no metadata row now (the earlier truncate took it), and then the one this run keeps; when
 * the table has one, the table's is kept (the file's is the same, or older than a row written
 * since). *meta / *have_meta become the row this truncate keeps.
 */
static int recover(struct lc_run *x, struct kept *k, struct hb_row *meta, int *have_meta,
                   struct hb_error *err)
{
	const struct hb_statefile *o = &k->old;
	int rc;

	if (!*have_meta) {
		rc = restore_metarow(x->rest, x->r.table, &o->row, err);
		if (rc)
			return hb_error_prefix(err, rc,
			                       "the metadata row kept in '%s' (saved %s by an "
			                       "interrupted truncate) is not back in the table",
			                       hb_buf_str(&k->path), o->saved);
		x->out->recovered = 1;
		if (add_warning(x->out,
		                "table '%s' had no metadata row: the one an interrupted truncate "
		                "kept in '%s' (saved %s) is written back",
		                x->r.table, hb_buf_str(&k->path), o->saved))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		*have_meta = 1;
		return read_metarow(x->rest, x->r.table, meta, have_meta, err);
	}
	if (!hb_row_same_cells(meta, &o->row) &&
	    add_warning(x->out,
	                "table '%s' has a metadata row other than the one kept in '%s' (saved %s "
	                "by an interrupted truncate): the table's is kept, the file's dropped",
	                x->r.table, hb_buf_str(&k->path), o->saved))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return 0;
}

/* After a failure: what the operator must know when the table is left disabled. */
static void say_disabled(struct lc_run *x, int sent, struct hb_error *err)
{
	struct hb_error serr = {0};
	char msg[HB_ERRMSG_MAX];
	int state = -1;

	if (hb_interrupted || hb_lc_read_state(x->rest, &x->r, &state, &serr))
		return;
	/* the state now, not the one the wait last saw: HBase may have ended its change since */
	x->state = state;
	if (state == HB_TABLE_ENABLED)
		return;
	snprintf(msg, sizeof(msg), "%s", err->msg);
	hb_error_set(err, err->code,
	             "%s; table '%s' is left %s: its rows can be neither read nor written "
	             "until it is enabled%s ('hbtab enable %s' brings it back with the rows it "
	             "has; running the truncate again enables it and truncates it)",
	             msg, x->r.table,
	             state == HB_TABLE_DISABLED ? "DISABLED"
	                                        : "ENABLING or DISABLING (HBase is "
	                                          "changing its state)",
	             sent && x->unclear ? ", and HBase may still be truncating it" : "",
	             x->r.table);
}

/* Truncate: the boundaries read first and compared after, the metadata row kept aside (in
 * memory and in a state file) and written back. */
static int truncate_keeping_splits(struct lc_run *x, struct hb_error *err)
{
	const char *table = x->r.table;
	struct hb_lc_result *out = x->out;
	struct hb_keys before;
	struct hb_row meta;
	struct kept k;
	uint64_t *ids = NULL;
	int rc = 0, have_meta = 0, sent = 0, found = 0;

	hb_keys_init(&before);
	hb_row_init(&meta);
	memset(&k, 0, sizeof(k));
	hb_statefile_init(&k.old);
	/* Without a state directory (no HOME, as under some cron daemons) no file can have been
	 * left: only a table with a metadata row to keep needs one (keep_row says so). */
	if (x->r.cluster)
		k.path_rc =
		    hb_statefile_path(&k.path, "truncate", x->r.cluster, table, &k.path_err);
	if (x->r.cluster && !k.path_rc)
		rc = hb_statefile_load(hb_buf_str(&k.path), "truncate", x->r.cluster, table, &k.old,
		                       &k.have_old, err);
	if (rc)
		goto done;
	/* An interrupted truncate may still be running in HBase, its table disabled and its
	 * regions half made: enabling waits for it, and the regions are read after. */
	if (k.have_old && x->state == HB_TABLE_DISABLED) {
		rc = send_wait(x, HB_LC_ENABLE, HB_TABLE_ENABLED, HB_TABLE_ENABLED, 1, err);
		if (rc)
			goto done;
		x->r.use_shell = !strcmp(out->via, "shell");
	}
	rc = hb_lc_read_regions(x->rest, table, &x->rs, err);
	if (!rc && !hb_bounds_chain_complete(&x->rs))
		rc =
		    hb_error_set(err, HB_ESAFETY,
		                 "refusing to truncate table '%s': its regions do not form one "
		                 "chain from the first key to the last ('hbtab audit %s' shows the "
		                 "holes or overlaps), so there are no split points to keep",
		                 table, table);
	if (!rc && (split_keys(&before, &x->rs) || region_ids(&x->rs, &ids)))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (rc)
		goto done;
	out->regions = x->rs.n;
	/* hbtab's metadata row is a row like any other: kept aside and written back. A disabled
	 * table serves no row, and truncate leaves the table enabled anyway: enable it first. */
	if (x->state == HB_TABLE_DISABLED) {
		rc = send_wait(x, HB_LC_ENABLE, HB_TABLE_ENABLED, HB_TABLE_ENABLED, 1, err);
		if (rc)
			goto done;
		x->r.use_shell = !strcmp(out->via, "shell");
	}
	rc = read_metarow(x->rest, table, &meta, &have_meta, err);
	if (!rc && k.have_old)
		rc = recover(x, &k, &meta, &have_meta, err);
	if (!rc && have_meta)
		rc = keep_row(x, &k, &meta, err);
	else if (!rc && k.have_old)
		rc = hb_statefile_remove(hb_buf_str(&k.path), err);
	if (rc)
		goto done;
	/* Thrift2's truncateTable wants a disabled table; the shell's truncate_preserve
	 * disables it itself. */
	if (!x->r.use_shell && x->r.thrift && x->state != HB_TABLE_DISABLED) {
		rc = send_wait(x, HB_LC_DISABLE, HB_TABLE_DISABLED, HB_TABLE_DISABLED, 0, err);
		if (rc)
			goto done;
		/* a server without disableTable has no truncateTable either */
		x->r.use_shell = !strcmp(out->via, "shell");
	}
	arm(x, &k);
	sent = 1;
	x->unclear = 0;
	rc = send_wait(x, HB_LC_TRUNCATE, -2, HB_TABLE_ENABLED, 1, err);
	if (!rc && x->unclear && !regions_new(&x->rs, ids, out->regions)) {
		/* the answer was lost and the table has the regions of before: not truncated */
		rc =
		    hb_error_set(err, x->hint.code ? x->hint.code : HB_ESERVER,
		                 "%s; table '%s' is ENABLED with the regions it had before: it was "
		                 "not truncated",
		                 x->hint.msg, table);
		x->hint.code = 0;
		sent = 0;
	} else if (!rc && x->unclear &&
	           add_warning(out,
	                       "%s; table '%s' was found ENABLED with every region online and "
	                       "every region new: the truncate took effect",
	                       x->hint.msg, table)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	if (!rc)
		x->hint.code = 0; /* settled: said above */
	if (rc)
		goto done;
	out->changed = 1;
	out->verified = hb_bounds_equal(&x->rs, &before);
	if (!out->verified)
		rc = boundaries_changed(table, &x->rs, &before, err);
	else if (have_meta && !(rc = restore_metarow(x->rest, table, &meta, err)))
		out->metadata = 1;
	if (!rc)
		rc = unkeep(&k, err);
done:
	if (rc && rc != HB_ENOTFOUND && !hb_interrupted) {
		struct hb_error serr = {0};
		struct hb_row now;

		say_disabled(x, sent, err);
		/* not sent, or not truncated: the row is still in the table, nothing to keep */
		hb_row_init(&now);
		if (k.saved && (!sent || (!read_metarow(x->rest, table, &now, &found, &serr) &&
		                          found && hb_row_has_cells(&now, &meta))))
			unkeep(&k, &serr);
		hb_row_release(&now);
	}
	if (rc && k.saved) {
		struct hb_buf b = HB_BUF_INIT;
		char lead[300];

		if (x->state == HB_TABLE_DISABLED || x->state == HB_TABLE_CHANGING)
			snprintf(
			    lead, sizeof(lead),
			    "table '%s' is not enabled, so whether its metadata row is still "
			    "there cannot be read (a truncate that goes on in HBase removes it)",
			    table);
		else
			snprintf(lead, sizeof(lead),
			         "the metadata row of table '%s' is not written back", table);
		if (!kept_text(x, &k, lead, &b))
			out->kept = hb_buf_detach(&b, NULL);
		hb_buf_release(&b);
	}
	hb_interrupt_set_note(NULL);
	free(ids);
	hb_statefile_release(&k.old);
	hb_buf_release(&k.path);
	hb_buf_release(&k.cells);
	hb_keys_release(&before);
	hb_row_release(&meta);
	return rc;
}

void hb_lc_result_release(struct hb_lc_result *out)
{
	free(out->warnings);
	free(out->kept);
	out->warnings = out->kept = NULL;
}

int hb_lc_run(struct hb_rest *rest, const struct hb_lc_req *q, struct hb_lc_result *out,
              struct hb_error *err)
{
	static const int targets[] = {HB_TABLE_ENABLED, HB_TABLE_DISABLED, HB_TABLE_ENABLED};
	struct lc_run x;
	struct hb_tname tn;
	int rc, exists = 0, target = targets[q->verb];

	memset(&x, 0, sizeof(x));
	x.rest = rest;
	x.r = *q;
	x.out = out;
	x.started = hb_now();
	x.state = -1;
	memset(out, 0, sizeof(*out));
	out->before = out->after = -1;
	out->via = "none";
	hb_regions_init(&x.rs);
	rc = hb_tname_parse(&tn, q->table, err);
	if (!rc)
		rc = hb_rest_table_exists(rest, q->table, &exists, err);
	if (!rc && !exists)
		rc = hb_error_set(err, HB_ENOTFOUND, "table '%s' not found", q->table);
	if (!rc)
		rc = hb_lc_read_state(rest, q, &x.state, err);
	out->before = x.state;
	if (!rc)
		rc = hb_lc_wait_settled(rest, q, x.started, &x.state, err);
	if (!rc && q->verb == HB_LC_TRUNCATE) {
		rc = truncate_keeping_splits(&x, err);
	} else if (!rc && x.state != target) { /* already so: nothing to send */
		rc = send_wait(&x, q->verb, target, target, q->verb == HB_LC_ENABLE, err);
		out->changed = !rc && !x.raced;
	}
	if (rc && x.hint.code && rc != HB_ENOTFOUND && rc != HB_EFINDING) {
		/* the wait failed after a shell run that ended badly: its message says more */
		char waited[HB_ERRMSG_MAX];

		snprintf(waited, sizeof(waited), "%s", err->msg);
		hb_error_set(err, x.hint.code, "%s; %s", x.hint.msg, waited);
		rc = x.hint.code;
	}
	out->after = x.state;
	out->seconds = hb_now() - x.started;
	hb_regions_release(&x.rs);
	return rc;
}
