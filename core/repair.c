/* hbtab repair's planner: merges of unreachable or empty regions, splits of hot ones. */
#include "repair.h"

#include "buckets.h"
#include "key.h"
#include "vec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hb_repair_plan_init(struct hb_repair_plan *p)
{
	memset(p, 0, sizeof(*p));
}

void hb_repair_plan_release(struct hb_repair_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		hb_buf_release(&p->v[i].split);
		free(p->v[i].command);
		free(p->v[i].message);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

int hb_repair_ruby_key(struct hb_buf *out, const void *key, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *k = key;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < n; i++) {
		unsigned char c = k[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    (c && strchr(" _.,:/=+-", c)))
			rc = hb_buf_addc(out, (char)c);
		else
			rc = hb_buf_addf(out, "\\x%c%c", hex[c >> 4], hex[c & 15]);
	}
	return rc;
}

void hb_split_restriction_read(struct hb_split_restriction *r, const char *type,
                               const char *prefix_length, const char *delimiter)
{
	memset(r, 0, sizeof(*r));
	if (!type)
		return;
	if (!strcmp(type, "KeyPrefix") && prefix_length) {
		/* Integer.parseInt: an optional sign, decimal digits, an int */
		const char *q = prefix_length + (*prefix_length == '+' || *prefix_length == '-');
		long long v = 0;

		if (!*q)
			return;
		for (; *q >= '0' && *q <= '9' && v <= 2147483647LL; q++)
			v = v * 10 + (*q - '0');
		if (*q || v > 2147483647LL || *prefix_length == '-' || v <= 0)
			return;
		r->kind = HB_SPLIT_RESTRICT_KEY_PREFIX;
		r->prefix_length = (size_t)v;
	} else if (!strcmp(type, "DelimitedKeyPrefix") && delimiter && *delimiter) {
		r->kind = HB_SPLIT_RESTRICT_DELIMITED;
		r->delimiter = delimiter;
	}
}

size_t hb_split_restricted_len(const struct hb_split_restriction *r, const void *key, size_t n)
{
	const unsigned char *k = key;
	size_t i, dl;

	if (r->kind == HB_SPLIT_RESTRICT_KEY_PREFIX)
		return n < r->prefix_length ? n : r->prefix_length;
	if (r->kind != HB_SPLIT_RESTRICT_DELIMITED)
		return n;
	/* the first occurrence of the delimiter; none: the key as it is */
	dl = strlen(r->delimiter);
	for (i = 0; i + dl <= n; i++)
		if (!memcmp(k + i, r->delimiter, dl))
			return i;
	return n;
}

/* "KeyPrefix, prefix_length N" or "DelimitedKeyPrefix, delimiter 'D'". */
static int restriction_text(struct hb_buf *b, const struct hb_split_restriction *r)
{
	if (r->kind == HB_SPLIT_RESTRICT_KEY_PREFIX)
		return hb_buf_addf(b, "KeyPrefix, prefix_length %zu", r->prefix_length);
	return hb_buf_adds(b, "DelimitedKeyPrefix, delimiter '") ||
	       hb_tsb_append_quoted(b, r->delimiter, strlen(r->delimiter)) || hb_buf_adds(b, "'");
}

/* Appends an entry; its strings are set by the caller. NULL when out of memory. */
static struct hb_repair_step *add(struct hb_repair_plan *p, const char *finding,
                                  enum hb_repair_action action, size_t first, size_t n)
{
	struct hb_repair_step *s;

	if (HB_VEC_GROW(p->v, p->cap, p->n + 1, 8))
		return NULL;
	s = &p->v[p->n++];
	memset(s, 0, sizeof(*s));
	s->finding = finding;
	s->action = action;
	s->first = first;
	s->n = n;
	if (action != HB_REPAIR_REPORT)
		p->steps++;
	return s;
}

/* A malloc'ed copy of b's text (b released). */
static char *take(struct hb_buf *b)
{
	char *s;

	if (hb_buf_add(b, "", 0))
		return NULL;
	s = hb_buf_detach(b, NULL);
	return s;
}

