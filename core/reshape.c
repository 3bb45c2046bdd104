/* hbtab reshape's planner: rounds of splits at target keys and merges of regions between two
 * target boundaries, and the bucket guard that every merge plan obeys. */
#include "reshape.h"

#include "splitspec.h"
#include "vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the simulated table */

/* A table as the plan sees it: region i starts at starts[i] (region 0 at the empty key) and
 * ends where region i + 1 starts; live[i] is its index in the live list (-1: a region a
 * step makes), held[i] whether HBase would refuse to change it now. */
struct sim {
	struct hb_keys starts;
	long *live;
	unsigned char *held;
	size_t n, cap;
};

static void sim_init(struct sim *s)
{
	memset(s, 0, sizeof(*s));
	hb_keys_init(&s->starts);
}

static void sim_release(struct sim *s)
{
	hb_keys_release(&s->starts);
	free(s->live);
	free(s->held);
	memset(s, 0, sizeof(*s));
}

static int sim_push(struct sim *s, const void *k, size_t kl, long live, int held)
{
	size_t hcap = s->cap;

	if (HB_VEC_GROW(s->live, s->cap, s->n + 1, 16))
		return HB_ENOMEM;
	if (s->cap != hcap || !s->held) {
		unsigned char *h = realloc(s->held, s->cap);

		if (!h)
			return HB_ENOMEM;
		s->held = h;
	}
	if (hb_keys_push(&s->starts, k, kl))
		return HB_ENOMEM;
	s->live[s->n] = live;
	s->held[s->n] = (unsigned char)held;
	s->n++;
	return 0;
}

static void sim_bounds(const struct sim *s, size_t i, const unsigned char **a, size_t *al,
                       const unsigned char **b, size_t *bl)
{
	*a = hb_keys_at(&s->starts, i, al);
	if (i + 1 < s->n) {
		*b = hb_keys_at(&s->starts, i + 1, bl);
	} else {
		*b = NULL;
		*bl = 0;
	}
}

/* Whether key k is one of the target boundaries. */
static int is_target(const struct hb_keys *t, const unsigned char *k, size_t kl)
{
	size_t j = hb_keys_lower_bound(t, k, kl), jl;
	const unsigned char *x;

	if (j >= t->n)
		return 0;
	x = hb_keys_at(t, j, &jl);
	return !hb_key_cmp(x, jl, k, kl);
}

/* The target keys strictly inside region i: [*lo, *hi). */
static void inside(const struct sim *s, const struct hb_keys *t, size_t i, size_t *lo, size_t *hi)
{
	const unsigned char *a, *b;
	size_t al, bl;

	sim_bounds(s, i, &a, &al, &b, &bl);
	*lo = hb_keys_lower_bound(t, a, al);
	if (i && is_target(t, a, al))
		(*lo)++;
	*hi = b ? hb_keys_lower_bound(t, b, bl) : t->n;
	if (*hi < *lo)
		*hi = *lo;
}

/* ---------------------------------------------------------------- a round */

enum act_kind { ACT_MERGE, ACT_SPLIT, ACT_BLOCKED, ACT_BUCKET };

struct act {
	enum act_kind kind;
	size_t first, n; /* regions [first, first + n) of the round's table */
	size_t key;      /* ACT_SPLIT: the target key's index */
};

struct round {
	struct act *v;
	size_t n, cap;
	size_t moves; /* ACT_MERGE and ACT_SPLIT entries */
};

static int round_add(struct round *r, enum act_kind kind, size_t first, size_t n, size_t key)
{
	if (HB_VEC_GROW(r->v, r->cap, r->n + 1, 16))
		return HB_ENOMEM;
	r->v[r->n].kind = kind;
	r->v[r->n].first = first;
	r->v[r->n].n = n;
	r->v[r->n].key = key;
	r->n++;
	r->moves += kind == ACT_MERGE || kind == ACT_SPLIT;
	return 0;
}

/* Whether any region of [a, b] is held. */
static int any_held(const struct sim *s, size_t a, size_t b)
{
	for (; a <= b; a++)
		if (s->held[a])
			return 1;
	return 0;
}

