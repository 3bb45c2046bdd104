/* JSON decoders for the REST resources: lenient about extra fields, strict about bad data.
 * One grammar per body size: /T/regions bodies (100,000s of regions) are read by a pull parser
 * that accepts exactly RFC 8259; every other body is small and read with cJSON. */
#include "core/key.h"
#include "core/vec.h"
#include "rest/hbase.h"
#include "rest/rest_priv.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BAD(...) hb_error_malformed(err, what, __VA_ARGS__)

/* s for a message: bytes outside printable ASCII (and '\') as \xHH like toStringBinary, cut
 * to fit buf. Server text must not reach a terminal raw. */
static const char *shown(char *buf, size_t cap, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c <= 0x7E && c != '\\') {
			if (o + 1 >= cap)
				break;
			buf[o++] = (char)c;
		} else {
			if (o + 4 >= cap)
				break;
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[c >> 4];
			buf[o++] = hex[c & 15];
		}
	}
	buf[o] = '\0';
	return buf;
}

#define SHOWN(buf, s) shown(buf, sizeof(buf), s, strlen(s))

static int oom(struct hb_error *err)
{
	return hb_error_set(err, HB_ENOMEM, "out of memory");
}

/*
 * JSON text must be UTF-8 (RFC 8259 §8.1) and cJSON does not check it, so a stray byte would
 * flow into names and out as invalid JSON. cJSON also ends its C strings at an escaped NUL
 * (\u0000), silently cutting "a\u0000b" to "a": with allow_nul = 0 such a string is refused.
 */
/* Whether p holds only ASCII bytes (the compiler vectorises this loop). */
static int all_ascii(const char *p, size_t n)
{
	uint64_t acc = 0, w;
	size_t i = 0;

	for (; n - i >= 8; i += 8) {
		memcpy(&w, p + i, 8);
		acc |= w;
	}
	for (; i < n; i++)
		acc |= (unsigned char)p[i];
	return !(acc & 0x8080808080808080u);
}

/*
 * A body mapped from its spool file (hb_rest_resp_body) is read pass by pass from its start to
 * its end; what a pass has left behind is given back in steps (the pages are read again from
 * the file if touched later), so that a body of hundreds of MB never stays resident whole.
 * *next is the first byte not given back yet (page-aligned), NULL for a body in memory.
 */
/* Measured on a million-region /T/regions answer (about 200 MB): 4 MiB steps kept the least
 * of it resident (peak RSS 87 MB); 1 MiB steps kept more (103 MB), and so did 8 MiB (87 MB)
 * and 16 MiB (94 MB). */
#define DROP_STEP ((size_t)4 << 20)

static void drop_to(const char **next, const char *upto)
{
	static uintptr_t page;
	uintptr_t u;

	if (!*next || upto < *next || (size_t)(upto - *next) < DROP_STEP)
		return;
	if (!page) {
		long ps = sysconf(_SC_PAGESIZE);

		page = ps > 0 ? (uintptr_t)ps : 4096;
	}
	u = (uintptr_t)upto & ~(page - 1);
	madvise((void *)*next, (size_t)(u - (uintptr_t)*next), MADV_DONTNEED);
	*next = (const char *)u;
}

void hb_rest_drop_behind(const char **next, const char *upto)
{
	drop_to(next, upto);
}

/* The drop point for a pass that starts again at p (behind the last one): p's page. */
static const char *drop_from(const char *next, const char *p)
{
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096;

	return next ? (const char *)((uintptr_t)p & ~(page - 1)) : NULL;
}

static int check_text(const char *json, size_t len, int allow_nul, const char *what,
                      struct hb_error *err, int mapped)
{
	const unsigned char *p = (const unsigned char *)json;
	const char *drop = mapped ? json : NULL;
	size_t i = 0, l, off, n;
	int in_str = 0, fast = 1;

	/* Only a non-ASCII byte or an escape can fail: most bodies are ASCII without escapes. */
	for (off = 0; fast && off < len; off += n) {
		n = len - off < DROP_STEP ? len - off : DROP_STEP;
		fast = all_ascii(json + off, n) && (allow_nul || !memchr(json + off, '\\', n));
		drop_to(&drop, json + off + n);
	}
	if (fast)
		return 0;
	drop = mapped ? json : NULL;
	while (i < len) {
		drop_to(&drop, json + i);
		/* Eight bytes at a time while none is non-ASCII, '"' or '\\' (bodies are mostly
		 * base64): a byte is zero in w ^ c exactly when it equals c. */
		while (len - i >= 8) {
			const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
			uint64_t w, q, b;

			memcpy(&w, p + i, 8);
			q = w ^ (ones * '"');
			b = w ^ (ones * '\\');
			if ((w | ((q - ones) & ~q) | ((b - ones) & ~b)) & high)
				break;
			i += 8;
		}
		if (i >= len)
			break;
		if (p[i] >= 0x80) {
			if (!(l = hb_utf8_len(p + i, len - i)))
				return BAD("invalid UTF-8 at byte %zu of %zu", i, len);
			i += l;
		} else if (p[i] == '"') {
			in_str = !in_str;
			i++;
		} else if (p[i] == '\\' && in_str) {
			if (!allow_nul && len - i >= 6 && !memcmp(p + i + 1, "u0000", 5))
				return BAD(
				    "string with a NUL character (\\u0000) at byte %zu of %zu", i,
				    len);
			i += 2; /* the escaped character never ends the string */
		} else {
			i++;
		}
	}
	return 0;
}

static cJSON *parse(const char *json, size_t len, const char *what, struct hb_error *err)
{
	cJSON *root;

	if (!json || !len) {
		hb_error_malformed(err, what, "empty body");
		return NULL;
	}
	if (check_text(json, len, 0, what, err, 0))
		return NULL;
	root = cJSON_ParseWithLength(json, len);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();
		size_t off = at && at >= json && at <= json + len ? (size_t)(at - json) : len;

		hb_error_malformed(err, what, "invalid JSON near byte %zu of %zu", off, len);
	}
	return root;
}

/* parse() for a body that must be a JSON object: NULL (err filled, HB_ESERVER) otherwise. */
static cJSON *parse_object(const char *json, size_t len, const char *what, struct hb_error *err)
{
	cJSON *root = parse(json, len, what, err);

	if (root && !cJSON_IsObject(root)) {
		cJSON_Delete(root);
		BAD("not a JSON object");
		return NULL;
	}
	return root;
}

/* A string member: *out is borrowed (NULL when missing). Error when present but not a string. */
static int get_str(const cJSON *obj, const char *key, const char **out, const char *ctx,
                   const char *what, struct hb_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v) || !v->valuestring)
		return BAD("%s%s is not a string", ctx, key);
	*out = v->valuestring;
	return 0;
}

static const cJSON *get_array(const cJSON *obj, const char *key, int required, const char *ctx,
                              const char *what, struct hb_error *err, int *rc)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	*rc = 0;
	if (!v || cJSON_IsNull(v)) {
		if (required)
			*rc = BAD("%sno '%s' array", ctx, key);
		return NULL;
	}
	if (!cJSON_IsArray(v)) {
		*rc = BAD("%s%s is not an array", ctx, key);
		return NULL;
	}
	return v;
}

