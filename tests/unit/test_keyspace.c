/* Key-space grammar, canonical form, and exact reachability/counting against brute force. */
#include "core/key.h"
#include "core/keyspace.h"
#include "test.h"

#include <math.h>
#include <stdint.h>

static struct hb_error err;

static struct hb_keyspace *ks_new(const char *spec)
{
	struct hb_keyspace *ks = NULL;

	memset(&err, 0, sizeof(err));
	if (hb_keyspace_parse(&ks, spec, &err)) {
		fprintf(stderr, "parse '%s': %s\n", spec, err.msg);
		return NULL;
	}
	return ks;
}

static const char *parse_error(const char *spec)
{
	struct hb_keyspace *ks = NULL;

	memset(&err, 0, sizeof(err));
	if (!hb_keyspace_parse(&ks, spec, &err)) {
		hb_keyspace_free(ks);
		return "(accepted)";
	}
	return err.code == HB_EINVAL ? err.msg : "(wrong code)";
}

static char *canon(const char *spec)
{
	static struct hb_buf b = HB_BUF_INIT;
	struct hb_keyspace *ks = ks_new(spec);

	hb_buf_reset(&b);
	if (!ks)
		return NULL;
	hb_keyspace_format(&b, ks);
	hb_keyspace_free(ks);
	return (char *)hb_buf_str(&b);
}

static void test_keyspace__accepts_the_documented_examples(void)
{
	static const char *ok[] = {"hex{16}",
	                           "hex{1,16}",
	                           "hex{8} byte{8}",
	                           "u64<20 *",
	                           "u64<20 byte{8}",
	                           "u8<16 *",
	                           "dec{6} dec{8} dec{6}",
	                           "HEX{8}",
	                           "alnum{0,4} print",
	                           "[0-9a-z_]{4}",
	                           "[\\x00-\\x1F\\]\\\\\\-]",
	                           "*",
	                           "u64<0x14",
	                           "u64<18446744073709551616",
	                           "u8<256",
	                           "  hex{2}   dec  "};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(ok); i++)
		CHECK_EQ_STR(parse_error(ok[i]), "(accepted)");
}

static void test_keyspace__rejects_bad_specs_with_column_and_expectation(void)
{
	CHECK_EQ_STR(parse_error("hex{1,}"), "column 7: expected a number");
	CHECK_EQ_STR(parse_error(""), "column 1: empty key space (expected a field)");
	CHECK_EQ_STR(parse_error("   "), "column 1: empty key space (expected a field)");
	CHECK_EQ_STR(parse_error("hex{8} foo{2}"),
	             "column 8: unknown field 'foo' (expected hex, HEX, dec, alnum, print, byte, "
	             "[...], u8<N, u16<N, u32<N, u64<N or *)");
	CHECK_EQ_STR(parse_error("hex{5,3}"),
	             "column 5: minimum length is larger than the maximum");
	CHECK_EQ_STR(parse_error("hex{0}"), "column 5: length must be at least 1");
	CHECK_EQ_STR(parse_error("hex{0,0}"), "column 7: maximum length must be at least 1");
	CHECK_EQ_STR(parse_error("* hex"), "column 1: '*' must be the last field");
	CHECK_EQ_STR(parse_error("[z-a]"), "column 2: bad range 'z-a' (start after end)");
	CHECK_EQ_STR(parse_error("[]"), "column 1: empty charset");
	CHECK_EQ_STR(parse_error("[ab"), "column 4: expected ']'");
	CHECK_EQ_STR(parse_error("[a\\q]"),
	             "column 3: unknown escape (expected \\xHH, \\], \\\\ or \\-)");
	CHECK_EQ_STR(parse_error("[\\xG0]"), "column 2: expected two hex digits after '\\x'");
	CHECK_EQ_STR(parse_error("[-a]"),
	             "column 2: '-' must stand between two characters or be escaped as \\-");
	CHECK_EQ_STR(parse_error("u8<0"), "column 4: the bound N must be at least 1");
	CHECK_EQ_STR(parse_error("u8<257"),
	             "column 4: the bound N is too large for u8 (at most 2^8)");
	CHECK_EQ_STR(parse_error("u64<18446744073709551617"),
	             "column 5: the bound N is too large for u64 (at most 2^64)");
	CHECK_EQ_STR(parse_error("u16<"), "column 5: expected a number");
	CHECK_EQ_STR(parse_error("u12<3"),
	             "column 1: unknown field 'u12' (expected hex, HEX, dec, alnum, print, byte, "
	             "[...], u8<N, u16<N, u32<N, u64<N or *)");
	CHECK_EQ_STR(parse_error("hex{8}byte{8}"), "column 7: expected a space between fields");
	CHECK_EQ_STR(parse_error("byte{32767} byte"),
	             "column 1: keys can be 32768 bytes long, more than HBase's maximum row length "
	             "32767");
	CHECK_EQ_STR(parse_error("hex{40000}"),
	             "column 5: length exceeds HBase's maximum row length 32767");
	CHECK_EQ_STR(parse_error("hex{1 }"), "column 6: expected ',' or '}'");
}