static int set_message(struct hb_repair_step *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int set_message(struct hb_repair_step *s, const char *fmt, ...)
{
	struct hb_buf b = HB_BUF_INIT;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = hb_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc || !(s->message = take(&b))) {
		hb_buf_release(&b);
		return HB_ENOMEM;
	}
	return 0;
}

/* "[start, end)" of region i in toStringBinary, quoted as messages quote keys. */
static int bounds_text(struct hb_buf *b, const struct hb_regions *rs, size_t i)
{
	const unsigned char *s, *e;
	size_t sl, el;

	hb_regions_bounds(rs, i, &s, &sl, &e, &el);
	return hb_buf_adds(b, "['") || hb_tsb_append_quoted(b, s, sl) || hb_buf_adds(b, "', '") ||
	       hb_tsb_append_quoted(b, e, el) || hb_buf_adds(b, "')");
}

int hb_repair_merge_step(struct hb_repair_plan *p, const struct hb_regions *rs, const char *finding,
                         size_t first, size_t n, const char *why)
{
	struct hb_repair_step *s = add(p, finding, HB_REPAIR_MERGE, first, n);
	struct hb_buf cmd = HB_BUF_INIT, msg = HB_BUF_INIT;
	size_t i;
	int rc;

	if (!s)
		return HB_ENOMEM;
	rc = hb_buf_adds(&cmd, "merge_region ");
	for (i = first; !rc && i < first + n; i++) {
		struct hb_region_view v;
		const struct hb_region *g = hb_regions_at(rs, i, &v);

		if (!g->encoded)
			HB_BUG("a region to merge has no encoded name");
		rc = hb_buf_addf(&cmd, "%s'%s'", i > first ? ", " : "", g->encoded);
	}
	rc = rc ||
	     hb_buf_addf(&msg, "%s: merge regions %zu..%zu into one ", why, first, first + n - 1);
	if (!rc) {
		const unsigned char *a, *b, *c, *d;
		size_t al, bl, cl, dl;

		hb_regions_bounds(rs, first, &a, &al, &b, &bl);
		hb_regions_bounds(rs, first + n - 1, &c, &cl, &d, &dl);
		rc = hb_buf_adds(&msg, "['") || hb_tsb_append_quoted(&msg, a, al) ||
		     hb_buf_adds(&msg, "', '") || hb_tsb_append_quoted(&msg, d, dl) ||
		     hb_buf_adds(&msg, "')");
	}
	if (rc || !(s->command = take(&cmd)) || !(s->message = take(&msg))) {
		hb_buf_release(&cmd);
		hb_buf_release(&msg);
		return HB_ENOMEM;
	}
	return 0;
}

int hb_repair_split_step(struct hb_repair_plan *p, const struct hb_regions *rs, const char *finding,
                         size_t i, const void *key, size_t kl, const char *why)
{
	struct hb_repair_step *s = add(p, finding, HB_REPAIR_SPLIT, i, 1);
	struct hb_region_view v;
	const struct hb_region *g = hb_regions_at(rs, i, &v);
	struct hb_buf cmd = HB_BUF_INIT, msg = HB_BUF_INIT;

	if (!s)
		return HB_ENOMEM;
	if (!g->encoded)
		HB_BUG("a region to split has no encoded name");
	/* by its encoded name: a region that changed since the plan is refused */
	if (hb_buf_addf(&cmd, "split '%s', \"", g->encoded) || hb_repair_ruby_key(&cmd, key, kl) ||
	    hb_buf_addc(&cmd, '"') || hb_buf_add(&s->split, key, kl) ||
	    hb_buf_addf(&msg, "%s: split region %zu ", why, i) || bounds_text(&msg, rs, i) ||
	    hb_buf_adds(&msg, " at '") || hb_tsb_append_quoted(&msg, key, kl) ||
	    hb_buf_adds(&msg, "'") || !(s->command = take(&cmd)) || !(s->message = take(&msg))) {
		hb_buf_release(&cmd);
		hb_buf_release(&msg);
		return HB_ENOMEM;
	}
	return 0;
}

