/* Key spaces: the --keyspace grammar, its canonical form and an exact, lazily built automaton. */
#include "keyspace.h"
#include "key.h"
#include "vec.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Evaluation limits: beyond them a (pathologically ambiguous) key space is refused. */
#define KS_MAX_STATES    (1u << 21)
#define KS_MAX_POSITIONS (1u << 24) /* sum of subset sizes over all states */
#define KS_MAX_LIMBS     (1u << 23) /* GMP limbs held by counts (64 MiB on 64-bit) */

enum ks_kind { KS_CLASS, KS_UINT, KS_STAR };

struct ks_field {
	enum ks_kind kind;
	int named;             /* index into ks_classes, or -1 for a [...] charset */
	unsigned char set[32]; /* CLASS: byte bitmap */
	unsigned min, max;     /* CLASS: length range; UINT: width, width */
	int width;             /* UINT: 1, 2, 4 or 8 */
	unsigned char m[8];    /* UINT: N - 1, big-endian, width bytes */
	size_t col;            /* 1-based column of the field in the spec */
};

struct ks_state {
	uint32_t *pos; /* sorted NFA positions */
	uint32_t npos;
	int accept;
	int32_t *next;     /* per byte interval: -2 unknown, -1 dead, else state id */
	int counted;       /* 0 no, 1 in progress, 2 done */
	mpz_t count;       /* keys accepted from here (valid when counted == 2) */
	mpz_t *below;      /* nint + 1 prefix sums of size * count(next), or NULL */
	uint64_t count64;  /* count, when the automaton counts natively (ks_auto.native) */
	uint64_t *below64; /* below, natively, or NULL */
};

/* A lazily determinized automaton over the (merged) fields of a key space. */
struct ks_auto {
	struct ks_field *f;
	size_t nf;
	uint32_t *base; /* first NFA position of each field; base[nf] = the final position */
	uint32_t *pos_field;
	uint32_t npositions; /* final + 1 (the initial marker is npositions) */
	int nint;
	unsigned short ilo[257]; /* interval k = [ilo[k], ilo[k+1]) */
	unsigned char byte_int[256];
	struct ks_state *st;
	uint32_t nst, capst;
	int32_t *hash;
	uint32_t hcap;
	uint64_t total_pos, total_limbs;
	uint32_t *tmp, *mark, gen;
	int32_t start;
	/* Counting in uint64_t: set once every state is counted and #K fits (then every count
	 * and partial sum does, being at most #K). */
	int native, native_decided;
};

/*
 * The state path of the last key walked through an automaton: for j <= depth, ids[j] is the
 * state after key[0..j) and, for a native count, sum[j] the count accumulated before byte j.
 * Sorted region bounds share long prefixes, so the next walk resumes at the common prefix.
 */
struct ks_path {
	struct hb_buf key;
	int32_t *ids;
	uint64_t *sum;
	size_t cap, depth;
	int valid;
};

struct hb_keyspace {
	struct ks_field *f; /* as parsed */
	size_t nf;
	struct ks_field *mf; /* merged: adjacent same-alphabet classes joined, uW<2^8W as byte */
	size_t nmf;
	int star;
	struct ks_auto reach; /* all fields */
	struct ks_auto cnt;   /* fields before '*' */
	int built;
	struct hb_buf last_x; /* cache: the last count_below bound */
	int have_last;
	mpz_t last_count;
	struct hb_buf kbuf;
	mpz_t lo;             /* hb_keyspace_region's lower count */
	struct ks_path first; /* hb_keyspace_first_at_or_after's last walk (reach) */
	struct ks_path below; /* the last native count_below walk (cnt) */
	int no_native;        /* hb_keyspace_set_native(ks, 0) */
};

static const struct {
	const char *name;
	const char *ranges; /* pairs lo,hi */
} ks_classes[] = {
    {"hex", "09af"},     {"HEX", "09AF"}, {"dec", "09"},
    {"alnum", "09AZaz"}, {"print", " ~"}, {"byte", "\x01\xff"}, /* byte: 0x00 added below */
};

/* ---------------------------------------------------------------- bitmaps */

static void set_add(unsigned char *set, unsigned lo, unsigned hi)
{
	unsigned b;

	for (b = lo; b <= hi; b++)
		set[b >> 3] |= (unsigned char)(1u << (b & 7));
}

static int set_has(const unsigned char *set, unsigned b)
{
	return (set[b >> 3] >> (b & 7)) & 1;
}

static void class_set(unsigned char *set, int idx)
{
	const char *r = ks_classes[idx].ranges;

	memset(set, 0, 32);
	for (; *r; r += 2)
		set_add(set, (unsigned char)r[0], (unsigned char)r[1]);
	if (!strcmp(ks_classes[idx].name, "byte"))
		set_add(set, 0, 0);
}

static int set_empty(const unsigned char *set)
{
	int i;

	for (i = 0; i < 32; i++)
		if (set[i])
			return 0;
	return 1;
}

/* ---------------------------------------------------------------- parser */

struct ks_parser {
	const char *s;
	size_t i;
	struct hb_error *err;
};