static void test_keyspace__canonical_form_normalizes_fields(void)
{
	CHECK_EQ_STR(canon("  hex{1}   dec{2,2} "), "hex dec{2}");
	CHECK_EQ_STR(canon("[a-f0-9]{16}"), "hex{16}");
	CHECK_EQ_STR(canon("[cba_]{1,3}"), "[_a-c]{1,3}");
	CHECK_EQ_STR(canon("[ab] [\\x00-\\xFF]{2}"), "[ab] byte{2}");
	CHECK_EQ_STR(canon("[\\]\\\\\\- ]"), "[\\x20\\-\\\\\\]]");
	CHECK_EQ_STR(canon("u64<0x14 *"), "u64<20 *");
	CHECK_EQ_STR(canon("u8<256"), "byte");
	CHECK_EQ_STR(canon("u16<65536 u32<7"), "byte{2} u32<7");
	{
		struct hb_keyspace *a = ks_new("hex{8} hex{8}"), *b = ks_new("[0-9a-f]{16}");
		struct hb_keyspace *c = ks_new("hex{16} byte"), *d = ks_new("hex{16} u8<256");
		struct hb_keyspace *e = ks_new("hex{1,16}");

		CHECK(a && b && c && d && e);
		if (a && b && c && d && e) {
			CHECK(hb_keyspace_same(a, b));
			CHECK(hb_keyspace_same(c, d));
			CHECK(!hb_keyspace_same(a, c));
			CHECK(!hb_keyspace_same(a, e));
		}
		hb_keyspace_free(a);
		hb_keyspace_free(b);
		hb_keyspace_free(c);
		hb_keyspace_free(d);
		hb_keyspace_free(e);
	}
}

/* ------------------------------------------------------------------ brute force */

enum bf_kind { BF_CLASS, BF_UINT, BF_STAR };

struct bf_field {
	enum bf_kind kind;
	const char *alpha; /* CLASS: the letters (NUL-free, or "\x01" placeholder below) */
	size_t alen;
	int min, max;
	int width;
	unsigned long n; /* UINT: bound */
};

struct bf_case {
	const char *spec;
	struct bf_field f[4];
	int nf;
};

#define C(a, lo, hi)                                                                               \
	{                                                                                          \
		BF_CLASS, (a), sizeof(a) - 1, (lo), (hi), 0, 0                                     \
	}
#define U(w, n)                                                                                    \
	{                                                                                          \
		BF_UINT, NULL, 0, 0, 0, (w), (n)                                                   \
	}
#define S                                                                                          \
	{                                                                                          \
		BF_STAR, NULL, 0, 0, 0, 0, 0                                                       \
	}

