/* Pre-split key algorithms computed exactly as HBase computes them, with GMP (docs/hbase-keys.md
 * §3-§7). */
#include "split.h"

#include "activity.h"
#include "keysort.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

/* Split keys are never allowed to take more memory than this in total. */
#define SPLIT_MAX_TOTAL_BYTES ((size_t)1 << 30)

/* The parameters in words, for a spec without the caller's names. */
static const struct hb_split_names words = {
    "the first row",
    "the last row",
    "the start key",
    "the end key",
    "the salt width",
    {"no algorithm", "HexStringSplit", "DecimalStringSplit", "UniformSplit", "the range split",
     "the book-hex split", "the partition split", "the salt split", "the sampled split",
     "the splits file"},
};

static const struct hb_split_names *names_of(const struct hb_split_spec *spec)
{
	return spec->names ? spec->names : &words;
}

/* The algorithm's name in messages. */
static const char *algo_name(const struct hb_split_spec *spec)
{
	const struct hb_split_names *nm = names_of(spec);

	return spec->algo >= HB_SPLIT_NONE && spec->algo <= HB_SPLIT_FILE && nm->algo[spec->algo]
	           ? nm->algo[spec->algo]
	           : words.algo[HB_SPLIT_NONE];
}

static int nomem(struct hb_error *err)
{
	return hb_error_set(err, HB_ENOMEM, "out of memory");
}

/* Appends the TSB form of a key to a message, cut short for very long keys. */
static const char *tsb_msg(struct hb_buf *tmp, const void *k, size_t n)
{
	hb_buf_reset(tmp);
	if (hb_tsb_append(tmp, k, n > 200 ? 200 : n))
		return "?";
	if (n > 200)
		hb_buf_adds(tmp, "...");
	return hb_buf_str(tmp);
}

/* UniformSplit's precondition: last row > first row (unsigned), else HBase's message. */
static int check_uniform_rows(const void *first, size_t flen, const void *last, size_t llen,
                              struct hb_error *err)
{
	struct hb_buf m1 = HB_BUF_INIT, m2 = HB_BUF_INIT;
	int rc;

	if (hb_key_cmp(last, llen, first, flen) > 0)
		return 0;
	rc = hb_error_set(err, HB_EINVAL, "last row (%s) is configured less than first row (%s)",
	                  tsb_msg(&m1, last, llen), tsb_msg(&m2, first, flen));
	hb_buf_release(&m1);
	hb_buf_release(&m2);
	return rc;
}

/* Computing a very large split set takes seconds: reported every 65,536 keys. */
static void computed(size_t done, size_t total)
{
	if (!(done & 0xFFFF))
		hb_activity_count("computing split keys", done, total);
}

static int check_total(long nkeys, size_t keylen, struct hb_error *err)
{
	if (nkeys > 0 && keylen > SPLIT_MAX_TOTAL_BYTES / (size_t)nkeys)
		return hb_error_set(err, HB_EINVAL,
		                    "%ld split keys of %zu bytes would take more than 1 GiB", nkeys,
		                    keylen);
	return 0;
}

/* Writes v as exactly len big-endian bytes into out (v must fit). */
static void export_be(unsigned char *out, size_t len, const mpz_t v, unsigned char *tmp)
{
	size_t count = 0;

	mpz_export(tmp, &count, 1, 1, 1, 0, v);
	if (count > len)
		HB_BUG("value does not fit its key length");
	memset(out, 0, len - count);
	memcpy(out + len - count, tmp, count);
}

/* Bytes.split's state: both keys as numbers of len bytes, widened until the range holds
 * num + 1 steps. */
struct bsplit {
	mpz_t A, B, step;
	size_t len, ext; /* ext: zero bytes added to both keys */
};

/* padTail (the shorter key gets trailing zero bytes; the compare sees padded keys), then
 * one more zero byte on both keys while the range is too narrow. */
static int bsplit_init(struct bsplit *s, const unsigned char *a, size_t alen,
                       const unsigned char *b, size_t blen, int inclusive, long num,
                       struct hb_error *err)
{
	unsigned char *pa, *pb;
	mpz_t diff;
	int cmp;