static int perr(struct ks_parser *p, size_t at, const char *msg)
{
	return hb_error_set(p->err, HB_EINVAL, "column %zu: %s", at + 1, msg);
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* A decimal length 0..32767 at p->i. */
static int parse_len(struct ks_parser *p, unsigned *out)
{
	size_t at = p->i;
	unsigned long v = 0;

	if (!is_digit(p->s[p->i]))
		return perr(p, at, "expected a number");
	while (is_digit(p->s[p->i])) {
		v = v * 10 + (unsigned long)(p->s[p->i] - '0');
		if (v > HB_MAX_ROW_LENGTH)
			return perr(p, at, "length exceeds HBase's maximum row length 32767");
		p->i++;
	}
	*out = (unsigned)v;
	return 0;
}

static int parse_lengths(struct ks_parser *p, struct ks_field *f)
{
	size_t at;

	f->min = f->max = 1;
	if (p->s[p->i] != '{')
		return 0;
	p->i++;
	at = p->i;
	if (parse_len(p, &f->min))
		return HB_EINVAL;
	if (p->s[p->i] == '}') {
		p->i++;
		if (f->min == 0)
			return perr(p, at, "length must be at least 1");
		f->max = f->min;
		return 0;
	}
	if (p->s[p->i] != ',')
		return perr(p, p->i, "expected ',' or '}'");
	p->i++;
	{
		size_t at2 = p->i;

		if (parse_len(p, &f->max))
			return HB_EINVAL;
		if (p->s[p->i] != '}')
			return perr(p, p->i, "expected '}'");
		p->i++;
		if (f->max == 0)
			return perr(p, at2, "maximum length must be at least 1");
		if (f->min > f->max)
			return perr(p, at, "minimum length is larger than the maximum");
	}
	return 0;
}

static void char_text(char *out, size_t n, unsigned c)
{
	if (c > 0x20 && c < 0x7f && c != '\\')
		snprintf(out, n, "%c", (int)c);
	else
		snprintf(out, n, "\\x%02X", c & 0xffu);
}

/* One charset member at p->i: a printable character or an escape. */
static int parse_set_char(struct ks_parser *p, unsigned *out)
{
	unsigned char c = (unsigned char)p->s[p->i];

	if (c == 0)
		return perr(p, p->i, "expected ']'");
	if (c == '\\') {
		unsigned char e = (unsigned char)p->s[p->i + 1];

		if (e == 'x') {
			int h = hb_hex_digit(p->s[p->i + 2]),
			    l = h < 0 ? -1 : hb_hex_digit(p->s[p->i + 3]);

			if (h < 0 || l < 0)
				return perr(p, p->i, "expected two hex digits after '\\x'");
			*out = (unsigned)(h * 16 + l);
			p->i += 4;
			return 0;
		}
		if (e == ']' || e == '\\' || e == '-' || e == '[' || e == '^') {
			*out = e;
			p->i += 2;
			return 0;
		}
		return perr(p, p->i, "unknown escape (expected \\xHH, \\], \\\\ or \\-)");
	}
	if (c < 0x20 || c > 0x7e)
		return perr(p, p->i, "expected a printable ASCII character or \\xHH");
	if (c == '-')
		return perr(p, p->i, "'-' must stand between two characters or be escaped as \\-");
	*out = c;
	p->i++;
	return 0;
}

static int parse_charset(struct ks_parser *p, struct ks_field *f)
{
	size_t open = p->i;

	memset(f->set, 0, sizeof(f->set));
	f->named = -1;
	p->i++;
	if (p->s[p->i] == '^')
		return perr(p, p->i, "negated charsets are not supported (escape '^' as \\^)");
	while (p->s[p->i] != ']') {
		size_t at = p->i;
		unsigned a, b;

		if (parse_set_char(p, &a))
			return HB_EINVAL;
		b = a;
		if (p->s[p->i] == '-' && p->s[p->i + 1] != ']' && p->s[p->i + 1] != 0) {
			p->i++;
			if (parse_set_char(p, &b))
				return HB_EINVAL;
			if (b < a) {
				char ta[16], tb[16], msg[80];

				char_text(ta, sizeof(ta), a);
				char_text(tb, sizeof(tb), b);
				snprintf(msg, sizeof(msg), "bad range '%s-%s' (start after end)",
				         ta, tb);
				return perr(p, at, msg);
			}
		}
		set_add(f->set, a, b);
	}
	if (set_empty(f->set))
		return perr(p, open, "empty charset");
	p->i++;
	return parse_lengths(p, f);
}

static int parse_uint(struct ks_parser *p, struct ks_field *f, int width)
{
	size_t at = p->i, j;
	mpz_t n, lim;
	int rc = 0, base = 10;
	char *txt;

	f->kind = KS_UINT;
	f->width = width;
	f->min = f->max = (unsigned)width;
	if (p->s[p->i] == '0' && (p->s[p->i + 1] == 'x' || p->s[p->i + 1] == 'X')) {
		base = 16;
		p->i += 2;
	}
	j = p->i;
	while (base == 16 ? hb_hex_digit(p->s[j]) >= 0 : is_digit(p->s[j]))
		j++;
	if (j == p->i || j - p->i > 64)
		return perr(p, p->i, j == p->i ? "expected a number" : "number too long");
	txt = strndup(p->s + p->i, j - p->i);
	if (!txt)
		return hb_error_set(p->err, HB_ENOMEM, "out of memory");
	mpz_init(n);
	mpz_init(lim);
	mpz_set_str(n, txt, base);
	free(txt);
	mpz_ui_pow_ui(lim, 2, 8u * (unsigned)width);
	if (mpz_sgn(n) == 0) {
		rc = perr(p, at, "the bound N must be at least 1");
	} else if (mpz_cmp(n, lim) > 0) {
		char msg[96];

		snprintf(msg, sizeof(msg), "the bound N is too large for u%d (at most 2^%d)",
		         8 * width, 8 * width);
		rc = perr(p, at, msg);
	} else {
		int k;

		mpz_sub_ui(n, n, 1);
		for (k = width - 1; k >= 0; k--) {
			f->m[k] = (unsigned char)mpz_get_ui(n) & 0xff;
			mpz_fdiv_q_2exp(n, n, 8);
		}
		p->i = j;
	}
	mpz_clear(n);
	mpz_clear(lim);
	return rc;
}

static int parse_field(struct ks_parser *p, struct ks_field *f)
{
	size_t at = p->i, j = p->i;
	size_t k;

	memset(f, 0, sizeof(*f));
	f->col = at + 1;
	f->named = -1;
	if (p->s[p->i] == '*') {
		f->kind = KS_STAR;
		p->i++;
		return 0;
	}
	if (p->s[p->i] == '[') {
		f->kind = KS_CLASS;
		return parse_charset(p, f);
	}
	while ((p->s[j] >= 'a' && p->s[j] <= 'z') || (p->s[j] >= 'A' && p->s[j] <= 'Z') ||
	       is_digit(p->s[j]))
		j++;
	if (p->s[j] == '<') {
		static const char *const un[] = {"u8", "u16", "u32", "u64"};
		static const int uw[] = {1, 2, 4, 8};

		for (k = 0; k < 4; k++)
			if (j - at == strlen(un[k]) && !memcmp(p->s + at, un[k], j - at)) {
				p->i = j + 1;
				return parse_uint(p, f, uw[k]);
			}
	} else {
		for (k = 0; k < HB_ARRAY_LEN(ks_classes); k++)
			if (j - at == strlen(ks_classes[k].name) &&
			    !memcmp(p->s + at, ks_classes[k].name, j - at)) {
				f->kind = KS_CLASS;
				f->named = (int)k;
				class_set(f->set, (int)k);
				p->i = j;
				return parse_lengths(p, f);
			}
	}
	if (j == at)
		return perr(p, at,
		            "expected a field (hex, HEX, dec, alnum, print, byte, [...], u8<N, "
		            "u16<N, u32<N, u64<N or *)");
	{
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)(j - at > 40 ? 40 : j - at), p->s + at);
		return hb_error_set(p->err, HB_EINVAL,
		                    "column %zu: unknown field '%s' (expected hex, HEX, dec, "
		                    "alnum, print, byte, [...], u8<N, u16<N, u32<N, u64<N or *)",
		                    at + 1, name);
	}
}