static const struct bf_case bf_cases[] = {
    {"[ab]{1,3} [0-2]{0,2}", {C("ab", 1, 3), C("012", 0, 2)}, 2},
    {"u8<5", {U(1, 5)}, 1},
    {"u16<7", {U(2, 7)}, 1},
    {"u16<300", {U(2, 300)}, 1},
    {"[ab]{1,2} [a-c]{0,2}", {C("ab", 1, 2), C("abc", 0, 2)}, 2},
    {"[ab]{0,2} [ab]{1,2}", {C("ab", 0, 2), C("ab", 1, 2)}, 2},
    {"[0-2]{0,2} *", {C("012", 0, 2), S}, 2},
    {"u8<5 *", {U(1, 5), S}, 2},
    {"u8<3 [ab]{0,2} *", {U(1, 3), C("ab", 0, 2), S}, 3},
    {"[\\x00\\xFF]{1,3}", {C("\x00\xff", 1, 3)}, 1},
    {"u8<5 [a-c]{1,2} u8<2", {U(1, 5), C("abc", 1, 2), U(1, 2)}, 3},
    {"[a-c]{0,1} [bc]{0,1} [ab]{1,2}", {C("abc", 0, 1), C("bc", 0, 1), C("ab", 1, 2)}, 3},
    {"byte [ab]{0,1}", {C("", 1, 1), C("ab", 0, 1)}, 2}, /* "" = all 256 bytes */
    {"*", {S}, 1},
    {"[a1]{0,2} *", {C("a1", 0, 2), S}, 2},
    {"u16<7 u8<3", {U(2, 7), U(1, 3)}, 2},
    {"[ab]{0,3}", {C("ab", 0, 3)}, 1},
    {"u16<300 [ab]{0,1} u8<2", {U(2, 300), C("ab", 0, 1), U(1, 2)}, 3},
    {"[a-c]{1,3} [ab]{1,3} [bc]{0,2}", {C("abc", 1, 3), C("ab", 1, 3), C("bc", 0, 2)}, 3},
    {"[ab]{2,4} [a\\x00]{0,3} *", {C("ab", 2, 4), C("a\x00", 0, 3), S}, 3},
    {"u8<3 u16<260 [\\x00-\\x02]{0,2}", {U(1, 3), U(2, 260), C("\x00\x01\x02", 0, 2)}, 3},
};

struct bf_key {
	unsigned char b[16];
	size_t n;
};

struct bf_set {
	struct bf_key *v;
	size_t n, cap;
	int star;
	int has_empty;
};

static void bf_push(struct bf_set *s, const unsigned char *k, size_t n)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
	}
	memcpy(s->v[s->n].b, k, n);
	s->v[s->n].n = n;
	s->n++;
}

static void bf_gen(struct bf_set *s, const struct bf_case *c, int fi, unsigned char *buf, size_t n)
{
	const struct bf_field *f;
	int len;

	/* The bound on the array size also tells GCC's bounds analysis that fi stays in range. */
	if (fi >= c->nf || fi >= (int)(sizeof(c->f) / sizeof(c->f[0])) ||
	    c->f[fi].kind == BF_STAR) {
		if (fi < c->nf)
			s->star = 1;
		bf_push(s, buf, n);
		return;
	}
	f = &c->f[fi];
	if (f->kind == BF_UINT) {
		unsigned long v;
		int k;

		for (v = 0; v < f->n; v++) {
			for (k = 0; k < f->width; k++)
				buf[n + (size_t)k] =
				    (unsigned char)(v >> (8 * (f->width - 1 - k)) & 0xff);
			bf_gen(s, c, fi + 1, buf, n + (size_t)f->width);
		}
		return;
	}
	for (len = f->min; len <= f->max; len++) {
		size_t alen = f->alen ? f->alen : 256, idx[8] = {0};
		int k;

		for (;;) {
			for (k = 0; k < len; k++)
				buf[n + (size_t)k] = f->alen ? (unsigned char)f->alpha[idx[k]]
				                             : (unsigned char)idx[k];
			bf_gen(s, c, fi + 1, buf, n + (size_t)len);
			for (k = len - 1; k >= 0; k--) {
				if (++idx[k] < alen)
					break;
				idx[k] = 0;
			}
			if (k < 0)
				break;
		}
	}
}

