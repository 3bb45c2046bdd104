/* What the JSON decoders of the REST resources share: the text checks (UTF-8, escaped NULs),
 * cJSON's small documents, messages, and mapped bodies given back as they are read. */
#include "rest/jsonhelp.h"
#include "core/key.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* s for a message: bytes outside printable ASCII (and '\') as \xHH like toStringBinary, cut
 * to fit buf. Server text must not reach a terminal raw. */
const char *hb_json_shown(char *buf, size_t cap, const char *s, size_t n)
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

int hb_json_oom(struct hb_error *err)
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

void hb_rest_drop_behind(const char **next, const char *upto)
{
	static uintptr_t page;
	uintptr_t u;

	if (!*next || upto < *next || (size_t)(upto - *next) < HB_DROP_STEP)
		return;
	if (!page) {
		long ps = sysconf(_SC_PAGESIZE);

		page = ps > 0 ? (uintptr_t)ps : 4096;
	}
	u = (uintptr_t)upto & ~(page - 1);
	madvise((void *)*next, (size_t)(u - (uintptr_t)*next), MADV_DONTNEED);
	*next = (const char *)u;
}

/* The drop point for a pass that starts again at p (behind the last one): p's page. */
const char *hb_json_drop_from(const char *next, const char *p)
{
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096;

	return next ? (const char *)((uintptr_t)p & ~(page - 1)) : NULL;
}

int hb_json_check_text(const char *json, size_t len, int allow_nul, const char *what,
                       struct hb_error *err, int mapped)
{
	const unsigned char *p = (const unsigned char *)json;
	const char *drop = mapped ? json : NULL;
	size_t i = 0, l, off, n;
	int in_str = 0, fast = 1;

	/* Only a non-ASCII byte or an escape can fail: most bodies are ASCII without escapes. */
	for (off = 0; fast && off < len; off += n) {
		n = len - off < HB_DROP_STEP ? len - off : HB_DROP_STEP;
		fast = all_ascii(json + off, n) && (allow_nul || !memchr(json + off, '\\', n));
		hb_rest_drop_behind(&drop, json + off + n);
	}
	if (fast)
		return 0;
	drop = mapped ? json : NULL;
	while (i < len) {
		hb_rest_drop_behind(&drop, json + i);
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
				return HB_BAD("invalid UTF-8 at byte %zu of %zu", i, len);
			i += l;
		} else if (p[i] == '"') {
			in_str = !in_str;
			i++;
		} else if (p[i] == '\\' && in_str) {
			if (!allow_nul && len - i >= 6 && !memcmp(p + i + 1, "u0000", 5))
				return HB_BAD(
				    "string with a NUL character (\\u0000) at byte %zu of %zu", i,
				    len);
			i += 2; /* the escaped character never ends the string */
		} else {
			i++;
		}
	}
	return 0;
}

cJSON *hb_json_parse(const char *json, size_t len, const char *what, struct hb_error *err)
{
	cJSON *root;

	if (!json || !len) {
		hb_error_malformed(err, what, "empty body");
		return NULL;
	}
	if (hb_json_check_text(json, len, 0, what, err, 0))
		return NULL;
	root = cJSON_ParseWithLength(json, len);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();
		size_t off = at && at >= json && at <= json + len ? (size_t)(at - json) : len;

		hb_error_malformed(err, what, "invalid JSON near byte %zu of %zu", off, len);
	}
	return root;
}

/* hb_json_parse() for a body that must be a JSON object: NULL (err filled, HB_ESERVER) otherwise.
 */
cJSON *hb_json_parse_object(const char *json, size_t len, const char *what, struct hb_error *err)
{
	cJSON *root = hb_json_parse(json, len, what, err);

	if (root && !cJSON_IsObject(root)) {
		cJSON_Delete(root);
		HB_BAD("not a JSON object");
		return NULL;
	}
	return root;
}

/* A string member: *out is borrowed (NULL when missing). Error when present but not a string. */
int hb_json_get_str(const cJSON *obj, const char *key, const char **out, const char *ctx,
                    const char *what, struct hb_error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v) || !v->valuestring)
		return HB_BAD("%s%s is not a string", ctx, key);
	*out = v->valuestring;
	return 0;
}

const cJSON *hb_json_get_array(const cJSON *obj, const char *key, int required, const char *ctx,
                               const char *what, struct hb_error *err, int *rc)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	*rc = 0;
	if (!v || cJSON_IsNull(v)) {
		if (required)
			*rc = HB_BAD("%sno '%s' array", ctx, key);
		return NULL;
	}
	if (!cJSON_IsArray(v)) {
		*rc = HB_BAD("%s%s is not an array", ctx, key);
		return NULL;
	}
	return v;
}