/* Builds mf: adjacent classes with equal alphabets merged, uW<2^(8W) turned into byte{W}. */
static int merge_fields(struct hb_keyspace *ks)
{
	size_t i;

	ks->mf = calloc(ks->nf ? ks->nf : 1, sizeof(*ks->mf));
	if (!ks->mf)
		return HB_ENOMEM;
	ks->nmf = 0;
	for (i = 0; i < ks->nf; i++) {
		struct ks_field f = ks->f[i];

		if (f.kind == KS_UINT) {
			int k, full = 1;

			for (k = 0; k < f.width; k++)
				if (f.m[k] != 0xff)
					full = 0;
			if (full) {
				f.kind = KS_CLASS;
				memset(f.set, 0xff, sizeof(f.set));
				f.min = f.max = (unsigned)f.width;
			}
		}
		if (f.kind == KS_CLASS && ks->nmf && ks->mf[ks->nmf - 1].kind == KS_CLASS &&
		    !memcmp(ks->mf[ks->nmf - 1].set, f.set, sizeof(f.set))) {
			ks->mf[ks->nmf - 1].min += f.min;
			ks->mf[ks->nmf - 1].max += f.max;
			continue;
		}
		ks->mf[ks->nmf++] = f;
	}
	return 0;
}

int hb_keyspace_parse(struct hb_keyspace **out, const char *spec, struct hb_error *err)
{
	struct ks_parser p = {spec, 0, err};
	struct hb_keyspace *ks;
	size_t cap = 0, star_col = 0;
	unsigned long total_max = 0;
	int rc = 0;

	*out = NULL;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_buf_init(&ks->last_x, 0);
	hb_buf_init(&ks->kbuf, 0);
	mpz_init(ks->last_count);
	mpz_init(ks->lo);
	for (;;) {
		while (spec[p.i] == ' ')
			p.i++;
		if (!spec[p.i])
			break;
		if (ks->star) {
			rc = hb_error_set(err, HB_EINVAL, "column %zu: '*' must be the last field",
			                  star_col);
			goto done;
		}
		if (HB_VEC_GROW(ks->f, cap, ks->nf + 1, 8)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			goto done;
		}
		rc = parse_field(&p, &ks->f[ks->nf]);
		if (rc)
			goto done;
		if (spec[p.i] && spec[p.i] != ' ') {
			rc = perr(&p, p.i, "expected a space between fields");
			goto done;
		}
		if (ks->f[ks->nf].kind == KS_STAR) {
			ks->star = 1;
			star_col = ks->f[ks->nf].col;
		} else {
			total_max += ks->f[ks->nf].max;
		}
		ks->nf++;
	}
	if (!ks->nf) {
		rc = hb_error_set(err, HB_EINVAL, "column 1: empty key space (expected a field)");
		goto done;
	}
	if (total_max > HB_MAX_ROW_LENGTH) {
		rc = hb_error_set(err, HB_EINVAL,
		                  "column 1: keys can be %lu bytes long, more than HBase's maximum "
		                  "row length 32767",
		                  total_max);
		goto done;
	}
	if (total_max == 0 && !ks->star) {
		rc = hb_error_set(err, HB_EINVAL, "column 1: every key would be empty");
		goto done;
	}
	rc = merge_fields(ks);
	if (rc)
		hb_error_set(err, rc, "out of memory");
done:
	if (rc) {
		hb_keyspace_free(ks);
		return rc;
	}
	*out = ks;
	return 0;
}

/* ---------------------------------------------------------------- canonical form */

static int safe_literal(unsigned c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c > 0x20 && c < 0x7f && strchr("!\"#$%&'()*+,./:;<=>?@_`{|}~", (int)c));
}

static int add_set_char(struct hb_buf *out, unsigned c)
{
	if (safe_literal(c))
		return hb_buf_addc(out, (int)c);
	if (c == ']' || c == '\\' || c == '-')
		return hb_buf_addf(out, "\\%c", (int)c);
	return hb_buf_addf(out, "\\x%02X", c);
}