static int bf_cmp(const void *x, const void *y)
{
	const struct bf_key *a = x, *b = y;

	return hb_key_cmp(a->b, a->n, b->b, b->n);
}

static void bf_build(struct bf_set *s, const struct bf_case *c)
{
	unsigned char buf[32];
	size_t i, o = 0;

	memset(s, 0, sizeof(*s));
	bf_gen(s, c, 0, buf, 0);
	qsort(s->v, s->n, sizeof(*s->v), bf_cmp);
	for (i = 0; i < s->n; i++) {
		if (s->v[i].n == 0) {
			s->has_empty = 1;
			continue;
		}
		if (o && !bf_cmp(&s->v[o - 1], &s->v[i]))
			continue;
		s->v[o++] = s->v[i];
	}
	s->n = o;
}

/* Index of the first key >= x. */
static size_t bf_lower(const struct bf_set *s, const unsigned char *x, size_t n)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (hb_key_cmp(s->v[mid].b, s->v[mid].n, x, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The expected smallest key >= x of the full key space; returns 0 when there is none. */
static int bf_first(const struct bf_set *s, const unsigned char *x, size_t n, struct bf_key *out)
{
	size_t i = bf_lower(s, x, n);

	if (s->star) {
		size_t j;

		if (s->has_empty) {
			if (n) {
				memcpy(out->b, x, n);
				out->n = n;
			} else {
				out->b[0] = 0;
				out->n = 1;
			}
			return 1;
		}
		for (j = 0; j < s->n; j++)
			if (s->v[j].n <= n && !memcmp(s->v[j].b, x, s->v[j].n)) {
				memcpy(out->b, x, n);
				out->n = n;
				return 1;
			}
	}
	if (i == s->n)
		return 0;
	*out = s->v[i];
	return 1;
}

static unsigned long rng_state = 12345;

static unsigned long rnd(unsigned long n)
{
	rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
	return (rng_state >> 33) % n;
}

static void check_case(const struct bf_case *c, int rounds)
{
	static const unsigned char uni[] = {0x00, 0x01, 0x02, 0x04, 0x06, 0x2b, 0x2c, '0',  '1',
	                                    '2',  '3',  'a',  'b',  'c',  'd',  0x7f, 0xfe, 0xff};
	struct hb_keyspace *ks = ks_new(c->spec);
	struct bf_set s;
	mpz_t got, total;
	int r;

	CHECK(ks != NULL);
	if (!ks)
		return;
	bf_build(&s, c);
	mpz_init(got);
	mpz_init(total);
	CHECK_EQ_INT(hb_keyspace_total(ks, total, &err), 0);
	if (mpz_cmp_ui(total, s.n)) {
		fprintf(stderr, "%s: total %lu, brute force %zu\n", c->spec, mpz_get_ui(total),
		        s.n);
		CHECK(0);
	}
	for (r = 0; r < rounds; r++) {
		struct bf_key sp[9];
		size_t nsp = rnd(9), i, k, o = 0;

		for (i = 0; i < nsp; i++) {
			sp[i].n = 1 + rnd(4);
			for (k = 0; k < sp[i].n; k++)
				sp[i].b[k] = uni[rnd(sizeof(uni))];
			/* Sometimes take a real key, or a key with one byte changed. */
			if (s.n && rnd(3) == 0) {
				sp[i] = s.v[rnd(s.n)];
				if (rnd(2) && sp[i].n)
					sp[i].b[rnd(sp[i].n)] = uni[rnd(sizeof(uni))];
			}
		}
		qsort(sp, nsp, sizeof(sp[0]), bf_cmp);
		for (i = 0; i < nsp; i++)
			if (!o || bf_cmp(&sp[o - 1], &sp[i]))
				sp[o++] = sp[i];
		nsp = o;
		for (i = 0; i <= nsp; i++) {
			const unsigned char *st = i ? sp[i - 1].b : NULL,
			                    *en = i < nsp ? sp[i].b : NULL;
			size_t sl = i ? sp[i - 1].n : 0, el = i < nsp ? sp[i].n : 0;
			size_t lo = bf_lower(&s, st, sl), hi = en ? bf_lower(&s, en, el) : s.n;
			struct bf_key fk;
			int has = bf_first(&s, st, sl, &fk);
			int want_reach = has && (!en || hb_key_cmp(fk.b, fk.n, en, el) < 0);
			struct hb_buf first = HB_BUF_INIT;
			int reach = -1;

			CHECK_EQ_INT(
			    hb_keyspace_region(ks, &reach, got, &first, st, sl, en, el, &err), 0);
			if (reach != want_reach || mpz_cmp_ui(got, hi - lo) ||
			    (has && hb_key_cmp(first.data, first.len, fk.b, fk.n)) ||
			    (!has && first.len)) {
				struct hb_buf t = HB_BUF_INIT;

				hb_tsb_append(&t, st, sl);
				hb_buf_adds(&t, " .. ");
				hb_tsb_append(&t, en, el);
				hb_buf_adds(&t, " first ");
				hb_tsb_append(&t, first.data, first.len);
				fprintf(stderr,
				        "%s: region [%s): reach %d want %d, keys %lu want %zu\n",
				        c->spec, hb_buf_str(&t), reach, want_reach, mpz_get_ui(got),
				        hi - lo);
				hb_buf_release(&t);
				CHECK(0);
			}
			hb_buf_release(&first);
		}
	}
	mpz_clear(got);
	mpz_clear(total);
	free(s.v);
	hb_keyspace_free(ks);
}

static void test_keyspace__reachability_and_counts_match_brute_force(void)
{
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(bf_cases); i++)
		check_case(&bf_cases[i], 300);
}

/* ------------------------------------------------------------------ documented cases */

struct region_out {
	int reach[16];
	mpz_t keys[16];
	mpz_t total;
	size_t n;
};

static int audit_splits(struct region_out *out, const char *spec, const char *const *tsb,
                        size_t nsplits, struct hb_keys *raw)
{
	struct hb_keyspace *ks = ks_new(spec);
	struct hb_keys keys;
	size_t i;

	hb_keys_init(&keys);
	if (!ks)
		return -1;
	for (i = 0; i < nsplits; i++) {
		struct hb_buf b = HB_BUF_INIT;

		hb_tbb_parse(&b, tsb[i], strlen(tsb[i]), &err);
		hb_keys_push(&keys, b.data, b.len);
		hb_buf_release(&b);
	}
	if (raw)
		for (i = 0; i < raw->n; i++) {
			size_t l;
			const unsigned char *k = hb_keys_at(raw, i, &l);

			hb_keys_push(&keys, k, l);
		}
	out->n = keys.n + 1;
	mpz_init(out->total);
	hb_keyspace_total(ks, out->total, &err);
	for (i = 0; i < out->n; i++) {
		size_t sl = 0, el = 0;
		const unsigned char *st = i ? hb_keys_at(&keys, i - 1, &sl) : NULL;
		const unsigned char *en = i < keys.n ? hb_keys_at(&keys, i, &el) : NULL;

		mpz_init(out->keys[i]);
		if (hb_keyspace_region(ks, &out->reach[i], out->keys[i], NULL, st, sl, en, el,
		                       &err))
			return -1;
	}
	hb_keys_release(&keys);
	hb_keyspace_free(ks);
	return 0;
}

static void region_out_release(struct region_out *o)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		mpz_clear(o->keys[i]);
	mpz_clear(o->total);
}