/*
 * One round on s: merges of complete runs (regions between two target boundaries, none
 * holding a target key inside), then splits at the middle target key inside a region, in
 * key order, while the count stays at or below upper; *count follows the steps.
 */
static int plan_round(struct round *r, const struct sim *s, const struct hb_keys *t,
                      const struct hb_buckets *bk, size_t upper, size_t *count)
{
	size_t i = 0, lo, hi, deferred = (size_t)-1;
	int blocked = 0;

	while (i < s->n) {
		size_t b = i, blo, bhi;
		const unsigned char *a, *e, *x, *y;
		size_t al, el, xl, yl;

		inside(s, t, i, &lo, &hi);
		sim_bounds(s, i, &a, &al, &x, &xl);
		if (lo < hi || (i && !is_target(t, a, al))) {
			i++;
			continue;
		}
		for (;;) {
			if (b + 1 >= s->n)
				break;
			sim_bounds(s, b + 1, &e, &el, &y, &yl);
			if (is_target(t, e, el))
				break;
			inside(s, t, b + 1, &blo, &bhi);
			if (blo < bhi)
				break;
			b++;
		}
		/* complete: the run ends at a target boundary or the table's end */
		if (b > i && (b + 1 >= s->n ||
		              (sim_bounds(s, b + 1, &e, &el, &y, &yl), is_target(t, e, el)))) {
			sim_bounds(s, b, &x, &xl, &e, &el);
			if (hb_buckets_crossed(bk, a, al, e, el)) {
				if (round_add(r, ACT_BUCKET, i, b - i + 1, 0))
					return HB_ENOMEM;
			} else if (any_held(s, i, b)) {
				blocked = 1;
				if (round_add(r, ACT_BLOCKED, i, b - i + 1, 0))
					return HB_ENOMEM;
			} else {
				if (round_add(r, ACT_MERGE, i, b - i + 1, 0))
					return HB_ENOMEM;
				*count -= b - i;
			}
		}
		i = b + 1;
	}
	for (i = 0; i < s->n; i++) {
		inside(s, t, i, &lo, &hi);
		if (lo >= hi)
			continue;
		if (s->held[i]) {
			blocked = 1;
			if (round_add(r, ACT_BLOCKED, i, 1, 0))
				return HB_ENOMEM;
			continue;
		}
		if (*count + 1 > upper) {
			if (deferred == (size_t)-1)
				deferred = i;
			continue;
		}
		if (round_add(r, ACT_SPLIT, i, 1, lo + (hi - lo) / 2))
			return HB_ENOMEM;
		(*count)++;
	}
	/* nothing else can move: the leftmost split goes over the margin */
	if (!r->moves && !blocked && deferred != (size_t)-1) {
		inside(s, t, deferred, &lo, &hi);
		if (round_add(r, ACT_SPLIT, deferred, 1, lo + (hi - lo) / 2))
			return HB_ENOMEM;
		(*count)++;
	}
	return 0;
}

/* The table after round r's moves (held and blocked entries change nothing); every region
 * clear, as after the references are compacted away. */