/* ---- /version/rest ---- */

void hb_rest_version_release(struct hb_rest_version *v)
{
	free(v->rest);
	free(v->jvm);
	free(v->os);
	free(v->server);
	free(v->jersey);
	memset(v, 0, sizeof(*v));
}

int hb_rest_decode_version(const char *json, size_t len, const char *what,
                           struct hb_rest_version *out, struct hb_error *err)
{
	static const char *const keys[] = {"REST", "JVM", "OS", "Server", "Jersey"};
	char **dst[5];
	cJSON *root;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	dst[0] = &out->rest;
	dst[1] = &out->jvm;
	dst[2] = &out->os;
	dst[3] = &out->server;
	dst[4] = &out->jersey;
	root = parse_object(json, len, what, err);
	if (!root)
		return HB_ESERVER;
	for (i = 0; i < 5 && !rc; i++) {
		const char *s;

		rc = get_str(root, keys[i], &s, "", what, err);
		if (!rc && s && !(*dst[i] = strdup(s)))
			rc = oom(err);
	}
	cJSON_Delete(root);
	if (rc)
		hb_rest_version_release(out);
	return rc;
}

/* A cluster version is non-empty printable ASCII without spaces ("2.5.8", "2.4.17-SNAPSHOT"). */
static int version_ok(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return 0;
	return 1;
}

/* StorageClusterVersionModel answers {"Version":"2.5.8"} (docs/hbase-wire.md §1); a bare JSON
 * string and text/plain's bare version are accepted too. */
int hb_rest_decode_cluster_version(const char *json, size_t len, const char *what, char **out,
                                   struct hb_error *err)
{
	const cJSON *v;
	cJSON *root;
	int rc = 0;

	*out = NULL;
	while (len && (json[len - 1] == '\n' || json[len - 1] == '\r' || json[len - 1] == ' '))
		len--;
	if (!len)
		return BAD("empty body");
	if (json[0] != '"' && json[0] != '{') {
		/* text/plain from an old gateway: the bare version, printable ASCII only. */
		if (json[0] == '[' || !version_ok(json, len))
			return BAD("expected {\"Version\":\"...\"} or a version string");
		*out = strndup(json, len);
		return *out ? 0 : oom(err);
	}
	root = parse(json, len, what, err);
	if (!root)
		return HB_ESERVER;
	v = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "Version") : root;
	if (!cJSON_IsString(v) || !v->valuestring ||
	    !version_ok(v->valuestring, strlen(v->valuestring)))
		rc = BAD(cJSON_IsObject(root)
		             ? "expected a 'Version' string in the object"
		             : "expected {\"Version\":\"...\"} or a version string");
	else if (!(*out = strdup(v->valuestring)))
		rc = oom(err);
	cJSON_Delete(root);
	return rc;
}

/* ---- /status/cluster ---- */

void hb_cluster_status_release(struct hb_cluster_status *s)
{
	size_t i, j;

	for (i = 0; i < s->nlive; i++) {
		for (j = 0; j < s->live[i].nregions; j++)
			free(s->live[i].regions[j].name);
		free(s->live[i].regions);
		free(s->live[i].name);
	}
	free(s->live);
	for (i = 0; i < s->ndead; i++)
		free(s->dead[i]);
	free(s->dead);
	for (i = 0; i < s->nstale; i++)
		free(s->stale[i]);
	free(s->stale);
	memset(s, 0, sizeof(*s));
}

/* ---- GET / ---- */

void hb_names_init(struct hb_names *n)
{
	n->v = NULL;
	n->n = n->cap = 0;
}

void hb_names_release(struct hb_names *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
	hb_names_init(n);
}

int hb_names_push(struct hb_names *n, const char *s)
{
	char *c;

	if (HB_VEC_GROW(n->v, n->cap, n->n + 1, 16))
		return HB_ENOMEM;
	if (!(c = strdup(s)))
		return HB_ENOMEM;
	n->v[n->n++] = c;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int hb_rest_decode_tables(const char *json, size_t len, const char *what, struct hb_names *out,
                          struct hb_error *err)
{
	const cJSON *arr, *x;
	cJSON *root = parse_object(json, len, what, err);
	size_t i = 0;
	int rc = 0;

	if (!root)
		return HB_ESERVER;
	arr = get_array(root, "table", 0, "", what, err, &rc);
	if (rc || !arr)
		goto done;
	cJSON_ArrayForEach(x, arr)
	{
		const char *name;
		char ctx[48];

		snprintf(ctx, sizeof(ctx), "table[%zu].", i++);
		if (!cJSON_IsObject(x)) {
			rc = BAD("table[%zu] is not an object", i - 1);
			goto done;
		}
		if ((rc = get_str(x, "name", &name, ctx, what, err)))
			goto done;
		if (!name || !*name) {
			rc = BAD("%sname is missing", ctx);
			goto done;
		}
		if (hb_names_push(out, name)) {
			rc = oom(err);
			goto done;
		}
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_names);
done:
	cJSON_Delete(root);
	return rc;
}

/* ---- /T/schema ---- */

/* Attribute values are strings; numbers and booleans are accepted and printed as text. */
static int attr_value(const cJSON *v, char *buf, size_t cap, const char **out)
{
	if (cJSON_IsString(v) && v->valuestring) {
		*out = v->valuestring;
		return 0;
	}
	if (cJSON_IsBool(v)) {
		*out = cJSON_IsTrue(v) ? "true" : "false";
		return 0;
	}
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
		if (v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 9e15)
			snprintf(buf, cap, "%.0f", v->valuedouble);
		else
			snprintf(buf, cap, "%.17g", v->valuedouble);
		*out = buf;
		return 0;
	}
	return -1;
}

int hb_rest_decode_schema(const char *json, size_t len, const char *what, struct hb_schema *out,
                          struct hb_error *err)
{
	const cJSON *x, *fams, *f;
	cJSON *root = parse_object(json, len, what, err);
	const char *name;
	char num[64], shown_key[200];
	size_t i = 0;
	int rc = 0;

