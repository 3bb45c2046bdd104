/* The rotation flow: tables created ahead through the caller's create flow with N from the
 * cluster, managed tables past retention retired under --yes after a fresh check. */
#include "rest/rotate_flow.h"
#include "core/clock.h"
#include "core/num.h"
#include "core/vec.h"
#include "rest/metarow.h"
#include "rest/rotate.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Split keys for a new table: the spec (N = auto read once per run), or a sample of the
 * newest managed table before the current period with --sample-previous. */
struct design {
	struct hb_splitspec *ss;
	int prepared;
	struct hb_keys sampled; /* from --sample-previous */
	int have_sampled;
	char sample_from[HB_ROTATE_NAME_MAX];
	const char *sample_rows;
	/* the run's own design, computed once (a generator's sample can take a second) */
	struct hb_keys cache;
	struct hb_buf cache_text;
	int have_cache;
};

struct run {
	const struct hb_rotate_opts *o;
	const struct hb_rotate_cfg *c;
	const struct hb_rotate_hooks *h;
	struct hb_rest *rest;
	const struct hb_shell_channel *sh;
	struct hb_rotate_plan *plan;
	struct design d;
	struct hb_rotate_result *res;
};

static void say(const struct run *r, enum hb_rotate_say what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Formats a message for the caller's say (an out-of-memory one when it cannot). */
static void say(const struct run *r, enum hb_rotate_say what, const char *fmt, ...)
{
	struct hb_buf b = HB_BUF_INIT;
	va_list ap;
	int rc;

	if (!r->h->say)
		return;
	va_start(ap, fmt);
	rc = hb_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	r->h->say(r->h->ctx, what, rc ? "out of memory" : hb_buf_str(&b));
	hb_buf_release(&b);
}

/* A step failed with rc (err may be empty): the caller reports it; it is the run's end. */
static int fail(const struct run *r, int rc, struct hb_error *err)
{
	if (r->h->fail)
		r->h->fail(r->h->ctx, rc, err);
	return rc;
}

/* Adds a line (snapshot and error may be NULL) and hands it to the caller's callback. */
static int add_line(struct run *r, const char *name, const char *action, long regions, long n,
                    const char *note, const char *snapshot, const char *error)
{
	struct hb_rotate_result *res = r->res;
	struct hb_rotate_line *l;

	if (HB_VEC_GROW(res->lines, res->cap, res->nlines + 1, 16))
		return HB_ENOMEM;
	l = &res->lines[res->nlines];
	l->name = strdup(name);
	l->snapshot = snapshot ? strdup(snapshot) : NULL;
	l->error = error ? strdup(error) : NULL;
	if (!l->name || (snapshot && !l->snapshot) || (error && !l->error)) {
		free(l->name);
		free(l->snapshot);
		free(l->error);
		return HB_ENOMEM;
	}
	l->action = action;
	l->regions = regions;
	l->n = n;
	l->note = note;
	res->nlines++;
	if (r->h->on_line)
		r->h->on_line(r->h->ctx, l);
	return 0;
}

static int line(struct run *r, const char *name, const char *action, long regions, long n,
                const char *note)
{
	return add_line(r, name, action, regions, n, note, NULL, NULL);
}

/* Reads t's rotate mark (the table's metadata row) into t; *gone when it no longer exists. */
static int read_mark(struct run *r, struct hb_rotate_table *t, int *gone, struct hb_error *err)
{
	return hb_rest_rotate_read_mark(r->rest, r->c->tmpl, t, gone, err);
}

/* ---------------------------------------------------------------- designs */

static int copy_keys(struct hb_keys *dst, const struct hb_keys *src)
{
	size_t i, kl;

	for (i = 0; i < src->n; i++) {
		const unsigned char *k = hb_keys_at(src, i, &kl);

		if (hb_keys_push(dst, k, kl))
			return HB_ENOMEM;
	}
	return 0;
}

static int sample_previous(struct run *r, const struct hb_stamp *cur, struct hb_error *err)
{
	struct design *d = &r->d;
	long m = HB_SPLITSPEC_DEFAULT_SAMPLE_ROWS;
	double t0 = hb_now();
	int rc = 0;

	if (d->sample_rows) {
		rc = hb_parse_long(d->sample_rows, 1, HB_SPLITSPEC_MAX_SAMPLE, "--sample-rows", &m,
		                   err);
		if (rc)
			return rc;
	}
	rc = hb_rest_rotate_sample_previous(r->rest, r->plan, r->c->tmpl, cur, (size_t)m,
	                                    &d->sampled, d->sample_from, sizeof(d->sample_from),
	                                    err);
	if (rc < 0)
		return rc;
	d->have_sampled = rc;
	r->res->t_sample += hb_now() - t0;
	return 0;
}

/* Its boundaries came from data: families and metadata are verified against itself. */
static int existing_bounds(struct run *r, const char *table, struct hb_keys *keys,
                           struct hb_buf *text, struct hb_error *err)
{
	int rc = hb_rest_rotate_existing_bounds(r->rest, table, keys, err);

	if (!rc && hb_buf_adds(text, "(boundaries of the existing table)"))
		rc = HB_ENOMEM;
	return rc;
}

/* The spec a table is made with: the run's (or its sample's), or the N it was made with. */
static void design_spec(const struct design *d, const struct hb_rotate_table *existing,
                        struct hb_splitspec *s)
{
	*s = *d->ss;
	if (d->have_sampled) {
		s->sample_table = d->sample_from;
		s->sample_file = NULL;
		s->generator = NULL;
		s->sample_size = s->seed = s->start_time = NULL;
		s->table_keys = (struct hb_keys *)&d->sampled;
		s->sample_rows = d->sample_rows; /* recorded as the option in force */
	}
	if (existing && existing->managed > 0 && existing->n > 0 && s->regions_per_server) {
		/* the table keeps the N it was made with */
		s->live_servers = existing->n;
		s->regions_per_server = "1";
	}
}

/*
 * The split keys and spec text for a table. An existing managed table with a recorded N
 * keeps its N under N = auto; one made from a sample is checked against its own boundaries.
 */
static int design_for(struct run *r, const struct hb_rotate_table *existing, struct hb_keys *keys,
                      struct hb_buf *text, long *live, struct hb_error *err)
{
	struct design *d = &r->d;
	struct hb_splitspec s;
	int rc, own;

	*live = 0;
	if (existing && existing->managed > 0 && existing->n > 0 &&
	    (r->o->sample_previous || d->ss->sample_table))
		return existing_bounds(r, existing->name, keys, text, err);
	if (hb_splitspec_needs_cluster(d->ss) && !d->prepared) {
		/* N = auto (live servers) or --sample-table: read once per run */
		rc = r->h->spec_prepare(r->h->ctx, d->ss, err);
		if (rc)
			return rc;
		d->prepared = 1;
	}
	design_spec(d, existing, &s);
	own = !(existing && existing->managed > 0 && existing->n > 0 && s.regions_per_server);
	if (own && s.regions_per_server)
		*live = s.live_servers;
	if (own && d->have_cache) {
		if (copy_keys(keys, &d->cache) || hb_buf_adds(text, hb_buf_str(&d->cache_text)))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		return 0;
	}
	rc = r->h->spec_compute(r->h->ctx, keys, &s, err);
	if (!rc)
		rc = hb_splitspec_write(text, &s, err);
	if (!rc && hb_buf_adds(text, ""))
		rc = HB_ENOMEM;
	if (!rc && own) {
		if (copy_keys(&d->cache, keys) || hb_buf_adds(&d->cache_text, hb_buf_str(text)))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		d->have_cache = 1;
	}
	return rc;
}

/* ---------------------------------------------------------------- creating ahead */

/* The note on a table found in place: its mark, or its adoption. */
static const char *verified_note(struct run *r, const char *name, struct hb_rotate_table *f,
                                 const struct hb_rotate_made *out)
{
	if (!strcmp(out->metadata, "present") && !out->created) {
		int managed = f ? f->managed : -1;

		/* The mark read before the create still holds; a table that appeared since the
		 * listing is read now. The note is all that depends on it. */
		if (managed < 0) {
			struct hb_metarow_mark mk;
			struct hb_error err = {0};

			if (hb_metarow_read_mark(r->rest, name, r->c->tmpl, 0, &mk, &err)) {
				say(r, HB_ROTATE_SAY_WARN,
				    "cannot read the rotate mark of '%s': %s", name, err.msg);
				managed = -1;
			} else {
				managed = mk.managed;
			}
		}
		return managed
		           ? NULL
		           : "not managed: its metadata row has no rotate mark for this template";
	}
	if (!strcmp(out->metadata, "adopted")) {
		if (f)
			f->managed = 1;
		return "adopted: it has this run's design and now carries the rotate mark";
	}
	if (!strcmp(out->metadata, "would adopt"))
		return "would adopt: it has this run's design but no rotate mark";
	return NULL;
}

/* Runs the caller's create flow for one period's table with keys. */
static void create_one(struct run *r, const char *name, const struct hb_keys *keys,
                       const char *spec_text, struct hb_rotate_made *out)
{
	double t0 = hb_now();

	memset(out, 0, sizeof(*out));
	r->h->create(r->h->ctx, name, keys, spec_text, out);
	r->res->t_create += hb_now() - t0;
}

/* What the create flow's answer for one table means for the run. *stop ends the run's
 * creating. */
static int ensure_report(struct run *r, const char *name, struct hb_rotate_table *f, size_t keys_n,
                         long live, const struct hb_rotate_made *out, int *st, int *stop)
{
	if (out->status && out->differs) {
		/* create refuses an existing table that differs (the diff is on stderr); for
		 * rotate that is a finding: it is left as it is, no drop is made, but the tables
		 * still missing are created with this run's design, so the next period does not
		 * start without its table. The line shows the existing table's own regions and
		 * recorded N. */
		*st = HB_EFINDING;
		return line(r, name, "differs", (long)out->regions, f && f->managed > 0 ? f->n : -1,
		            "not this run's design; left as it is");
	}
	if (out->status) {
		/* the create flow reported it */
		line(r, name, "failed", -1, (long)out->planned, NULL);
		r->res->create_status = out->status;
		*st = HB_EFINDING; /* any failure: create_status is the run's status */
		*stop = 1;
		return 0;
	}
	if (r->c->dry_run && !out->existed)
		return line(r, name, "would create", (long)keys_n, (long)keys_n, NULL);
	if (live && out->created)
		say(r, HB_ROTATE_SAY_VERBOSE, "'%s': N = %zu from %ld live region servers", name,
		    out->planned, live);
	return line(r, name, out->created ? "created" : "verified", (long)out->regions,
	            (long)out->planned, verified_note(r, name, f, out));
}

/* Creates (or verifies) the table of period p. */
static int ensure_one(struct run *r, const struct hb_rotate_period *p, int *st, int *stop)
{
	struct hb_rotate_table *f = hb_rotate_plan_find(r->plan, p->name);
	struct hb_error err = {0};
	struct hb_keys keys;
	struct hb_buf text = HB_BUF_INIT;
	struct hb_rotate_made out;
	long live = 0;
	size_t keys_n;
	int gone = 0, rc;

	rc = f && f->managed < 0 ? read_mark(r, f, &gone, &err) : 0;
	if (!rc && gone)
		f = NULL;
	hb_keys_init(&keys);
	if (!rc && (rc = design_for(r, f, &keys, &text, &live, &err)) == HB_ENOMEM)
		hb_error_set(&err, rc, "out of memory"); /* whatever else err says */
	if (rc) {
		hb_keys_release(&keys);
		hb_buf_release(&text);
		*st = fail(r, rc, &err);
		*stop = 1;
		return 0;
	}
	create_one(r, p->name, &keys, hb_buf_str(&text), &out);
	keys_n = keys.n + 1;
	hb_keys_release(&keys);
	hb_buf_release(&text);
	return ensure_report(r, p->name, f, keys_n, live, &out, st, stop);
}

static int ensure_tables(struct run *r)
{
	struct hb_error err = {0};
	size_t i;
	int rc = 0, st = 0, stop = 0;

	if (r->o->sample_previous) {
		rc = sample_previous(r, &r->plan->want[0].stamp, &err);
		if (rc)
			return fail(r, rc, &err);
		if (!r->d.have_sampled)
			say(r, HB_ROTATE_SAY_VERBOSE,
			    "no managed table with rows before '%s' to sample; using the spec",
			    r->plan->want[0].name);
	}
	for (i = 0; i < r->plan->nwant && !rc && !stop; i++)
		rc = ensure_one(r, &r->plan->want[i], &st, &stop);
	if (rc == HB_ENOMEM && !st)
		st = fail(r, rc, &(struct hb_error){0});
	return st;
}

/* ---------------------------------------------------------------- retiring */

/* Drops managed table t after a fresh read of its mark (and, with --snapshot-before-drop,
 * once a snapshot of it is listed). *stop on an error. */
static int drop_one(struct run *r, struct hb_rotate_table *t, int *st, int *stop)
{
	char snapshot[HB_SNAPSHOT_NAME_MAX];
	struct hb_drop_out out;
	struct hb_error err = {0};
	int rc = hb_rest_rotate_drop(r->rest, r->c->tmpl, t->name,
	                             r->o->snapshot_before_drop ? r->sh : NULL,
	                             "drop with --snapshot-before-drop", &out, snapshot, &err);

	if (rc) {
		/* the table is in the report too (-o json), with why it was not dropped */
		add_line(r, t->name, "failed", -1, t->n, NULL, NULL, err.msg);
		*st = fail(r, rc, &err);
		*stop = 1;
		return 0;
	}
	if (out.outcome == HB_DROP_KEPT)
		return line(r, t->name, "skipped", -1, out.n,
		            "its rotate mark changed since the listing; left alone");
	r->plan->dropped++;
	if (out.outcome != HB_DROP_DROPPED)
		return line(r, t->name, "dropped", -1, t->n, "already gone");
	return add_line(r, t->name, "dropped", -1, t->n, NULL, snapshot[0] ? snapshot : NULL, NULL);
}

/* Whether name is one of the tables known_unmarked names, or known_unmarked_text's (names
 * separated by commas or blanks: no table name holds either). */
static int known_unmarked(const struct run *r, const char *name)
{
	static const char sep[] = ", \t";
	const char *p = r->o->known_unmarked_text;
	size_t i, n = strlen(name);

	for (i = 0; i < r->o->nknown_unmarked; i++)
		if (!strcmp(r->o->known_unmarked[i], name))
			return 1;
	while (p && *(p += strspn(p, sep))) {
		size_t k = strcspn(p, sep);

		if (k == n && !memcmp(p, name, n))
			return 1;
		p += k;
	}
	return 0;
}

/* One table past retention. lookalikes collects the unmarked ones' names, but for those
 * --known-unmarked acknowledges. */
static int retire_one(struct run *r, struct hb_rotate_table *t, struct hb_buf *lookalikes,
                      size_t *nlookalikes, int *st, int *stop)
{
	switch (hb_rotate_plan_decide(r->plan, r->c, t)) {
	case HB_ROTATE_UNREADABLE:
		say(r, HB_ROTATE_SAY_ERROR,
		    "table '%s' is past retention but disabled, so its metadata row cannot be "
		    "read and whether rotate made it is unknown; left alone (a drop stopped "
		    "between its disable and its delete leaves a table so: enable it and run "
		    "again to retire it)",
		    t->name);
		return line(r, t->name, "skipped", -1, -1,
		            "disabled: its rotate mark cannot be read; left alone");
	case HB_ROTATE_LOOKALIKE:
		if (known_unmarked(r, t->name))
			return line(
			    r, t->name, "skipped", -1, t->n,
			    "kept on purpose (--known-unmarked): carries no rotate mark; left "
			    "alone");
		if ((*nlookalikes)++ < 20)
			hb_buf_addf(lookalikes, "%s'%s'", *nlookalikes > 1 ? ", " : "", t->name);
		return line(r, t->name, "skipped", -1, t->n,
		            "matches the template but carries no rotate mark for it; left alone");
	case HB_ROTATE_DUE:
		return r->c->yes ? 0 : line(r, t->name, "would drop", -1, t->n, NULL);
	case HB_ROTATE_DRY:
		/* the real run would drop it (its mark is read again just before) */
		return line(r, t->name, "would drop", -1, t->n, NULL);
	case HB_ROTATE_DROP:
		break;
	}
	return drop_one(r, t, st, stop);
}

/* Never dropped, so never gone: said once per run, even under -q, so that cron's mail
 * shows them. */
static void warn_lookalikes(const struct run *r, const struct hb_buf *names, size_t n)
{
	const char *one = n == 1 ? "it" : "them";

	say(r, HB_ROTATE_SAY_NOTICE,
	    "%zu table%s past retention match%s the template '%s' but carr%s no rotate mark, so "
	    "rotate never drops %s: %s%s (drop %s with 'hbtab drop TABLE --yes' when no longer "
	    "needed)",
	    n, n == 1 ? "" : "s", n == 1 ? "es" : "", r->c->tmpl, n == 1 ? "ies" : "y", one,
	    hb_buf_str(names), n > 20 ? ", ..." : "", one);
}

static void error_pending(const struct run *r)
{
	struct hb_buf names = HB_BUF_INIT;
	size_t i, shown = 0, pending = r->plan->pending;

	for (i = 0; i < r->plan->ntables; i++)
		if (r->plan->tables[i].pending && shown++ < 20)
			hb_buf_addf(&names, "%s'%s'", names.len ? ", " : "",
			            r->plan->tables[i].name);
	say(r, HB_ROTATE_SAY_ERROR,
	    "%zu more managed table%s past retention (--max-drops %ld): %s%s", pending,
	    pending == 1 ? " is" : "s are", r->c->max_drops, hb_buf_str(&names),
	    pending > 20 ? ", ..." : "");
	hb_buf_release(&names);
}

static int retire_old(struct run *r)
{
	struct hb_error err = {0};
	struct hb_buf lookalikes = HB_BUF_INIT; /* unmarked tables past retention */
	size_t i, expired = hb_rotate_plan_expired(r->plan), nlookalikes = 0;
	int rc = 0, st = 0, stop = 0;
	double t0 = hb_now();

	for (i = 0; i < expired && !rc && !stop; i++) {
		struct hb_rotate_table *t = &r->plan->tables[i];
		int gone = 0;

		if (t->managed < 0) {
			rc = read_mark(r, t, &gone, &err);
			if (rc) {
				st = fail(r, rc, &err);
				break;
			}
			if (gone)
				continue;
		}
		rc = retire_one(r, t, &lookalikes, &nlookalikes, &st, &stop);
	}
	if (nlookalikes)
		warn_lookalikes(r, &lookalikes, nlookalikes);
	hb_buf_release(&lookalikes);
	if (!st && r->plan->pending && r->c->yes)
		error_pending(r);
	r->res->t_drop += hb_now() - t0;
	if (rc == HB_ENOMEM && !st)
		st = fail(r, rc, &(struct hb_error){0});
	return st;
}

/* ---------------------------------------------------------------- the run */

void hb_rotate_flow_execute(struct hb_rest *rest, const struct hb_shell_channel *sh,
                            const struct hb_rotate_opts *o, const struct hb_rotate_hooks *h,
                            struct hb_rotate_plan *plan, struct hb_rotate_result *out)
{
	struct run r;
	int st;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.c = &o->cfg;
	r.h = h;
	r.rest = rest;
	r.sh = sh;
	r.plan = plan;
	r.res = out;
	r.d.ss = o->ss;
	r.d.sample_rows = o->sample_rows;
	hb_keys_init(&r.d.sampled);
	hb_keys_init(&r.d.cache);
	hb_buf_init(&r.d.cache_text, 0);
	out->listed = 1;
	st = ensure_tables(&r);
	if (!st)
		st = retire_old(&r);
	if (!st && (plan->pending || plan->unreadable))
		st = HB_ESAFETY;
	out->pending = plan->pending;
	out->rc = st;
	if (r.d.have_sampled)
		hb_keys_release(&r.d.sampled);
	hb_keys_release(&r.d.cache);
	hb_buf_release(&r.d.cache_text);
}

void hb_rotate_flow_run(struct hb_rest *rest, const struct hb_shell_channel *sh,
                        const struct hb_rotate_opts *o, const struct hb_rotate_hooks *h,
                        struct hb_rotate_result *out)
{
	struct hb_rotate_plan plan;
	struct hb_error err = {0};
	double t0 = hb_now();
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&plan, 0, sizeof(plan));
	rc = hb_rest_rotate_list(rest, &o->cfg, &plan, &err);
	out->t_list = hb_now() - t0;
	if (rc) {
		out->rc = rc;
		if (h->fail)
			h->fail(h->ctx, rc, &err);
	} else {
		hb_rotate_flow_execute(rest, sh, o, h, &plan, out);
	}
	hb_rotate_plan_release(&plan);
}

void hb_rotate_result_release(struct hb_rotate_result *r)
{
	size_t i;

	for (i = 0; i < r->nlines; i++) {
		free(r->lines[i].name);
		free(r->lines[i].snapshot);
		free(r->lines[i].error);
	}
	free(r->lines);
	memset(r, 0, sizeof(*r));
}