static int sim_next(struct sim *out, const struct sim *s, const struct round *r,
                    const struct hb_keys *t)
{
	size_t i = 0;

	while (i < s->n) {
		const unsigned char *a;
		size_t al, j;
		const struct act *x = NULL;

		for (j = 0; j < r->n; j++)
			if (r->v[j].first == i &&
			    (r->v[j].kind == ACT_MERGE || r->v[j].kind == ACT_SPLIT))
				x = &r->v[j];
		a = hb_keys_at(&s->starts, i, &al);
		if (sim_push(out, a, al, -1, 0))
			return HB_ENOMEM;
		if (x && x->kind == ACT_SPLIT) {
			size_t kl;
			const unsigned char *kk = hb_keys_at(t, x->key, &kl);

			if (sim_push(out, kk, kl, -1, 0))
				return HB_ENOMEM;
		}
		i += x && x->kind == ACT_MERGE ? x->n : 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- the plan */

void hb_reshape_plan_init(struct hb_reshape_plan *p)
{
	memset(p, 0, sizeof(*p));
	hb_repair_plan_init(&p->now);
}

void hb_reshape_plan_release(struct hb_reshape_plan *p)
{
	size_t i;

	hb_repair_plan_release(&p->now);
	free(p->after_now);
	for (i = 0; i < p->nlater; i++) {
		hb_buf_release(&p->later[i].start);
		hb_buf_release(&p->later[i].end);
		hb_buf_release(&p->later[i].split);
	}
	free(p->later);
	memset(p, 0, sizeof(*p));
}

static void track(struct hb_reshape_plan *p, size_t count)
{
	if (count < p->low)
		p->low = count;
	if (count > p->peak)
		p->peak = count;
}

/* Round 1's entries on the live regions (first region index = live index). */
static int emit_now(struct hb_reshape_plan *p, const char *table, const struct hb_regions *rs,
                    const struct sim *s, const struct round *r, const struct hb_keys *t,
                    const struct hb_buckets *bk, size_t count)
{
	size_t k, cap = r->n ? r->n : 1;
	int rc = 0;

	(void)table;
	p->after_now = calloc(cap, sizeof(*p->after_now));
	if (!p->after_now)
		return HB_ENOMEM;
	for (k = 0; !rc && k < r->n; k++) {
		const struct act *x = &r->v[k];
		struct hb_buf why = HB_BUF_INIT, cmd = HB_BUF_INIT;
		size_t j;

		if (x->kind == ACT_MERGE) {
			count -= x->n - 1;
			rc = hb_repair_merge_step(&p->now, rs, HB_RESHAPE_MERGE, x->first, x->n,
			                          "no target boundary between them");
		} else if (x->kind == ACT_SPLIT) {
			size_t kl;
			const unsigned char *kk = hb_keys_at(t, x->key, &kl);
			size_t lo, hi;

			inside(s, t, x->first, &lo, &hi);
			count++;
			rc = hb_buf_addf(&why, "%zu target boundar%s inside", hi - lo,
			                 hi - lo == 1 ? "y" : "ies") ||
			     hb_buf_add(&why, "", 0);
			if (!rc)
				rc = hb_repair_split_step(&p->now, rs, HB_RESHAPE_SPLIT, x->first,
				                          kk, kl, why.data);
		} else if (x->kind == ACT_BLOCKED) {
			struct hb_region_view v;

			for (j = x->first; !rc && j < x->first + x->n; j++) {
				const struct hb_region *g = hb_regions_at(rs, j, &v);

				if (s->held[j])
					rc = hb_buf_addf(&cmd, "%smajor_compact '%s'",
					                 cmd.len ? "; " : "",
					                 g->encoded ? g->encoded : "");
			}
			rc = rc || hb_buf_adds(&cmd, "; catalogjanitor_run") ||
			     hb_buf_add(&cmd, "", 0);
			rc = rc ||
			     hb_buf_addf(
			         &why,
			         "regions %zu..%zu: a %s is waiting on a region merged or "
			         "split recently, which still references its parents' files "
			         "(HBase refuses to merge or split it: \"is not mergeable\", "
			         "\"NOT splittable\", a merge qualifier); a compaction drops "
			         "the references and the CatalogJanitor then clears its row "
			         "in hbase:meta: the command clears it, then rerun",
			         x->first, x->first + x->n - 1, x->n > 1 ? "merge" : "split") ||
			     hb_buf_add(&why, "", 0);
			rc = rc || hb_repair_report_step(&p->now, HB_RESHAPE_BLOCKED, x->first,
			                                 x->n, cmd.data, why.data);
		} else {
			rc = hb_buf_addf(
			         &why,
			         "regions %zu..%zu: merging them would put rows of two %s "
			         "buckets of the recorded design (%llu buckets of %d byte%s) "
			         "in one region; never merged",
			         x->first, x->first + x->n - 1, bk ? bk->kind : "",
			         bk ? bk->parts : 0ULL, bk ? bk->width : 0,
			         bk && bk->width == 1 ? "" : "s") ||
			     hb_buf_add(&why, "", 0);
			rc = rc || hb_repair_report_step(&p->now, HB_RESHAPE_BUCKET, x->first, x->n,
			                                 NULL, why.data);
		}
		p->after_now[p->now.n ? p->now.n - 1 : 0] = count;
		track(p, count);
		hb_buf_release(&why);
		hb_buf_release(&cmd);
	}
	return rc ? HB_ENOMEM : 0;
}

/* A later round's moves. */
static int emit_later(struct hb_reshape_plan *p, const struct sim *s, const struct round *r,
                      const struct hb_keys *t, size_t round, size_t count)
{
	size_t k;

	for (k = 0; k < r->n; k++) {
		const struct act *x = &r->v[k];
		struct hb_reshape_later *l;
		const unsigned char *a, *b, *c, *d;
		size_t al, bl, cl, dl;

		if (x->kind != ACT_MERGE && x->kind != ACT_SPLIT)
			continue;
		if (HB_VEC_GROW(p->later, p->cap, p->nlater + 1, 16))
			return HB_ENOMEM;
		l = &p->later[p->nlater++];
		memset(l, 0, sizeof(*l));
		l->round = round;
		l->action = x->kind == ACT_MERGE ? HB_REPAIR_MERGE : HB_REPAIR_SPLIT;
		l->n = x->n;
		sim_bounds(s, x->first, &a, &al, &b, &bl);
		sim_bounds(s, x->first + x->n - 1, &c, &cl, &d, &dl);
		if (hb_buf_add(&l->start, a, al) || hb_buf_add(&l->end, d, dl))
			return HB_ENOMEM;
		if (x->kind == ACT_SPLIT) {
			size_t kl;
			const unsigned char *kk = hb_keys_at(t, x->key, &kl);

			if (hb_buf_add(&l->split, kk, kl))
				return HB_ENOMEM;
			count++;
		} else {
			count -= x->n - 1;
		}
		l->regions_after = count;
		track(p, count);
	}
	return 0;
}

/* The live chain as the first simulated table. */
static int sim_of_live(struct sim *s, const struct hb_regions *rs, const struct hb_repair_ev *ev)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const unsigned char *a, *b;
		size_t al, bl;

		hb_regions_bounds(rs, i, &a, &al, &b, &bl);
		if (sim_push(s, i ? a : (const unsigned char *)"", i ? al : 0, (long)i,
		             ev ? ev[i].merged || ev[i].daughter : 0))
			return HB_ENOMEM;
	}
	return 0;
}