	if (!root)
		return HB_ESERVER;
	if ((rc = get_str(root, "name", &name, "", what, err)))
		goto done;
	if (!name || !*name) {
		rc = BAD("table name is missing");
		goto done;
	}
	if (hb_schema_set_table(out, name)) {
		rc = oom(err);
		goto done;
	}
	cJSON_ArrayForEach(x, root)
	{
		const char *v;

		if (!x->string || !strcmp(x->string, "name") || !strcmp(x->string, "ColumnSchema"))
			continue;
		if (attr_value(x, num, sizeof(num), &v)) {
			rc = BAD("table attribute %s is not a string", SHOWN(shown_key, x->string));
			goto done;
		}
		if (hb_attrs_set(&out->attrs, x->string, v)) {
			rc = oom(err);
			goto done;
		}
	}
	fams = get_array(root, "ColumnSchema", 0, "", what, err, &rc);
	if (rc || !fams)
		goto done;
	cJSON_ArrayForEach(f, fams)
	{
		struct hb_family *fam;
		char ctx[48];

		snprintf(ctx, sizeof(ctx), "ColumnSchema[%zu].", i);
		if (!cJSON_IsObject(f)) {
			rc = BAD("ColumnSchema[%zu] is not an object", i);
			goto done;
		}
		if ((rc = get_str(f, "name", &name, ctx, what, err)))
			goto done;
		if (!name || !*name) {
			rc = BAD("%sname is missing", ctx);
			goto done;
		}
		if (hb_schema_add_family(out, name, &fam)) {
			rc = oom(err);
			goto done;
		}
		cJSON_ArrayForEach(x, f)
		{
			const char *v;

			if (!x->string || !strcmp(x->string, "name"))
				continue;
			if (attr_value(x, num, sizeof(num), &v)) {
				rc = BAD("%s%s is not a string", ctx, SHOWN(shown_key, x->string));
				goto done;
			}
			if (hb_attrs_set(&fam->attrs, x->string, v)) {
				rc = oom(err);
				goto done;
			}
		}
		i++;
	}
done:
	cJSON_Delete(root);
	return rc;
}

int hb_rest_encode_schema(const struct hb_schema *s, char **out, struct hb_error *err)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	size_t i, j;
	int ok = root != NULL;

	*out = NULL;
	ok = ok && cJSON_AddStringToObject(root, "name", s->table ? s->table : "");
	for (i = 0; ok && i < s->attrs.n; i++)
		ok = cJSON_AddStringToObject(root, s->attrs.v[i].key, s->attrs.v[i].value) != NULL;
	arr = ok ? cJSON_AddArrayToObject(root, "ColumnSchema") : NULL;
	ok = arr != NULL;
	for (i = 0; ok && i < s->nfamilies; i++) {
		cJSON *f = cJSON_CreateObject();

		ok = f && cJSON_AddItemToArray(arr, f) &&
		     cJSON_AddStringToObject(f, "name", s->families[i].name);
		for (j = 0; ok && j < s->families[i].attrs.n; j++)
			ok = cJSON_AddStringToObject(f, s->families[i].attrs.v[j].key,
			                             s->families[i].attrs.v[j].value) != NULL;
	}
	if (ok)
		*out = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return *out ? 0 : oom(err);
}

/* ---- /T/regions ----
 * A table can have 100,000s of regions, so this body is read with a small pull parser
 * instead of a cJSON tree (which would cost several times the body in memory). It accepts
 * exactly RFC 8259 JSON, skips unknown members of any type, and reports the same errors. */

struct jr {
	const char *p, *end;
	int bad;          /* set on any syntax error */
	int strict;       /* a lone surrogate escape is a syntax error (else it reads as U+FFFD) */
	const char *drop; /* a mapped body: see drop_to (NULL in memory) */
};

#define JR_MAX_DEPTH 64

static void jr_ws(struct jr *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int jr_peek(struct jr *j)
{
	jr_ws(j);
	return j->p < j->end ? (unsigned char)*j->p : -1;
}

static int jr_lit(struct jr *j, const char *lit)
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

static int jr_hex4(struct jr *j, unsigned *out)
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
static int jr_unicode(struct jr *j, unsigned *out)
{
	unsigned cp, lo;

	if (jr_hex4(j, &cp))
		return -1;
	if (cp >= 0xD800 && cp <= 0xDBFF && j->end - j->p >= 6 && j->p[0] == '\\' &&
	    j->p[1] == 'u') {
		j->p += 2;
		if (jr_hex4(j, &lo))
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
static int jr_escape(struct jr *j, struct hb_buf *out)
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
		if (jr_unicode(j, &cp))
			return j->bad = 1, -1;
		return out && hb_buf_add(out, u, utf8_put(u, cp)) ? HB_ENOMEM : 0;
	}
	hit = c ? strchr(from, c) : NULL;
	if (!hit)
		return j->bad = 1, -1;
	return out && hb_buf_addc(out, to[hit - from]) ? HB_ENOMEM : 0;
}

/* Reads a string (at '"') into out (decoded, UTF-8) or just skips it when out is NULL. */
static int jr_string(struct jr *j, struct hb_buf *out)
{
	int rc;

	if (out)
		hb_buf_reset(out);
	if (jr_peek(j) != '"')
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
		rc = jr_escape(j, out);
		if (rc)
			return rc;
	}
}