static int format_field(struct hb_buf *out, const struct ks_field *f)
{
	size_t k;
	int rc = 0;

	if (f->kind == KS_STAR)
		return hb_buf_addc(out, '*');
	if (f->kind == KS_UINT) {
		mpz_t n;
		char *txt;
		int i, full = 1;

		for (i = 0; i < f->width; i++)
			if (f->m[i] != 0xff)
				full = 0;
		if (full)
			return f->width == 1 ? hb_buf_adds(out, "byte")
			                     : hb_buf_addf(out, "byte{%d}", f->width);
		mpz_init(n);
		mpz_import(n, (size_t)f->width, 1, 1, 1, 0, f->m);
		mpz_add_ui(n, n, 1);
		txt = mpz_get_str(NULL, 10, n);
		mpz_clear(n);
		if (!txt)
			return HB_ENOMEM;
		rc = hb_buf_addf(out, "u%d<%s", 8 * f->width, txt);
		free(txt);
		return rc;
	}
	for (k = 0; k < HB_ARRAY_LEN(ks_classes); k++) {
		unsigned char set[32];

		class_set(set, (int)k);
		if (!memcmp(set, f->set, 32))
			break;
	}
	if (k < HB_ARRAY_LEN(ks_classes)) {
		rc = hb_buf_adds(out, ks_classes[k].name);
	} else {
		unsigned b = 0;

		rc = hb_buf_addc(out, '[');
		while (!rc && b < 256) {
			unsigned e;

			if (!set_has(f->set, b)) {
				b++;
				continue;
			}
			for (e = b; e + 1 < 256 && set_has(f->set, e + 1); e++)
				;
			rc = add_set_char(out, b);
			if (!rc && e == b + 1)
				rc = add_set_char(out, e);
			else if (!rc && e > b + 1)
				rc = hb_buf_addc(out, '-') || add_set_char(out, e) ? HB_ENOMEM : 0;
			b = e + 1;
		}
		if (!rc)
			rc = hb_buf_addc(out, ']');
	}
	if (!rc && f->min != f->max)
		rc = hb_buf_addf(out, "{%u,%u}", f->min, f->max);
	else if (!rc && f->min != 1)
		rc = hb_buf_addf(out, "{%u}", f->min);
	return rc;
}

int hb_keyspace_format(struct hb_buf *out, const struct hb_keyspace *ks)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < ks->nf && !rc; i++) {
		if (i)
			rc = hb_buf_addc(out, ' ');
		if (!rc)
			rc = format_field(out, &ks->f[i]);
	}
	return rc;
}

int hb_keyspace_same(const struct hb_keyspace *a, const struct hb_keyspace *b)
{
	size_t i;

	if (a->nmf != b->nmf)
		return 0;
	for (i = 0; i < a->nmf; i++) {
		const struct ks_field *x = &a->mf[i], *y = &b->mf[i];

		if (x->kind != y->kind)
			return 0;
		if (x->kind == KS_CLASS &&
		    (x->min != y->min || x->max != y->max || memcmp(x->set, y->set, 32)))
			return 0;
		if (x->kind == KS_UINT &&
		    (x->width != y->width || memcmp(x->m, y->m, (size_t)x->width)))
			return 0;
	}
	return 1;
}

int hb_keyspace_has_star(const struct hb_keyspace *ks)
{
	return ks->star;
}

int hb_keyspace_partitions(const struct hb_keyspace *ks, unsigned long long *n_out, int *width_out)
{
	const struct ks_field *f = &ks->f[0];
	unsigned long long v = 0;
	int k;

	if (f->kind != KS_UINT)
		return 0;
	for (k = 0; k < f->width; k++)
		v = (v << 8) | f->m[k];
	*width_out = f->width;
	*n_out = v == ~0ULL ? v : v + 1; /* 2^64 saturates */
	return 1;
}

/* ---------------------------------------------------------------- automaton */

static void auto_release(struct ks_auto *a)
{
	uint32_t i;
	int k;

	for (i = 0; i < a->nst; i++) {
		struct ks_state *s = &a->st[i];

		free(s->pos);
		free(s->next);
		free(s->below64);
		mpz_clear(s->count);
		if (s->below) {
			for (k = 0; k <= a->nint; k++)
				mpz_clear(s->below[k]);
			free(s->below);
		}
	}
	free(a->st);
	free(a->hash);
	free(a->base);
	free(a->pos_field);
	free(a->tmp);
	free(a->mark);
	memset(a, 0, sizeof(*a));
}

static void path_release(struct ks_path *p)
{
	hb_buf_release(&p->key);
	free(p->ids);
	free(p->sum);
	memset(p, 0, sizeof(*p));
}

/* Makes room for a walk of n bytes; returns the depth the walk of x can resume at (0 when
 * the last walk shares no usable prefix). HB_ENOMEM as (size_t)-1. */
static size_t path_resume(struct ks_path *p, const unsigned char *x, size_t n)
{
	size_t l = 0, m;

	if (n + 1 > p->cap) {
		size_t ncap = p->cap ? p->cap : 64;
		int32_t *ni;
		uint64_t *ns;

		while (ncap < n + 1)
			ncap *= 2;
		ni = realloc(p->ids, ncap * sizeof(*ni));
		if (ni)
			p->ids = ni;
		ns = ni ? realloc(p->sum, ncap * sizeof(*ns)) : NULL;
		if (ns)
			p->sum = ns;
		if (!ni || !ns)
			return (size_t)-1;
		p->cap = ncap;
	}
	if (!p->valid)
		return 0;
	m = p->depth < n ? p->depth : n;
	while (l < m && (unsigned char)p->key.data[l] == x[l])
		l++;
	return l;
}

/* Records x as the last walk, valid to depth. */
static void path_keep(struct ks_path *p, const unsigned char *x, size_t n, size_t depth)
{
	hb_buf_reset(&p->key);
	p->valid = !hb_buf_add(&p->key, x, n);
	p->depth = depth;
}

void hb_keyspace_free(struct hb_keyspace *ks)
{
	if (!ks)
		return;
	auto_release(&ks->reach);
	auto_release(&ks->cnt);
	free(ks->f);
	free(ks->mf);
	hb_buf_release(&ks->last_x);
	hb_buf_release(&ks->kbuf);
	mpz_clear(ks->last_count);
	mpz_clear(ks->lo);
	path_release(&ks->first);
	path_release(&ks->below);
	free(ks);
}

