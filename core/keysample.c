/* A generated sample made and sorted by several threads, and the quantiles of one. */
#include "keysample.h"

#include "keypar.h"
#include "par.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static size_t threads_in_range(size_t threads)
{
	return threads < 1 ? 1 : threads > HB_PAR_MAX_THREADS ? HB_PAR_MAX_THREADS : threads;
}

/* ---------------------------------------------------------------- the sorted sample */

/* A key of up to 16 bytes as two big-endian numbers, zero-padded: with one width for all
 * keys, (hi, lo) order is the keys' order. */
struct rec {
	uint64_t hi, lo;
};

/* Runs up to INSERTION records long are sorted by insertion; up to TMP_RECS by an LSD radix
 * through a worker's scratch; longer ones first split in place on one byte. */
#define INSERTION   32
#define TMP_RECS    8192
#define BUCKETS     65536 /* the leading digit: 16 bits */
#define RANGES      8     /* parts the counting and moving passes are cut into, at most */
#define GROUPS      256   /* tasks: BUCKETS / GROUPS digits each, or as many keys each */
#define STORE_PARTS 64    /* tasks writing the sorted keys back */

/* A worker's own cursor and notes, a cache line apart from the others'. */
struct sample_worker {
	_Alignas(HB_PAR_LINE) struct hb_keyplan_cursor cur;
	struct rec any, all; /* the OR and AND of the keys it made */
	int dup;             /* it sorted two equal keys */
};

struct sample {
	const struct hb_keyplan *plan;
	struct hb_keys *out;
	unsigned char *dst; /* the keys, count x w bytes, from index first of out */
	size_t w, nranges, first;
	uint64_t count;
	struct rec *made; /* the keys as records, in the order made */
	struct rec *recs; /* the same in digit order, then sorted: dst itself when w is 16 */
	struct rec *tmp;  /* TMP_RECS a worker */
	struct sample_worker *wk;
	uint32_t (*hist)[BUCKETS]; /* [range][digit]: counts, then where the next one goes */
	uint32_t start[BUCKETS + 1];
	uint32_t group[GROUPS + 1]; /* keys in the digits of the groups before each */
	unsigned d0;                /* the digit is bytes d0 and d0 + 1 */
};

/* 8 bytes as a big-endian number: one load where the compiler knows the byte swap. */
static inline uint64_t load_be64(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                        \
    (defined(__GNUC__) || defined(__clang__))
	uint64_t v;

	memcpy(&v, p, 8);
	return __builtin_bswap64(v);
#else
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
#endif
}

static inline void store_be64(unsigned char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                        \
    (defined(__GNUC__) || defined(__clang__))
	v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
#else
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
#endif
}

static inline struct rec load(const unsigned char *k, size_t w)
{
	unsigned char b[16] = {0};

	if (w == 16)
		return (struct rec){load_be64(k), load_be64(k + 8)};
	memcpy(b, k, w);
	return (struct rec){load_be64(b), load_be64(b + 8)};
}

static inline void store(unsigned char *k, struct rec r, size_t w)
{
	unsigned char b[16];

	if (w == 16) {
		store_be64(k, r.hi);
		store_be64(k + 8, r.lo);
		return;
	}
	store_be64(b, r.hi);
	store_be64(b + 8, r.lo);
	memcpy(k, b, w);
}

static inline unsigned byte_at(struct rec r, unsigned j)
{
	return (unsigned)(j < 8 ? r.hi >> (56 - 8 * j) : r.lo >> (120 - 8 * j)) & 0xFF;
}

static inline unsigned digit(const struct sample *s, struct rec r)
{
	unsigned d = s->d0;

	if (d <= 6)
		return (unsigned)(r.hi >> (48 - 8 * d)) & 0xFFFF;
	if (d == 7)
		return (unsigned)((r.hi & 0xFF) << 8 | r.lo >> 56);
	if (d <= 14)
		return (unsigned)(r.lo >> (112 - 8 * d)) & 0xFFFF;
	return (unsigned)(r.lo & 0xFF) << 8;
}