static const char *const seed001[] = {
    "0000000000000000",
    "6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6",
    "=\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBC",
    "D\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x82",
    "KKKKKKKKKKKKKKKH",
    "R\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x0E",
    "X\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD4",
    "_\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9A",
    "ffffffffffffffff",
};

static void test_keyspace__seed001_createtable_regions_unreachable_for_hex16(void)
{
	struct region_out o;
	static const int want[10] = {0, 1, 1, 0, 0, 0, 0, 0, 1, 1};
	mpz_t x, w;
	size_t i;

	CHECK_EQ_INT(audit_splits(&o, "hex{16}", seed001, 9, NULL), 0);
	CHECK_EQ_INT(o.n, 10);
	for (i = 0; i < 10; i++)
		CHECK_EQ_INT(o.reach[i], want[i]);
	/* §11: regions 1, 2, 8 get 7/16, 3/16 and 6/16 - 1 key; region 9 only f...f. */
	mpz_init(x);
	mpz_init(w);
	mpz_ui_pow_ui(x, 16, 15);
	mpz_mul_ui(w, x, 7);
	CHECK(mpz_cmp(o.keys[1], w) == 0);
	mpz_mul_ui(w, x, 3);
	CHECK(mpz_cmp(o.keys[2], w) == 0);
	mpz_mul_ui(w, x, 6);
	mpz_sub_ui(w, w, 1);
	CHECK(mpz_cmp(o.keys[8], w) == 0);
	CHECK(mpz_cmp_ui(o.keys[9], 1) == 0);
	CHECK(mpz_cmp_ui(o.keys[0], 0) == 0);
	for (i = 3; i <= 7; i++)
		CHECK(mpz_cmp_ui(o.keys[i], 0) == 0);
	CHECK(fabs(hb_mpz_ratio(o.keys[1], o.total) - 7.0 / 16) < 1e-12);
	mpz_clear(x);
	mpz_clear(w);
	region_out_release(&o);
}

