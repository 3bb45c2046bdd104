/* Audit computations over region lists: findings, reachability shares, chain, drift, hot-spots. */
#include "audit.h"
#include "hotkeys.h"
#include "regioninfo.h"
#include "splitspec.h"
#include "vec.h"

#include <gmp.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define KEY_SHOW_MAX       48 /* bytes of a key quoted in a message before "..." */
#define DRIFT_BOUNDARY_MAX 10

void hb_findings_init(struct hb_findings *f)
{
	f->v = NULL;
	f->n = f->cap = 0;
}

void hb_findings_release(struct hb_findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i].message);
	free(f->v);
	hb_findings_init(f);
}

int hb_findings_add(struct hb_findings *f, const char *kind, long region, const char *fmt, ...)
{
	struct hb_buf b = HB_BUF_INIT;
	va_list ap;
	int rc;

	if (HB_VEC_GROW(f->v, f->cap, f->n + 1, 16))
		return HB_ENOMEM;
	va_start(ap, fmt);
	rc = hb_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc) {
		hb_buf_release(&b);
		return HB_ENOMEM;
	}
	f->v[f->n].kind = kind;
	f->v[f->n].region = region;
	f->v[f->n].message = hb_buf_detach(&b, NULL);
	f->n++;
	return 0;
}

int hb_findings_add_text(struct hb_findings *f, const char *kind, long region, const char *msg,
                         size_t len)
{
	char *m;

	if (HB_VEC_GROW(f->v, f->cap, f->n + 1, 16))
		return HB_ENOMEM;
	m = malloc(len + 1);
	if (!m)
		return HB_ENOMEM;
	memcpy(m, msg, len);
	m[len] = 0;
	f->v[f->n].kind = kind;
	f->v[f->n].region = region;
	f->v[f->n].message = m;
	f->n++;
	return 0;
}

static int finding_cmp(const struct hb_finding *a, const struct hb_finding *b)
{
	if ((a->region < 0) != (b->region < 0))
		return a->region < 0 ? 1 : -1;
	return a->region < b->region ? -1 : a->region > b->region;
}

void hb_findings_sort(struct hb_findings *f)
{
	size_t i, j;

	/* Insertion sort keeps equal keys in order; merge via a temporary when large. */
	if (f->n > 64) {
		struct hb_finding *tmp = malloc(f->n * sizeof(*tmp));
		size_t w;

		if (tmp) {
			for (w = 1; w < f->n; w *= 2) {
				size_t lo;

				for (lo = 0; lo < f->n; lo += 2 * w) {
					size_t mid = lo + w < f->n ? lo + w : f->n;
					size_t hi = lo + 2 * w < f->n ? lo + 2 * w : f->n;
					size_t a = lo, b = mid, o = lo;

					while (a < mid && b < hi)
						tmp[o++] = finding_cmp(&f->v[b], &f->v[a]) < 0
						               ? f->v[b++]
						               : f->v[a++];
					while (a < mid)
						tmp[o++] = f->v[a++];
					while (b < hi)
						tmp[o++] = f->v[b++];
				}
				memcpy(f->v, tmp, f->n * sizeof(*tmp));
			}
			free(tmp);
			return;
		}
	}
	for (i = 1; i < f->n; i++) {
		struct hb_finding x = f->v[i];

		for (j = i; j > 0 && finding_cmp(&x, &f->v[j - 1]) < 0; j--)
			f->v[j] = f->v[j - 1];
		f->v[j] = x;
	}
}

int hb_region_is_live(const struct hb_region *r)
{
	return !r->offline && !r->split && r->replica_id == 0;
}

/* Appends 'key' in toStringBinary form, shortened for messages (escaped: with a backslash
 * before each '"' and '\\', see hb_reach_stream). */
static int add_key_as(struct hb_buf *b, const unsigned char *k, size_t n, int escaped)
{
	int rc = hb_buf_addc(b, '\'');

	if (!rc)
		rc = escaped ? hb_tsb_append_escaped(b, k, n > KEY_SHOW_MAX ? KEY_SHOW_MAX : n, 1)
		             : hb_tsb_append_quoted(b, k, n > KEY_SHOW_MAX ? KEY_SHOW_MAX : n);
	if (!rc && n > KEY_SHOW_MAX)
		rc = hb_buf_adds(b, "...");
	if (!rc)
		rc = hb_buf_addc(b, '\'');
	return rc;
}

static int add_key(struct hb_buf *b, const unsigned char *k, size_t n)
{
	return add_key_as(b, k, n, 0);
}

/* Appends key k as add_key would (escaped with s->escape_messages), from s's memo when it
 * was quoted lately. */
static int quote_key(struct hb_reach_stream *s, struct hb_buf *b, const void *k, size_t n)
{
	unsigned j, lru = 0;

	for (j = 0; j < HB_REACH_MEMO; j++) {
		if (s->quoted[j].used && s->quoted[j].key.len == n &&
		    (!n || !memcmp(s->quoted[j].key.data, k, n)))
			break;
		if (s->quoted[j].used < s->quoted[lru].used)
			lru = j;
	}
	if (j == HB_REACH_MEMO) {
		/* the least recently used goes: a smallest key shared by most regions stays */
		j = lru;
		s->quoted[j].used = 0;
		hb_buf_reset(&s->quoted[j].key);
		hb_buf_reset(&s->quoted[j].text);
		if (hb_buf_add(&s->quoted[j].key, k, n) ||
		    add_key_as(&s->quoted[j].text, k, n, s->escape_messages))
			return HB_ENOMEM;
	}
	s->quoted[j].used = ++s->quoted_clock;
	return hb_buf_add(b, s->quoted[j].text.data, s->quoted[j].text.len);
}

/* Appends "region I ['start', 'end')", the keys through memo when given. */
static int add_region_via(struct hb_buf *b, size_t i, const struct hb_region *r,
                          struct hb_reach_stream *memo)
{
	int rc = hb_buf_adds(b, "region ");

	if (!rc)
		rc = hb_buf_add_uint(b, i);
	if (!rc)
		rc = hb_buf_adds(b, " [");
	if (!rc)
		rc = memo ? quote_key(memo, b, r->start, r->start_len)
		          : add_key(b, r->start, r->start_len);
	if (!rc)
		rc = hb_buf_adds(b, ", ");
	if (!rc)
		rc = memo ? quote_key(memo, b, r->end, r->end_len) : add_key(b, r->end, r->end_len);
	if (!rc)
		rc = hb_buf_addc(b, ')');
	return rc;
}

static int add_region(struct hb_buf *b, size_t i, const struct hb_region *r)
{
	return add_region_via(b, i, r, NULL);
}

static int add_msg(struct hb_findings *f, const char *kind, long region, struct hb_buf *b)
{
	int rc = hb_findings_add_text(f, kind, region, hb_buf_str(b), b->len);

	hb_buf_reset(b);
	return rc;
}

int hb_audit_regions_from_splits(struct hb_regions *out, const struct hb_keys *splits)
{
	size_t i;

	for (i = 0; i <= splits->n; i++) {
		struct hb_region r;
		size_t sl = 0, el = 0;

		memset(&r, 0, sizeof(r));
		r.start = i ? (unsigned char *)hb_keys_at(splits, i - 1, &sl) : NULL;
		r.end = i < splits->n ? (unsigned char *)hb_keys_at(splits, i, &el) : NULL;
		r.start_len = sl;
		r.end_len = el;
		if (hb_regions_push(out, &r))
			return HB_ENOMEM;
	}
	return 0;
}