int hb_reshape_plan(struct hb_reshape_plan *out, const char *table, const struct hb_regions *rs,
                    const struct hb_repair_ev *ev, const struct hb_keys *target,
                    const struct hb_reshape_params *p)
{
	struct sim s, next;
	size_t round, count, upper;
	int rc;

	sim_init(&s);
	out->from = rs->n;
	out->to = target->n + 1;
	out->low = out->peak = rs->n;
	upper = p->old_n ? p->old_n : out->from;
	upper = (upper > out->to ? upper : out->to) + p->margin;
	out->upper = upper;
	rc = sim_of_live(&s, rs, ev);
	count = rs->n;
	for (round = 1; !rc; round++) {
		struct round r;
		size_t before = count;

		memset(&r, 0, sizeof(r));
		rc = plan_round(&r, &s, target, p->buckets, upper, &count);
		if (!rc && round == 1)
			rc = emit_now(out, table, rs, &s, &r, target, p->buckets, before);
		else if (!rc)
			rc = emit_later(out, &s, &r, target, round, before);
		if (!rc) {
			size_t k;

			for (k = 0; k < r.n; k++)
				out->stuck |= r.v[k].kind == ACT_BUCKET;
		}
		if (!rc && (r.moves || (round == 1 && r.n)))
			out->rounds = round;
		/* a round that moves nothing ends the plan: done, or stuck (a round 1 only
		 * blocked is foreseen as clear in round 2) */
		if (!rc && !r.moves && !(round == 1 && r.n && !out->stuck)) {
			free(r.v);
			break;
		}
		sim_init(&next);
		if (!rc)
			rc = sim_next(&next, &s, &r, target);
		if (!rc && round == 1) {
			size_t i;

			/* blocked regions of round 1 are foreseen clear from round 2 on */
			for (i = 0; i < next.n; i++)
				next.held[i] = 0;
		}
		sim_release(&s);
		s = next;
		free(r.v);
		if (round > 4 * (rs->n + target->n) + 8)
			HB_BUG("reshape plan does not converge");
	}
	sim_release(&s);
	return rc;
}