int hb_repair_report_step(struct hb_repair_plan *p, const char *finding, size_t first, size_t n,
                          const char *command, const char *message)
{
	struct hb_repair_step *s = add(p, finding, HB_REPAIR_REPORT, first, n);

	if (!s || (command && !(s->command = strdup(command))) || !(s->message = strdup(message)))
		return HB_ENOMEM;
	return 0;
}

/* Whether HBase may refuse to merge or split region i for the references it holds: merged
 * recently, or a daughter of a split whose parent's row is still in hbase:meta. */
static int held(const struct hb_repair_ev *ev, size_t i)
{
	return ev[i].merged || ev[i].daughter;
}

/* Whether region i is an unreachable region proven empty. */
static int mergeable_unreachable(const struct hb_repair_ev *ev, size_t i)
{
	return !ev[i].reachable && ev[i].rows == 0 && !held(ev, i);
}

/* Whether region i can take a run of unreachable regions in. */
static int usable_neighbour(const struct hb_repair_ev *ev, size_t i)
{
	return ev[i].reachable && !held(ev, i);
}

/* Whether region i would take or join a merge but for its references. */
static int would_merge(const struct hb_repair_ev *ev, size_t i)
{
	return ev[i].reachable || ev[i].rows == 0;
}

static const char *encoded_or_empty(const struct hb_regions *rs, size_t i, struct hb_region_view *v)
{
	const struct hb_region *g = hb_regions_at(rs, i, v);

	return g->encoded ? g->encoded : "";
}

/* Reports regions [first, first + n) that wait on region blocker's references. */
static int blocked(struct hb_repair_plan *p, const struct hb_regions *rs,
                   const struct hb_repair_ev *ev, size_t first, size_t n, size_t blocker,
                   const char *what)
{
	struct hb_repair_step *s = add(p, HB_REPAIR_BLOCKED, HB_REPAIR_REPORT, first, n);
	struct hb_region_view v, w;
	struct hb_buf cmd = HB_BUF_INIT;
	size_t sib = ev[blocker].merged ? 0 : ev[blocker].sibling;

	/* a split's daughters: which of them holds references is not in hbase:meta, and the
	 * parent's row goes only when neither does, so both are compacted */
	if (!s || hb_buf_addf(&cmd, "major_compact '%s'", encoded_or_empty(rs, blocker, &v)) ||
	    (sib && sib - 1 < rs->n &&
	     hb_buf_addf(&cmd, "; major_compact '%s'", encoded_or_empty(rs, sib - 1, &w))) ||
	    !(s->command = take(&cmd))) {
		hb_buf_release(&cmd);
		return HB_ENOMEM;
	}
	if (ev[blocker].merged)
		return set_message(s,
		                   "%s: region %zu was merged recently and still references its "
		                   "parents (HBase refuses to merge or split it until a compaction "
		                   "drops them and the CatalogJanitor clears its row); rerun "
		                   "afterwards",
		                   what, blocker);
	return set_message(s,
	                   "%s: region %zu is a daughter of a split whose parent's row is still "
	                   "in hbase:meta, so it may still reference the parent's files (HBase "
	                   "refuses to merge or split a region holding references: \"is not "
	                   "mergeable\", \"NOT splittable\"); once a compaction of the "
	                   "daughters has dropped them, the CatalogJanitor removes the parent's "
	                   "row (its next run, or catalogjanitor_run in the hbase shell); rerun "
	                   "afterwards",
	                   what, blocker);
}

/* The unreachable regions no merge took: holding rows, not proven empty, or with no
 * reachable neighbour. */