static void test_keyspace__seed001_createtable_regions_unreachable_for_hex1_16(void)
{
	struct region_out o;
	static const int want[10] = {1, 1, 1, 0, 0, 0, 0, 0, 1, 1};
	size_t i;

	CHECK_EQ_INT(audit_splits(&o, "hex{1,16}", seed001, 9, NULL), 0);
	for (i = 0; i < 10; i++)
		CHECK_EQ_INT(o.reach[i], want[i]);
	CHECK(mpz_cmp_ui(o.keys[0], 15) == 0); /* the 15 short all-zero keys */
	region_out_release(&o);
}

static void test_keyspace__uniform_n10_vs_md5_prefix_key(void)
{
	struct region_out o;
	struct hb_keys raw;
	static const int want[10] = {0, 1, 1, 1, 1, 0, 0, 0, 0, 0};
	uint64_t step = UINT64_MAX / 10; /* floor(2^64 / 10): 2^64 is not a multiple of 10 */
	mpz_t w;
	int i, k;

	hb_keys_init(&raw);
	for (i = 1; i <= 9; i++) {
		unsigned char b[8];
		uint64_t v = step * (uint64_t)i;

		for (k = 0; k < 8; k++)
			b[k] = (unsigned char)(v >> (56 - 8 * k));
		hb_keys_push(&raw, b, 8);
	}
	CHECK_EQ_INT(audit_splits(&o, "hex{8} byte{8}", NULL, 0, &raw), 0);
	for (i = 0; i < 10; i++)
		CHECK_EQ_INT(o.reach[i], want[i]);
	CHECK(fabs(hb_mpz_ratio(o.keys[1], o.total) - 0.200) < 1e-6);
	CHECK(fabs(hb_mpz_ratio(o.keys[2], o.total) - 0.425) < 1e-6);
	CHECK(fabs(hb_mpz_ratio(o.keys[3], o.total) - 0.375) < 1e-6);
	mpz_init(w);
	mpz_ui_pow_ui(w, 256, 8);
	mpz_mul_ui(w, w, 3); /* ffffffff, fffffffe, fffffffd with any 8-byte id */
	CHECK(mpz_cmp(o.keys[4], w) == 0);
	mpz_clear(w);
	region_out_release(&o);
	hb_keys_release(&raw);
}

