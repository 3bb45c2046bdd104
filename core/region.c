/* Region lists in compact records, read back as struct hb_region views, and their ordering. */
#include "region.h"
#include "key.h"
#include "regioninfo.h"
#include "vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Record flags, kept in the top byte of state_flags. */
#define RF_OFFLINE    0x01u
#define RF_SPLIT      0x02u
#define RF_NAME_NONE  0x04u /* no name */
#define RF_NAME_CANON 0x08u /* the name is table,start,id[_rep].encoded. (rebuilt when read) */
#define RF_ENC_NONE   0x10u /* no encoded name */
#define RF_ENC_ARENA  0x20u /* not 32 hex digits: an arena string whose offset is in enc */
#define RF_SHIFT      24
#define STATE_MASK    0xffffffu

struct hb_region_rec {
	uint64_t id;
	uint32_t start, end;  /* arena offsets of the keys (0: the empty key) */
	uint32_t name;        /* arena offset of a stored name */
	uint32_t loc;         /* locs entry + 1 (server and start code), 0 = none */
	uint32_t state_flags; /* states entry + 1 in the low 24 bits, RF_* above */
	int32_t replica_id;
	unsigned char enc[16];
};

/* ---------------------------------------------------------------- the arena */

/* An arena entry is a LEB128 length, the bytes and a NUL (so strings read in place). */
static const unsigned char *entry(const struct hb_regions *rs, uint32_t off, size_t *len)
{
	const unsigned char *p = rs->arena + off;
	size_t n = 0;
	unsigned shift = 0;

	while (*p & 0x80) {
		n |= (size_t)(*p++ & 0x7f) << shift;
		shift += 7;
	}
	n |= (size_t)*p++ << shift;
	*len = n;
	return p;
}

static int arena_add(struct hb_regions *rs, const void *p, size_t n, uint32_t *off)
{
	unsigned char len[10];
	size_t k = 0, v = n, need;

	do {
		len[k] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			len[k] |= 0x80;
		k++;
	} while (v);
	need = rs->arena_len + k + n + 1;
	if (need < rs->arena_len || need > UINT32_MAX ||
	    HB_VEC_GROW(rs->arena, rs->arena_cap, need, 4096))
		return HB_ENOMEM;
	*off = (uint32_t)rs->arena_len;
	memcpy(rs->arena + rs->arena_len, len, k);
	if (n)
		memcpy(rs->arena + rs->arena_len + k, p, n);
	rs->arena[need - 1] = 0;
	rs->arena_len = need;
	return 0;
}

static int same(const struct hb_regions *rs, uint32_t off, const void *p, size_t n)
{
	size_t len;
	const unsigned char *e = entry(rs, off, &len);

	return len == n && (!n || !memcmp(e, p, n));
}

/* Stores key p: the empty key, or the bytes of an equal key of the previous region. */
static int key_add(struct hb_regions *rs, const void *p, size_t n, uint32_t *off)
{
	if (!n) {
		*off = 0;
		return 0;
	}
	if (rs->n) {
		const struct hb_region_rec *prev = &rs->rec[rs->n - 1];

		if (same(rs, prev->end, p, n)) {
			*off = prev->end;
			return 0;
		}
		if (same(rs, prev->start, p, n)) {
			*off = prev->start;
			return 0;
		}
	}
	return arena_add(rs, p, n, off);
}

/* ---------------------------------------------------------------- pools */