static int report_unreachable(struct hb_repair_plan *p, const struct hb_regions *rs,
                              const struct hb_repair_ev *ev, const unsigned char *taken)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < rs->n; i++) {
		struct hb_repair_step *s;
		struct hb_buf b = HB_BUF_INIT;

		if (ev[i].reachable || taken[i])
			continue;
		if (held(ev, i) && ev[i].rows == 0) {
			rc = blocked(p, rs, ev, i, 1, i, "unreachable region proven empty");
			continue;
		}
		s = add(p,
		        ev[i].rows == 0   ? HB_REPAIR_NO_NEIGHBOUR
		        : ev[i].rows == 1 ? HB_REPAIR_NOT_EMPTY
		                          : HB_REPAIR_UNPROVEN,
		        HB_REPAIR_REPORT, i, 1);
		rc = !s || bounds_text(&b, rs, i);
		if (!rc)
			rc = ev[i].rows == 1
			         ? set_message(
			               s,
			               "region %zu %s is unreachable by the key space but holds "
			               "rows: not merged (its rows are outside the key space; "
			               "check the key space or move the rows)",
			               i, hb_buf_str(&b))
			     : ev[i].rows < 0
			         ? set_message(
			               s,
			               "region %zu %s is unreachable but was not proven empty: "
			               "not merged",
			               i, hb_buf_str(&b))
			         : set_message(
			               s,
			               "region %zu %s is unreachable and empty but has no "
			               "reachable neighbour to merge into (the regions beside "
			               "it hold rows outside the key space)",
			               i, hb_buf_str(&b));
		hb_buf_release(&b);
		rc = rc ? HB_ENOMEM : 0;
	}
	return rc;
}

/* Whether one region over regions [a, b] of rs would hold rows of two buckets. */
static int crosses(const struct hb_regions *rs, const struct hb_buckets *buckets, size_t a,
                   size_t b)
{
	const unsigned char *s, *e, *x, *y;
	size_t sl, el, xl, yl;

	if (!buckets || buckets->parts < 2)
		return 0;
	hb_regions_bounds(rs, a, &s, &sl, &x, &xl);
	hb_regions_bounds(rs, b, &y, &yl, &e, &el);
	return hb_buckets_crossed(buckets, s, sl, e, el);
}

/* Reports regions [first, first + n), which no merge may take without putting rows of two
 * buckets of the design in one region. */
static int bucket_report(struct hb_repair_plan *p, const struct hb_regions *rs, size_t first,
                         size_t n, const struct hb_buckets *b)
{
	struct hb_repair_step *s = add(p, HB_REPAIR_BUCKET, HB_REPAIR_REPORT, first, n);
	struct hb_buf t = HB_BUF_INIT;
	int rc = !s || bounds_text(&t, rs, first) || hb_buf_add(&t, "", 0);

	if (!rc)
		rc =
		    set_message(s,
		                "unreachable region%s %zu..%zu from %s, proven empty: a merge "
		                "into a neighbour would span two %s buckets of the recorded design "
		                "(%llu buckets): not merged",
		                n == 1 ? "" : "s", first, first + n - 1, t.data, b->kind, b->parts);
	hb_buf_release(&t);
	return rc ? HB_ENOMEM : 0;
}

/*
 * Unreachable regions. Each maximal run of proven-empty unreachable regions goes to the
 * reachable region before it, else to the one after it; a reachable region absorbing runs on
 * both sides does it in one merge. taken[i] marks regions put in a step.
 */
