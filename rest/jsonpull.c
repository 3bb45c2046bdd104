/* A pull parser of JSON text that accepts exactly RFC 8259, for the bodies too large for a cJSON
 * tree (/T/regions, CellSet, /status/cluster). */
#include "rest/jsonpull.h"
#include "core/key.h"
#include "rest/jsonhelp.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- /T/regions ----
 * A table can have 100,000s of regions, so this body is read with a small pull parser
 * instead of a cJSON tree (which would cost several times the body in memory). It accepts
 * exactly RFC 8259 JSON, skips unknown members of any type, and reports the same errors. */

#define HB_JR_MAX_DEPTH 64

static void hb_jr_ws(struct hb_jr *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

int hb_jr_peek(struct hb_jr *j)
{
	hb_jr_ws(j);
	return j->p < j->end ? (unsigned char)*j->p : -1;
}

int hb_jr_lit(struct hb_jr *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n))
		return j->bad = 1, -1;
	j->p += n;
	return 0;
}

/* Writes code point cp (at most U+10FFFF) as UTF-8 into u (4 bytes of room); returns the length. */
static size_t utf8_put(char *u, unsigned cp)
{
	if (cp < 0x80) {
		u[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		u[0] = (char)(0xC0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		u[0] = (char)(0xE0 | cp >> 12);
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	u[0] = (char)(0xF0 | cp >> 18);
	u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	u[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

static int hb_jr_hex4(struct hb_jr *j, unsigned *out)
{
	int i, v;

	*out = 0;
	if (j->end - j->p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		if ((v = hb_hex_digit((unsigned char)j->p[i])) < 0)
			return -1;
		*out = *out << 4 | (unsigned)v;
	}
	j->p += 4;
	return 0;
}

/* A \u escape (after the 'u'): one code point, a surrogate pair joined; a lone surrogate
 * is U+FFFD unless strict. */
static int hb_jr_unicode(struct hb_jr *j, unsigned *out)
{
	unsigned cp, lo;

	if (hb_jr_hex4(j, &cp))
		return -1;
	if (cp >= 0xD800 && cp <= 0xDBFF && j->end - j->p >= 6 && j->p[0] == '\\' &&
	    j->p[1] == 'u') {
		j->p += 2;
		if (hb_jr_hex4(j, &lo))
			return -1;
		if (lo >= 0xDC00 && lo <= 0xDFFF) {
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
		} else if (j->strict) {
			return -1;
		} else {
			/* A lone high surrogate: U+FFFD, and the next escape is a code unit of
			 * its own. */
			cp = 0xFFFD;
			j->p -= 6;
		}
	} else if (cp >= 0xD800 && cp <= 0xDFFF) {
		if (j->strict)
			return -1;
		cp = 0xFFFD;
	}
	*out = cp;
	return 0;
}

/* One escape after its backslash, appended to out (when not NULL). */
static int hb_jr_escape(struct hb_jr *j, struct hb_buf *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit;
	unsigned cp;
	char u[4];
	char c;

	if (j->p >= j->end)
		return j->bad = 1, -1;
	c = *j->p++;
	if (c == 'u') {
		if (hb_jr_unicode(j, &cp))
			return j->bad = 1, -1;
		return out && hb_buf_add(out, u, utf8_put(u, cp)) ? HB_ENOMEM : 0;
	}
	hit = c ? strchr(from, c) : NULL;
	if (!hit)
		return j->bad = 1, -1;
	return out && hb_buf_addc(out, to[hit - from]) ? HB_ENOMEM : 0;
}

/* Reads a string (at '"') into out (decoded, UTF-8) or just skips it when out is NULL. */
int hb_jr_string(struct hb_jr *j, struct hb_buf *out)
{
	int rc;

	if (out)
		hb_buf_reset(out);
	if (hb_jr_peek(j) != '"')
		return j->bad = 1, -1;
	j->p++;
	for (;;) {
		const char *s = j->p;

		while (j->p < j->end && *j->p != '"' && *j->p != '\\' &&
		       (unsigned char)*j->p >= 0x20)
			j->p++;
		if (out && j->p > s && hb_buf_add(out, s, (size_t)(j->p - s)))
			return HB_ENOMEM;
		if (j->p >= j->end || (unsigned char)*j->p < 0x20)
			return j->bad = 1, -1;
		if (*j->p == '"') {
			j->p++;
			return out && hb_buf_add(out, "", 0) ? HB_ENOMEM : 0;
		}
		j->p++; /* backslash */
		rc = hb_jr_escape(j, out);
		if (rc)
			return rc;
	}
}

/* A number token; *is_int when it has no fraction or exponent. */
int hb_jr_number(struct hb_jr *j, double *d, long long *ll, int *is_int)
{
	const char *s = j->p;
	char tmp[64];
	size_t n;

	hb_jr_ws(j);
	s = j->p;
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return j->bad = 1, -1;
	if (*j->p == '0')
		j->p++;
	else
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	*is_int = 1;
	if (j->p < j->end && *j->p == '.') {
		*is_int = 0;
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return j->bad = 1, -1;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		*is_int = 0;
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return j->bad = 1, -1;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	n = (size_t)(j->p - s);
	if (n >= sizeof(tmp)) {
		*is_int = 0;
		n = sizeof(tmp) - 1;
	}
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	*d = strtod(tmp, NULL);
	if (*is_int) {
		errno = 0;
		*ll = strtoll(tmp, NULL, 10);
		if (errno)
			*is_int = 0;
	}
	return 0;
}

/* Skips one value. depth counts the containers around it. */
int hb_jr_skip(struct hb_jr *j, int depth)
{
	double d;
	long long ll;
	int isint, c = hb_jr_peek(j);

	if (depth > HB_JR_MAX_DEPTH)
		return j->bad = 1, -1;
	switch (c) {
	case '"':
		return hb_jr_string(j, NULL);
	case 't':
		return hb_jr_lit(j, "true");
	case 'f':
		return hb_jr_lit(j, "false");
	case 'n':
		return hb_jr_lit(j, "null");
	case '[':
	case '{':
		j->p++;
		if (hb_jr_peek(j) == (c == '[' ? ']' : '}')) {
			j->p++;
			return 0;
		}
		for (;;) {
			if (c == '{') {
				if (hb_jr_string(j, NULL) || hb_jr_peek(j) != ':')
					return j->bad = 1, -1;
				j->p++;
			}
			if (hb_jr_skip(j, depth + 1))
				return -1;
			switch (hb_jr_peek(j)) {
			case ',':
				j->p++;
				hb_rest_drop_behind(&j->drop, j->p);
				continue;
			case ']':
				if (c != '[')
					return j->bad = 1, -1;
				j->p++;
				return 0;
			case '}':
				if (c != '{')
					return j->bad = 1, -1;
				j->p++;
				return 0;
			default:
				return j->bad = 1, -1;
			}
		}
	default:
		return hb_jr_number(j, &d, &ll, &isint);
	}
}

/* Member separator after a value: 1 = another member follows, 0 = the container closed. */
int hb_jr_next(struct hb_jr *j, int close)
{
	int c = hb_jr_peek(j);

	hb_rest_drop_behind(&j->drop, j->p);
	if (c == ',') {
		j->p++;
		return 1;
	}
	if (c == close) {
		j->p++;
		return 0;
	}
	j->bad = 1;
	return -1;
}

int hb_jr_invalid(struct hb_jr *j, const char *json, const char *what, struct hb_error *err)
{
	size_t off = (size_t)(j->p - json), len = (size_t)(j->end - json);

	return HB_BAD("invalid JSON near byte %zu of %zu", off, len);
}

/*
 * Opens a strict JSON document whose top level must be an object, as cJSON read it: a UTF-8
 * byte order mark is skipped, and so is anything after the top-level value. The whole text
 * is checked first (valid JSON, or "invalid JSON near byte ..."), then *j is left at the
 * opening brace. A mapped body's pages are given back as the reader moves on.
 */
int hb_jr_open_object(struct hb_jr *j, const char *json, size_t len, int mapped, const char *what,
                      struct hb_error *err)
{
	const char *start;
	int rc;

	if (!json || !len)
		return HB_BAD("empty body");
	if ((rc = hb_json_check_text(json, len, 0, what, err, mapped)))
		return rc;
	start = len >= 3 && !memcmp(json, "\xEF\xBB\xBF", 3) ? json + 3 : json;
	j->p = start;
	j->end = json + len;
	j->bad = 0;
	j->strict = 1;
	j->drop = mapped ? json : NULL;
	if (hb_jr_skip(j, 0))
		return hb_jr_invalid(j, json, what, err);
	j->p = start;
	j->drop = mapped ? json : NULL;
	if (hb_jr_peek(j) != '{')
		return HB_BAD("not a JSON object");
	return 0;
}

/* The scratch a TableInfo walk reuses for every region, and what the region at hand had. */

/* Reads the value at j->p (syntax known good) into v, or skips it when v already holds the
 * member's first occurrence. */
int hb_jr_read(struct hb_jr *j, struct hb_jr_val *v)
{
	long long ll;
	int c = hb_jr_peek(j), isint, rc;

	if (v->kind != HB_JR_ABSENT)
		return hb_jr_skip(j, 3) ? -1 : 0;
	if (c == '"') {
		if ((rc = hb_jr_string(j, &v->buf)))
			return rc;
		v->kind = HB_JR_STRING;
		return 0;
	}
	if (c == 'n') {
		v->kind = HB_JR_NULL;
		return hb_jr_lit(j, "null");
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		v->kind = HB_JR_NUMBER;
		return hb_jr_number(j, &v->num, &ll, &isint);
	}
	v->kind = HB_JR_OTHER;
	return hb_jr_skip(j, 3) ? -1 : 0;
}

/* A base64 member into out as get_b64 reads it; *present = 0 when missing or null. */
int hb_jr_b64(const struct hb_jr_val *v, struct hb_buf *out, int *present, const char *ctx,
              const char *key, const char *what, struct hb_error *err)
{
	int rc;

	hb_buf_reset(out);
	if (present)
		*present = v->kind == HB_JR_STRING;
	if (v->kind == HB_JR_ABSENT || v->kind == HB_JR_NULL)
		return 0;
	if (v->kind != HB_JR_STRING)
		return HB_BAD("%s%s is not a string", ctx, key);
	rc = hb_b64_decode(out, v->buf.data, v->buf.len);
	if (rc == HB_ENOMEM)
		return hb_json_oom(err);
	if (rc)
		return HB_BAD("%s%s is not valid base64", ctx, key);
	return hb_buf_add(out, "", 0) ? hb_json_oom(err) : 0;
}

/* A timestamp member as get_i64 reads it (not lenient). */
int hb_jr_i64(const struct hb_jr_val *v, int64_t *out, const char *ctx, const char *key,
              const char *what, struct hb_error *err)
{
	*out = 0;
	if (v->kind == HB_JR_ABSENT || v->kind == HB_JR_NULL)
		return 0;
	if (v->kind == HB_JR_STRING) {
		char *end;
		long long ll;

		errno = 0;
		ll = strtoll(v->buf.data, &end, 10);
		if (v->buf.data[0] && !*end && !errno) {
			*out = ll;
			return 0;
		}
	} else if (v->kind == HB_JR_NUMBER) {
		if (isfinite(v->num) && v->num >= -0x1p63 && v->num < 0x1p63) {
			*out = (int64_t)v->num;
			return 0;
		}
	}
	return HB_BAD("%s%s is not a number", ctx, key);
}

void hb_jr_val_reset(struct hb_jr_val *v)
{
	v->kind = HB_JR_ABSENT;
	hb_buf_reset(&v->buf);
}