static int rec_lt(struct rec a, struct rec b)
{
	return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

static void insertion(struct rec *r, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct rec t = r[i];

		for (j = i; j > 0 && rec_lt(t, r[j - 1]); j--)
			r[j] = r[j - 1];
		r[j] = t;
	}
}

static void sort_recs(struct rec *r, size_t n, unsigned d, struct rec *tmp);

/* One LSD pass on byte j of one half (lo when low, else hi) from src to dst; h holds the
 * byte's counts. */
static void lsd_pass(struct rec *dst, const struct rec *src, size_t n, uint32_t *h, int low,
                     unsigned shift)
{
	uint32_t sum = 0, c;
	size_t i;
	unsigned b;

	for (b = 0; b < 256; b++) {
		c = h[b];
		h[b] = sum;
		sum += c;
	}
	if (low)
		for (i = 0; i < n; i++)
			dst[h[(src[i].lo >> shift) & 0xFF]++] = src[i];
	else
		for (i = 0; i < n; i++)
			dst[h[(src[i].hi >> shift) & 0xFF]++] = src[i];
}

/* LSD radix on the bytes d .. 7 of hi (d < 8) or d .. 15 of lo, skipping the bytes all n
 * records share; after hi, runs with equal hi are sorted by lo. */
static void lsd(struct rec *r, size_t n, unsigned d, struct rec *tmp)
{
	uint32_t hist[8][256];
	struct rec *src = r, *dst = tmp, *sw;
	int low = d >= 8;
	unsigned j, first = low ? d - 8 : d;
	size_t i, e;

	memset(hist, 0, sizeof(hist));
	for (i = 0; i < n; i++) {
		uint64_t v = low ? r[i].lo : r[i].hi;

		for (j = first; j < 8; j++)
			hist[j][(v >> (56 - 8 * j)) & 0xFF]++;
	}
	for (j = 8; j-- > first;) {
		uint64_t v0 = low ? src[0].lo : src[0].hi;

		if (hist[j][(v0 >> (56 - 8 * j)) & 0xFF] == n)
			continue;
		lsd_pass(dst, src, n, hist[j], low, 56 - 8 * j);
		sw = src, src = dst, dst = sw;
	}
	if (src != r)
		memcpy(r, src, n * sizeof(*r));
	for (i = 0; !low && i < n; i = e) {
		for (e = i + 1; e < n && r[e].hi == r[i].hi; e++)
			;
		sort_recs(r + i, e - i, 8, tmp);
	}
}

/* Splits r in place by byte d (American flag sort), then sorts each part from byte d + 1. */
static void split_in_place(struct rec *r, size_t n, unsigned d, struct rec *tmp)
{
	size_t cnt[256] = {0}, head[256], tail[256], i, sum = 0;
	unsigned b;

	for (i = 0; i < n; i++)
		cnt[byte_at(r[i], d)]++;
	for (b = 0; b < 256; b++) {
		head[b] = sum;
		sum += cnt[b];
		tail[b] = sum;
	}
	for (b = 0; b < 256; b++)
		while (head[b] < tail[b]) {
			struct rec v = r[head[b]], t;
			unsigned c;

			while ((c = byte_at(v, d)) != b) {
				t = r[head[c]];
				r[head[c]++] = v;
				v = t;
			}
			r[head[b]++] = v;
		}
	for (b = 0, sum = 0; b < 256; sum += cnt[b++])
		sort_recs(r + sum, cnt[b], d + 1, tmp);
}

/* Sorts n records whose bytes before d are equal. */
static void sort_recs(struct rec *r, size_t n, unsigned d, struct rec *tmp)
{
	if (n < 2 || d >= 16)
		return;
	if (n <= INSERTION)
		insertion(r, n);
	else if (n <= TMP_RECS)
		lsd(r, n, d, tmp);
	else
		split_in_place(r, n, d, tmp);
}