static int plan_unreachable(struct hb_repair_plan *p, const struct hb_regions *rs,
                            const struct hb_repair_ev *ev, unsigned char *taken,
                            const struct hb_buckets *buckets)
{
	size_t n = rs->n, i = 0;
	int rc = 0;

	/* left[r] / right[r]: the runs reachable region r absorbs, as lengths */
	size_t *left = calloc(n ? n : 1, sizeof(*left)), *right = calloc(n ? n : 1, sizeof(*right));

	if (!left || !right) {
		rc = HB_ENOMEM;
		goto done;
	}
	while (i < n) {
		size_t a = i, b;

		if (ev[i].reachable || !mergeable_unreachable(ev, i)) {
			i++;
			continue;
		}
		for (b = a; b < n && mergeable_unreachable(ev, b); b++)
			;
		/* the run is [a, b); a neighbour takes it only within one bucket */
		if (a > 0 && usable_neighbour(ev, a - 1) && !crosses(rs, buckets, a - 1, b - 1))
			right[a - 1] = b - a;
		else if (b < n && usable_neighbour(ev, b) && !crosses(rs, buckets, a, b))
			left[b] = b - a;
		else if ((a > 0 && usable_neighbour(ev, a - 1)) ||
		         (b < n && usable_neighbour(ev, b))) {
			rc = bucket_report(p, rs, a, b - a, buckets);
			memset(taken + a, 1, b - a);
			if (rc)
				goto done;
		} else if ((a > 0 && would_merge(ev, a - 1)) || (b < n && would_merge(ev, b))) {
			/* the neighbour would take the run, or join it, but for its references */
			rc = blocked(p, rs, ev, a, b - a,
			             a > 0 && would_merge(ev, a - 1) ? a - 1 : b,
			             "unreachable regions proven empty");
			memset(taken + a, 1, b - a);
			if (rc)
				goto done;
		}
		i = b;
	}
	for (i = 0; !rc && i < n; i++) {
		struct hb_buf why = HB_BUF_INIT;
		size_t first, cnt;

		if (!ev[i].reachable || (!left[i] && !right[i]))
			continue;
		first = i - left[i];
		cnt = left[i] + 1 + right[i];
		rc = hb_buf_addf(&why,
		                 "%zu unreachable region%s proven empty next to reachable "
		                 "region %zu ",
		                 cnt - 1, HB_PLURAL(cnt - 1), i) ||
		     bounds_text(&why, rs, i);
		if (!rc)
			rc = hb_repair_merge_step(p, rs, HB_REPAIR_UNREACHABLE, first, cnt,
			                          hb_buf_str(&why));
		hb_buf_release(&why);
		if (!rc)
			memset(taken + first, 1, cnt);
	}
	if (!rc)
		rc = report_unreachable(p, rs, ev, taken);
done:
	free(left);
	free(right);
	return rc;
}

/* Runs of two or more regions proven empty, not taken, merged one by one into a region each,
 * while the live region count stays at or above min_regions; no run crosses a bucket. */
static int plan_empty(struct hb_repair_plan *p, const struct hb_regions *rs,
                      const struct hb_repair_ev *ev, unsigned char *taken, size_t *live,
                      size_t min_regions, const struct hb_buckets *buckets)
{
	size_t n = rs->n, i = 0;
	int rc = 0;

	while (!rc && i < n) {
		size_t a = i, b, len;

		if (taken[i] || ev[i].load_empty != 1 || ev[i].rows != 0 || held(ev, i)) {
			i++;
			continue;
		}
		/* a run ends where merging on would hold rows of two buckets of the design */
		for (b = a; b < n && !taken[b] && ev[b].load_empty == 1 && ev[b].rows == 0 &&
		            !held(ev, b) && !crosses(rs, buckets, a, b);
		     b++)
			;
		i = b > a ? b : a + 1;
		len = b - a;
		if (*live < min_regions + 1)
			break;
		if (len - 1 > *live - min_regions)
			len = *live - min_regions + 1;
		if (len < 2)
			continue;
		rc = hb_repair_merge_step(
		    p, rs, HB_REPAIR_EMPTY, a, len,
		    "regions with no store file, an empty memstore and no row");
		if (!rc) {
			memset(taken + a, 1, len);
			*live -= len - 1;
		}
	}
	return rc;
}

/* Whether key lies strictly inside region i. */
static int strictly_inside(const struct hb_regions *rs, size_t i, const unsigned char *key,
                           size_t kl)
{
	const unsigned char *s, *e;
	size_t sl, el;

	hb_regions_bounds(rs, i, &s, &sl, &e, &el);
	return key && hb_key_cmp(key, kl, s, sl) > 0 && (!el || hb_key_cmp(key, kl, e, el) < 0);
}