	s->len = alen > blen ? alen : blen;
	s->ext = 0;
	pa = calloc(s->len + 1, 1);
	pb = calloc(s->len + 1, 1);
	if (!pa || !pb) {
		free(pa);
		free(pb);
		return nomem(err);
	}
	if (alen)
		memcpy(pa, a, alen);
	if (blen)
		memcpy(pb, b, blen);
	cmp = hb_key_cmp(pa, s->len, pb, s->len);
	mpz_inits(s->A, s->B, s->step, diff, NULL);
	mpz_import(s->A, s->len, 1, 1, 1, 0, pa);
	mpz_import(s->B, s->len, 1, 1, 1, 0, pb);
	free(pa);
	free(pb);
	if (cmp >= 0 || num <= 0) {
		mpz_clears(s->A, s->B, s->step, diff, NULL);
		return hb_error_set(err, HB_EINVAL, cmp >= 0 ? "b <= a" : "num cannot be <= 0");
	}
	for (;;) {
		mpz_sub(diff, s->B, s->A);
		if (inclusive)
			mpz_add_ui(diff, diff, 1);
		if (mpz_cmp_ui(diff, (unsigned long)num + 1) >= 0)
			break;
		mpz_mul_2exp(s->A, s->A, 8);
		mpz_mul_2exp(s->B, s->B, 8);
		s->len++;
		s->ext++;
	}
	mpz_fdiv_q_ui(s->step, diff, (unsigned long)num + 1);
	mpz_clear(diff);
	return 0;
}

/* An endpoint: the caller's own bytes, or the zero-extended number when widened. */
static int bsplit_end(struct hb_keys *out, const struct bsplit *s, const mpz_t v,
                      const unsigned char *own, size_t own_len, unsigned char *key,
                      unsigned char *tmp)
{
	if (!s->ext)
		return hb_keys_push(out, own, own_len);
	export_be(key, s->len, v, tmp);
	return hb_keys_push(out, key, s->len);
}

/* Bytes.split; with_ends = 0 leaves out the two endpoints (UniformSplit drops them). */
static int bytes_split(struct hb_keys *out, const unsigned char *a, size_t alen,
                       const unsigned char *b, size_t blen, int inclusive, long num, int with_ends,
                       struct hb_error *err)
{
	unsigned char *key = NULL, *tmp = NULL;
	struct bsplit s;
	mpz_t cur;
	size_t i;
	int rc;

	if ((alen > blen ? alen : blen) > HB_MAX_ROW_LENGTH)
		return hb_error_set(err, HB_EINVAL, "keys longer than %d bytes cannot be split",
		                    HB_MAX_ROW_LENGTH);
	rc = bsplit_init(&s, a, alen, b, blen, inclusive, num, err);
	if (rc)
		return rc;
	mpz_init_set(cur, s.A);
	rc = check_total(num + 2, s.len, err);
	if (rc)
		goto done;
	key = malloc(s.len + 1);
	tmp = malloc(s.len + 1);
	if (!key || !tmp || hb_buf_grow(&out->bytes, (size_t)(num + 2) * s.len)) {
		rc = nomem(err);
		goto done;
	}
	if (with_ends)
		rc = bsplit_end(out, &s, s.A, a, alen, key, tmp);
	for (i = 1; !rc && i <= (size_t)num; i++) {
		computed(i - 1, (size_t)num);
		mpz_add(cur, cur, s.step);
		export_be(key, s.len, cur, tmp);
		rc = hb_keys_push(out, key, s.len);
	}
	if (!rc && with_ends)
		rc = bsplit_end(out, &s, s.B, b, blen, key, tmp);
	if (rc)
		rc = nomem(err);
done:
	mpz_clears(s.A, s.B, s.step, cur, NULL);
	free(key);
	free(tmp);
	return rc;
}

int hb_bytes_split(struct hb_keys *out, const unsigned char *a, size_t alen, const unsigned char *b,
                   size_t blen, int inclusive, long num, struct hb_error *err)
{
	return bytes_split(out, a, alen, b, blen, inclusive, num, 1, err);
}

/*
 * new BigInteger(s, radix): an optional '+' or '-', then one or more digits of the radix in
 * either case. Non-ASCII digits (which Java would accept) are refused with a clear message.
 */