void hb_audit_init(struct hb_audit *a)
{
	memset(a, 0, sizeof(*a));
	hb_findings_init(&a->findings);
}

void hb_audit_release(struct hb_audit *a)
{
	size_t i;

	for (i = 0; i < a->ncounts; i++)
		free(a->counts[i].keys);
	free(a->counts);
	free(a->r);
	free(a->total_keys);
	hb_findings_release(&a->findings);
	hb_audit_init(a);
}

int hb_reach_stream_begin(struct hb_reach_stream *s, struct hb_keyspace *ks, struct hb_error *err)
{
	int rc, j;

	memset(s, 0, sizeof(*s));
	s->ks = ks;
	mpz_init(s->total);
	mpz_init(s->keys);
	for (j = 0; j < HB_REACH_MEMO; j++)
		mpz_init(s->memo[j].keys);
	s->inited = 1;
	rc = hb_keyspace_total(ks, s->total, err);
	if (!rc) {
		s->total_keys = mpz_get_str(NULL, 10, s->total);
		if (!s->total_keys)
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	return rc;
}

void hb_reach_stream_release(struct hb_reach_stream *s)
{
	int j;

	if (s->inited) {
		mpz_clear(s->total);
		mpz_clear(s->keys);
		for (j = 0; j < HB_REACH_MEMO; j++) {
			mpz_clear(s->memo[j].keys);
			hb_buf_release(&s->memo[j].num);
			hb_buf_release(&s->quoted[j].key);
			hb_buf_release(&s->quoted[j].text);
		}
	}
	free(s->total_keys);
	hb_buf_release(&s->first);
	hb_buf_release(&s->msg);
	memset(s, 0, sizeof(*s));
}

/* Sets out->keys and out->share from s->keys, converting only counts not seen lately. */
static int reach_memo(struct hb_reach_stream *s, struct hb_audit_region *out)
{
	unsigned j;

	for (j = 0; j < HB_REACH_MEMO; j++)
		if (s->memo[j].used && !mpz_cmp(s->memo[j].keys, s->keys))
			break;
	if (j == HB_REACH_MEMO) {
		struct hb_buf *num;

		j = s->memo_next;
		s->memo_next = (s->memo_next + 1) % HB_REACH_MEMO;
		num = &s->memo[j].num;
		s->memo[j].used = 0;
		hb_buf_reset(num);
		if (hb_buf_grow(num, mpz_sizeinbase(s->keys, 10) + 2))
			return HB_ENOMEM;
		mpz_get_str(num->data, 10, s->keys);
		num->len = strlen(num->data);
		mpz_set(s->memo[j].keys, s->keys);
		s->memo[j].share = hb_mpz_ratio(s->keys, s->total);
		s->memo[j].used = 1;
	}
	out->keys = s->memo[j].num.data;
	out->share = s->memo[j].share;
	return 0;
}

int hb_reach_stream_next(struct hb_reach_stream *s, size_t i, const struct hb_region *r,
                         struct hb_audit_region *out, struct hb_findings *f, struct hb_error *err)
{
	int reach, rc;

	hb_buf_reset(&s->first);
	hb_buf_reset(&s->msg);
	rc = hb_keyspace_region(s->ks, &reach, s->decide_only ? NULL : s->keys, &s->first, r->start,
	                        r->start_len, r->end, r->end_len, err);
	if (rc)
		return rc;
	out->reachable = reach;
	out->keys = NULL;
	out->share = 0;
	if (!s->decide_only && reach_memo(s, out))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (reach || !hb_region_is_live(r))
		return 0;
	s->unreachable++;
	if (!f && !s->keep_message)
		return 0;
	rc = add_region_via(&s->msg, i, r, s);
	if (!rc && s->first.len) {
		rc = hb_buf_adds(&s->msg, ": no key of the key space falls in it; the smallest "
		                          "key at or after its start is ");
		if (!rc)
			rc = quote_key(s, &s->msg, s->first.data, s->first.len);
		if (!rc)
			rc = hb_buf_adds(&s->msg, ", not below its end");
	} else if (!rc) {
		rc = hb_buf_adds(&s->msg, ": no key of the key space falls in it; every key "
		                          "sorts before its start");
	}
	if (!rc && f)
		rc = add_msg(f, HB_FIND_UNREACHABLE, (long)i, &s->msg);
	return rc ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

void hb_audit_at(const struct hb_audit *a, size_t i, struct hb_audit_region *out)
{
	uint32_t v = a->r[i];

	memset(out, 0, sizeof(*out));
	out->reachable = -1;
	if (!(v & ~HB_AUDIT_REACHABLE))
		return;
	*out = a->counts[(v & ~HB_AUDIT_REACHABLE) - 1];
	out->reachable = !!(v & HB_AUDIT_REACHABLE);
}

/* Region i's result as decided by the reach stream (keys owned by the stream): its count is
 * looked up among the last few distinct ones and kept when new. */
#define COUNTS_SEARCHED 8
static int keep_result(struct hb_audit *a, size_t i, const struct hb_audit_region *ar)
{
	size_t k;

	for (k = a->ncounts; k > 0 && k + COUNTS_SEARCHED > a->ncounts; k--)
		if (!strcmp(a->counts[k - 1].keys, ar->keys))
			break;
	if (!k) {
		if (a->ncounts >= (size_t)(HB_AUDIT_REACHABLE - 1) ||
		    HB_VEC_GROW(a->counts, a->counts_cap, a->ncounts + 1, 16))
			return HB_ENOMEM;
		a->counts[a->ncounts] = *ar;
		a->counts[a->ncounts].keys = strdup(ar->keys);
		if (!a->counts[a->ncounts].keys)
			return HB_ENOMEM;
		k = ++a->ncounts;
	}
	a->r[i] = (uint32_t)k | (ar->reachable ? HB_AUDIT_REACHABLE : 0);
	return 0;
}

int hb_audit_reach(struct hb_audit *a, struct hb_keyspace *ks, const struct hb_regions *rs,
                   struct hb_error *err)
{
	struct hb_reach_stream s;
	size_t i;
	int rc = 0;

	a->r = calloc(rs->n ? rs->n : 1, sizeof(*a->r));
	if (!a->r)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	a->n = rs->n;
	if (!ks)
		return 0;
	rc = hb_reach_stream_begin(&s, ks, err);
	if (!rc) {
		a->total_keys = s.total_keys;
		s.total_keys = NULL;
	}
	for (i = 0; !rc && i < rs->n; i++) {
		struct hb_region_view v;
		struct hb_audit_region ar;

		rc = hb_reach_stream_next(&s, i, hb_regions_at_unnamed(rs, i, &v), &ar,
		                          &a->findings, err);
		if (rc)
			break;
		if (keep_result(a, i, &ar))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_reach_stream_release(&s);
	return rc;
}

static int key_cmp_end(const unsigned char *a, size_t alen, const unsigned char *b, size_t blen)
{
	/* Compares two end keys where empty means +infinity. */
	if (!alen || !blen)
		return (alen == 0) - (blen == 0);
	return hb_key_cmp(a, alen, b, blen);
}

void hb_chain_stream_init(struct hb_chain_stream *s, int from_meta)
{
	memset(s, 0, sizeof(*s));
	s->from_meta = from_meta;
	s->prev = s->cover = -1;
}

void hb_chain_stream_release(struct hb_chain_stream *s)
{
	hb_buf_release(&s->ps);
	hb_buf_release(&s->pe);
	hb_buf_release(&s->cs);
	hb_buf_release(&s->ce);
	hb_buf_release(&s->m);
}

/* Keeps a copy of r's bounds (and id) as the previous or covering region. */
static int keep(struct hb_buf *start, struct hb_buf *end, const struct hb_region *r)
{
	hb_buf_reset(start);
	hb_buf_reset(end);
	return hb_buf_add(start, r->start, r->start_len) || hb_buf_add(end, r->end, r->end_len);
}

#define KEPT(b) ((const unsigned char *)hb_buf_str(b)), (b)->len

/* Appends to the message unless a step failed (rc). */
#define CAT(expr)                                                                                  \
	do {                                                                                       \
		if (!rc)                                                                           \
			rc = (expr);                                                               \
	} while (0)
/* Adds the message as a finding; leaves for done: when a step failed. */
#define ADD(kind, idx)                                                                             \
	do {                                                                                       \
		if (rc || (rc = add_msg(out, (kind), (idx), m)))                                   \
			goto done;                                                                 \
	} while (0)

/* A region the chain leaves out: a split parent or an offline region (each a finding), or a
 * replica. 1 when r is one of those, 0 when it is part of the chain, HB_ENOMEM. */
static int chain_skip(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                      const struct hb_region *r)
{
	struct hb_buf *m = &s->m;
	int rc = 0;

	if (r->split) {
		CAT(add_region(m, i, r));
		CAT(hb_buf_adds(m, " is a split parent left in hbase:meta (offline, split); "
		                   "its daughters serve its keys until the catalog janitor "
		                   "removes it"));
		ADD(HB_FIND_SPLIT_PARENT, (long)i);
		return 1;
	}
	if (r->offline) {
		CAT(add_region(m, i, r));
		CAT(hb_buf_adds(m, " is offline and serves no keys"));
		ADD(HB_FIND_OFFLINE, (long)i);
		return 1;
	}
	return r->replica_id > 0;
done:
	return HB_ENOMEM;
}

/* Defects of a live region by itself: no server (in hbase:meta), an end at or before its
 * start. HB_ENOMEM. */
static int chain_self(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                      const struct hb_region *r)
{
	struct hb_buf *m = &s->m;
	int rc = 0;

	if (s->from_meta && (!r->server || !*r->server)) {
		CAT(add_region(m, i, r));
		CAT(hb_buf_adds(m, " has no server (not assigned)"));
		ADD(HB_FIND_NO_SERVER, (long)i);
	}
	if (r->end_len && hb_key_cmp(r->end, r->end_len, r->start, r->start_len) <= 0) {
		CAT(add_region(m, i, r));
		CAT(hb_buf_adds(m, " ends at or before its start and covers no keys"));
		ADD(HB_FIND_HOLE, (long)i);
	}
done:
	return rc ? HB_ENOMEM : 0;
}

/* The first live region, which must start empty; it is the previous and covering one. */
static int chain_first(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                       const struct hb_region *r)
{
	struct hb_buf *m = &s->m;
	int rc = 0;

	if (r->start_len) {
		CAT(add_region(m, i, r));
		CAT(hb_buf_adds(m, " is the first region but its start key is not "
		                   "empty; keys before "));
		CAT(add_key(m, r->start, r->start_len));
		CAT(hb_buf_adds(m, " have no region"));
		ADD(HB_FIND_BAD_FIRST_START, (long)i);
	}
	s->prev = s->cover = (long)i;
	s->pid = r->id;
	if (keep(&s->ps, &s->pe, r) || keep(&s->cs, &s->ce, r))
		rc = HB_ENOMEM;
done:
	return rc ? HB_ENOMEM : 0;
}

/* A region with the previous one's bounds, which it replaces as the previous one: a
 * duplicate unless REST lists a replica so. 1 when r had those bounds, else 0; HB_ENOMEM. */
static int chain_duplicate(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                           const struct hb_region *r)
{
	struct hb_buf *m = &s->m;
	long dup_of = s->prev;
	uint64_t pid = s->pid;
	int rc = 0;

	if (hb_key_cmp(KEPT(&s->ps), r->start, r->start_len) ||
	    hb_key_cmp(KEPT(&s->pe), r->end, r->end_len))
		return 0;
	s->prev = (long)i;
	s->pid = r->id;
	if (!s->from_meta && pid && pid == r->id)
		return 1; /* REST lists each replica with the same bounds */
	CAT(add_region(m, i, r));
	CAT(hb_buf_addf(m, " duplicates region %ld (same start and end key)", dup_of));
	ADD(HB_FIND_DUPLICATE, (long)i);
	return 1;
done:
	return HB_ENOMEM;
}

/* r against the region that reaches furthest so far: an overlap, or a hole before r. */
static int chain_gap(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                     const struct hb_region *r)
{
	struct hb_buf *m = &s->m;
	int d, rc = 0;

	if (!s->ce.len) {
		CAT(add_region(m, i, r));
		CAT(hb_buf_addf(m, " overlaps region %ld, which runs to the end of the key space",
		                s->cover));
		ADD(HB_FIND_OVERLAP, (long)i);
		return 0;
	}
	d = hb_key_cmp(r->start, r->start_len, KEPT(&s->ce));
	if (d < 0) {
		CAT(add_region(m, i, r));
		CAT(hb_buf_addf(m, " overlaps region %ld, which ends at ", s->cover));
		CAT(add_key(m, KEPT(&s->ce)));
		ADD(HB_FIND_OVERLAP, (long)i);
	} else if (d > 0) {
		CAT(hb_buf_addf(m, "hole before region %zu: keys in [", i));
		CAT(add_key(m, KEPT(&s->ce)));
		CAT(hb_buf_adds(m, ", "));
		CAT(add_key(m, r->start, r->start_len));
		CAT(hb_buf_addf(m, ") have no region (region %ld ends there)", s->cover));
		ADD(HB_FIND_HOLE, (long)i);
	}
done:
	return rc ? HB_ENOMEM : 0;
}

int hb_chain_stream_next(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                         const struct hb_region *r)
{
	int rc;

	hb_buf_reset(&s->m);
	rc = chain_skip(s, out, i, r);
	if (!rc)
		rc = chain_self(s, out, i, r);
	if (rc)
		return rc < 0 ? HB_ENOMEM : 0;
	if (s->prev < 0)
		return chain_first(s, out, i, r);
	rc = chain_duplicate(s, out, i, r);
	if (rc)
		return rc < 0 ? HB_ENOMEM : 0;
	if (chain_gap(s, out, i, r))
		return HB_ENOMEM;
	if (key_cmp_end(r->end, r->end_len, KEPT(&s->ce)) > 0) {
		s->cover = (long)i;
		if (keep(&s->cs, &s->ce, r))
			return HB_ENOMEM;
	}
	s->prev = (long)i;
	s->pid = r->id;
	return keep(&s->ps, &s->pe, r) ? HB_ENOMEM : 0;
}

int hb_chain_stream_end(struct hb_chain_stream *s, struct hb_findings *out)
{
	struct hb_buf *m = &s->m;
	int rc = 0;

	hb_buf_reset(m);
	if (s->prev < 0) {
		CAT(hb_buf_adds(m, "no live region: every key of the table is without a region"));
		ADD(HB_FIND_HOLE, -1);
	} else if (s->ce.len) {
		struct hb_region c;

		memset(&c, 0, sizeof(c));
		c.start = (unsigned char *)hb_buf_str(&s->cs);
		c.start_len = s->cs.len;
		c.end = (unsigned char *)hb_buf_str(&s->ce);
		c.end_len = s->ce.len;
		CAT(add_region(m, (size_t)s->cover, &c));
		CAT(hb_buf_adds(m, " is the last region but its end key is not empty; keys at "
		                   "or after "));
		CAT(add_key(m, c.end, c.end_len));
		CAT(hb_buf_adds(m, " have no region"));
		ADD(HB_FIND_BAD_LAST_END, s->cover);
	}
#undef ADD
#undef CAT
done:
	return rc ? HB_ENOMEM : 0;
}

int hb_audit_chain(struct hb_findings *out, const struct hb_regions *rs, int from_meta)
{
	struct hb_chain_stream s;
	size_t i;
	int rc = 0;

	hb_chain_stream_init(&s, from_meta);
	for (i = 0; !rc && i < rs->n; i++) {
		struct hb_region_view v;

		rc = hb_chain_stream_next(&s, out, i, hb_regions_at_unnamed(rs, i, &v));
	}
	if (!rc)
		rc = hb_chain_stream_end(&s, out);
	hb_chain_stream_release(&s);
	return rc;
}

static int state_is_open(const struct hb_region *r)
{
	return !r->state || !strcmp(r->state, "OPEN");
}

size_t hb_regions_not_open(const struct hb_regions *rs)
{
	size_t i, n = 0;

	for (i = 0; i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at_unnamed(rs, i, &v);

		if (hb_region_is_live(r) && !state_is_open(r))
			n++;
	}
	return n;
}

int hb_audit_states(struct hb_findings *out, const char *table, int table_state,
                    const struct hb_regions *rs)
{
	struct hb_buf m = HB_BUF_INIT;
	size_t i;
	int rc = 0;

	if (table_state == HB_TABLE_DISABLED)
		rc = hb_findings_add(out, HB_FIND_DISABLED, -1,
		                     "table '%s' is disabled: no region is online; REST still "
		                     "shows each region's last server",
		                     table);
	else if (table_state == HB_TABLE_DISABLING || table_state == HB_TABLE_ENABLING ||
	         table_state == HB_TABLE_CHANGING)
		rc = hb_findings_add(out, HB_FIND_DISABLED, -1, "table '%s' is %s, not ENABLED",
		                     table, hb_tablestate_name(table_state));
	/* Every region of a disabled table is closed: the one finding says it all. */
	for (i = 0; !rc && table_state != HB_TABLE_DISABLED && i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at_unnamed(rs, i, &v);

		if (!hb_region_is_live(r) || state_is_open(r))
			continue;
		hb_buf_reset(&m);
		rc = add_region(&m, i, r) || hb_buf_adds(&m, " is ") ||
		     hb_buf_add(&m, r->state, strnlen(r->state, 32)) ||
		     hb_buf_adds(&m, ", not OPEN");
		if (!rc)
			rc = r->server ? hb_buf_addf(&m, " (last server %s)", r->server)
			               : hb_buf_adds(&m, " (no server)");
		if (!rc)
			rc = add_msg(out, HB_FIND_NOT_OPEN, (long)i, &m);
	}
	hb_buf_release(&m);
	return rc ? HB_ENOMEM : 0;
}

int hb_audit_availability(struct hb_findings *out, const char *table,
                          const struct hb_table_avail *av, const struct hb_regions *rs,
                          const char *unknown_tail)
{
	int rc = hb_audit_states(out, table, av->table_state, rs);

	if (!rc && av->available == 0 && av->table_state == HB_TABLE_ENABLED)
		rc = hb_findings_add(out, HB_FIND_NOT_OPEN, -1,
		                     "table '%s' is not available: some regions are not online "
		                     "(Thrift2 isTableAvailable)",
		                     table);
	if (!rc && av->why.code)
		rc = hb_findings_add(out, HB_FIND_STATE_UNKNOWN, -1, "%s%s", av->why.msg,
		                     unknown_tail);
	return rc;
}

void hb_audit_report_init(struct hb_audit_report *r)
{
	memset(r, 0, sizeof(*r));
	hb_regions_init(&r->rs);
	hb_buf_init(&r->ks_canon, 0);
	hb_audit_init(&r->a);
	hb_hotspots_init(&r->hot);
}

void hb_audit_report_release(struct hb_audit_report *r)
{
	free(r->stored_n);
	free(r->stored_splits);
	hb_keyspace_free(r->ks);
	hb_buf_release(&r->ks_canon);
	hb_audit_release(&r->a);
	hb_hotspots_release(&r->hot);
	if (r->hot_keys)
		hb_hot_keys_release(r->hot_keys);
	free(r->hot_keys);
	r->hot_keys = NULL;
	hb_regions_release(&r->rs);
	r->ks = NULL;
	r->stored_n = NULL;
	r->stored_splits = NULL;
}

/* Orders regions by (start, end) for the meta/REST comparison. */
static int bounds_cmp(const unsigned char *as, size_t asl, const unsigned char *ae, size_t ael,
                      const unsigned char *bs, size_t bsl, const unsigned char *be, size_t bel)
{
	int d = hb_key_cmp(as, asl, bs, bsl);

	return d ? d : key_cmp_end(ae, ael, be, bel);
}

/* Whether regions i and j of rs have the same bounds. */
static int same_bounds(const struct hb_regions *rs, size_t i, size_t j)
{
	const unsigned char *as, *ae, *bs, *be;
	size_t asl, ael, bsl, bel;

	hb_regions_bounds(rs, i, &as, &asl, &ae, &ael);
	hb_regions_bounds(rs, j, &bs, &bsl, &be, &bel);
	return !bounds_cmp(as, asl, ae, ael, bs, bsl, be, bel);
}

/* Next live index at or after i whose bounds differ from the previous live one, or n. */
static size_t next_live(const struct hb_regions *rs, size_t i, long *last)
{
	for (; i < rs->n; i++) {
		struct hb_region_view v;

		if (!hb_region_is_live(hb_regions_at_unnamed(rs, i, &v)))
			continue;
		if (*last >= 0 && same_bounds(rs, (size_t)*last, i))
			continue;
		*last = (long)i;
		return i;
	}
	return rs->n;
}

int hb_compare_begin(struct hb_compare *c, const struct hb_regions *primary)
{
	memset(c, 0, sizeof(*c));
	c->primary = primary;
	hb_regions_init(&c->extra);
	c->seen = calloc(primary->n / 8 + 1, 1);
	return c->seen ? 0 : HB_ENOMEM;
}

void hb_compare_release(struct hb_compare *c)
{
	free(c->seen);
	hb_regions_release(&c->extra);
	memset(c, 0, sizeof(*c));
}

int hb_compare_add(struct hb_compare *c, const struct hb_region *r)
{
	const struct hb_regions *p = c->primary;
	size_t lo = 0, hi = p->n;
	struct hb_region b;

	if (!hb_region_is_live(r))
		return 0;
	/* the first primary region whose bounds are not below r's */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const unsigned char *s, *e;
		size_t sl, el;

		hb_regions_bounds(p, mid, &s, &sl, &e, &el);
		if (bounds_cmp(s, sl, e, el, r->start, r->start_len, r->end, r->end_len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->n; lo++) {
		struct hb_region_view v;
		const struct hb_region *q = hb_regions_at_unnamed(p, lo, &v);

		if (bounds_cmp(q->start, q->start_len, q->end, q->end_len, r->start, r->start_len,
		               r->end, r->end_len))
			break;
		if (hb_region_is_live(q)) {
			c->seen[lo / 8] |= (unsigned char)(1u << (lo % 8));
			return 0;
		}
	}
	memset(&b, 0, sizeof(b));
	b.start = r->start;
	b.start_len = r->start_len;
	b.end = r->end;
	b.end_len = r->end_len;
	return hb_regions_push(&c->extra, &b);
}

int hb_compare_end(struct hb_compare *c, struct hb_findings *out, const char *primary_name,
                   const char *other_name)
{
	const struct hb_regions *p = c->primary;
	struct hb_buf m = HB_BUF_INIT;
	long last = -1;
	size_t i;
	int rc = 0;

	/* A group of live regions with the same bounds was seen through its first one. */
	for (i = next_live(p, 0, &last); !rc && i < p->n; i = next_live(p, i + 1, &last)) {
		struct hb_region_view v;

		if (c->seen[i / 8] & (1u << (i % 8)))
			continue;
		rc = add_region(&m, i, hb_regions_at_unnamed(p, i, &v));
		if (!rc)
			rc = hb_buf_addf(&m, " is in %s but not in %s", primary_name, other_name);
		if (!rc)
			rc = add_msg(out, HB_FIND_META_REST_MISMATCH, (long)i, &m);
	}
	hb_regions_sort(&c->extra);
	last = -1;
	for (i = next_live(&c->extra, 0, &last); !rc && i < c->extra.n;
	     i = next_live(&c->extra, i + 1, &last)) {
		const unsigned char *s, *e;
		size_t sl, el;

		hb_regions_bounds(&c->extra, i, &s, &sl, &e, &el);
		rc = hb_buf_adds(&m, "region [");
		if (!rc)
			rc = add_key(&m, s, sl);
		if (!rc)
			rc = hb_buf_adds(&m, ", ");
		if (!rc)
			rc = add_key(&m, e, el);
		if (!rc)
			rc = hb_buf_addf(&m, ") is in %s but not in %s", other_name, primary_name);
		if (!rc)
			rc = add_msg(out, HB_FIND_META_REST_MISMATCH, -1, &m);
	}
	hb_buf_release(&m);
	return rc ? HB_ENOMEM : 0;
}

int hb_audit_compare(struct hb_findings *out, const struct hb_regions *primary,
                     const char *primary_name, const struct hb_regions *other,
                     const char *other_name)
{
	struct hb_compare c;
	size_t i;
	int rc = hb_compare_begin(&c, primary);

	for (i = 0; !rc && i < other->n; i++) {
		struct hb_region_view v;

		rc = hb_compare_add(&c, hb_regions_at_unnamed(other, i, &v));
	}
	if (!rc)
		rc = hb_compare_end(&c, out, primary_name, other_name);
	hb_compare_release(&c);
	return rc;
}

/* Parses a positive decimal count; 0 when s is not one. */
static unsigned long long parse_count(const char *s)
{
	unsigned long long v = 0;

	if (!s || !*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (~0ULL - 9) / 10)
			return 0;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	return v;
}

/* The first key of partition k: k as a width-byte big-endian number. */
static void partition_key(unsigned char *out, unsigned long long k, int width)
{
	int b;

	for (b = 0; b < width; b++)
		out[b] = (unsigned char)(k >> (8 * (width - 1 - b)));
}

/* The partition holding key x: the largest k < parts whose first key is <= x. */
static unsigned long long partition_of(const unsigned char *x, size_t len, unsigned long long parts,
                                       int width)
{
	unsigned long long lo = 0, hi = parts - 1;
	unsigned char want[8];

	while (lo < hi) {
		unsigned long long mid = lo + (hi - lo + 1) / 2;

		partition_key(want, mid, width);
		if (hb_key_cmp(want, (size_t)width, x, len) <= 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * One boundary event: the region starts between two boundaries that are where they belong
 * (or the table's ends), as the live table has them against the partition starts. Only
 * partition starts missing: a merge; only extra starts: a split; both: moved boundaries.
 */
struct boundary_event {
	unsigned long long missing, first_missing; /* partition starts no region has */
	size_t extra, first_extra;                 /* region starts inside a partition */
	size_t before;                             /* the live region before the event */
	unsigned long long partition;              /* the partition the event starts in */
};

static int report_event(struct hb_findings *out, struct hb_buf *m, const struct hb_regions *rs,
                        const struct boundary_event *e, int width)
{
	struct hb_region_view v;
	unsigned char want[8];
	int rc;

	partition_key(want, e->first_missing, width);
	if (!e->extra) {
		rc = add_region(m, e->before, hb_regions_at_unnamed(rs, e->before, &v));
		if (!rc)
			rc = hb_buf_addf(m,
			                 " spans partitions %llu..%llu: they were merged (no "
			                 "region starts at partition %llu, ",
			                 e->first_missing - 1, e->first_missing + e->missing - 1,
			                 e->first_missing);
		if (!rc)
			rc = add_key(m, want, (size_t)width);
		if (!rc && e->missing == 2)
			rc = hb_buf_addf(m, ", nor at partition %llu", e->first_missing + 1);
		if (!rc && e->missing > 2)
			rc = hb_buf_addf(m, ", nor at partitions %llu..%llu", e->first_missing + 1,
			                 e->first_missing + e->missing - 1);
		if (!rc)
			rc = hb_buf_addc(m, ')');
		return rc ? rc : add_msg(out, HB_FIND_DRIFT, (long)e->before, m);
	}
	rc = add_region(m, e->first_extra, hb_regions_at_unnamed(rs, e->first_extra, &v));
	if (!rc && !e->missing)
		rc = hb_buf_addf(m, " starts inside partition %llu: it was split%s", e->partition,
		                 e->extra > 1 ? "" : " there");
	if (!rc && !e->missing && e->extra > 1)
		rc = hb_buf_addf(m, " into %zu regions", e->extra + 1);
	if (!rc && e->missing) {
		rc = hb_buf_addf(m,
		                 " starts where no partition does; partition %llu should start "
		                 "a region at ",
		                 e->first_missing);
		if (!rc)
			rc = add_key(m, want, (size_t)width);
		if (!rc)
			rc = hb_buf_addf(m,
			                 " (boundaries moved: %zu region start%s not at a "
			                 "partition, %llu partition start%s without a region)",
			                 e->extra, e->extra == 1 ? "" : "s", e->missing,
			                 e->missing == 1 ? "" : "s");
	}
	return rc ? rc : add_msg(out, HB_FIND_DRIFT, (long)e->first_extra, m);
}

/*
 * Partition-style tables: the live region starts against the partition starts 1..parts-1.
 * One finding per event (a merge, a split, a moved boundary), however many regions after it
 * are shifted by one; at most DRIFT_BOUNDARY_MAX, then a count.
 */
static int boundary_events(struct hb_findings *out, const struct hb_regions *rs,
                           unsigned long long parts, int width)
{
	struct boundary_event e;
	struct hb_buf m = HB_BUF_INIT;
	unsigned long long k = 1; /* the next partition start to meet */
	unsigned char want[8];
	size_t i, events = 0;
	long last = -1;
	int rc = 0;

	memset(&e, 0, sizeof(e));
	e.before = next_live(rs, 0, &last);
	if (e.before >= rs->n)
		return 0;
	i = next_live(rs, e.before + 1, &last);
	for (;;) {
		struct hb_region_view v;
		const struct hb_region *r = i < rs->n ? hb_regions_at_unnamed(rs, i, &v) : NULL;
		int d = 1; /* a region start past the last partition start is inside it */

		if (!r && k < parts) { /* the last partition starts have no region */
			if (!e.missing)
				e.first_missing = k;
			e.missing += parts - k;
			k = parts;
		}
		if (r && k < parts) {
			partition_key(want, k, width);
			d = hb_key_cmp(want, (size_t)width, r->start, r->start_len);
		}
		if (!r || !d) {
			/* a boundary where it belongs, or the end: the event before it is complete
			 */
			if ((e.missing || e.extra) && events++ < DRIFT_BOUNDARY_MAX)
				rc = report_event(out, &m, rs, &e, width);
			if (rc || !r)
				break;
			memset(&e, 0, sizeof(e));
			e.before = i;
			k++;
			i = next_live(rs, i + 1, &last);
			continue;
		}
		if (d < 0) { /* partition starts before this region's start: none has a region */
			unsigned long long to = partition_of(r->start, r->start_len, parts, width);

			partition_key(want, to, width);
			if (!e.missing)
				e.first_missing = k;
			/* up to the partition holding the start, or the one before when the start
			 * is that partition's own (it is met next round) */
			if (!hb_key_cmp(want, (size_t)width, r->start, r->start_len))
				to--;
			e.missing += to - k + 1;
			k = to + 1;
			continue;
		}
		/* the region starts inside a partition */
		if (!e.extra) {
			e.first_extra = i;
			e.partition = partition_of(r->start, r->start_len, parts, width);
		}
		e.extra++;
		e.before = i;
		i = next_live(rs, i + 1, &last);
	}
	if (!rc && events > DRIFT_BOUNDARY_MAX)
		rc = hb_findings_add(out, HB_FIND_DRIFT, -1, "%zu more partition boundary change%s",
		                     events - DRIFT_BOUNDARY_MAX,
		                     HB_PLURAL(events - DRIFT_BOUNDARY_MAX));
	hb_buf_release(&m);
	return rc;
}

static int canon(struct hb_buf *out, const struct hb_keyspace *ks)
{
	hb_buf_reset(out);
	return hb_keyspace_format(out, ks);
}

/* The stored N against the live region count; *n gets it (0 when absent or invalid). */
static int drift_n(struct hb_findings *out, const struct hb_audit_meta *md, size_t live,
                   unsigned long long *n)
{
	*n = 0;
	if (!md->n)
		return hb_findings_add(out, HB_FIND_MISSING_METADATA, -1,
		                       "the metadata row has no N qualifier");
	if (!(*n = parse_count(md->n)))
		return hb_findings_add(out, HB_FIND_DRIFT, -1,
		                       "the stored N '%.64s' is not a positive integer", md->n);
	if (*n != live)
		return hb_findings_add(out, HB_FIND_DRIFT, -1,
		                       "the stored N is %llu but the table has %zu live region%s "
		                       "(regions were split, merged or lost since N was written)",
		                       *n, live, HB_PLURAL(live));
	return 0;
}

/* The stored key space (one that does not parse is drift) against the given one (which
 * must parse: its error is returned); both parsed into *stored and *given. */
static int drift_keyspace(struct hb_findings *out, const struct hb_audit_meta *md,
                          const char *given_keyspace, struct hb_keyspace **stored,
                          struct hb_keyspace **given, struct hb_error *err)
{
	struct hb_buf c1 = HB_BUF_INIT, c2 = HB_BUF_INIT;
	struct hb_error perr = {0};
	int rc = 0;

	if (md->keyspace && hb_keyspace_parse(stored, md->keyspace, &perr)) {
		if (perr.code == HB_ENOMEM)
			return HB_ENOMEM;
		rc = hb_findings_add(out, HB_FIND_DRIFT, -1,
		                     "the stored key space '%.200s' does not parse: %s",
		                     md->keyspace, perr.msg);
	}
	if (!rc && given_keyspace)
		rc = hb_keyspace_parse(given, given_keyspace, err);
	if (!rc && *stored && *given && !hb_keyspace_same(*stored, *given)) {
		rc = canon(&c1, *stored) || canon(&c2, *given) ? HB_ENOMEM : 0;
		if (!rc)
			rc = hb_findings_add(out, HB_FIND_DRIFT, -1,
			                     "the stored key space '%.200s' differs from the given "
			                     "'%.200s'",
			                     hb_buf_str(&c1), hb_buf_str(&c2));
	}
	hb_buf_release(&c1);
	hb_buf_release(&c2);
	return rc;
}

/* Partition-style tables: boundaries must be the big-endian partition numbers. ks is the
 * given key space, else the stored one (may be NULL); n the stored N (0 = unknown). */
static int drift_partitions(struct hb_findings *out, const struct hb_audit_meta *md,
                            const struct hb_regions *rs, const struct hb_keyspace *ks,
                            unsigned long long n, size_t live)
{
	struct hb_splitspec_design d = {HB_SPLIT_NONE, 0, 1};
	unsigned long long parts = 0;
	int width = 0, rc = 0;

	if (ks && hb_keyspace_partitions(ks, &parts, &width)) {
		if (n && parts != n)
			rc = hb_findings_add(out, HB_FIND_DRIFT, -1,
			                     "the key space has %llu partitions (u%d<%llu) but the "
			                     "stored N is %llu",
			                     parts, 8 * width, parts, n);
	} else if (n && !hb_splitspec_design(md->splits, &d) && d.algo == HB_SPLIT_PARTITION) {
		parts = n;
		width = 8;
	} else if (n && d.algo == HB_SPLIT_SALT) {
		parts = n;
		width = d.salt_width;
	}
	if (rc || !parts || !width)
		return rc;
	/* the stored N already says so when it is the partition count */
	if (parts != live && parts != n)
		rc = hb_findings_add(out, HB_FIND_DRIFT, -1,
		                     "the table is partitioned into %llu partitions but has "
		                     "%zu live region%s",
		                     parts, live, HB_PLURAL(live));
	return rc ? rc : boundary_events(out, rs, parts, width);
}

int hb_audit_drift(struct hb_findings *out, const struct hb_audit_meta *md,
                   const struct hb_regions *rs, const char *given_keyspace, struct hb_error *err)
{
	struct hb_keyspace *stored = NULL, *given = NULL;
	unsigned long long n = 0;
	size_t live = 0, i;
	long last = -1;
	int rc;

	for (i = next_live(rs, 0, &last); i < rs->n; i = next_live(rs, i + 1, &last))
		live++;
	if (!md->present)
		rc = md->require ? hb_findings_add(out, HB_FIND_MISSING_METADATA, -1,
		                                   "the table has no metadata row: N and the key "
		                                   "space are not recorded (hbtab meta set writes "
		                                   "it)")
		                 : 0;
	else
		rc = drift_n(out, md, live, &n);
	if (!rc && md->present)
		rc = drift_keyspace(out, md, given_keyspace, &stored, &given, err);
	if (!rc && md->present)
		rc = drift_partitions(out, md, rs, given ? given : stored, n, live);
	if (rc == HB_ENOMEM)
		hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_keyspace_free(stored);
	hb_keyspace_free(given);
	return rc;
}

/* Splits a region name "table,start,id[_rep].enc." into its parts. 0 when malformed. */
static int parse_region_name(const unsigned char *p, size_t n, const unsigned char **table,
                             size_t *tlen, const unsigned char **start, size_t *slen, uint64_t *id,
                             int *replica)
{
	size_t first, lastc, j;

	for (first = 0; first < n && p[first] != ','; first++)
		;
	if (first == n)
		return 0;
	for (lastc = n; lastc > first + 1 && p[lastc - 1] != ','; lastc--)
		;
	if (lastc <= first + 1)
		return 0;
	lastc--; /* index of the last comma */
	*table = p;
	*tlen = first;
	*start = p + first + 1;
	*slen = lastc - first - 1;
	*id = 0;
	*replica = 0;
	for (j = lastc + 1; j < n && p[j] >= '0' && p[j] <= '9'; j++)
		*id = *id * 10 + (uint64_t)(p[j] - '0');
	if (j < n && p[j] == '_')
		*replica = 1;
	return 1;
}

int hb_region_counts_init(struct hb_region_counts *c, size_t n, int two_readings)
{
	size_t cap = n ? n : 1, i;

	memset(c, 0, sizeof(*c));
	c->n = n;
	c->t1 = malloc(cap * sizeof(*c->t1));
	c->t0 = two_readings ? malloc(cap * sizeof(*c->t0)) : NULL;
	c->server = calloc(cap, sizeof(*c->server));
	if (!c->t1 || (two_readings && !c->t0) || !c->server)
		return HB_ENOMEM;
	for (i = 0; i < n; i++) {
		c->t1[i].writes = c->t1[i].reads = HB_NO_LOAD;
		if (c->t0)
			c->t0[i] = c->t1[i];
	}
	return 0;
}

void hb_region_counts_release(struct hb_region_counts *c)
{
	free(c->t0);
	free(c->t1);
	free(c->server);
	free(c->servers);
	memset(c, 0, sizeof(*c));
}

/* 1 + the index of server name srv in c->servers, added when new; 0 for NULL. A status lists
 * a server's loads together, so the previous load's server is tried first. HB_ENOMEM. */
static int counts_server(struct hb_region_counts *c, const char *srv, uint32_t *out)
{
	size_t k;

	*out = 0;
	if (!srv)
		return 0;
	if (c->last_server < c->nservers && c->servers[c->last_server] == srv) {
		*out = (uint32_t)c->last_server + 1;
		return 0;
	}
	for (k = 0; k < c->nservers && strcmp(c->servers[k], srv); k++)
		;
	if (k == c->nservers) {
		if (k >= UINT32_MAX - 1 || HB_VEC_GROW(c->servers, c->servers_cap, k + 1, 8))
			return HB_ENOMEM;
		c->servers[c->nservers++] = srv;
	}
	c->last_server = k;
	*out = (uint32_t)k + 1;
	return 0;
}

int hb_audit_match_load(struct hb_region_counts *counts, const struct hb_regions *rs,
                        const char *table, const struct hb_audit_load *l, int t1)
{
	size_t tl = strlen(table), j;
	const unsigned char *tp, *sp;
	size_t tn, sn;
	uint64_t id;
	int rep;

	if (!l->name || !parse_region_name(l->name, l->name_len, &tp, &tn, &sp, &sn, &id, &rep) ||
	    rep || tn != tl || memcmp(tp, table, tl))
		return 0;
	if (counts->n != rs->n || (!t1 && !counts->t0))
		HB_BUG("counts not sized for these regions and readings");
	for (j = hb_regions_lower_bound(rs, sp, sn); j < rs->n; j++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at_unnamed(rs, j, &v);
		struct hb_hot_region *c = t1 ? &counts->t1[j] : &counts->t0[j];
		uint32_t srv;

		if (hb_key_cmp(r->start, r->start_len, sp, sn))
			break;
		if (r->replica_id > 0 || (r->id && id && r->id != id))
			continue;
		c->reads = l->reads;
		c->writes = l->writes;
		if (counts_server(counts, l->server, &srv))
			return HB_ENOMEM;
		if (t1 || !counts->server[j])
			counts->server[j] = srv;
		return 0;
	}
	return 0;
}

int hb_audit_match_loads(struct hb_region_counts *out, const struct hb_regions *rs,
                         const char *table, const struct hb_audit_load *l0, size_t n0,
                         const struct hb_audit_load *l1, size_t n1)
{
	size_t i;
	int rc = hb_region_counts_init(out, rs->n, 1);

	for (i = 0; !rc && i < n0; i++)
		rc = hb_audit_match_load(out, rs, table, &l0[i], 0);
	for (i = 0; !rc && i < n1; i++)
		rc = hb_audit_match_load(out, rs, table, &l1[i], 1);
	return rc;
}

void hb_hotspots_init(struct hb_hotspots *h)
{
	memset(h, 0, sizeof(*h));
	h->sequential_region = -1;
}

double hb_hotspots_share(const struct hb_hotspots *h, size_t i)
{
	return h->total_writes ? (double)h->r[i].writes / (double)h->total_writes : 0;
}

void hb_hotspots_release(struct hb_hotspots *h)
{
	size_t i;

	for (i = 0; i < h->ns; i++)
		free(h->s[i].name);
	free(h->s);
	free(h->r);
	hb_hotspots_init(h);
}

/* Region h's requests in the window, worked out in place from its counters at t1 (h) and at
 * t0 (NULL with one reading). */
static void window_delta(struct hb_hot_region *h, const struct hb_hot_region *t0)
{
	if (h->writes == HB_NO_LOAD) {
		h->writes = h->reads = 0;
		return;
	}
	if (!t0 || t0->writes == HB_NO_LOAD)
		return; /* a new region: all of its requests are in the window */
	/* a counter below its value at t0 restarted when its region reopened */
	if (h->writes >= t0->writes)
		h->writes -= t0->writes;
	if (h->reads >= t0->reads)
		h->reads -= t0->reads;
}

/* The index in out->s of server srv, added when new. HB_ENOMEM. */
static int hot_server_find(struct hb_hotspots *out, size_t *scap, const char *srv, size_t *k)
{
	for (*k = 0; *k < out->ns && strcmp(out->s[*k].name, srv); (*k)++)
		;
	if (*k < out->ns)
		return 0;
	if (HB_VEC_GROW(out->s, *scap, out->ns + 1, 8))
		return HB_ENOMEM;
	memset(&out->s[*k], 0, sizeof(out->s[*k]));
	out->s[*k].name = strdup(srv);
	if (!out->s[*k].name)
		return HB_ENOMEM;
	out->ns++;
	return 0;
}

/* Where the writes went, and where each server of the counts is in out->s. */
struct hot_tally {
	size_t live;
	long last_live;  /* the last live region, or -1 */
	long end_region; /* the last reachable live region (the last live one), or -1 */
	size_t scap;
	size_t *slot; /* per counts server: 1 + its index in out->s, 0 until it is added */
};

/* Adds live region i's requests h to its server: where the counts saw it, else where rs
 * lists it (none: nowhere). HB_ENOMEM. */
static int hot_server_add(struct hb_hotspots *out, struct hot_tally *t,
                          const struct hb_region_counts *counts, size_t i, const char *listed,
                          const struct hb_hot_region *h)
{
	uint32_t c = counts->server[i];
	size_t k;

	if (c && t->slot[c - 1]) {
		k = t->slot[c - 1] - 1;
	} else {
		const char *srv = c ? counts->servers[c - 1] : listed;

		if (!srv)
			return 0;
		if (hot_server_find(out, &t->scap, srv, &k))
			return HB_ENOMEM;
		if (c)
			t->slot[c - 1] = k + 1;
	}
	out->s[k].writes += h->writes;
	out->s[k].reads += h->reads;
	out->s[k].regions++;
	return 0;
}

/* Each live region's requests in the window (out->r, the counts at t1 turned into them in
 * place), summed per server and in all. HB_ENOMEM. */
static int hot_count(struct hb_hotspots *out, struct hot_tally *t, const struct hb_regions *rs,
                     const struct hb_region_counts *counts, const struct hb_audit *reach)
{
	struct hb_region_view v;
	size_t i;

	t->live = 0;
	t->last_live = t->end_region = -1;
	for (i = 0; i < rs->n; i++) {
		const struct hb_region *r = hb_regions_at_unnamed(rs, i, &v);
		struct hb_hot_region *h = &out->r[i];
		struct hb_audit_region ar;

		if (!hb_region_is_live(r)) {
			h->writes = h->reads = 0;
			continue;
		}
		t->live++;
		t->last_live = (long)i;
		if (reach)
			hb_audit_at(reach, i, &ar);
		if (!reach || ar.reachable != 0)
			t->end_region = (long)i;
		window_delta(h, counts->t0 ? &counts->t0[i] : NULL);
		out->total_writes += h->writes;
		out->total_reads += h->reads;
		if (hot_server_add(out, t, counts, i, r->server, h))
			return HB_ENOMEM;
	}
	if (t->end_region < 0)
		t->end_region = t->last_live;
	return 0;
}

/* The sequential-key pattern: (nearly) all writes go to the region at the end. */
static int hot_sequential(struct hb_hotspots *out, struct hb_findings *f, struct hb_buf *m,
                          const struct hb_regions *rs, const struct hot_tally *t,
                          const struct hb_hot_params *p)
{
	struct hb_region_view v;
	long e = t->end_region;

	if (t->live < 2 || e < 0 || out->total_writes < p->min_writes ||
	    hb_hotspots_share(out, (size_t)e) < p->sequential)
		return 0;
	out->sequential_region = e;
	return add_region(m, (size_t)e, hb_regions_at_unnamed(rs, (size_t)e, &v)) ||
	       hb_buf_addf(m,
	                   " takes %.1f%% of the table's writes (%llu of %llu) and is "
	                   "the %s region: sequential row keys (timestamps, counters, "
	                   "monotonically increasing ids); salt or hash the key prefix",
	                   100.0 * hb_hotspots_share(out, (size_t)e),
	                   (unsigned long long)out->r[e].writes,
	                   (unsigned long long)out->total_writes,
	                   e == t->last_live ? "last" : "last reachable") ||
	       add_msg(f, HB_FIND_HOTSPOT, e, m);
}

/* Live regions above factor x their fair share of the writes, and servers likewise. */
static int hot_over_share(const struct hb_hotspots *out, struct hb_findings *f, struct hb_buf *m,
                          const struct hb_regions *rs, size_t live, const struct hb_hot_params *p)
{
	struct hb_region_view v;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < rs->n; i++) {
		const struct hb_hot_region *h = &out->r[i];
		double share = hb_hotspots_share(out, i);

		if (!hb_region_is_live(hb_regions_at_unnamed(rs, i, &v)) ||
		    (long)i == out->sequential_region || live < 2 || h->writes < p->min_writes ||
		    share <= p->factor * out->fair_share)
			continue;
		rc = add_region(m, i, &v.r) ||
		     hb_buf_addf(m,
		                 " takes %.1f%% of the table's writes (%llu of %llu), %.1f "
		                 "times its fair share of %.1f%%",
		                 100.0 * share, (unsigned long long)h->writes,
		                 (unsigned long long)out->total_writes, share / out->fair_share,
		                 100.0 * out->fair_share) ||
		     add_msg(f, HB_FIND_HOTSPOT, (long)i, m);
	}
	for (i = 0; !rc && out->ns >= 2 && i < out->ns; i++) {
		const struct hb_hot_server *s = &out->s[i];
		double fair = 1.0 / (double)out->ns;

		if (s->writes >= p->min_writes && s->write_share > p->factor * fair)
			rc =
			    hb_findings_add(f, HB_FIND_HOTSPOT, -1,
			                    "server %s takes %.1f%% of the table's writes over %zu "
			                    "regions, %.1f times its fair share of %.1f%%",
			                    s->name, 100.0 * s->write_share, s->regions,
			                    s->write_share / fair, 100.0 * fair);
	}
	return rc;
}

int hb_audit_hotspots(struct hb_hotspots *out, struct hb_findings *f, const struct hb_regions *rs,
                      struct hb_region_counts *counts, const struct hb_audit *reach,
                      const struct hb_hot_params *p)
{
	struct hb_buf m = HB_BUF_INIT;
	struct hot_tally t = {0};
	size_t i;
	int rc;

	if (counts->n != rs->n)
		HB_BUG("counts not sized for these regions");
	hb_hotspots_init(out);
	out->r = counts->t1;
	out->n = rs->n;
	counts->t1 = NULL;
	t.slot = calloc(counts->nservers ? counts->nservers : 1, sizeof(*t.slot));
	if (!out->r || !t.slot || hot_count(out, &t, rs, counts, reach)) {
		free(t.slot);
		return HB_ENOMEM;
	}
	free(t.slot);
	out->fair_share = t.live ? 1.0 / (double)t.live : 0.0;
	for (i = 0; i < out->ns; i++)
		out->s[i].write_share =
		    out->total_writes ? (double)out->s[i].writes / (double)out->total_writes : 0;
	if (!out->total_writes)
		return 0;
	rc = hot_sequential(out, f, &m, rs, &t, p);
	if (!rc)
		rc = hot_over_share(out, f, &m, rs, t.live, p);
	hb_buf_release(&m);
	return rc ? HB_ENOMEM : 0;
}

int hb_audit_placement(struct hb_findings *out, const struct hb_regions *rs,
                       const char *const *names, size_t n, double factor)
{
	size_t *count, i, j, total = 0;
	double limit;
	int rc = 0;

	if (!n)
		return 0;
	count = calloc(n, sizeof(*count));
	if (!count)
		return HB_ENOMEM;
	for (i = 0; i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at_unnamed(rs, i, &v);

		if (!hb_region_is_live(r) || !r->server)
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(names[j], r->server)) {
				count[j]++;
				total++;
				break;
			}
	}
	limit = ceil(factor * (double)total / (double)n);
	for (j = 0; !rc && j < n; j++)
		if ((double)count[j] > limit)
			rc = hb_findings_add(
			    out, HB_FIND_PLACEMENT, -1,
			    "server %s holds %zu of the table's %zu regions; an even "
			    "spread over %zu live servers is %.1f (the balancer counts "
			    "regions of all tables, not this table's load)",
			    names[j], count[j], total, n, (double)total / (double)n);
	free(count);
	return rc;
}