/* Reports hot region i with no key to split it at (b: its bounds' text). */
static int no_split_key(struct hb_repair_plan *p, const struct hb_repair_params *pp,
                        const struct hb_repair_ev *ev, size_t i, size_t rl, const char *b)
{
	struct hb_repair_step *st = add(p, HB_REPAIR_HOT_NO_KEY, HB_REPAIR_REPORT, i, 1);
	struct hb_buf k = HB_BUF_INIT, r = HB_BUF_INIT, c = HB_BUF_INIT;
	int rc;

	if (!st)
		return HB_ENOMEM;
	if (!ev[i].split || rl == ev[i].split_len)
		return set_message(st,
		                   "hot region %zu %s: no sampled key lies strictly inside it (too "
		                   "few rows to sample, or all rows at its start): not split",
		                   i, b);
	/* HBase would cut the key to a prefix that is the region's start (or before it) */
	rc = hb_tsb_append_quoted(&k, ev[i].split, ev[i].split_len) || hb_buf_add(&k, "", 0) ||
	     hb_tsb_append_quoted(&c, ev[i].split, rl) || hb_buf_add(&c, "", 0) ||
	     restriction_text(&r, &pp->restriction) || hb_buf_add(&r, "", 0) ||
	     set_message(st,
	                 "hot region %zu %s: the table's split restriction (%s) cuts the sampled "
	                 "key '%s' to '%s', which is not strictly inside the region (HBase "
	                 "refuses a split row equal to the region's start key): not split",
	                 i, b, r.data, k.data, c.data);
	hb_buf_release(&k);
	hb_buf_release(&c);
	hb_buf_release(&r);
	return rc ? HB_ENOMEM : 0;
}

/* Hot regions split at the median of their key sample (cut as the table's split restriction
 * cuts it), strictly inside the region. */
static int plan_hot(struct hb_repair_plan *p, const struct hb_repair_params *pp,
                    const struct hb_regions *rs, const struct hb_repair_ev *ev,
                    unsigned char *taken)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < rs->n; i++) {
		struct hb_repair_step *st;
		struct hb_buf cmd = HB_BUF_INIT, b = HB_BUF_INIT;
		size_t rl;

		if (!ev[i].hot || taken[i])
			continue;
		if (held(ev, i)) {
			if (blocked(p, rs, ev, i, 1, i, "hot region"))
				return HB_ENOMEM;
			continue;
		}
		rl = ev[i].split
		         ? hb_split_restricted_len(&pp->restriction, ev[i].split, ev[i].split_len)
		         : 0;
		if (bounds_text(&b, rs, i) || hb_buf_add(&b, "", 0)) {
			hb_buf_release(&b);
			return HB_ENOMEM;
		}
		if (!strictly_inside(rs, i, ev[i].split, rl)) {
			rc = no_split_key(p, pp, ev, i, rl, b.data);
			hb_buf_release(&b);
			continue;
		}
		st = add(p, HB_REPAIR_HOT, HB_REPAIR_SPLIT, i, 1);
		{
			struct hb_region_view v;
			const struct hb_region *g = hb_regions_at(rs, i, &v);

			if (!g->encoded)
				HB_BUG("a region to split has no encoded name");
			/* the region by its encoded name: a region that changed since the plan
			 * is refused (the 2.x shells: "Unknown table ENCODED!"), never another one
			 * split */
			rc = !st || hb_buf_addf(&cmd, "split '%s', \"", g->encoded) ||
			     hb_repair_ruby_key(&cmd, ev[i].split, rl) || hb_buf_addc(&cmd, '"') ||
			     hb_buf_add(&st->split, ev[i].split, rl) || !(st->command = take(&cmd));
		}
		if (!rc) {
			struct hb_buf k = HB_BUF_INIT, c = HB_BUF_INIT, r = HB_BUF_INIT;

			rc = hb_tsb_append_quoted(&k, ev[i].split, ev[i].split_len) ||
			     hb_buf_add(&k, "", 0);
			if (!rc && rl < ev[i].split_len)
				rc = hb_tsb_append_quoted(&c, ev[i].split, rl) ||
				     hb_buf_add(&c, "", 0) ||
				     restriction_text(&r, &pp->restriction) ||
				     hb_buf_add(&r, "", 0) ||
				     set_message(
				         st,
				         "hot region %zu %s: split at '%s', the median of a key "
				         "sample drawn from it, '%s', cut as the table's split "
				         "restriction (%s) cuts it",
				         i, b.data, c.data, k.data, r.data);
			else if (!rc)
				rc = set_message(
				    st,
				    "hot region %zu %s: split at the median of a key sample "
				    "drawn from it, '%s'",
				    i, b.data, k.data);
			hb_buf_release(&k);
			hb_buf_release(&c);
			hb_buf_release(&r);
		}
		if (!rc)
			taken[i] = 1;
		hb_buf_release(&cmd);
		hb_buf_release(&b);
		rc = rc ? HB_ENOMEM : 0;
	}
	return rc;
}