static int parse_bigint(mpz_t out, const char *s, int radix, const char *what, struct hb_error *err)
{
	const char *p = s, *kind = radix == 16 ? "hex" : "decimal";
	size_t i;

	if (*p == '+' || *p == '-')
		p++;
	if (!*p)
		return hb_error_set(err, HB_EINVAL, "%s '%s' is not a %s number", what, s, kind);
	for (i = 0; p[i]; i++) {
		unsigned char c = (unsigned char)p[i];
		int ok = (c >= '0' && c <= '9') ||
		         (radix == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));

		if (!ok)
			return hb_error_set(
			    err, HB_EINVAL,
			    "%s '%s' is not a %s number (bad digit at position %zu)", what, s, kind,
			    (size_t)(p - s) + i + 1);
	}
	if (mpz_set_str(out, p, radix) != 0)
		return hb_error_set(err, HB_EINVAL, "%s '%s' is not a %s number", what, s, kind);
	if (*s == '-')
		mpz_neg(out, out);
	return 0;
}

/* Appends v in radix, lower case, left-padded with '0' to width (never truncated). */
static int push_padded(struct hb_keys *out, const mpz_t v, int radix, size_t width, char *buf)
{
	size_t n, pad;

	mpz_get_str(buf + width, radix, v);
	n = strlen(buf + width);
	pad = n < width ? width - n : 0;
	memset(buf + width - pad, '0', pad);
	return hb_keys_push(out, buf + width - pad, n + pad);
}

/* RegionSplitter NumberStringSplit.split(n) (§6.1). */
static int split_number_string(struct hb_keys *out, const struct hb_split_spec *spec,
                               struct hb_error *err)
{
	int radix = spec->algo == HB_SPLIT_HEX ? 16 : 10;
	const char *first = spec->first ? spec->first : "00000000";
	const char *last = spec->last ? spec->last : (radix == 16 ? "FFFFFFFF" : "99999999");
	size_t width = strlen(last), bufsz;
	mpz_t f, l, range, step, cur;
	char *buf = NULL;
	long i;
	int rc;

	if (width > HB_MAX_ROW_LENGTH || strlen(first) > HB_MAX_ROW_LENGTH)
		return hb_error_set(err, HB_EINVAL,
		                    "%s and %s must be at most %d characters (HBase's maximum "
		                    "row length)",
		                    names_of(spec)->first, names_of(spec)->last, HB_MAX_ROW_LENGTH);
	mpz_inits(f, l, range, step, cur, NULL);
	rc = parse_bigint(f, first, radix, names_of(spec)->first, err);
	if (!rc)
		rc = parse_bigint(l, last, radix, names_of(spec)->last, err);
	if (rc)
		goto done;
	if (mpz_cmp(l, f) <= 0) {
		rc = hb_error_set(err, HB_EINVAL,
		                  "last row (%s) is configured less than first row (%s)", last,
		                  first);
		goto done;
	}
	if (mpz_sgn(f) < 0) {
		rc = hb_error_set(
		    err, HB_EINVAL,
		    "first row (%s) is negative: HBase would emit keys with a '-' sign "
		    "that do not sort by value",
		    first);
		goto done;
	}
	mpz_sub(range, l, f);
	mpz_add_ui(range, range, 1);
	if (mpz_cmp_ui(range, (unsigned long)spec->n) < 0) {
		char *r = mpz_get_str(NULL, 10, range);

		rc = hb_error_set(err, HB_EINVAL,
		                  "split granularity (%ld) is greater than the range (%s)", spec->n,
		                  r ? r : "?");
		free(r);
		goto done;
	}
	rc = check_total(spec->n - 1, width, err);
	if (rc)
		goto done;
	mpz_fdiv_q_ui(step, range, (unsigned long)spec->n);
	/* Every key is <= last, so it has at most as many digits as the last-row string. */
	bufsz = 2 * width + mpz_sizeinbase(l, radix) + 3;
	buf = malloc(bufsz);
	if (!buf || hb_buf_grow(&out->bytes, (size_t)(spec->n - 1) * width)) {
		rc = nomem(err);
		goto done;
	}
	mpz_set(cur, f);
	for (i = 1; i < spec->n; i++) {
		computed((size_t)i - 1, (size_t)spec->n - 1);
		mpz_add(cur, cur, step);
		if (push_padded(out, cur, radix, width, buf)) {
			rc = nomem(err);
			goto done;
		}
	}
done:
	mpz_clears(f, l, range, step, cur, NULL);
	free(buf);
	return rc;
}