/* Keys made at a time before they become records. */
#define MAKE_BATCH 256

/* Makes span t's keys as records, and notes the bits they set and clear. */
static void make_task(void *ctx, size_t w, uint64_t t)
{
	struct sample *s = ctx;
	unsigned char k[MAKE_BATCH * HB_KEYGEN_MAX_KEY];
	struct sample_worker *wk = &s->wk[w];
	uint64_t first, n = hb_keyplan_seek(&wk->cur, s->plan, t, &first), m;
	struct rec o = wk->any, a = wk->all, *r = s->made + first;
	size_t i;

	for (; n; n -= m) {
		m = n < MAKE_BATCH ? n : MAKE_BATCH;
		hb_keygen_next_n(&wk->cur.g, k, (size_t)m);
		for (i = 0; i < m; i++, r++) {
			*r = load(k + i * s->w, s->w);
			o.hi |= r->hi, o.lo |= r->lo;
			a.hi &= r->hi, a.lo &= r->lo;
		}
	}
	wk->any = o;
	wk->all = a;
}

/* Part t of the keys cut into `parts`: [begin, end). */
static uint64_t range_at(const struct sample *s, uint64_t t, uint64_t parts, uint64_t *end)
{
	*end = s->count * (t + 1) / parts;
	return s->count * t / parts;
}

static void count_task(void *ctx, size_t w, uint64_t t)
{
	struct sample *s = ctx;
	uint64_t end, i = range_at(s, t, s->nranges, &end);

	(void)w;
	for (; i < end; i++)
		s->hist[t][digit(s, s->made[i])]++;
}

static void move_task(void *ctx, size_t w, uint64_t t)
{
	struct sample *s = ctx;
	uint64_t end, i = range_at(s, t, s->nranges, &end);

	(void)w;
	for (; i < end; i++)
		s->recs[s->hist[t][digit(s, s->made[i])]++] = s->made[i];
}