/* Chain findings hbtab reports with the HBCK2 command an operator would run. */
static int plan_chain(struct hb_repair_plan *p, const struct hb_findings *f)
{
	size_t i;

	for (i = 0; f && i < f->n; i++) {
		const char *k = f->v[i].kind, *cmd = NULL;
		struct hb_repair_step *s;

		if (!strcmp(k, HB_FIND_HOLE) || !strcmp(k, HB_FIND_OVERLAP) ||
		    !strcmp(k, HB_FIND_DUPLICATE) || !strcmp(k, HB_FIND_BAD_FIRST_START) ||
		    !strcmp(k, HB_FIND_BAD_LAST_END))
			/* HBCK2 fixMeta (masters 2.2.1+): the master's own CatalogJanitor repair
			 * of holes and overlaps in hbase:meta. It works from the janitor's last
			 * report, which leaves disabled tables out: a fresh run first, with the
			 * table enabled */
			cmd = "echo catalogjanitor_run | hbase shell -n && "
			      "hbase hbck -j hbase-hbck2.jar fixMeta";
		else
			continue;
		s = add(p, k, HB_REPAIR_REPORT, f->v[i].region < 0 ? 0 : (size_t)f->v[i].region, 0);
		if (!s || !(s->command = strdup(cmd)) ||
		    set_message(s,
		                "%s (hbtab does not rewrite hbase:meta; fixMeta repairs what the "
		                "CatalogJanitor last reported, so it runs first, with the table "
		                "enabled)",
		                f->v[i].message))
			return HB_ENOMEM;
	}
	return 0;
}

/* Keeps the first max MERGE/SPLIT steps (reports all stay), counting the others. */
static void cap_steps(struct hb_repair_plan *p, size_t max)
{
	size_t i, kept = 0, out = 0;

	for (i = 0; i < p->n; i++) {
		struct hb_repair_step *s = &p->v[i];

		if (s->action != HB_REPAIR_REPORT && kept++ >= max) {
			hb_buf_release(&s->split);
			free(s->command);
			free(s->message);
			p->deferred++;
			p->steps--;
			continue;
		}
		p->v[out++] = *s;
	}
	p->n = out;
}

int hb_repair_plan(struct hb_repair_plan *out, const char *table, const struct hb_regions *rs,
                   const struct hb_repair_ev *ev, const struct hb_findings *audit,
                   const struct hb_repair_params *p)
{
	unsigned char *taken = calloc(rs->n ? rs->n : 1, 1);
	size_t live = rs->n;
	int rc;

	(void)table;
	if (!taken)
		return HB_ENOMEM;
	rc = plan_chain(out, audit);
	if (!rc)
		rc = plan_unreachable(out, rs, ev, taken, p->buckets);
	if (!rc) {
		size_t i;

		for (i = 0; i < out->n; i++)
			if (out->v[i].action == HB_REPAIR_MERGE)
				live -= out->v[i].n - 1;
	}
	if (!rc && p->split_hot)
		rc = plan_hot(out, p, rs, ev, taken);
	if (!rc && p->empty)
		rc = plan_empty(out, rs, ev, taken, &live, p->min_regions ? p->min_regions : 1,
		                p->buckets);
	if (!rc)
		cap_steps(out, p->max_steps);
	free(taken);
	return rc;
}