/* RegionSplitter UniformSplit.split(n) (§6.2). */
static int split_uniform(struct hb_keys *out, const struct hb_split_spec *spec,
                         struct hb_error *err)
{
	static const unsigned char ff8[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
	const unsigned char *first = spec->start ? spec->start : (const unsigned char *)"";
	const unsigned char *last = spec->end ? spec->end : ff8;
	size_t flen = spec->start ? spec->start_len : 0, llen = spec->end ? spec->end_len : 8;
	if (check_uniform_rows(first, flen, last, llen, err))
		return HB_EINVAL;
	return bytes_split(out, first, flen, last, llen, 1, spec->n - 1, 0, err);
}

/* Admin.createTable(desc, start, end, n) (§4). */
static int split_range(struct hb_keys *out, const struct hb_split_spec *spec, struct hb_error *err)
{
	if (spec->n < 3)
		return hb_error_set(err, HB_EINVAL, "Must create at least three regions");
	if (hb_key_cmp(spec->start, spec->start_len, spec->end, spec->end_len) >= 0)
		return hb_error_set(err, HB_EINVAL, "Start key must be smaller than end key");
	if (spec->n == 3) {
		if (hb_keys_push(out, spec->start, spec->start_len) ||
		    hb_keys_push(out, spec->end, spec->end_len))
			return nomem(err);
		return 0;
	}
	return hb_bytes_split(out, spec->start, spec->start_len, spec->end, spec->end_len, 0,
	                      spec->n - 3, err);
}

/* The reference guide's getHexSplits (§7.1): range without +1, "%016x" keys. */
static int split_book_hex(struct hb_keys *out, const struct hb_split_spec *spec,
                          struct hb_error *err)
{
	const char *start = (const char *)spec->start, *end = (const char *)spec->end;
	mpz_t lo, hi, inc, cur;
	char *buf = NULL;
	size_t width;
	long i;
	int rc;

	if (!start || !end)
		return hb_error_set(err, HB_EINVAL, "%s needs %s and %s", algo_name(spec),
		                    names_of(spec)->start, names_of(spec)->end);
	if (strlen(start) > HB_MAX_ROW_LENGTH || strlen(end) > HB_MAX_ROW_LENGTH)
		return hb_error_set(err, HB_EINVAL, "%s and %s must be at most %d characters",
		                    names_of(spec)->start, names_of(spec)->end, HB_MAX_ROW_LENGTH);
	mpz_inits(lo, hi, inc, cur, NULL);
	rc = parse_bigint(lo, start, 16, names_of(spec)->start, err);
	if (!rc)
		rc = parse_bigint(hi, end, 16, names_of(spec)->end, err);
	if (rc)
		goto done;
	if (mpz_sgn(lo) < 0) {
		rc = hb_error_set(err, HB_EINVAL,
		                  "start key (%s) is negative: the keys would carry a '-' sign",
		                  start);
		goto done;
	}
	/* The recipe has no start < end check: a reversed range steps downwards (BigInteger
	 * division truncates toward zero) and createTable sorts the keys (§5). */
	mpz_sub(inc, hi, lo);
	mpz_tdiv_q_ui(inc, inc, (unsigned long)spec->n);
	mpz_set(cur, lo);
	mpz_addmul_ui(cur, inc, (unsigned long)(spec->n > 1 ? spec->n - 1 : 0));
	if (mpz_sgn(cur) < 0) {
		rc = hb_error_set(
		    err, HB_EINVAL,
		    "end key (%s) makes the keys negative: they would carry a '-' sign", end);
		goto done;
	}
	width = mpz_sizeinbase(mpz_cmp(lo, hi) > 0 ? lo : hi, 16);
	if (width < 16)
		width = 16;
	rc = check_total(spec->n - 1, width, err);
	if (rc)
		goto done;
	buf = malloc(2 * width + 3);
	if (!buf) {
		rc = nomem(err);
		goto done;
	}
	mpz_set(cur, lo);
	for (i = 1; i < spec->n; i++) {
		computed((size_t)i - 1, (size_t)spec->n - 1);
		mpz_add(cur, cur, inc);
		if (push_padded(out, cur, 16, 16, buf) < 0) {
			rc = nomem(err);
			goto done;
		}
	}
	/* Keys wider than 16 digits can come out of order; createTable sorts them (§5). */
	if (hb_keys_sort(out))
		rc = nomem(err);
done:
	mpz_clears(lo, hi, inc, cur, NULL);
	free(buf);
	return rc;
}

/* Bytes.toBytes((long) i) for i = 1..n-1, or width-byte big-endian salt prefixes. */
static int split_be_ints(struct hb_keys *out, long n, int width, struct hb_error *err)
{
	unsigned char k[8];
	long i;
	int j;

	if (hb_buf_grow(&out->bytes, (size_t)(n - 1) * (size_t)width))
		return nomem(err);
	for (i = 1; i < n; i++) {
		unsigned long v = (unsigned long)i;

		computed((size_t)i - 1, (size_t)n - 1);

		for (j = width - 1; j >= 0; j--, v >>= 8)
			k[j] = (unsigned char)(v & 0xFF);
		if (hb_keys_push(out, k, (size_t)width))
			return nomem(err);
	}
	return 0;
}

/* HashChoreWoker.calcSplitKeys (§7.2): sorted distinct sample, every base-th key. */
static int split_sampled(struct hb_keys *out, const struct hb_split_spec *spec,
                         struct hb_error *err)
{
	uint32_t *ord;
	size_t i, n, pos = 0, want, base;
	long s = spec->sample_draws;
	int rc = 0;