/* The first digit whose keys start at key i or after it (BUCKETS when none does). */
static size_t digit_at(const struct sample *s, uint64_t i)
{
	size_t lo = 0, hi = BUCKETS, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->start[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Sorts the digits whose keys start in part t of the keys (parts of equal size: the keys may
 * use few of the digits, as hex text does), noting equal neighbours (keys of two digits
 * differ). */
static void sort_task(void *ctx, size_t w, uint64_t t)
{
	struct sample *s = ctx;
	uint64_t end, begin = range_at(s, t, GROUPS, &end);
	size_t b, i, n, last = digit_at(s, end);
	int dup = 0;

	for (b = digit_at(s, begin); b < last; b++) {
		struct rec *r = s->recs + s->start[b];

		n = s->start[b + 1] - s->start[b];
		sort_recs(r, n, s->d0 + 2, s->tmp + w * TMP_RECS);
		for (i = 1; i < n; i++)
			dup |= (r[i].hi == r[i - 1].hi) & (r[i].lo == r[i - 1].lo);
	}
	if (dup)
		s->wk[w].dup = 1;
}

/* Writes part t of the sorted keys and their offsets. */
static void store_task(void *ctx, size_t w, uint64_t t)
{
	struct sample *s = ctx;
	uint64_t end, begin = range_at(s, t, STORE_PARTS, &end), i;

	(void)w;
	/* in place when recs is dst: record i and key i take the same 16 bytes */
	for (i = begin; i < end; i++)
		store(s->dst + i * s->w, s->recs[i], s->w);
	hb_keys_fixed_offsets(s->out, s->first, s->w, s->first + (size_t)begin,
	                      s->first + (size_t)end);
}

/* 1 when the sorting workers met two equal keys. */
static int has_equal_keys(const struct sample *s, size_t threads)
{
	size_t i;

	for (i = 0; i < threads; i++)
		if (s->wk[i].dup)
			return 1;
	return 0;
}

/* The first byte in which the keys differ (16: they are all equal), from the workers' ORs and
 * ANDs. */
static unsigned first_varying(const struct sample *s, size_t threads)
{
	struct rec o = {0, 0}, a = {UINT64_MAX, UINT64_MAX};
	unsigned j;
	size_t i;

	for (i = 0; i < threads; i++) {
		o.hi |= s->wk[i].any.hi, o.lo |= s->wk[i].any.lo;
		a.hi &= s->wk[i].all.hi, a.lo &= s->wk[i].all.lo;
	}
	for (j = 0; j < 16 && byte_at(o, j) == byte_at(a, j); j++)
		;
	return j;
}

/* The keys of group t's digits, in s->group[t + 1]. */
static void group_task(void *ctx, size_t w, uint64_t t)
{
	struct sample *s = ctx;
	uint32_t sum = 0;
	size_t b, r;

	(void)w;
	for (r = 0; r < s->nranges; r++)
		for (b = t * (BUCKETS / GROUPS); b < (t + 1) * (BUCKETS / GROUPS); b++)
			sum += s->hist[r][b];
	s->group[t + 1] = sum;
}

/* Turns group t's counts into where each range's keys of each digit go, and the digits'
 * starts. */
static void place_task(void *ctx, size_t w, uint64_t t)
{
	struct sample *s = ctx;
	uint32_t sum = s->group[t], c;
	size_t b, r;

	(void)w;
	for (b = t * (BUCKETS / GROUPS); b < (t + 1) * (BUCKETS / GROUPS); b++) {
		s->start[b] = sum;
		for (r = 0; r < s->nranges; r++) {
			c = s->hist[r][b];
			s->hist[r][b] = sum;
			sum += c;
		}
	}
}

static void run_phase(struct sample *s, size_t threads, uint64_t tasks,
                      void (*task)(void *, size_t, uint64_t))
{
	struct hb_par par = {.threads = threads, .tasks = tasks, .task = task, .ctx = s};

	hb_par_run(&par);
}

/* Where each range's keys of each digit go: the groups' totals, their sums, then each group's
 * places from its sum. */
static void place(struct sample *s, size_t threads)
{
	size_t t;

	run_phase(s, threads, GROUPS, group_task);
	s->group[0] = 0;
	for (t = 0; t < GROUPS; t++)
		s->group[t + 1] += s->group[t];
	run_phase(s, threads, GROUPS, place_task);
	s->start[BUCKETS] = (uint32_t)s->count;
}

/* Sorts the keys made in s->dst (the memory s needs is there). */
static void sort_sample(struct sample *s, size_t threads)
{
	s->d0 = first_varying(s, threads);
	if (s->d0 >= 16) {
		/* every key is the same */
		s->wk[0].dup = s->count > 1;
		memcpy(s->recs, s->made, s->count * sizeof(*s->recs));
		run_phase(s, threads, STORE_PARTS, store_task);
		return;
	}
	run_phase(s, threads, s->nranges, count_task);
	place(s, threads);
	run_phase(s, threads, s->nranges, move_task);
	run_phase(s, threads, GROUPS, sort_task);
	run_phase(s, threads, STORE_PARTS, store_task);
}

/* Huge pages: a 16 MiB buffer first touched by several threads at once costs 8 page faults
 * instead of 4096 (the kernel serialises much of a fault's work). */
#define HUGE_PAGE (2u << 20)

/* n bytes on huge pages where the system grants them; free() releases them. */
static void *big_alloc(size_t n)
{
	void *p;

	if (n < HUGE_PAGE)
		return malloc(n);
	p = aligned_alloc(HUGE_PAGE, (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
#ifdef MADV_HUGEPAGE
	if (p)
		madvise(p, (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
#endif
	return p;
}

/* Asks for huge pages in the whole 2 MiB pages of [p, p + n), memory not touched yet. */
static void advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE_PAGE - 1);

	if (e > a)
		madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

static int sample_alloc(struct sample *s, size_t threads)
{
	size_t i;

	/* a few ranges a thread, so that a thread the host slows down holds up less */
	s->nranges = threads * 4 < RANGES ? threads * 4 : RANGES;
	s->made = big_alloc(s->count * sizeof(*s->made));
	/* the sorted records fit where the keys go when those are 16 bytes each */
	s->recs = s->w == 16 && (uintptr_t)s->dst % _Alignof(struct rec) == 0
	              ? (struct rec *)(void *)s->dst
	              : big_alloc(s->count * sizeof(*s->recs));
	s->tmp = malloc(threads * TMP_RECS * sizeof(*s->tmp));
	s->wk = hb_par_slots(threads, sizeof(*s->wk));
	s->hist = calloc(s->nranges, sizeof(*s->hist));
	if (!s->made || !s->recs || !s->tmp || !s->wk || !s->hist)
		return HB_ENOMEM;
	for (i = 0; i < threads; i++) {
		s->wk[i].any = (struct rec){0, 0};
		s->wk[i].all = (struct rec){UINT64_MAX, UINT64_MAX};
		hb_keyplan_cursor_init(&s->wk[i].cur, s->plan);
	}
	return 0;
}

/* Takes back the keys hb_keys_push_fixed_open appended to out from index first. */
static void unpush(struct hb_keys *out, size_t first, size_t w)
{
	out->bytes.len -= (out->n - first) * w;
	out->bytes.data[out->bytes.len] = '\0';
	out->n = first;
}

/* A sample of count keys is numbered in 32 bits. */
static int sample_size_check(uint64_t count, struct hb_error *err)
{
	if (count >= UINT32_MAX)
		return hb_error_set(err, HB_EINVAL, "too many keys to sort (%llu)",
		                    (unsigned long long)count);
	return 0;
}

int hb_keygen_sample_sorted(struct hb_keys *out, const struct hb_keygen *g, uint64_t count,
                            size_t threads, struct hb_error *err)
{
	struct hb_keyplan plan;
	struct sample *s;
	int rc;

	rc = sample_size_check(count, err);
	if (rc || !count)
		return rc;
	threads = threads_in_range(threads);
	s = calloc(1, sizeof(*s));
	if (!s)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	rc = hb_keyplan_init(&plan, g, count, threads, err);
	if (rc)
		goto done;
	s->plan = &plan;
	s->count = count;
	s->w = hb_keygen_width(g);
	s->out = out;
	s->first = out->n;
	/* the offsets are written with the sorted keys, by the same threads */
	s->dst = hb_keys_push_fixed_open(out, (size_t)count, s->w);
	if (s->dst) {
		advise_huge(s->dst, (size_t)count * s->w);
		advise_huge(out->off + s->first + 1, (size_t)count * sizeof(*out->off));
	}
	if (!s->dst || sample_alloc(s, threads)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		if (s->dst)
			unpush(out, s->first, s->w);
		goto done;
	}
	run_phase(s, threads, plan.spans, make_task);
	sort_sample(s, threads);
	if (!s->first && !has_equal_keys(s, threads))
		out->ordered = out->n;
done:
	hb_keyplan_release(&plan);
	free(s->made);
	if (s->recs != (struct rec *)(void *)s->dst)
		free(s->recs);
	free(s->tmp);
	free(s->wk);
	free(s->hist);
	free(s);
	return rc;
}

/* ---------------------------------------------------------------- quantiles of a sample */

/* md5 keys are all distinct (their ids are) and order as (digest prefix, id): the keys of the
 * wanted ranks are found by counting the keys of each leading Q_BITS bits of the prefix (a
 * bucket), then making the keys again and keeping those of the buckets the ranks fall in. No
 * buffer of the whole sample is needed; a worker's counts stay in its first-level cache. */
#define Q_BITS    12
#define Q_BUCKETS (1u << Q_BITS)
#define Q_BATCH   256
/* The counting way for at most this many ranks (they hold about ranks / Q_BUCKETS of the
 * keys); a full sort for more. */
#define Q_MAX_RANKS (Q_BUCKETS / 16)

/* A key of a wanted bucket. */
struct q_key {
	uint32_t prefix;
	uint64_t id; /* ids compare as the keys' 8 big-endian bytes: unsigned */
};

/* A worker's own counts and keys kept, a cache line apart from the others'. */
struct q_worker {
	_Alignas(HB_PAR_LINE) uint32_t hist[Q_BUCKETS];
	struct q_key *keep; /* room for every key of the wanted buckets */
	size_t nkeep;
};

struct quant {
	struct q_worker *wk;
	uint64_t hist[Q_BUCKETS];        /* all workers' counts */
	uint64_t at[Q_BUCKETS];          /* where a wanted bucket's kept keys go */
	uint64_t wanted[Q_BUCKETS / 64]; /* the buckets holding a wanted rank */
};

/* The next n keys of g counted by bucket. */
static void q_count_task(void *ctx, size_t w, struct hb_keygen *g, uint64_t n)
{
	struct quant *q = ctx;
	uint32_t p[Q_BATCH], *hist = q->wk[w].hist;
	uint64_t m, i;

	for (; n; n -= m) {
		m = n < Q_BATCH ? n : Q_BATCH;
		hb_keygen_md5_prefixes(g, p, (size_t)m);
		for (i = 0; i < m; i++)
			hist[p[i] >> (32 - Q_BITS)]++;
	}
}

/* The next n keys of g kept when they are of the wanted buckets. */
static void q_keep_task(void *ctx, size_t w, struct hb_keygen *g, uint64_t n)
{
	struct quant *q = ctx;
	struct q_worker *wk = &q->wk[w];
	uint32_t p[Q_BATCH];
	uint64_t m, i, id;

	for (; n; n -= m) {
		m = n < Q_BATCH ? n : Q_BATCH;
		id = (uint64_t)g->id;
		hb_keygen_md5_prefixes(g, p, (size_t)m);
		for (i = 0; i < m; i++) {
			uint32_t b = p[i] >> (32 - Q_BITS);

			if (q->wanted[b / 64] >> (b % 64) & 1)
				wk->keep[wk->nkeep++] = (struct q_key){p[i], id + i};
		}
	}
}

static inline int q_lt(struct q_key a, struct q_key b)
{
	return a.prefix < b.prefix || (a.prefix == b.prefix && a.id < b.id);
}

/* The key of rank r (from 0) among the n keys of x, which it reorders (Hoare's selection). */
static struct q_key q_select(struct q_key *x, size_t n, size_t r)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, i, j, k = (ptrdiff_t)r;
	struct q_key pv, t;

	while (lo < hi) {
		pv = x[lo + (hi - lo) / 2];
		i = lo;
		j = hi;
		do {
			while (q_lt(x[i], pv))
				i++;
			while (q_lt(pv, x[j]))
				j--;
			if (i <= j) {
				t = x[i], x[i] = x[j], x[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		/* x[lo .. j] <= pv <= x[i .. hi], anything between equal to pv */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return x[k];
}

/* The md5 generator's quantiles, by counting (see above); count < 2^32. */
static int md5_quantiles(struct hb_keys *out, const struct hb_keygen *g, uint64_t count,
                         uint64_t step, size_t threads, struct hb_error *err)
{
	struct quant *q = calloc(1, sizeof(*q));
	uint64_t *hist = q ? q->hist : NULL, r, cum, kept;
	struct q_key *keys = NULL;
	unsigned char k[16];
	size_t i, j, b;
	int rc = q ? 0 : HB_ENOMEM;

	if (!rc) {
		q->wk = hb_par_slots(threads, sizeof(*q->wk));
		rc = q->wk ? 0 : HB_ENOMEM;
	}
	if (!rc)
		rc = hb_keygen_run(g, count, threads, q_count_task, q, NULL, NULL, NULL);
	if (!rc) {
		for (i = 0; i < threads; i++)
			for (b = 0; b < Q_BUCKETS; b++)
				hist[b] += q->wk[i].hist[b];
		/* the buckets ranks 0, step, 2 step, .. fall in, and where their keys will go */
		for (b = 0, r = 0, cum = 0, kept = 0; b < Q_BUCKETS; cum += hist[b++])
			if (r < cum + hist[b]) {
				q->wanted[b / 64] |= 1ULL << (b % 64);
				r += (cum + hist[b] - r + step - 1) / step * step;
				q->at[b] = kept;
				kept += hist[b];
			}
		/* each worker's room, and the keys side by side, allocated here: no worker
		 * allocates
		 */
		keys = malloc((kept ? kept : 1) * sizeof(*keys));
		for (i = 0; keys && i < threads; i++)
			if (!(q->wk[i].keep = malloc((kept ? kept : 1) * sizeof(*keys))))
				break;
		rc = keys && i == threads ? 0 : HB_ENOMEM;
	}
	if (!rc)
		rc = hb_keygen_run(g, count, threads, q_keep_task, q, NULL, NULL, NULL);
	if (!rc) {
		/* the kept keys side by side by bucket, the wanted buckets in order */
		for (i = 0; i < threads; i++)
			for (j = 0; j < q->wk[i].nkeep; j++) {
				struct q_key x = q->wk[i].keep[j];

				keys[q->at[x.prefix >> (32 - Q_BITS)]++] = x;
			}
		/* rank r of bucket b is rank r - cum among its keys, which end at at[b] now */
		for (b = 0, r = 0, cum = 0; !rc && b < Q_BUCKETS; cum += hist[b++])
			for (; !rc && r < cum + hist[b]; r += step) {
				struct q_key x =
				    q_select(keys + q->at[b] - hist[b], hist[b], r - cum);

				hb_keygen_md5_key(k, x.prefix, (int64_t)x.id);
				rc = hb_keys_push(out, k, sizeof(k));
			}
	}
	for (i = 0; q && q->wk && i < threads; i++)
		free(q->wk[i].keep);
	if (q)
		free(q->wk);
	free(q);
	free(keys);
	return rc == HB_ENOMEM ? hb_error_set(err, HB_ENOMEM, "out of memory") : rc;
}

/* Any generator's quantiles: the whole sample made and sorted, every step-th distinct key of
 * it kept. */
static int sorted_quantiles(struct hb_keys *out, uint64_t *distinct, const struct hb_keygen *g,
                            uint64_t count, uint64_t step, size_t threads, struct hb_error *err)
{
	struct hb_keys all;
	const unsigned char *k, *prev = NULL;
	size_t i, len, plen = 0;
	uint64_t d = 0;
	int rc;

	hb_keys_init(&all);
	rc = hb_keygen_sample_sorted(&all, g, count, threads, err);
	for (i = 0; !rc && i < all.n; i++, prev = k, plen = len) {
		k = hb_keys_at(&all, i, &len);
		if (prev && !hb_key_cmp(prev, plen, k, len))
			continue; /* equal keys are side by side */
		if (d++ % step == 0 && hb_keys_push(out, k, len))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	*distinct = d;
	hb_keys_release(&all);
	return rc;
}

int hb_keygen_sample_quantiles(struct hb_keys *out, uint64_t *distinct, const struct hb_keygen *g,
                               uint64_t count, uint64_t step, size_t threads, struct hb_error *err)
{
	size_t first = out->n;
	int rc;

	*distinct = 0;
	rc = sample_size_check(count, err);
	if (rc || !count)
		return rc;
	step = step ? step : 1;
	threads = threads_in_range(threads);
	if (g->kind == HB_KEYGEN_MD5 && (count - 1) / step < Q_MAX_RANKS) {
		rc = md5_quantiles(out, g, count, step, threads, err);
		*distinct = count;
	} else {
		rc = sorted_quantiles(out, distinct, g, count, step, threads, err);
	}
	if (!rc && !first)
		out->ordered = out->n;
	return rc;
}