/* A number token; *is_int when it has no fraction or exponent. */
static int jr_number(struct jr *j, double *d, long long *ll, int *is_int)
{
	const char *s = j->p;
	char tmp[64];
	size_t n;

	jr_ws(j);
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
static int jr_skip(struct jr *j, int depth)
{
	double d;
	long long ll;
	int isint, c = jr_peek(j);

	if (depth > JR_MAX_DEPTH)
		return j->bad = 1, -1;
	switch (c) {
	case '"':
		return jr_string(j, NULL);
	case 't':
		return jr_lit(j, "true");
	case 'f':
		return jr_lit(j, "false");
	case 'n':
		return jr_lit(j, "null");
	case '[':
	case '{':
		j->p++;
		if (jr_peek(j) == (c == '[' ? ']' : '}')) {
			j->p++;
			return 0;
		}
		for (;;) {
			if (c == '{') {
				if (jr_string(j, NULL) || jr_peek(j) != ':')
					return j->bad = 1, -1;
				j->p++;
			}
			if (jr_skip(j, depth + 1))
				return -1;
			switch (jr_peek(j)) {
			case ',':
				j->p++;
				drop_to(&j->drop, j->p);
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
		return jr_number(j, &d, &ll, &isint);
	}
}

/* Member separator after a value: 1 = another member follows, 0 = the container closed. */
static int jr_next(struct jr *j, int close)
{
	int c = jr_peek(j);

	drop_to(&j->drop, j->p);
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

static int jr_invalid(struct jr *j, const char *json, const char *what, struct hb_error *err)
{
	size_t off = (size_t)(j->p - json), len = (size_t)(j->end - json);

	return BAD("invalid JSON near byte %zu of %zu", off, len);
}

/*
 * Opens a strict JSON document whose top level must be an object, as cJSON read it: a UTF-8
 * byte order mark is skipped, and so is anything after the top-level value. The whole text
 * is checked first (valid JSON, or "invalid JSON near byte ..."), then *j is left at the
 * opening brace. A mapped body's pages are given back as the reader moves on.
 */
static int jr_open_object(struct jr *j, const char *json, size_t len, int mapped, const char *what,
                          struct hb_error *err)
{
	const char *start;
	int rc;

	if (!json || !len)
		return BAD("empty body");
	if ((rc = check_text(json, len, 0, what, err, mapped)))
		return rc;
	start = len >= 3 && !memcmp(json, "\xEF\xBB\xBF", 3) ? json + 3 : json;
	j->p = start;
	j->end = json + len;
	j->bad = 0;
	j->strict = 1;
	j->drop = mapped ? json : NULL;
	if (jr_skip(j, 0))
		return jr_invalid(j, json, what, err);
	j->p = start;
	j->drop = mapped ? json : NULL;
	if (jr_peek(j) != '{')
		return BAD("not a JSON object");
	return 0;
}

/* The scratch a TableInfo walk reuses for every region, and what the region at hand had. */
struct region_walk {
	struct jr *j;
	struct hb_buf key, sk, ek, loc, name;
	const char *json, *what;
	size_t i; /* the region's index */
	int has_s, has_e, has_loc, has_name;
	long long id;
};

/* A JSON error at the walk's position: ENOMEM stays, the rest is "not valid JSON". */
static int rw_invalid(struct region_walk *w, int rc, struct hb_error *err)
{
	return rc == HB_ENOMEM ? oom(err) : jr_invalid(w->j, w->json, w->what, err);
}

/* A value that must be a string (or null): 1 when a string is next, 0 after a null, or an
 * error (the value skipped) naming field. */
static int rw_string_next(struct region_walk *w, const char *field, struct hb_error *err)
{
	const char *what = w->what;
	int c = jr_peek(w->j);

	if (c == '"')
		return 1;
	if (c == 'n')
		return jr_lit(w->j, "null") ? rw_invalid(w, -1, err) : 0;
	if (jr_skip(w->j, 3))
		return rw_invalid(w, -1, err);
	return BAD("Region[%zu].%s is not a string", w->i, field);
}

/* startKey or endKey: base64 into sk or ek. */
static int rw_key(struct region_walk *w, int is_start, struct hb_error *err)
{
	struct hb_buf *dst = is_start ? &w->sk : &w->ek;
	const char *field = is_start ? "startKey" : "endKey", *what = w->what;
	int rc = rw_string_next(w, field, err);

	if (rc != 1)
		return rc;
	/* key is the scratch: loc may hold the location already. */
	if ((rc = jr_string(w->j, &w->key)))
		return rw_invalid(w, rc, err);
	hb_buf_reset(dst);
	rc = hb_b64_decode(dst, w->key.data, w->key.len);
	if (rc == HB_ENOMEM || hb_buf_add(dst, "", 0))
		return oom(err);
	if (rc)
		return BAD("Region[%zu].%s is not valid base64", w->i, field);
	*(is_start ? &w->has_s : &w->has_e) = 1;
	return 0;
}

/* location or name, kept as text. */
static int rw_text(struct region_walk *w, int is_loc, struct hb_error *err)
{
	int rc = rw_string_next(w, is_loc ? "location" : "name", err);

	if (rc != 1)
		return rc;
	if ((rc = jr_string(w->j, is_loc ? &w->loc : &w->name)))
		return rw_invalid(w, rc, err);
	*(is_loc ? &w->has_loc : &w->has_name) = 1;
	return 0;
}

/* id: a regionId is a non-negative Java long; anything else would be shown and used
 * (region names, the meta cross-check) as a different number. */
static int rw_id(struct region_walk *w, struct hb_error *err)
{
	const char *what = w->what;
	int c = jr_peek(w->j), isint, rc;
	char *end;
	double d;

	if (c == '"') {
		if ((rc = jr_string(w->j, &w->key)))
			return rw_invalid(w, rc, err);
		errno = 0;
		w->id = strtoll(w->key.data, &end, 10);
		if (!w->key.len || w->key.data[0] < '0' || w->key.data[0] > '9' || *end || errno)
			return BAD("Region[%zu].id is not a number", w->i);
		return 0;
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		if (jr_number(w->j, &d, &w->id, &isint))
			return rw_invalid(w, -1, err);
		if (!isint)
			return BAD("Region[%zu].id is not an integer below 2^63", w->i);
		return w->id < 0 ? BAD("Region[%zu].id is negative", w->i) : 0;
	}
	if (c == 'n')
		return jr_lit(w->j, "null") ? rw_invalid(w, -1, err) : 0;
	if (jr_skip(w->j, 3))
		return rw_invalid(w, -1, err);
	return BAD("Region[%zu].id is not a number", w->i);
}

/* One member of a Region object (its name in w->key). */
static int rw_member(struct region_walk *w, struct hb_error *err)
{
	const char *k = w->key.data;

	if (!strcmp(k, "startKey") || !strcmp(k, "endKey"))
		return rw_key(w, k[0] == 's', err);
	if (!strcmp(k, "location") || !strcmp(k, "name"))
		return rw_text(w, k[0] == 'l', err);
	if (!strcmp(k, "id"))
		return rw_id(w, err);
	return jr_skip(w->j, 3) ? rw_invalid(w, -1, err) : 0;
}

/* One Region object, handed to fn. */
static int decode_region(struct region_walk *w, hb_region_fn fn, void *ctx, struct hb_error *err)
{
	struct jr *j = w->j;
	const char *what = w->what;
	struct hb_region r;
	int more, rc;

	w->has_s = w->has_e = w->has_loc = w->has_name = 0;
	w->id = 0;
	if (jr_peek(j) != '{') {
		if (jr_skip(j, 2))
			return rw_invalid(w, -1, err);
		return BAD("Region[%zu] is not an object", w->i);
	}
	j->p++;
	more = jr_peek(j) == '}' ? (j->p++, 0) : 1;
	while (more == 1) {
		if ((rc = jr_string(j, &w->key)) || jr_peek(j) != ':')
			return rw_invalid(w, rc, err);
		j->p++;
		if ((rc = rw_member(w, err)))
			return rc;
		more = jr_next(j, '}');
	}
	if (more < 0)
		return rw_invalid(w, -1, err);
	if (!w->has_s || !w->has_e)
		return BAD("Region[%zu].%s is missing", w->i, w->has_s ? "endKey" : "startKey");
	if (w->has_loc && memchr(w->loc.data, 0, w->loc.len))
		return BAD("Region[%zu].location contains a NUL character", w->i);
	memset(&r, 0, sizeof(r));
	r.start = (unsigned char *)w->sk.data;
	r.start_len = w->sk.len;
	r.end = (unsigned char *)w->ek.data;
	r.end_len = w->ek.len;
	if (w->has_name) {
		r.name = (unsigned char *)w->name.data;
		r.name_len = w->name.len;
	}
	r.server = w->has_loc && w->loc.len ? w->loc.data : NULL;
	r.id = (uint64_t)w->id;
	return fn(ctx, &r, err);
}

/* The Region array (at '['), each element handed to fn. */
static int decode_region_array(struct region_walk *w, hb_region_fn fn, void *ctx,
                               struct hb_error *err)
{
	int m, rc;

	w->j->p++;
	m = jr_peek(w->j) == ']' ? (w->j->p++, 0) : 1;
	while (m == 1) {
		rc = decode_region(w, fn, ctx, err);
		if (rc)
			return rc;
		w->i++;
		m = jr_next(w->j, ']');
	}
	return m < 0 ? rw_invalid(w, -1, err) : 0;
}

/* "ns:t" as HBase names it: the default namespace is left out. */
static const char *unqualified(const char *t, size_t *n)
{
	if (*n > 8 && !memcmp(t, "default:", 8)) {
		*n -= 8;
		return t + 8;
	}
	return t;
}

/* The top-level name of a /T/regions body must be the table asked for. */
static int check_table_name(const struct hb_buf *got, const char *table, const char *what,
                            struct hb_error *err)
{
	size_t gn = got->len, tn = strlen(table);
	const char *g = unqualified(got->data, &gn), *t = unqualified(table, &tn);
	char shown_got[200], shown_want[200];

	if (gn == tn && !memcmp(g, t, gn))
		return 0;
	return BAD("the regions are of table '%s', not of '%s'",
	           shown(shown_got, sizeof(shown_got), got->data, got->len),
	           SHOWN(shown_want, table));
}

int hb_rest_decode_regions(const char *json, size_t len, const char *what, struct hb_regions *out,
                           struct hb_error *err)
{
	return hb_rest_decode_table_regions(json, len, what, NULL, out, err);
}

static int push_region(void *ctx, const struct hb_region *r, struct hb_error *err)
{
	return hb_regions_push(ctx, r) ? oom(err) : 0;
}

int hb_rest_decode_table_regions(const char *json, size_t len, const char *what, const char *table,
                                 struct hb_regions *out, struct hb_error *err)
{
	size_t n0 = out->n;
	int rc =
	    hb_rest_decode_table_regions_each(json, len, what, table, 0, push_region, out, err);

	/* A refused body adds nothing: drop the regions read before the error. */
	if (rc)
		hb_regions_truncate(out, n0);
	return rc;
}

/* One member of the TableInfo object (its name in w->key): the table's name, checked
 * against table when given, and the Region array. */
static int table_member(struct region_walk *w, const char *table, hb_region_fn fn, void *ctx,
                        struct hb_error *err)
{
	struct jr *j = w->j;
	const char *what = w->what;
	int rc;

	if (table && !strcmp(w->key.data, "name") && jr_peek(j) != 'n') {
		if (jr_peek(j) != '"')
			return jr_skip(j, 1) ? rw_invalid(w, -1, err) : BAD("name is not a string");
		if ((rc = jr_string(j, &w->name)))
			return rw_invalid(w, rc, err);
		return check_table_name(&w->name, table, what, err);
	}
	if (strcmp(w->key.data, "Region") || jr_peek(j) == 'n')
		return jr_skip(j, 1) ? rw_invalid(w, -1, err) : 0;
	if (jr_peek(j) != '[')
		return jr_skip(j, 1) ? rw_invalid(w, -1, err) : BAD("Region is not an array");
	return decode_region_array(w, fn, ctx, err);
}

int hb_rest_decode_table_regions_each(const char *json, size_t len, const char *what,
                                      const char *table, int mapped, hb_region_fn fn, void *ctx,
                                      struct hb_error *err)
{
	struct region_walk w = {0};
	struct jr j;
	int rc = 0, more;

	if (!json || !len)
		return BAD("empty body");
	/* Region names may hold U+0000 (the server builds them with Bytes.toString(startKey)). */
	if ((rc = check_text(json, len, 1, what, err, mapped)))
		return rc;
	j.p = json;
	j.end = json + len;
	j.bad = 0;
	j.strict = 0;
	j.drop = mapped ? json : NULL;
	w.j = &j;
	w.json = json;
	w.what = what;
	if (jr_peek(&j) != '{') {
		if (jr_skip(&j, 0) || jr_peek(&j) != -1)
			return jr_invalid(&j, json, what, err);
		return BAD("not a JSON object");
	}
	j.p++;
	more = jr_peek(&j) == '}' ? (j.p++, 0) : 1;
	while (more == 1 && !rc) {
		if ((rc = jr_string(&j, &w.key)) || jr_peek(&j) != ':') {
			rc = rw_invalid(&w, rc, err);
			break;
		}
		j.p++;
		rc = table_member(&w, table, fn, ctx, err);
		if (!rc)
			more = jr_next(&j, '}');
	}
	if (!rc && (more < 0 || jr_peek(&j) != -1))
		rc = jr_invalid(&j, json, what, err);
	hb_buf_release(&w.key);
	hb_buf_release(&w.sk);
	hb_buf_release(&w.ek);
	hb_buf_release(&w.loc);
	hb_buf_release(&w.name);
	return rc;
}

/* ---- CellSet ---- */

void hb_row_init(struct hb_row *r)
{
	memset(r, 0, sizeof(*r));
}

void hb_row_release(struct hb_row *r)
{
	size_t i;

	for (i = 0; i < r->ncells; i++)
		free(r->cells[i].column); /* the value shares its allocation */
	free(r->cells);
	free(r->key);
	hb_row_init(r);
}

static unsigned char *memdup0(const void *p, size_t n)
{
	unsigned char *c = malloc(n + 1);

	if (c) {
		if (n)
			memcpy(c, p, n);
		c[n] = 0;
	}
	return c;
}

int hb_row_add_cell(struct hb_row *r, const void *col, size_t col_len, const void *val,
                    size_t val_len, int64_t ts)
{
	struct hb_cell *c;

	if (HB_VEC_GROW(r->cells, r->cap, r->ncells + 1, 8))
		return HB_ENOMEM;
	c = &r->cells[r->ncells];
	/* Column and value in one allocation: a meta scan adds 100,000s of cells. */
	if (col_len > SIZE_MAX / 2 - 2 || val_len > SIZE_MAX / 2 ||
	    !(c->column = malloc(col_len + val_len + 2)))
		return HB_ENOMEM;
	if (col_len)
		memcpy(c->column, col, col_len);
	c->column[col_len] = 0;
	c->value = c->column + col_len + 1;
	if (val_len)
		memcpy(c->value, val, val_len);
	c->value[val_len] = 0;
	c->column_len = col_len;
	c->value_len = val_len;
	c->timestamp = ts;
	r->ncells++;
	return 0;
}

const struct hb_cell *hb_row_cell(const struct hb_row *r, const char *col)
{
	size_t i, n = strlen(col);

	for (i = 0; i < r->ncells; i++)
		if (r->cells[i].column_len == n && !memcmp(r->cells[i].column, col, n))
			return &r->cells[i];
	return NULL;
}

/*
 * CellSet bodies are read with the pull parser: a stateless scan of hbase:meta brings a whole
 * table's rows (hundreds of MB for a million regions) in one body, and a cJSON tree of it
 * would cost several times the body. The rules are those of the tree it replaces: the text
 * checks come first, then a syntax check of the whole body (no row is handed on before a
 * syntax error anywhere), then rows in order, each whole before the next is looked at (the
 * rows before a content error are handed on). Of repeated members the first counts; a row's
 * key is checked before its cells, a cell's column before its value before its timestamp,
 * whatever the member order. A lone surrogate escape is a syntax error; a byte order mark
 * and anything after the top-level value are ignored.
 */

/* One member value as seen: kind and, for a string, its decoded text in buf. */
enum { CS_ABSENT, CS_NULL, CS_STRING, CS_NUMBER, CS_OTHER };

struct cs_val {
	int kind;
	struct hb_buf buf; /* CS_STRING: the decoded text, NUL-terminated */
	double num;        /* CS_NUMBER */
};

/* Reads the value at j->p (syntax known good) into v, or skips it when v already holds the
 * member's first occurrence. */
static int cs_read(struct jr *j, struct cs_val *v)
{
	long long ll;
	int c = jr_peek(j), isint, rc;

	if (v->kind != CS_ABSENT)
		return jr_skip(j, 3) ? -1 : 0;
	if (c == '"') {
		if ((rc = jr_string(j, &v->buf)))
			return rc;
		v->kind = CS_STRING;
		return 0;
	}
	if (c == 'n') {
		v->kind = CS_NULL;
		return jr_lit(j, "null");
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		v->kind = CS_NUMBER;
		return jr_number(j, &v->num, &ll, &isint);
	}
	v->kind = CS_OTHER;
	return jr_skip(j, 3) ? -1 : 0;
}

/* A base64 member into out as get_b64 reads it; *present = 0 when missing or null. */
static int cs_b64(const struct cs_val *v, struct hb_buf *out, int *present, const char *ctx,
                  const char *key, const char *what, struct hb_error *err)
{
	int rc;

	hb_buf_reset(out);
	if (present)
		*present = v->kind == CS_STRING;
	if (v->kind == CS_ABSENT || v->kind == CS_NULL)
		return 0;
	if (v->kind != CS_STRING)
		return BAD("%s%s is not a string", ctx, key);
	rc = hb_b64_decode(out, v->buf.data, v->buf.len);
	if (rc == HB_ENOMEM)
		return oom(err);
	if (rc)
		return BAD("%s%s is not valid base64", ctx, key);
	return hb_buf_add(out, "", 0) ? oom(err) : 0;
}

/* A timestamp member as get_i64 reads it (not lenient). */
static int cs_i64(const struct cs_val *v, int64_t *out, const char *ctx, const char *key,
                  const char *what, struct hb_error *err)
{
	*out = 0;
	if (v->kind == CS_ABSENT || v->kind == CS_NULL)
		return 0;
	if (v->kind == CS_STRING) {
		char *end;
		long long ll;

		errno = 0;
		ll = strtoll(v->buf.data, &end, 10);
		if (v->buf.data[0] && !*end && !errno) {
			*out = ll;
			return 0;
		}
	} else if (v->kind == CS_NUMBER) {
		if (isfinite(v->num) && v->num >= -0x1p63 && v->num < 0x1p63) {
			*out = (int64_t)v->num;
			return 0;
		}
	}
	return BAD("%s%s is not a number", ctx, key);
}

struct cs_scratch {
	struct cs_val key, col, val, ts;
	struct hb_buf name, kb, cb, vb;
};

static void cs_reset(struct cs_val *v)
{
	v->kind = CS_ABSENT;
	hb_buf_reset(&v->buf);
}

/* Decodes the cells of one row (the Cell array at j->p) into row. */
static int cs_cells(struct jr *j, struct cs_scratch *s, struct hb_row *row, const char *rctx,
                    const char *what, struct hb_error *err)
{
	size_t k = 0;
	int m, rc;

	j->p++; /* '[' */
	m = jr_peek(j) == ']' ? (j->p++, 0) : 1;
	while (m == 1) {
		char cctx[80];
		int64_t ts;
		int has, more;

		snprintf(cctx, sizeof(cctx), "%sCell[%zu].", rctx, k);
		if (jr_peek(j) != '{')
			return BAD("%sCell[%zu] is not an object", rctx, k);
		k++;
		cs_reset(&s->col);
		cs_reset(&s->val);
		cs_reset(&s->ts);
		j->p++;
		more = jr_peek(j) == '}' ? (j->p++, 0) : 1;
		while (more == 1) {
			struct cs_val *v;

			if ((rc = jr_string(j, &s->name)))
				return rc == HB_ENOMEM ? oom(err) : HB_ESERVER;
			jr_peek(j);
			j->p++; /* ':' */
			v = !strcmp(s->name.data, "column")      ? &s->col
			    : !strcmp(s->name.data, "$")         ? &s->val
			    : !strcmp(s->name.data, "timestamp") ? &s->ts
			                                         : NULL;
			rc = v ? cs_read(j, v) : jr_skip(j, 3);
			if (rc)
				return rc == HB_ENOMEM ? oom(err) : HB_ESERVER;
			more = jr_next(j, '}');
		}
		if ((rc = cs_b64(&s->col, &s->cb, &has, cctx, "column", what, err)))
			return rc;
		if (!has)
			return BAD("%scolumn is missing", cctx);
		if ((rc = cs_b64(&s->val, &s->vb, NULL, cctx, "$", what, err)) ||
		    (rc = cs_i64(&s->ts, &ts, cctx, "timestamp", what, err)))
			return rc;
		if (hb_row_add_cell(row, s->cb.data ? s->cb.data : "", s->cb.len,
		                    s->vb.data ? s->vb.data : "", s->vb.len, ts))
			return oom(err);
		m = jr_next(j, ']');
	}
	return 0;
}

/* Decodes Row[i] at j->p into row (empty on entry). */
static int cs_row(struct jr *j, size_t i, struct cs_scratch *s, struct hb_row *row,
                  const char *what, struct hb_error *err)
{
	const char *cells = NULL;
	char rctx[48];
	int more, has, rc;

	snprintf(rctx, sizeof(rctx), "Row[%zu].", i);
	if (jr_peek(j) != '{')
		return BAD("Row[%zu] is not an object", i);
	cs_reset(&s->key);
	j->p++;
	more = jr_peek(j) == '}' ? (j->p++, 0) : 1;
	while (more == 1) {
		if ((rc = jr_string(j, &s->name)))
			return rc == HB_ENOMEM ? oom(err) : HB_ESERVER;
		jr_peek(j);
		j->p++; /* ':' */
		if (!strcmp(s->name.data, "key")) {
			rc = cs_read(j, &s->key);
		} else {
			if (!strcmp(s->name.data, "Cell") && !cells)
				cells = (jr_peek(j), j->p);
			rc = jr_skip(j, 3);
		}
		if (rc)
			return rc == HB_ENOMEM ? oom(err) : HB_ESERVER;
		more = jr_next(j, '}');
	}
	if ((rc = cs_b64(&s->key, &s->kb, &has, rctx, "key", what, err)))
		return rc;
	if (!has)
		return BAD("%skey is missing", rctx);
	if (!(row->key = memdup0(s->kb.data ? s->kb.data : "", s->kb.len)))
		return oom(err);
	row->key_len = s->kb.len;
	if (!cells || *cells == 'n')
		return 0;
	if (*cells != '[')
		return BAD("%sCell is not an array", rctx);
	{
		struct jr cj = *j;

		cj.p = cells;
		return cs_cells(&cj, s, row, rctx, what, err);
	}
}

static int decode_cellset(const char *json, size_t len, const char *what,
                          int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                          void *ctx, struct hb_error *err, int mapped);

int hb_rest_decode_cellset(const char *json, size_t len, const char *what,
                           int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                           void *ctx, struct hb_error *err)
{
	return decode_cellset(json, len, what, fn, ctx, err, 0);
}

int hb_rest_decode_cellset_mapped(const char *json, size_t len, const char *what,
                                  int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                                  void *ctx, struct hb_error *err)
{
	return decode_cellset(json, len, what, fn, ctx, err, 1);
}

static int decode_cellset(const char *json, size_t len, const char *what,
                          int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                          void *ctx, struct hb_error *err, int mapped)
{
	struct cs_scratch s;
	const char *rows = NULL;
	struct hb_row row;
	struct jr j;
	size_t i = 0;
	int rc = 0, more;

	if ((rc = jr_open_object(&j, json, len, mapped, what, err)))
		return rc;
	memset(&s, 0, sizeof(s));
	hb_row_init(&row);
	/* The first top-level "Row" counts, wherever it is. */
	j.p++;
	more = jr_peek(&j) == '}' ? (j.p++, 0) : 1;
	while (more == 1) {
		if ((rc = jr_string(&j, &s.name))) {
			rc = rc == HB_ENOMEM ? oom(err) : jr_invalid(&j, json, what, err);
			goto done;
		}
		jr_peek(&j);
		j.p++; /* ':' */
		if (!rows && !strcmp(s.name.data, "Row"))
			rows = (jr_peek(&j), j.p);
		jr_skip(&j, 1);
		more = jr_next(&j, '}');
	}
	if (!rows || *rows == 'n')
		goto done;
	if (*rows != '[') {
		rc = BAD("Row is not an array");
		goto done;
	}
	j.p = rows + 1;
	j.drop = mapped ? json : NULL;
	more = jr_peek(&j) == ']' ? (j.p++, 0) : 1;
	while (more == 1) {
		if ((rc = cs_row(&j, i, &s, &row, what, err)))
			break;
		rc = fn(ctx, &row, err);
		hb_row_release(&row);
		if (rc)
			break;
		i++;
		/* cs_row read the row's members to its closing brace */
		more = jr_next(&j, ']');
	}
	if (!rc && (j.bad || more < 0))
		rc = jr_invalid(&j, json, what, err);
done:
	hb_row_release(&row);
	hb_buf_release(&s.key.buf);
	hb_buf_release(&s.col.buf);
	hb_buf_release(&s.val.buf);
	hb_buf_release(&s.ts.buf);
	hb_buf_release(&s.name);
	hb_buf_release(&s.kb);
	hb_buf_release(&s.cb);
	hb_buf_release(&s.vb);
	return rc;
}

/*
 * /status/cluster lists every region of the cluster (a few hundred bytes each), so it is read
 * with the pull parser (after the text and syntax checks of the whole body, as cJSON did)
 * instead of a tree; of repeated members the first counts, and the errors come in the order
 * the tree gave them: LiveNodes and DeadNodes types, then each live node (its name, its
 * Region type, then its regions in order), then each dead node. Without want_regions the
 * regions are only checked, not kept (hb_node.regions stays empty).
 */
struct st_scratch {
	struct cs_val v[8];
	struct hb_buf name, b;
};

static void st_reset(struct st_scratch *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cs_reset(&s->v[i]);
}

/* Reads the members of the object at j->p (syntax known good) whose names are in names[]
 * into s->v[] (first occurrence) and the positions of the containers named in cont[] into
 * pos[] (NULL when absent). */
static int st_members(struct jr *j, struct st_scratch *s, const char *const *names, size_t n,
                      const char *const *cont, const char **pos, size_t nc)
{
	size_t i;
	int more, rc;

	for (i = 0; i < nc; i++)
		pos[i] = NULL;
	st_reset(s, n);
	j->p++; /* '{' */
	more = jr_peek(j) == '}' ? (j->p++, 0) : 1;
	while (more == 1) {
		if ((rc = jr_string(j, &s->name)))
			return rc;
		jr_peek(j);
		j->p++; /* ':' */
		for (i = 0; i < n && strcmp(s->name.data, names[i]); i++)
			;
		if (i < n) {
			if ((rc = cs_read(j, &s->v[i])))
				return rc;
		} else {
			for (i = 0; i < nc && strcmp(s->name.data, cont[i]); i++)
				;
			if (i < nc && !pos[i])
				pos[i] = (jr_peek(j), j->p);
			if (jr_skip(j, 3))
				return -1;
		}
		more = jr_next(j, '}');
	}
	return 0;
}

/* A counter as get_i64 reads it when lenient: anything unreadable is 0. */
static int64_t st_i64(const struct cs_val *v)
{
	int64_t x = 0;

	if (v->kind == CS_STRING) {
		char *end;
		long long ll;

		errno = 0;
		ll = strtoll(v->buf.data, &end, 10);
		if (v->buf.data[0] && !*end && !errno)
			x = ll;
	} else if (v->kind == CS_NUMBER && isfinite(v->num) && v->num >= -0x1p63 &&
	           v->num < 0x1p63) {
		x = (int64_t)v->num;
	}
	return x;
}

static int st_oom_or_bad(int rc, struct jr *j, const char *json, const char *what,
                         struct hb_error *err)
{
	return rc == HB_ENOMEM ? oom(err) : jr_invalid(j, json, what, err);
}

/* One element of a node's Region array (at rj): its load, the name decoded into s->b. */
static int st_region_load(struct jr *rj, struct st_scratch *s, const char *rctx,
                          struct hb_region_load *rl, const char *json, const char *what,
                          struct hb_error *err)
{
	static const char *const rn[] = {
	    "name",   "readRequestsCount", "writeRequestsCount", "cpRequestsCount",
	    "stores", "storefiles",        "storefileSizeMB",    "memStoreSizeMB"};
	static const char *const rn2[] = {"memstoreSizeMB"};
	const char *obj = rj->p, *dummy;
	int rc;

	if ((rc = st_members(rj, s, rn, 8, NULL, &dummy, 0)))
		return st_oom_or_bad(rc, rj, json, what, err);
	if ((rc = cs_b64(&s->v[0], &s->b, NULL, rctx, "name", what, err)))
		return rc;
	memset(rl, 0, sizeof(*rl));
	rl->read_requests = st_i64(&s->v[1]);
	rl->write_requests = st_i64(&s->v[2]);
	rl->cp_requests = st_i64(&s->v[3]);
	rl->stores = st_i64(&s->v[4]);
	rl->storefiles = st_i64(&s->v[5]);
	rl->storefile_size_mb = st_i64(&s->v[6]);
	rl->memstore_size_mb = st_i64(&s->v[7]);
	if (!rl->memstore_size_mb) {
		/* the 1.x counter name is read in a second look at the object */
		struct jr oj = *rj;

		oj.p = obj;
		if ((rc = st_members(&oj, s, rn2, 1, NULL, &dummy, 0)))
			return st_oom_or_bad(rc, &oj, json, what, err);
		rl->memstore_size_mb = st_i64(&s->v[0]);
	}
	return 0;
}

/* Keeps region load k (its name in s->b) in node->regions. */
static int st_keep_region(struct hb_node *node, size_t *cap, size_t k, const struct st_scratch *s,
                          struct hb_region_load *rl)
{
	if (HB_VEC_GROW(node->regions, *cap, k + 1, 16))
		return HB_ENOMEM;
	rl->name_len = s->b.len;
	if (!(rl->name = malloc(s->b.len + 1)))
		return HB_ENOMEM;
	memcpy(rl->name, s->b.len ? s->b.data : "", s->b.len);
	rl->name[s->b.len] = 0;
	node->regions[k] = *rl;
	node->nregions = k + 1;
	return 0;
}

/* A node's Region array (at regs, read again after the node was skipped over): each load
 * handed to fn, or kept in node when want_regions. */
static int st_node_regions(const struct jr *j, struct st_scratch *s, struct hb_node *node,
                           const char *regs, const char *ctx, int want_regions,
                           hb_region_load_fn fn, void *fn_ctx, const char *json, const char *what,
                           struct hb_error *err)
{
	struct jr rj = *j;
	size_t k = 0, cap = 0;
	int m, rc;

	rj.p = regs + 1;
	rj.drop = drop_from(j->drop, regs);
	m = jr_peek(&rj) == ']' ? (rj.p++, 0) : 1;
	for (; m == 1; k++, m = jr_next(&rj, ']')) {
		struct hb_region_load rl;
		char rctx[96];

		snprintf(rctx, sizeof(rctx), "%sRegion[%zu].", ctx, k);
		if (jr_peek(&rj) != '{')
			return BAD("%sRegion[%zu] is not an object", ctx, k);
		if ((rc = st_region_load(&rj, s, rctx, &rl, json, what, err)))
			return rc;
		if (fn) {
			rl.name = (unsigned char *)(s->b.len ? s->b.data : "");
			rl.name_len = s->b.len;
			if ((rc = fn(fn_ctx, node, &rl, err)))
				return rc;
		} else if (want_regions && st_keep_region(node, &cap, k, s, &rl)) {
			return oom(err);
		}
	}
	return 0;
}

static int st_node(struct jr *j, struct st_scratch *s, struct hb_node *node, size_t idx,
                   int want_regions, hb_region_load_fn fn, void *fn_ctx, const char *json,
                   const char *what, struct hb_error *err)
{
	static const char *const nn[] = {"name", "startCode", "requests", "heapSizeMB",
	                                 "maxHeapSizeMB"};
	static const char *const regcont[] = {"Region"};
	const char *regs;
	char ctx[64];
	int rc;

	snprintf(ctx, sizeof(ctx), "LiveNodes[%zu].", idx);
	if (jr_peek(j) != '{')
		return BAD("LiveNodes[%zu] is not an object", idx);
	if ((rc = st_members(j, s, nn, 5, regcont, &regs, 1)))
		return st_oom_or_bad(rc, j, json, what, err);
	if (s->v[0].kind != CS_ABSENT && s->v[0].kind != CS_NULL && s->v[0].kind != CS_STRING)
		return BAD("%sname is not a string", ctx);
	if (s->v[0].kind != CS_STRING)
		return BAD("%sname is missing", ctx);
	if (!(node->name = strdup(s->v[0].buf.data)))
		return oom(err);
	node->start_code = st_i64(&s->v[1]);
	node->requests = st_i64(&s->v[2]);
	node->heap_mb = st_i64(&s->v[3]);
	node->max_heap_mb = st_i64(&s->v[4]);
	if (!regs || *regs == 'n')
		return 0;
	if (*regs != '[')
		return BAD("%sRegion is not an array", ctx);
	return st_node_regions(j, s, node, regs, ctx, want_regions, fn, fn_ctx, json, what, err);
}

int hb_rest_decode_status_each(const char *json, size_t len, const char *what,
                               struct hb_cluster_status *out, int want_regions, int mapped,
                               hb_region_load_fn fn, void *ctx, struct hb_error *err)
{
	static const char *const tn[] = {"regions", "requests", "averageLoad"};
	static const char *const tc[] = {"LiveNodes", "DeadNodes"};
	struct st_scratch s;
	const char *pos[2];
	size_t i, cap = 0;
	struct jr j;
	int rc = 0, m;

	memset(out, 0, sizeof(*out));
	if ((rc = jr_open_object(&j, json, len, mapped, what, err)))
		return rc;
	memset(&s, 0, sizeof(s));
	if ((rc = st_members(&j, &s, tn, 3, tc, pos, 2))) {
		rc = st_oom_or_bad(rc, &j, json, what, err);
		goto done;
	}
	out->regions = st_i64(&s.v[0]);
	out->requests = st_i64(&s.v[1]);
	out->average_load = s.v[2].kind == CS_NUMBER ? s.v[2].num : 0;
	for (i = 0; i < 2; i++)
		if (pos[i] && *pos[i] != 'n' && *pos[i] != '[') {
			rc = BAD("%s is not an array", tc[i]);
			goto done;
		}
	if (pos[0] && *pos[0] == '[') {
		j.p = pos[0] + 1;
		j.drop = mapped ? json : NULL;
		m = jr_peek(&j) == ']' ? (j.p++, 0) : 1;
		for (i = 0; m == 1; i++) {
			if (HB_VEC_GROW(out->live, cap, i + 1, 8)) {
				rc = oom(err);
				goto done;
			}
			memset(&out->live[i], 0, sizeof(out->live[i]));
			out->nlive = i + 1;
			rc = st_node(&j, &s, &out->live[i], i, want_regions, fn, ctx, json, what,
			             err);
			if (rc)
				goto done;
			m = jr_next(&j, ']');
		}
	}
	if (pos[1] && *pos[1] == '[') {
		cap = 0;
		j.p = pos[1] + 1;
		m = jr_peek(&j) == ']' ? (j.p++, 0) : 1;
		while (m == 1) {
			cs_reset(&s.v[0]);
			if ((rc = cs_read(&j, &s.v[0]))) {
				rc = st_oom_or_bad(rc, &j, json, what, err);
				goto done;
			}
			if (s.v[0].kind != CS_STRING) {
				rc = BAD("DeadNodes[%zu] is not a string", out->ndead);
				goto done;
			}
			if (HB_VEC_GROW(out->dead, cap, out->ndead + 1, 8) ||
			    !(out->dead[out->ndead] = strdup(s.v[0].buf.data))) {
				rc = oom(err);
				goto done;
			}
			out->ndead++;
			m = jr_next(&j, ']');
		}
	}
done:
	for (i = 0; i < HB_ARRAY_LEN(s.v); i++)
		hb_buf_release(&s.v[i].buf);
	hb_buf_release(&s.name);
	hb_buf_release(&s.b);
	if (rc)
		hb_cluster_status_release(out);
	return rc;
}

int hb_rest_decode_status(const char *json, size_t len, const char *what,
                          struct hb_cluster_status *out, struct hb_error *err)
{
	return hb_rest_decode_status_each(json, len, what, out, 1, 0, NULL, NULL, err);
}