	if (!spec->sample || spec->sample->n == 0)
		return hb_error_set(err, HB_EINVAL, "the key sample is empty");
	if (s <= 0)
		s = (long)spec->sample->n;
	if (spec->n == 1)
		return 0;
	base = (size_t)(s / spec->n);
	if (base == 0)
		return hb_error_set(
		    err, HB_EINVAL,
		    "a sample of %ld key%s is too small for %ld regions (it needs at "
		    "least %ld keys)",
		    s, HB_PLURAL(s), spec->n, spec->n);
	want = (size_t)(spec->n - 1);
	if (spec->sample_step &&
	    (spec->sample_step != base || spec->sample->ordered != spec->sample->n))
		return hb_error_set(err, HB_EINVAL, "the key sample was thinned for another step");
	/* Sort indexes, not copies: the sample may hold millions of keys. A sample made ordered
	 * and distinct is its own order. */
	n = pos = spec->sample_step ? (size_t)spec->sample_distinct : spec->sample->n;
	ord = spec->sample->ordered == spec->sample->n ? NULL : malloc(n * sizeof(*ord));
	if (!ord && spec->sample->ordered != spec->sample->n)
		return nomem(err);
	/* the TreeSet keeps one of each; every base-th of those after the first is a split (in a
	 * thinned sample, the key of rank i is at i / base) */
	if (ord)
		rc = hb_keys_order_distinct(ord, &pos, spec->sample, err);
	for (i = base; !rc && i < pos && out->n < want; i += base) {
		size_t len, at = ord ? ord[i] : spec->sample_step ? i / base : i;
		const unsigned char *k = hb_keys_at(spec->sample, at, &len);

		if (hb_keys_push(out, k, len))
			rc = nomem(err);
	}
	if (!rc && out->n < want)
		rc = hb_error_set(
		    err, HB_EINVAL,
		    "the sample has only %zu distinct key%s; %ld regions with a step of "
		    "%zu need at least %zu",
		    pos, HB_PLURAL(pos), spec->n, base, base * want + 1);
	free(ord);
	return rc;
}

static int check_key_lengths(const struct hb_keys *keys, struct hb_error *err)
{
	size_t i, len;

	for (i = 0; i < keys->n; i++) {
		hb_keys_at(keys, i, &len);
		if (len > HB_MAX_ROW_LENGTH)
			return hb_error_set(err, HB_EINVAL,
			                    "split key %zu is %zu bytes long, more than HBase's "
			                    "maximum row length %d",
			                    i + 1, len, HB_MAX_ROW_LENGTH);
	}
	return 0;
}

/* N within the algorithm's bounds (a splits file has no N). */
static int check_n(const struct hb_split_spec *spec, struct hb_error *err)
{
	long min_n = spec->algo == HB_SPLIT_UNIFORM ? 2 : spec->algo == HB_SPLIT_RANGE ? 3 : 1;

	if (spec->algo == HB_SPLIT_FILE)
		return 0;
	if (spec->n > HB_SPLIT_MAX_REGIONS)
		return hb_error_set(err, HB_EINVAL,
		                    "%s: at most %ld regions are supported, got %ld",
		                    algo_name(spec), HB_SPLIT_MAX_REGIONS, spec->n);
	if (spec->n >= min_n)
		return 0;
	if (spec->algo == HB_SPLIT_RANGE)
		return hb_error_set(err, HB_EINVAL, "Must create at least three regions");
	if (spec->algo == HB_SPLIT_UNIFORM)
		return hb_error_set(err, HB_EINVAL,
		                    "%s needs at least 2 regions (UniformSplit: num cannot be "
		                    "<= 0)",
		                    algo_name(spec));
	return hb_error_set(err, HB_EINVAL, "%s needs at least 1 region, got %ld", algo_name(spec),
	                    spec->n);
}

/* Salt buckets 1..N-1 in salt_width big-endian bytes. */
static int split_salt(struct hb_keys *out, const struct hb_split_spec *spec, struct hb_error *err)
{
	long most = spec->salt_width == 1 ? 256L : 65536L;

	if (spec->salt_width != 1 && spec->salt_width != 2)
		return hb_error_set(err, HB_EINVAL, "%s must be 1 or 2, got %d",
		                    names_of(spec)->salt_width, spec->salt_width);
	if (spec->n > most)
		return hb_error_set(
		    err, HB_EINVAL, "%ld salt buckets do not fit in %d byte%s (at most %ld)",
		    spec->n, spec->salt_width, spec->salt_width == 1 ? "" : "s", most);
	return split_be_ints(out, spec->n, spec->salt_width, err);
}

/* A splits file's keys, as read (the reader checked their order). */
static int split_file(struct hb_keys *out, const struct hb_split_spec *spec, struct hb_error *err)
{
	size_t i, len;

	if (!spec->sample)
		return hb_error_set(err, HB_EINVAL, "no split keys were given");
	for (i = 0; i < spec->sample->n; i++) {
		const unsigned char *k = hb_keys_at(spec->sample, i, &len);

		if (hb_keys_push(out, k, len))
			return nomem(err);
	}
	return 0;
}

int hb_split_compute(struct hb_keys *out, const struct hb_split_spec *spec, struct hb_error *err)
{
	int rc;

	if (out->n)
		HB_BUG("hb_split_compute needs an empty key list");
	rc = check_n(spec, err);
	if (rc)
		return rc;
	switch (spec->algo) {
	case HB_SPLIT_HEX:
	case HB_SPLIT_DECIMAL:
		rc = split_number_string(out, spec, err);
		break;
	case HB_SPLIT_UNIFORM:
		rc = split_uniform(out, spec, err);
		break;
	case HB_SPLIT_RANGE:
		rc = split_range(out, spec, err);
		break;
	case HB_SPLIT_BOOK_HEX:
		rc = split_book_hex(out, spec, err);
		break;
	case HB_SPLIT_PARTITION:
		rc = split_be_ints(out, spec->n, 8, err);
		break;
	case HB_SPLIT_SALT:
		rc = split_salt(out, spec, err);
		break;
	case HB_SPLIT_SAMPLED:
		rc = split_sampled(out, spec, err);
		break;
	case HB_SPLIT_FILE:
		rc = split_file(out, spec, err);
		break;
	default:
		return hb_error_set(err, HB_EINVAL, "no split algorithm was chosen");
	}
	if (!rc)
		rc = check_key_lengths(out, err);
	if (!rc)
		rc = hb_split_verify(out, err);
	if (rc)
		hb_keys_clear(out);
	return rc;
}

/* convertToBigInteger: the row as number text in the radix, the empty row as 0. */
static int row_to_mpz(mpz_t v, const void *row, size_t len, int radix, const char *what,
                      struct hb_error *err)
{
	char *text;
	int rc;