static uint32_t hash(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

static void pool_release(struct hb_region_pool *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	free(p->slot);
	memset(p, 0, sizeof(*p));
}

/* An entry is a 4-byte length, the bytes and a NUL. */
static const unsigned char *pool_bytes(const struct hb_region_pool *p, uint32_t idx, size_t *n)
{
	uint32_t len;

	memcpy(&len, p->v[idx], 4);
	*n = len;
	return p->v[idx] + 4;
}

static int pool_rehash(struct hb_region_pool *p, size_t nslot)
{
	uint32_t *slot = calloc(nslot, sizeof(*slot));
	size_t i;

	if (!slot)
		return HB_ENOMEM;
	for (i = 0; i < p->n; i++) {
		size_t n;
		const unsigned char *b = pool_bytes(p, (uint32_t)i, &n);
		size_t s = hash(b, n) & (nslot - 1);

		while (slot[s])
			s = (s + 1) & (nslot - 1);
		slot[s] = (uint32_t)i + 1;
	}
	free(p->slot);
	p->slot = slot;
	p->nslot = nslot;
	return 0;
}

/* The index of the entry holding bytes b (added when new) in *idx. HB_ENOMEM. */
static int pool_intern(struct hb_region_pool *p, const void *b, size_t n, size_t max, uint32_t *idx)
{
	size_t s;
	unsigned char *e;
	uint32_t len = (uint32_t)n;

	if (p->nslot) {
		for (s = hash(b, n) & (p->nslot - 1); p->slot[s]; s = (s + 1) & (p->nslot - 1)) {
			size_t en;
			const unsigned char *eb = pool_bytes(p, p->slot[s] - 1, &en);

			if (en == n && !memcmp(eb, b, n)) {
				*idx = p->slot[s] - 1;
				return 0;
			}
		}
	}
	if (p->n >= max || n > UINT32_MAX - 5 || HB_VEC_GROW(p->v, p->cap, p->n + 1, 8))
		return HB_ENOMEM;
	if ((p->n + 1) * 2 > p->nslot && pool_rehash(p, p->nslot ? p->nslot * 2 : 16))
		return HB_ENOMEM;
	e = malloc(n + 5);
	if (!e)
		return HB_ENOMEM;
	memcpy(e, &len, 4);
	if (n)
		memcpy(e + 4, b, n);
	e[4 + n] = 0;
	p->v[p->n] = e;
	for (s = hash(b, n) & (p->nslot - 1); p->slot[s]; s = (s + 1) & (p->nslot - 1))
		;
	p->slot[s] = (uint32_t)p->n + 1;
	*idx = (uint32_t)p->n++;
	return 0;
}

/* ---------------------------------------------------------------- the list */

void hb_regions_init(struct hb_regions *rs)
{
	memset(rs, 0, sizeof(*rs));
}

void hb_regions_release(struct hb_regions *rs)
{
	free(rs->rec);
	free(rs->arena);
	pool_release(&rs->locs);
	pool_release(&rs->states);
	hb_regions_init(rs);
}

void hb_region_release(struct hb_region *r)
{
	free(r->start);
	free(r->end);
	free(r->name);
	free(r->encoded);
	free(r->server);
	free(r->state);
	memset(r, 0, sizeof(*r));
}

/* Each byte's value as a lower-case hex digit, 0xff for any other byte. */
#define HEXV(c)                                                                                    \
	((c) >= '0' && (c) <= '9' ? (c) - '0' : (c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10 : 0xff)
#define HEXV_4(c)  HEXV(c), HEXV((c) + 1), HEXV((c) + 2), HEXV((c) + 3)
#define HEXV_16(c) HEXV_4(c), HEXV_4((c) + 4), HEXV_4((c) + 8), HEXV_4((c) + 12)
#define HEXV_64(c) HEXV_16(c), HEXV_16((c) + 16), HEXV_16((c) + 32), HEXV_16((c) + 48)
static const unsigned char hexv[256] = {HEXV_64(0), HEXV_64(64), HEXV_64(128), HEXV_64(192)};

/* Whether s is 32 lower-case hex digits and a NUL; their 16 bytes into md. */
static int hex32(const char *s, unsigned char md[16])
{
	const unsigned char *p = (const unsigned char *)s;
	int k;

	for (k = 0; k < 16; k++) {
		unsigned hi = hexv[p[2 * k]], lo;

		/* a NUL is no digit: a shorter string is read no further */
		if (hi == 0xff || (lo = hexv[p[2 * k + 1]]) == 0xff)
			return 0;
		md[k] = (unsigned char)(hi << 4 | lo);
	}
	return !p[32];
}

/* The tail ",id[_REPL].encoded." of a canonical name (Java's "%04X" replica) into out
 * (CANON_TAIL_MAX bytes), enc its 32 hex digits: its length. */
#define CANON_TAIL_MAX 64
static size_t canon_tail(char *out, uint64_t id, int replica_id, const char *enc)
{
	static const char hex[] = "0123456789ABCDEF";
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
	                            "25262728293031323334353637383940414243444546474849"
	                            "50515253545556575859606162636465666768697071727374"
	                            "75767778798081828384858687888990919293949596979899";
	char d[20];
	size_t i = sizeof(d), m;

	while (id >= 100) {
		unsigned r = (unsigned)(id % 100);

		id /= 100;
		i -= 2;
		memcpy(d + i, pairs + 2 * r, 2);
	}
	if (id >= 10) {
		i -= 2;
		memcpy(d + i, pairs + 2 * id, 2);
	} else {
		d[--i] = (char)('0' + id);
	}
	out[0] = ',';
	memcpy(out + 1, d + i, sizeof(d) - i);
	m = 1 + sizeof(d) - i;
	if (replica_id > 0) {
		unsigned v = (unsigned)replica_id;
		size_t w = 4;

		while (w < 8 && v >> (4 * w))
			w++;
		out[m++] = '_';
		for (i = w; i-- > 0; v >>= 4)
			out[m + i] = hex[v & 15];
		m += w;
	}
	out[m++] = '.';
	memcpy(out + m, enc, 32);
	out[m + 32] = '.';
	return m + 33;
}

/* The canonical name of rec (its start key k, its encoded name's hex enc) into out
 * (HB_REGION_NAME_INLINE bytes and a NUL): its length, or 0 when the list has no table prefix
 * or the name would not fit. */
static size_t canonical(const struct hb_regions *rs, const struct hb_region_rec *rec,
                        const unsigned char *k, size_t kn, const char *enc, unsigned char *out)
{
	size_t tn, n, m;
	const unsigned char *t;
	char tail[CANON_TAIL_MAX];

	if (!rs->prefix || (rec->state_flags >> RF_SHIFT) & (RF_ENC_NONE | RF_ENC_ARENA))
		return 0;
	t = entry(rs, rs->prefix, &tn);
	m = canon_tail(tail, rec->id, rec->replica_id, enc);
	n = tn + 1 + kn + m;
	if (n > HB_REGION_NAME_INLINE)
		return 0;
	memcpy(out, t, tn);
	out[tn] = ',';
	if (kn)
		memcpy(out + tn + 1, k, kn);
	memcpy(out + tn + 1 + kn, tail, m);
	out[n] = 0;
	return n;
}

/* Whether r's name is its canonical name in rs (rec: r's record so far). With the producer's
 * word for it (r->name_canonical), only the table part and the length are compared. */
static int name_is_canonical(const struct hb_regions *rs, const struct hb_region_rec *rec,
                             const struct hb_region *r)
{
	unsigned char canon[HB_REGION_NAME_INLINE + 1];
	size_t tn, kn = r->start ? r->start_len : 0, cn;
	const unsigned char *t;
	char tail[CANON_TAIL_MAX];

	if (!r->name_canonical) {
		cn = canonical(rs, rec, r->start, kn, r->encoded, canon);
		return cn && cn == r->name_len && !memcmp(canon, r->name, cn);
	}
	if (!rs->prefix || (rec->state_flags >> RF_SHIFT) & (RF_ENC_NONE | RF_ENC_ARENA))
		return 0;
	t = entry(rs, rs->prefix, &tn);
	cn = tn + 1 + kn + canon_tail(tail, rec->id, rec->replica_id, r->encoded);
	return cn <= HB_REGION_NAME_INLINE && cn == r->name_len && !memcmp(r->name, t, tn) &&
	       r->name[tn] == ',';
}

/* Notes the table part of the first region name as the list's prefix. */
static int learn_prefix(struct hb_regions *rs, const unsigned char *name, size_t n)
{
	const unsigned char *comma = memchr(name, ',', n);

	if (rs->prefix || !comma || comma == name)
		return 0;
	return arena_add(rs, name, (size_t)(comma - name), &rs->prefix);
}

int hb_regions_push(struct hb_regions *rs, const struct hb_region *r)
{
	struct hb_region_rec rec;
	unsigned flags = 0;
	uint32_t idx;

	if (!rs->arena_len && arena_add(rs, NULL, 0, &idx)) /* offset 0: the empty key */
		return HB_ENOMEM;
	if (HB_VEC_GROW(rs->rec, rs->cap, rs->n + 1, 64))
		return HB_ENOMEM;
	memset(&rec, 0, sizeof(rec));
	rec.id = r->id;
	rec.replica_id = r->replica_id;
	if (key_add(rs, r->start, r->start ? r->start_len : 0, &rec.start) ||
	    key_add(rs, r->end, r->end ? r->end_len : 0, &rec.end))
		return HB_ENOMEM;
	if (r->offline)
		flags |= RF_OFFLINE;
	if (r->split)
		flags |= RF_SPLIT;
	if (!r->encoded) {
		flags |= RF_ENC_NONE;
	} else if (!hex32(r->encoded, rec.enc)) {
		memset(rec.enc, 0, sizeof(rec.enc));
		if (arena_add(rs, r->encoded, strlen(r->encoded), &idx))
			return HB_ENOMEM;
		memcpy(rec.enc, &idx, sizeof(idx));
		flags |= RF_ENC_ARENA;
	}
	rec.state_flags = (uint32_t)flags << RF_SHIFT;
	if (!r->name) {
		rec.state_flags |= RF_NAME_NONE << RF_SHIFT;
	} else {
		if (learn_prefix(rs, r->name, r->name_len))
			return HB_ENOMEM;
		if (name_is_canonical(rs, &rec, r))
			rec.state_flags |= RF_NAME_CANON << RF_SHIFT;
		else if (arena_add(rs, r->name, r->name_len, &rec.name))
			return HB_ENOMEM;
	}
	if (r->server || r->start_code) {
		unsigned char loc[9 + 512], *b = loc;
		size_t n = r->server ? strlen(r->server) : 0;
		int rc;

		if (9 + n > sizeof(loc) && !(b = malloc(9 + n)))
			return HB_ENOMEM;
		b[0] = r->server != NULL;
		memcpy(b + 1, &r->start_code, 8);
		if (n)
			memcpy(b + 9, r->server, n);
		rc = pool_intern(&rs->locs, b, 9 + n, UINT32_MAX - 1, &idx);
		if (b != loc)
			free(b);
		if (rc)
			return rc;
		rec.loc = idx + 1;
	}
	if (r->state) {
		if (pool_intern(&rs->states, r->state, strlen(r->state), STATE_MASK - 1, &idx))
			return HB_ENOMEM;
		rec.state_flags |= idx + 1;
	}
	rs->rec[rs->n++] = rec;
	return 0;
}

/* rec's encoded name and name into v->r (a canonical name rebuilt in v). */
static void region_names(const struct hb_regions *rs, const struct hb_region_rec *rec,
                         struct hb_region_view *v)
{
	unsigned flags = rec->state_flags >> RF_SHIFT;
	struct hb_region *r = &v->r;
	size_t n;

	if (flags & RF_ENC_ARENA) {
		uint32_t off;

		memcpy(&off, rec->enc, sizeof(off));
		r->encoded = (char *)entry(rs, off, &n);
	} else if (!(flags & RF_ENC_NONE)) {
		hb_region_encoded_hex(v->encoded, rec->enc);
		r->encoded = v->encoded;
	}
	if (flags & RF_NAME_CANON) {
		r->name_len = canonical(rs, rec, r->start, r->start_len, v->encoded, v->name);
		r->name = v->name;
		r->name_canonical = 1;
	} else if (!(flags & RF_NAME_NONE)) {
		r->name = (unsigned char *)entry(rs, rec->name, &r->name_len);
	}
}

/* Region i into v; its names only when names is set. */
static const struct hb_region *region_at(const struct hb_regions *rs, size_t i,
                                         struct hb_region_view *v, int names)
{
	const struct hb_region_rec *rec = &rs->rec[i];
	unsigned flags = rec->state_flags >> RF_SHIFT;
	struct hb_region *r = &v->r;
	size_t n;

	memset(r, 0, sizeof(*r));
	r->start = (unsigned char *)entry(rs, rec->start, &r->start_len);
	r->end = (unsigned char *)entry(rs, rec->end, &r->end_len);
	r->id = rec->id;
	r->replica_id = rec->replica_id;
	r->offline = !!(flags & RF_OFFLINE);
	r->split = !!(flags & RF_SPLIT);
	if (names)
		region_names(rs, rec, v);
	if (rec->loc) {
		const unsigned char *b = pool_bytes(&rs->locs, rec->loc - 1, &n);

		memcpy(&r->start_code, b + 1, 8);
		if (b[0])
			r->server = (char *)b + 9;
	}
	if (rec->state_flags & STATE_MASK)
		r->state = (char *)pool_bytes(&rs->states, (rec->state_flags & STATE_MASK) - 1, &n);
	return r;
}

const struct hb_region *hb_regions_at(const struct hb_regions *rs, size_t i,
                                      struct hb_region_view *v)
{
	return region_at(rs, i, v, 1);
}

const struct hb_region *hb_regions_at_unnamed(const struct hb_regions *rs, size_t i,
                                              struct hb_region_view *v)
{
	return region_at(rs, i, v, 0);
}

void hb_regions_bounds(const struct hb_regions *rs, size_t i, const unsigned char **start,
                       size_t *start_len, const unsigned char **end, size_t *end_len)
{
	*start = entry(rs, rs->rec[i].start, start_len);
	*end = entry(rs, rs->rec[i].end, end_len);
}

size_t hb_regions_lower_bound(const struct hb_regions *rs, const unsigned char *k, size_t n)
{
	size_t lo = 0, hi = rs->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, sl, el;
		const unsigned char *s, *e;

		hb_regions_bounds(rs, mid, &s, &sl, &e, &el);
		if (hb_key_cmp(s, sl, k, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int hb_regions_set_state(struct hb_regions *rs, size_t i, const char *state)
{
	uint32_t idx = 0;

	if (state) {
		if (pool_intern(&rs->states, state, strlen(state), STATE_MASK - 1, &idx))
			return HB_ENOMEM;
		idx++;
	}
	rs->rec[i].state_flags = (rs->rec[i].state_flags & ~STATE_MASK) | idx;
	return 0;
}

void hb_regions_move(struct hb_regions *rs, size_t dst, size_t src)
{
	rs->rec[dst] = rs->rec[src];
}

void hb_regions_truncate(struct hb_regions *rs, size_t n)
{
	if (n < rs->n)
		rs->n = n;
}

/* ---------------------------------------------------------------- ordering */

static int rec_cmp(const struct hb_regions *rs, const struct hb_region_rec *x,
                   const struct hb_region_rec *y)
{
	size_t xl, yl;
	const unsigned char *xk, *yk;
	int c;

	if (x->start != y->start) {
		xk = entry(rs, x->start, &xl);
		yk = entry(rs, y->start, &yl);
		c = hb_key_cmp(xk, xl, yk, yl);
		if (c)
			return c;
	}
	if (x->end != y->end) {
		xk = entry(rs, x->end, &xl);
		yk = entry(rs, y->end, &yl);
		if (!xl != !yl)
			return xl ? -1 : 1; /* an empty end is +infinity */
		c = hb_key_cmp(xk, xl, yk, yl);
		if (c)
			return c;
	}
	return x->id < y->id ? -1 : x->id > y->id;
}

static void sift(struct hb_regions *rs, size_t root, size_t n)
{
	struct hb_region_rec *v = rs->rec;

	for (;;) {
		size_t child = 2 * root + 1;
		struct hb_region_rec t;

		if (child >= n)
			return;
		if (child + 1 < n && rec_cmp(rs, &v[child], &v[child + 1]) < 0)
			child++;
		if (rec_cmp(rs, &v[root], &v[child]) >= 0)
			return;
		t = v[root];
		v[root] = v[child];
		v[child] = t;
		root = child;
	}
}

/* Merge sort of the positions in idx (tmp: as many), stable. */
static void sort_idx(const struct hb_regions *rs, uint32_t *idx, uint32_t *tmp, size_t n)
{
	size_t w, lo;

	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t a = lo, b = mid, o = lo;

			while (a < mid && b < hi)
				tmp[o++] = rec_cmp(rs, &rs->rec[idx[b]], &rs->rec[idx[a]]) < 0
				               ? idx[b++]
				               : idx[a++];
			while (a < mid)
				tmp[o++] = idx[a++];
			while (b < hi)
				tmp[o++] = idx[b++];
		}
		memcpy(idx, tmp, n * sizeof(*idx));
	}
}

void hb_regions_sort(struct hb_regions *rs)
{
	size_t i, n = rs->n;
	uint32_t *idx, *tmp;

	/* Lists arrive in hbase:meta's order, which is this one but for the daughter that
	 * shares its split parent's start: check before sorting. */
	for (i = 1; i < n && rec_cmp(rs, &rs->rec[i - 1], &rs->rec[i]) <= 0; i++)
		;
	if (i >= n)
		return;
	/* A stable sort of positions (8 bytes a region, not a copy of the records), then the
	 * records are moved along the permutation's cycles. */
	idx = n <= UINT32_MAX ? malloc(n * sizeof(*idx)) : NULL;
	tmp = idx ? malloc(n * sizeof(*tmp)) : NULL;
	if (!tmp) {
		free(idx);
		/* no memory to spare: heapsort in place (equal regions may change places) */
		for (i = n / 2; i-- > 0;)
			sift(rs, i, n);
		for (i = n; i-- > 1;) {
			struct hb_region_rec t = rs->rec[0];

			rs->rec[0] = rs->rec[i];
			rs->rec[i] = t;
			sift(rs, 0, i);
		}
		return;
	}
	for (i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	sort_idx(rs, idx, tmp, n);
	free(tmp);
	for (i = 0; i < n; i++) {
		struct hb_region_rec t;
		size_t j = i;

		if (idx[i] == i)
			continue;
		t = rs->rec[i];
		for (;;) {
			size_t next = idx[j];

			idx[j] = (uint32_t)j;
			if (next == i) {
				rs->rec[j] = t;
				break;
			}
			rs->rec[j] = rs->rec[next];
			j = next;
		}
	}
	free(idx);
}