static int limit_err(struct hb_error *err)
{
	return hb_error_set(err, HB_EINVAL,
	                    "key space is too large or too ambiguous to evaluate exactly");
}

/* Adds position q and everything reachable from it without input to a->tmp (deduplicated). */
static void closure_add(struct ks_auto *a, uint32_t q, uint32_t *n)
{
	for (;;) {
		uint32_t fi, off;
		const struct ks_field *f;

		if (a->mark[q] == a->gen)
			return;
		a->mark[q] = a->gen;
		a->tmp[(*n)++] = q;
		if (q >= a->base[a->nf])
			return; /* final */
		fi = a->pos_field[q];
		f = &a->f[fi];
		off = q - a->base[fi];
		if (f->kind == KS_CLASS && off >= f->min)
			q = a->base[fi + 1];
		else if (f->kind == KS_UINT && off / 2 == (uint32_t)f->width)
			q = a->base[fi + 1];
		else
			return;
	}
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

static uint32_t hash_pos(const uint32_t *p, uint32_t n)
{
	uint64_t h = 1469598103934665603ULL;
	uint32_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return (uint32_t)(h ^ (h >> 32));
}

static int hash_grow(struct ks_auto *a)
{
	uint32_t ncap = a->hcap ? a->hcap * 2 : 1024, i;
	int32_t *nh = malloc(ncap * sizeof(*nh));

	if (!nh)
		return HB_ENOMEM;
	for (i = 0; i < ncap; i++)
		nh[i] = -1;
	for (i = 0; i < a->nst; i++) {
		uint32_t h = hash_pos(a->st[i].pos, a->st[i].npos) & (ncap - 1);

		while (nh[h] >= 0)
			h = (h + 1) & (ncap - 1);
		nh[h] = (int32_t)i;
	}
	free(a->hash);
	a->hash = nh;
	a->hcap = ncap;
	return 0;
}

/*
 * Drops positions whose future keys are a subset of another position's in the same set, so
 * ambiguous specs keep small states: in a class field every count c >= min accepts
 * A^{0..max-c} then the rest, so only the smallest such c matters; in a uW<N field the
 * "already below N" branch at a depth covers the "equal so far" one. The sorted positions
 * of one field are adjacent, in increasing count. Returns the new size.
 */
static uint32_t prune(struct ks_auto *a, uint32_t n)
{
	uint32_t i, o = 0, last_field = UINT32_MAX;
	int have_open = 0;

	for (i = 0; i < n; i++) {
		uint32_t q = a->tmp[i], fi, off;
		const struct ks_field *f;

		if (q >= a->base[a->nf]) {
			a->tmp[o++] = q;
			continue;
		}
		fi = a->pos_field[q];
		f = &a->f[fi];
		off = q - a->base[fi];
		if (fi != last_field) {
			last_field = fi;
			have_open = 0;
		}
		if (f->kind == KS_CLASS && off >= f->min) {
			if (have_open)
				continue;
			have_open = 1;
		} else if (f->kind == KS_UINT && off % 2 == 0 && i + 1 < n &&
		           a->tmp[i + 1] == q + 1) {
			continue; /* tight at this depth, and loose at the same depth is present */
		}
		a->tmp[o++] = q;
	}
	return o;
}

/* Interns the n positions in a->tmp (sorted here) as a state; *id = its index. */
static int intern(struct ks_auto *a, uint32_t n, int32_t *id, struct hb_error *err)
{
	uint32_t h, i;
	struct ks_state *s;

	qsort(a->tmp, n, sizeof(uint32_t), cmp_u32);
	n = prune(a, n);
	if ((a->nst + 1) * 2 > a->hcap && hash_grow(a))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	h = hash_pos(a->tmp, n) & (a->hcap - 1);
	while (a->hash[h] >= 0) {
		s = &a->st[a->hash[h]];
		if (s->npos == n && !memcmp(s->pos, a->tmp, n * sizeof(uint32_t))) {
			*id = a->hash[h];
			return 0;
		}
		h = (h + 1) & (a->hcap - 1);
	}
	if (a->nst >= KS_MAX_STATES || a->total_pos + n > KS_MAX_POSITIONS)
		return limit_err(err);
	if (a->nst == a->capst) {
		uint32_t ncap = a->capst ? a->capst * 2 : 64;
		struct ks_state *ns = realloc(a->st, ncap * sizeof(*ns));

		if (!ns)
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		a->st = ns;
		a->capst = ncap;
	}
	s = &a->st[a->nst];
	memset(s, 0, sizeof(*s));
	s->pos = malloc(n * sizeof(uint32_t));
	s->next = malloc((size_t)a->nint * sizeof(int32_t));
	if (!s->pos || !s->next) {
		free(s->pos);
		free(s->next);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	memcpy(s->pos, a->tmp, n * sizeof(uint32_t));
	s->npos = n;
	for (i = 0; i < (uint32_t)a->nint; i++)
		s->next[i] = -2;
	s->accept = 0;
	for (i = 0; i < n; i++) {
		uint32_t q = s->pos[i];

		if (q < a->base[a->nf] ? a->f[a->pos_field[q]].kind == KS_STAR
		                       : q == a->base[a->nf])
			s->accept = 1;
	}
	if (s->pos[n - 1] == a->npositions) /* the initial marker: no empty rows in HBase */
		s->accept = 0;
	mpz_init(s->count);
	a->total_pos += n;
	*id = (int32_t)a->nst;
	a->nst++;
	a->hash[h] = *id;
	return 0;
}

static int auto_build(struct ks_auto *a, const struct ks_field *f, size_t nf, struct hb_error *err)
{
	unsigned char bnd[257];
	uint32_t np = 0, i, n;
	size_t k;
	unsigned b;

	memset(a, 0, sizeof(*a));
	a->f = (struct ks_field *)f;
	a->nf = nf;
	a->base = malloc((nf + 1) * sizeof(uint32_t));
	if (!a->base)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (k = 0; k < nf; k++) {
		a->base[k] = np;
		if (f[k].kind == KS_CLASS)
			np += f[k].max + 1;
		else if (f[k].kind == KS_UINT)
			np += 2u * (uint32_t)f[k].width + 2;
		else
			np += 1;
	}
	a->base[nf] = np;
	a->npositions = np + 1;
	a->pos_field = malloc((np + 1) * sizeof(uint32_t));
	a->tmp = malloc((np + 2) * sizeof(uint32_t));
	a->mark = calloc(np + 2, sizeof(uint32_t));
	if (!a->pos_field || !a->tmp || !a->mark)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (k = 0; k < nf; k++)
		for (i = a->base[k]; i < a->base[k + 1]; i++)
			a->pos_field[i] = (uint32_t)k;
	a->pos_field[np] = (uint32_t)nf;
	/* Byte intervals on which every field's alphabet and every bound digit are constant. */
	memset(bnd, 0, sizeof(bnd));
	bnd[0] = bnd[256] = 1;
	for (k = 0; k < nf; k++) {
		if (f[k].kind == KS_CLASS) {
			for (b = 1; b < 256; b++)
				if (set_has(f[k].set, b) != set_has(f[k].set, b - 1))
					bnd[b] = 1;
		} else if (f[k].kind == KS_UINT) {
			int d;

			for (d = 0; d < f[k].width; d++) {
				bnd[f[k].m[d]] = 1;
				bnd[f[k].m[d] + 1] = 1;
			}
		}
	}
	a->nint = 0;
	for (b = 0; b < 256; b++) {
		if (bnd[b])
			a->ilo[a->nint++] = (unsigned short)b;
		a->byte_int[b] = (unsigned char)(a->nint - 1);
	}
	a->ilo[a->nint] = 256;
	a->gen = 1;
	n = 0;
	closure_add(a, 0, &n);
	a->tmp[n++] = a->npositions; /* initial marker */
	return intern(a, n, &a->start, err);
}

/* The state reached from state id on interval k (-1 = no key continues that way). */
static int step(struct ks_auto *a, int32_t id, int k, int32_t *out, struct hb_error *err)
{
	unsigned b = a->ilo[k];
	uint32_t i, n = 0;
	int rc;

	if (a->st[id].next[k] != -2) {
		*out = a->st[id].next[k];
		return 0;
	}
	a->gen++;
	if (a->gen == 0) {
		memset(a->mark, 0, (a->npositions + 1) * sizeof(uint32_t));
		a->gen = 1;
	}
	for (i = 0; i < a->st[id].npos; i++) {
		uint32_t q = a->st[id].pos[i], fi, off;
		const struct ks_field *f;

		if (q >= a->base[a->nf])
			continue; /* final or initial marker */
		fi = a->pos_field[q];
		f = &a->f[fi];
		off = q - a->base[fi];
		if (f->kind == KS_STAR) {
			closure_add(a, q, &n);
		} else if (f->kind == KS_CLASS) {
			if (off < f->max && set_has(f->set, b))
				closure_add(a, q + 1, &n);
		} else {
			uint32_t c = off / 2, loose = off % 2;

			if (c >= (uint32_t)f->width)
				continue;
			if (loose || b < f->m[c])
				closure_add(a, a->base[fi] + 2 * (c + 1) + 1, &n);
			else if (b == f->m[c])
				closure_add(a, a->base[fi] + 2 * (c + 1), &n);
		}
	}
	if (n == 0) {
		*out = -1;
	} else {
		rc = intern(a, n, out, err);
		if (rc)
			return rc;
	}
	a->st[id].next[k] = *out;
	return 0;
}

/* Computes count for id and every state below it, without recursion. */
static int count_state(struct ks_auto *a, int32_t id, struct hb_error *err)
{
	struct frame {
		int32_t id;
		int k;
	} *stk = NULL;
	size_t sp = 0, cap = 0;
	int rc = 0;

	if (a->st[id].counted == 2)
		return 0;
#define PUSH(x)                                                                                    \
	do {                                                                                       \
		if (HB_VEC_GROW(stk, cap, sp + 1, 64)) {                                           \
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");                        \
			goto done;                                                                 \
		}                                                                                  \
		stk[sp].id = (x);                                                                  \
		stk[sp].k = 0;                                                                     \
		sp++;                                                                              \
		a->st[(x)].counted = 1;                                                            \
	} while (0)
	PUSH(id);
	while (sp) {
		struct frame *fr = &stk[sp - 1];

		if (fr->k < a->nint) {
			int32_t t;
			int32_t cur = fr->id;
			int k = fr->k++;

			rc = step(a, cur, k, &t, err);
			if (rc)
				goto done;
			if (t >= 0 && a->st[t].counted == 1)
				HB_BUG("cycle in a finite key space automaton");
			if (t >= 0 && a->st[t].counted == 0)
				PUSH(t);
		} else {
			struct ks_state *s = &a->st[fr->id];
			int k;

			mpz_set_ui(s->count, (unsigned long)s->accept);
			for (k = 0; k < a->nint; k++)
				if (s->next[k] >= 0)
					mpz_addmul_ui(s->count, a->st[s->next[k]].count,
					              (unsigned long)(a->ilo[k + 1] - a->ilo[k]));
			s->counted = 2;
			a->total_limbs += mpz_size(s->count) + 1;
			if (a->total_limbs > KS_MAX_LIMBS) {
				rc = limit_err(err);
				goto done;
			}
			sp--;
		}
	}
#undef PUSH
done:
	if (rc) /* leave no state marked in progress */
		while (sp)
			a->st[stk[--sp].id].counted = 0;
	free(stk);
	return rc;
}

static int below_state(struct ks_auto *a, int32_t id, struct hb_error *err)
{
	struct ks_state *s;
	int k, rc;

	if (a->st[id].below)
		return 0;
	rc = count_state(a, id, err);
	if (rc)
		return rc;
	s = &a->st[id];
	s->below = malloc(((size_t)a->nint + 1) * sizeof(mpz_t));
	if (!s->below)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	mpz_init(s->below[0]);
	for (k = 0; k < a->nint; k++) {
		mpz_init_set(s->below[k + 1], s->below[k]);
		if (s->next[k] >= 0)
			mpz_addmul_ui(s->below[k + 1], a->st[s->next[k]].count,
			              (unsigned long)(a->ilo[k + 1] - a->ilo[k]));
	}
	a->total_limbs += ((size_t)a->nint + 1) * (mpz_size(s->count) + 1);
	if (a->total_limbs > KS_MAX_LIMBS)
		return limit_err(err);
	return 0;
}

static int ensure_built(struct hb_keyspace *ks, struct hb_error *err)
{
	size_t ncnt = ks->nmf;
	int rc;

	if (ks->built)
		return 0;
	if (ks->star)
		ncnt--; /* the '*' is always the last merged field */
	rc = auto_build(&ks->reach, ks->mf, ks->nmf, err);
	if (!rc)
		rc = auto_build(&ks->cnt, ks->mf, ncnt, err);
	if (rc) {
		auto_release(&ks->reach);
		auto_release(&ks->cnt);
		return rc;
	}
	ks->built = 1;
	return 0;
}

/* Appends the smallest key accepted from state id (the empty string if id accepts). */
static int min_completion(struct ks_auto *a, int32_t id, struct hb_buf *out, struct hb_error *err)
{
	size_t guard = 0;

	while (!a->st[id].accept) {
		int k, rc;
		int32_t t = -1;

		for (k = 0; k < a->nint; k++) {
			rc = step(a, id, k, &t, err);
			if (rc)
				return rc;
			if (t >= 0)
				break;
		}
		if (t < 0 || ++guard > HB_MAX_ROW_LENGTH + 1)
			HB_BUG("key space state without a completion");
		if (hb_buf_addc(out, a->ilo[k]))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		id = t;
	}
	return 0;
}

int hb_keyspace_first_at_or_after(struct hb_keyspace *ks, struct hb_buf *out, int *found,
                                  const void *sv, size_t n, struct hb_error *err)
{
	const unsigned char *s = sv;
	struct ks_auto *a = &ks->reach;
	int32_t *ids, t;
	size_t j, p;
	int rc;

	*found = 0;
	rc = ensure_built(ks, err);
	if (rc)
		return rc;
	p = path_resume(&ks->first, s, n);
	if (p == (size_t)-1)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	ids = ks->first.ids;
	ids[0] = a->start;
	for (; p < n; p++) {
		t = a->st[ids[p]].next[a->byte_int[s[p]]];
		if (t == -2) {
			rc = step(a, ids[p], a->byte_int[s[p]], &t, err);
			if (rc) {
				ks->first.valid = 0;
				return rc;
			}
		}
		if (t < 0)
			break;
		ids[p + 1] = t;
	}
	path_keep(&ks->first, s, n, p);
	if (p == n) {
		*found = 1;
		if (hb_buf_add(out, s, n)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			goto done;
		}
		rc = min_completion(a, ids[n], out, err);
		goto done;
	}
	/* s[0..p) is spelled by K but s[p] is not: branch upward at the deepest position. */
	for (j = p + 1; j-- > 0;) {
		unsigned b = s[j], nb = 0;
		int k = a->byte_int[b];

		t = -1;
		if (b + 1 < a->ilo[k + 1]) {
			rc = step(a, ids[j], k, &t, err);
			if (rc)
				goto done;
			nb = b + 1;
		}
		for (k = k + 1; t < 0 && k < a->nint; k++) {
			rc = step(a, ids[j], k, &t, err);
			if (rc)
				goto done;
			nb = a->ilo[k];
		}
		if (t >= 0) {
			*found = 1;
			if (hb_buf_add(out, s, j) || hb_buf_addc(out, (int)nb)) {
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
				goto done;
			}
			rc = min_completion(a, t, out, err);
			goto done;
		}
	}
done:
	return rc;
}

/* Decides once every state is counted whether counting can go native (see ks_auto). */
static int ensure_counted(struct hb_keyspace *ks, struct hb_error *err)
{
	struct ks_auto *a = &ks->cnt;
	uint32_t i;
	int rc;

	if (a->native_decided)
		return 0;
	rc = count_state(a, a->start, err); /* every state of a is below the start */
	if (rc)
		return rc;
	a->native_decided = 1;
	if (ks->no_native || sizeof(unsigned long) < sizeof(uint64_t) ||
	    !mpz_fits_ulong_p(a->st[a->start].count))
		return 0;
	for (i = 0; i < a->nst; i++)
		a->st[i].count64 = (uint64_t)mpz_get_ui(a->st[i].count);
	a->native = 1;
	return 0;
}

static int below_native(struct ks_auto *a, int32_t id, struct hb_error *err)
{
	struct ks_state *s = &a->st[id];
	int k;

	if (s->below64)
		return 0;
	s->below64 = malloc(((size_t)a->nint + 1) * sizeof(uint64_t));
	if (!s->below64)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	s->below64[0] = 0;
	for (k = 0; k < a->nint; k++)
		s->below64[k + 1] =
		    s->below64[k] + (s->next[k] >= 0 ? a->st[s->next[k]].count64 *
		                                           (uint64_t)(a->ilo[k + 1] - a->ilo[k])
		                                     : 0);
	return 0;
}

/* count_below in uint64_t (a->native), resuming at the prefix shared with the last walk. */
static int count_below_native(struct hb_keyspace *ks, uint64_t *out, const unsigned char *x,
                              size_t n, struct hb_error *err)
{
	struct ks_auto *a = &ks->cnt;
	struct ks_path *p = &ks->below;
	size_t j = path_resume(p, x, n);
	uint64_t sum;
	int32_t id, t;
	int rc;

	if (j == (size_t)-1)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	p->ids[0] = a->start;
	p->sum[0] = 0;
	id = p->ids[j];
	sum = p->sum[j];
	for (; j < n; j++) {
		unsigned b = x[j];
		int k = a->byte_int[b];

		if (a->st[id].accept)
			sum++; /* x[0..j) itself, a proper prefix of x */
		rc = below_native(a, id, err);
		if (rc) {
			p->valid = 0;
			return rc;
		}
		sum += a->st[id].below64[k];
		t = a->st[id].next[k];
		if (t == -2)
			HB_BUG("native count through a state not stepped");
		if (t < 0)
			break;
		if (b > a->ilo[k])
			sum += a->st[t].count64 * (b - a->ilo[k]);
		id = t;
		p->ids[j + 1] = t;
		p->sum[j + 1] = sum;
	}
	path_keep(p, x, n, j);
	*out = sum;
	return 0;
}

void hb_keyspace_set_native(struct hb_keyspace *ks, int on)
{
	ks->no_native = !on;
	ks->cnt.native = ks->cnt.native_decided = 0; /* decided again at the next count */
	ks->below.valid = 0;
}

int hb_keyspace_count_below(struct hb_keyspace *ks, mpz_t out, const void *xv, size_t n,
                            struct hb_error *err)
{
	const unsigned char *x = xv;
	struct ks_auto *a = &ks->cnt;
	int32_t id, t;
	size_t j;
	int rc;

	rc = ensure_built(ks, err);
	if (!rc)
		rc = ensure_counted(ks, err);
	if (rc)
		return rc;
	if (a->native) {
		uint64_t v;

		rc = count_below_native(ks, &v, x, n, err);
		if (!rc)
			mpz_set_ui(out, (unsigned long)v);
		return rc;
	}
	mpz_set_ui(out, 0);
	id = a->start;
	for (j = 0; j < n; j++) {
		unsigned b = x[j];
		int k = a->byte_int[b];

		if (a->st[id].accept)
			mpz_add_ui(out, out, 1); /* x[0..j) itself, a proper prefix of x */
		rc = below_state(a, id, err);
		if (rc)
			return rc;
		mpz_add(out, out, a->st[id].below[k]);
		t = a->st[id].next[k];
		if (t < 0)
			break;
		if (b > a->ilo[k])
			mpz_addmul_ui(out, a->st[t].count, b - a->ilo[k]);
		id = t;
	}
	return 0;
}

int hb_keyspace_total(struct hb_keyspace *ks, mpz_t out, struct hb_error *err)
{
	int rc = ensure_built(ks, err);

	if (!rc)
		rc = ensure_counted(ks, err);
	if (!rc)
		mpz_set(out, ks->cnt.st[ks->cnt.start].count);
	return rc;
}

/* count_below with a one-entry cache: a chain's end bound is the next region's start. */
static int count_cached(struct hb_keyspace *ks, mpz_t out, const void *x, size_t n,
                        struct hb_error *err)
{
	int rc;

	if (ks->have_last && ks->last_x.len == n && (!n || !memcmp(ks->last_x.data, x, n))) {
		mpz_set(out, ks->last_count);
		return 0;
	}
	rc = hb_keyspace_count_below(ks, out, x, n, err);
	if (rc)
		return rc;
	hb_buf_reset(&ks->last_x);
	if (hb_buf_add(&ks->last_x, x, n)) {
		ks->have_last = 0;
		return 0;
	}
	mpz_set(ks->last_count, out);
	ks->have_last = 1;
	return 0;
}

int hb_keyspace_region(struct hb_keyspace *ks, int *reachable, mpz_t keys, struct hb_buf *first,
                       const void *start, size_t start_len, const void *end, size_t end_len,
                       struct hb_error *err)
{
	int found, rc;

	*reachable = 0;
	hb_buf_reset(&ks->kbuf);
	rc = hb_keyspace_first_at_or_after(ks, &ks->kbuf, &found, start, start_len, err);
	if (rc)
		return rc;
	if (found)
		*reachable = !end_len || hb_key_cmp(ks->kbuf.data, ks->kbuf.len, end, end_len) < 0;
	if (found && first && hb_buf_add(first, ks->kbuf.data, ks->kbuf.len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!keys)
		return 0;
	rc = ensure_counted(ks, err);
	if (rc)
		return rc;
	if (ks->cnt.native) {
		/* The walks resume where the last ended, so no cache is needed. */
		uint64_t lo, hi;

		rc = count_below_native(ks, &lo, start, start_len, err);
		if (!rc && end_len)
			rc = count_below_native(ks, &hi, end, end_len, err);
		else if (!rc)
			hi = ks->cnt.st[ks->cnt.start].count64;
		if (!rc) /* an inverted region [start > end) holds nothing */
			mpz_set_ui(keys, (unsigned long)(hi > lo ? hi - lo : 0));
		return rc;
	}
	rc = count_cached(ks, ks->lo, start, start_len, err);
	if (!rc)
		rc = end_len ? count_cached(ks, keys, end, end_len, err)
		             : hb_keyspace_total(ks, keys, err);
	if (!rc) {
		mpz_sub(keys, keys, ks->lo);
		if (mpz_sgn(keys) < 0) /* an inverted region [start > end) holds nothing */
			mpz_set_ui(keys, 0);
	}
	return rc;
}

double hb_mpz_ratio(const mpz_t a, const mpz_t b)
{
	long ea, eb;
	double ma, mb;

	if (mpz_sgn(b) == 0)
		return 0.0;
	ma = mpz_get_d_2exp(&ea, a);
	mb = mpz_get_d_2exp(&eb, b);
	return ldexp(ma / mb, (int)(ea - eb));
}