	if (len == 0) {
		mpz_set_ui(v, 0);
		return 0;
	}
	text = malloc(len + 1);
	if (!text)
		return nomem(err);
	memcpy(text, row, len);
	text[len] = '\0';
	if (strlen(text) != len)
		rc = hb_error_set(err, HB_EINVAL, "%s row holds a NUL byte", what);
	else
		rc = parse_bigint(v, text, radix, what, err);
	free(text);
	return rc;
}

static int number_width(const struct hb_split_spec *spec, int radix, mpz_t last,
                        struct hb_error *err)
{
	const char *l = spec->last ? spec->last : (radix == 16 ? "FFFFFFFF" : "99999999");
	int rc = parse_bigint(last, l, radix, names_of(spec)->last, err);

	return rc ? rc : (int)strlen(l);
}

static int push_number(struct hb_keys *out, const mpz_t v, int radix, size_t width)
{
	char *buf = malloc(2 * width + mpz_sizeinbase(v, radix) + 3);
	int rc;

	if (!buf)
		return HB_ENOMEM;
	if (mpz_sgn(v) < 0) { /* leftPad of "-5" is "000-5" */
		char *t = mpz_get_str(NULL, radix, v);
		size_t n = t ? strlen(t) : 0, pad = n < width ? width - n : 0;

		rc = t ? 0 : HB_ENOMEM;
		if (t) {
			memset(buf, '0', pad);
			memcpy(buf + pad, t, n);
			rc = hb_keys_push(out, buf, pad + n);
			free(t);
		}
	} else {
		rc = push_padded(out, v, radix, width, buf);
	}
	free(buf);
	return rc;
}

int hb_split_midpoint(struct hb_buf *out, const struct hb_split_spec *spec, const void *start,
                      size_t slen, const void *end, size_t elen, int hbase_29472,
                      struct hb_error *err)
{
	int radix = spec->algo == HB_SPLIT_HEX ? 16 : 10, width, rc;
	struct hb_keys ks;
	size_t len;
	mpz_t s, e, last;