static void test_keyspace__hexstringsplit_n10_vs_upper_case_keys(void)
{
	static const char *const hex10[] = {"19999999", "33333332", "4ccccccb",
	                                    "66666664", "7ffffffd", "99999996",
	                                    "b333332f", "ccccccc8", "e6666661"};
	static const double want[10] = {10, 10, 11.25, 8.75, 10, 10, 40, 0, 0, 0};
	struct region_out o;
	int i;

	CHECK_EQ_INT(audit_splits(&o, "HEX{8}", hex10, 9, NULL), 0);
	for (i = 0; i < 10; i++) {
		double share = 100.0 * hb_mpz_ratio(o.keys[i], o.total);

		if (fabs(share - want[i]) > 0.01) {
			fprintf(stderr, "region %d: share %.6f%%, want %.2f%%\n", i, share,
			        want[i]);
			CHECK(0);
		}
		CHECK_EQ_INT(o.reach[i], want[i] > 0);
	}
	region_out_release(&o);
}

static void test_keyspace__uint_bound_is_not_a_per_position_product(void)
{
	struct hb_keyspace *ks = ks_new("u16<300");
	struct hb_buf first = HB_BUF_INIT;
	mpz_t n;
	int found = 0;

	CHECK(ks != NULL);
	if (!ks)
		return;
	mpz_init(n);
	hb_keyspace_total(ks, n, &err);
	CHECK(mpz_cmp_ui(n, 300) == 0);
	/* \x01\x2C = 300 is outside; the next key >= \x01\x2C does not exist. */
	hb_keyspace_first_at_or_after(ks, &first, &found, "\x01\x2c", 2, &err);
	CHECK_EQ_INT(found, 0);
	hb_keyspace_first_at_or_after(ks, &first, &found, "\x00\xff\x05", 3, &err);
	CHECK_EQ_INT(found, 1);
	CHECK(first.len == 2 && !memcmp(first.data, "\x01\x00", 2));
	hb_keyspace_count_below(ks, n, "\x01\x00", 2, &err);
	CHECK(mpz_cmp_ui(n, 256) == 0);
	hb_buf_release(&first);
	mpz_clear(n);
	hb_keyspace_free(ks);
}

static void test_keyspace__partition_prefix_is_reported(void)
{
	struct hb_keyspace *ks = ks_new("u64<20 *");
	unsigned long long n = 0;
	int w = 0;

	CHECK(ks && hb_keyspace_partitions(ks, &n, &w));
	CHECK_EQ_INT(n, 20);
	CHECK_EQ_INT(w, 8);
	CHECK(hb_keyspace_has_star(ks));
	hb_keyspace_free(ks);
	ks = ks_new("hex{8} u64<20");
	CHECK(ks && !hb_keyspace_partitions(ks, &n, &w));
	hb_keyspace_free(ks);
}

static void test_keyspace__long_keys_evaluate_without_deep_recursion(void)
{
	struct hb_keyspace *ks = ks_new("byte{4000} hex{1,8}");
	mpz_t n;
	int reach = 0;

	CHECK(ks != NULL);
	if (!ks)
		return;
	mpz_init(n);
	CHECK_EQ_INT(hb_keyspace_region(ks, &reach, n, NULL, "\x80", 1, NULL, 0, &err), 0);
	CHECK_EQ_INT(reach, 1);
	mpz_clear(n);
	hb_keyspace_free(ks);
}

/* Keys for the differential test: random bytes biased to the key space's alphabet, sharing
 * prefixes as sorted split keys do. */
static size_t diff_key(unsigned char *k, const unsigned char *prev, size_t prev_n)
{
	static const char alpha[] = "0123456789abcdefABCDEF\x00\x01\x7f\x80\xff/:g";
	size_t n = 1 + rnd(20), i, keep = prev_n && rnd(2) ? rnd(prev_n + 1) : 0;

	if (keep > n)
		keep = n;
	if (keep)
		memcpy(k, prev, keep);
	for (i = keep; i < n; i++)
		k[i] =
		    rnd(4) ? (unsigned char)alpha[rnd(sizeof(alpha) - 1)] : (unsigned char)rnd(256);
	return n;
}

struct diff_key {
	unsigned char b[24];
	size_t n;
};

static int key_sort(const void *a, const void *b)
{
	const struct diff_key *x = a, *y = b;

	return hb_key_cmp(x->b, x->n, y->b, y->n);
}