	hb_keys_init(&ks);
	if (spec->algo == HB_SPLIT_UNIFORM) {
		rc = hb_bytes_split(&ks, start, slen, end, elen, 0, 1, err);
	} else if (spec->algo == HB_SPLIT_HEX || spec->algo == HB_SPLIT_DECIMAL) {
		mpz_inits(s, e, last, NULL);
		width = number_width(spec, radix, last, err);
		rc = width < 0 ? width : row_to_mpz(s, start, slen, radix, "start", err);
		if (!rc)
			rc = row_to_mpz(e, end, elen, radix, "end", err);
		if (!rc && mpz_sgn(e) == 0)
			rc = hb_error_set(err, HB_EINVAL, "the end row must not be 0");
		if (!rc) {
			if (hbase_29472 && mpz_cmp(e, last) == 0)
				mpz_add_ui(e, e, 1);
			mpz_add(s, s, e);
			mpz_tdiv_q_ui(s, s, 2); /* BigInteger.divide truncates; then abs() */
			mpz_abs(s, s);
			if (push_number(&ks, s, radix, (size_t)width))
				rc = nomem(err);
		}
		mpz_clears(s, e, last, NULL);
	} else {
		rc = hb_error_set(err, HB_EINVAL, "%s has no midpoint split", algo_name(spec));
	}
	if (!rc) {
		const unsigned char *k =
		    hb_keys_at(&ks, spec->algo == HB_SPLIT_UNIFORM ? 1 : 0, &len);

		if (hb_buf_add(out, k, len))
			rc = nomem(err);
	}
	hb_keys_release(&ks);
	return rc;
}

int hb_split_between(struct hb_keys *out, const struct hb_split_spec *spec, const void *start,
                     size_t slen, const void *end, size_t elen, long num_splits, int inclusive,
                     struct hb_error *err)
{
	int radix = spec->algo == HB_SPLIT_HEX ? 16 : 10, width, rc;
	mpz_t s, e, last, range, step, cur;
	long i;

	if (num_splits < 1 || num_splits > HB_SPLIT_MAX_REGIONS)
		return hb_error_set(err, HB_EINVAL, "the number of splits must be 1 to %ld",
		                    HB_SPLIT_MAX_REGIONS);
	if (spec->algo == HB_SPLIT_UNIFORM) {
		static const unsigned char ff8[8] = {0xFF, 0xFF, 0xFF, 0xFF,
		                                     0xFF, 0xFF, 0xFF, 0xFF};

		if (slen == 0) {
			start = spec->start ? spec->start : (const unsigned char *)"";
			slen = spec->start ? spec->start_len : 0;
		}
		if (elen == 0) {
			end = spec->end ? spec->end : ff8;
			elen = spec->end ? spec->end_len : 8;
		}
		if (check_uniform_rows(start, slen, end, elen, err))
			return HB_EINVAL;
		return bytes_split(out, start, slen, end, elen, 1, num_splits - 1, inclusive, err);
	}
	if (spec->algo != HB_SPLIT_HEX && spec->algo != HB_SPLIT_DECIMAL)
		return hb_error_set(err, HB_EINVAL, "%s has no range split", algo_name(spec));
	mpz_inits(s, e, last, range, step, cur, NULL);
	width = number_width(spec, radix, last, err);
	rc = width < 0 ? width : row_to_mpz(s, start, slen, radix, "start", err);
	if (!rc)
		rc = row_to_mpz(e, end, elen, radix, "end", err);
	if (!rc && mpz_cmp(e, s) <= 0)
		rc = hb_error_set(err, HB_EINVAL, "the end row is not greater than the start row");
	if (!rc) {
		mpz_sub(range, e, s);
		mpz_add_ui(range, range, 1);
		if (mpz_cmp_ui(range, (unsigned long)num_splits) < 0)
			rc = hb_error_set(err, HB_EINVAL,
			                  "split granularity (%ld) is greater than the range",
			                  num_splits);
	}
	if (!rc && check_total(num_splits + 1, (size_t)width, err))
		rc = HB_EINVAL;
	if (!rc) {
		mpz_fdiv_q_ui(step, range, (unsigned long)num_splits);
		if (inclusive && push_number(out, s, radix, (size_t)width))
			rc = nomem(err);
		mpz_set(cur, s);
		for (i = 1; !rc && i < num_splits; i++) {
			mpz_add(cur, cur, step);
			if (push_number(out, cur, radix, (size_t)width))
				rc = nomem(err);
		}
		if (!rc && inclusive && push_number(out, e, radix, (size_t)width))
			rc = nomem(err);
	}
	mpz_clears(s, e, last, range, step, cur, NULL);
	return rc;
}

int hb_split_verify(const struct hb_keys *keys, struct hb_error *err)
{
	struct hb_keys sorted;
	struct hb_buf m = HB_BUF_INIT;
	const struct hb_keys *ks = keys;
	size_t i, la, lb;
	int rc = 0, in_order = 1;

	for (i = 0; i < keys->n; i++) {
		const unsigned char *a = hb_keys_at(keys, i, &la);

		if (la == 0)
			return hb_error_set(
			    err, HB_EINVAL,
			    "Empty split key must not be passed in the split keys.");
		if (i > 0) {
			const unsigned char *p = hb_keys_at(keys, i - 1, &lb);

			if (hb_key_cmp(p, lb, a, la) >= 0)
				in_order = 0;
		}
	}
	hb_keys_init(&sorted);
	if (!in_order) {
		/* HBase sorts a copy silently; only duplicates are an error. */
		for (i = 0; i < keys->n && !rc; i++) {
			const unsigned char *a = hb_keys_at(keys, i, &la);

			rc = hb_keys_push(&sorted, a, la);
		}
		if (!rc)
			rc = hb_keys_sort(&sorted);
		if (rc) {
			hb_keys_release(&sorted);
			return nomem(err);
		}
		ks = &sorted;
	}
	for (i = 1; i < ks->n; i++) {
		const unsigned char *p = hb_keys_at(ks, i - 1, &lb);
		const unsigned char *a = hb_keys_at(ks, i, &la);

		if (hb_key_cmp(p, lb, a, la) == 0) {
			const char *t = tsb_msg(&m, a, la);

			rc = hb_error_set(err, HB_EINVAL,
			                  "All split keys must be unique, found duplicate: %s, %s",
			                  t, t);
			break;
		}
	}
	hb_buf_release(&m);
	hb_keys_release(&sorted);
	return rc;
}