/*
 * Counting natively (uint64_t, resuming each walk at the prefix shared with the last) gives
 * exactly what GMP gives from scratch, for key spaces far too large to enumerate: chains of
 * sorted regions and lone count_below calls in random order.
 */
static void test_keyspace__native_counts_match_gmp_on_large_key_spaces(void)
{
	static const char *const specs[] = {"hex{1,16}",        "hex{8}",      "u64<20 hex{1,4}",
	                                    "dec{1,19}",        "[a-c]{0,30}", "hex{16}",
	                                    "byte{2} hex{0,6}", "u16<300 *"};
	size_t s;

	for (s = 0; s < HB_ARRAY_LEN(specs); s++) {
		struct hb_keyspace *fast = ks_new(specs[s]), *gmp = ks_new(specs[s]);
		struct diff_key keys[64];
		mpz_t a, b;
		int round;

		CHECK(fast && gmp);
		if (!fast || !gmp)
			return;
		hb_keyspace_set_native(gmp, 0);
		mpz_init(a);
		mpz_init(b);
		for (round = 0; round < 200; round++) {
			size_t n = 1 + rnd(HB_ARRAY_LEN(keys)), i;

			for (i = 0; i < n; i++)
				keys[i].n = diff_key(keys[i].b, i ? keys[i - 1].b : NULL,
				                     i ? keys[i - 1].n : 0);
			if (round % 2) {
				/* Lone counts in the order made. */
				for (i = 0; i < n; i++) {
					CHECK_EQ_INT(hb_keyspace_count_below(fast, a, keys[i].b,
					                                     keys[i].n, &err),
					             0);
					CHECK_EQ_INT(hb_keyspace_count_below(gmp, b, keys[i].b,
					                                     keys[i].n, &err),
					             0);
					CHECK(mpz_cmp(a, b) == 0);
				}
				continue;
			}
			qsort(keys, n, sizeof(keys[0]), key_sort);
			for (i = 0; i <= n; i++) {
				const unsigned char *st = i ? keys[i - 1].b : NULL,
				                    *en = i < n ? keys[i].b : NULL;
				size_t sl = i ? keys[i - 1].n : 0, el = i < n ? keys[i].n : 0;
				struct hb_buf f1 = HB_BUF_INIT, f2 = HB_BUF_INIT;
				int r1 = -1, r2 = -2;

				CHECK_EQ_INT(
				    hb_keyspace_region(fast, &r1, a, &f1, st, sl, en, el, &err), 0);
				CHECK_EQ_INT(
				    hb_keyspace_region(gmp, &r2, b, &f2, st, sl, en, el, &err), 0);
				if (r1 != r2 || mpz_cmp(a, b) || f1.len != f2.len ||
				    (f1.len && memcmp(f1.data, f2.data, f1.len))) {
					fprintf(stderr, "%s: region %zu of %zu differs natively\n",
					        specs[s], i, n + 1);
					CHECK(0);
				}
				hb_buf_release(&f1);
				hb_buf_release(&f2);
			}
		}
		mpz_clear(a);
		mpz_clear(b);
		hb_keyspace_free(fast);
		hb_keyspace_free(gmp);
	}
}

int main(void)
{
	RUN(test_keyspace__accepts_the_documented_examples);
	RUN(test_keyspace__rejects_bad_specs_with_column_and_expectation);
	RUN(test_keyspace__canonical_form_normalizes_fields);
	RUN(test_keyspace__reachability_and_counts_match_brute_force);
	RUN(test_keyspace__seed001_createtable_regions_unreachable_for_hex16);
	RUN(test_keyspace__seed001_createtable_regions_unreachable_for_hex1_16);
	RUN(test_keyspace__uniform_n10_vs_md5_prefix_key);
	RUN(test_keyspace__hexstringsplit_n10_vs_upper_case_keys);
	RUN(test_keyspace__uint_bound_is_not_a_per_position_product);
	RUN(test_keyspace__partition_prefix_is_reported);
	RUN(test_keyspace__long_keys_evaluate_without_deep_recursion);
	RUN(test_keyspace__native_counts_match_gmp_on_large_key_spaces);
	return TEST_DONE();
}
