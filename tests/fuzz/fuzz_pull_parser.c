/* The JSON pull parser, differentially against cJSON. The input is placed as the value of an
 * unknown member, which both decoders skip:
 *   strict (/T/regions, RFC 8259):  {"name":"t","Region":[],"x":INPUT}
 *     accepted => cJSON accepts the same body (RFC 8259 JSON is a subset of cJSON's grammar)
 *     unless it escapes a lone surrogate, which RFC 8259 allows (read as U+FFFD) and cJSON
 *     refuses
 *   lax (scanner CellSets, cJSON's grammar):  {"Row":[],"x":INPUT}
 *     accepted => cJSON accepts the same body, and for input that is UTF-8 without NUL
 *     bytes and without a \\u0000 escape (the decoders refuse other text before parsing)
 *     the converse holds too. */
#include "../../core/key.h"
#include "../../rest/hbase.h"
#include "fuzz.h"

#include <cjson/cJSON.h>

static int no_row(void *ctx, struct hb_row *frag, struct hb_error *err)
{
	(void)ctx;
	(void)frag;
	(void)err;
	abort(); /* "Row" is empty and the first of repeated members counts */
}

static int cjson_accepts(const char *p, size_t n)
{
	cJSON *root = cJSON_ParseWithLength(p, n);
	int ok = root != NULL;

	cJSON_Delete(root);
	return ok;
}

static char *wrap(const char *head, const uint8_t *data, size_t size, size_t *len)
{
	size_t h = strlen(head);
	char *b = malloc(h + size + 2);

	if (!b)
		abort();
	memcpy(b, head, h);
	memcpy(b + h, data, size);
	b[h + size] = '}';
	b[h + size + 1] = 0;
	*len = h + size + 1;
	return b;
}

/* 1 when the text has a \\uD800..\\uDFFF escape. */
static int surrogate_escape(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 3 < n; i++)
		if (p[i] == '\\' && p[i + 1] == 'u' && (p[i + 2] | 0x20) == 'd' &&
		    p[i + 3] && strchr("89abcdefABCDEF", p[i + 3]))
			return 1;
	return 0;
}

/* 1 when p is UTF-8 with neither a NUL byte nor the text \\u0000 (escaped or not: an
 * over-approximation that only skips some checks). */
static int utf8_without_nul(const uint8_t *p, size_t n)
{
	size_t i = 0, l;

	while (i < n) {
		if (!p[i] || !(l = hb_utf8_len(p + i, n - i)))
			return 0;
		if (n - i >= 6 && !memcmp(p + i, "\\u0000", 6))
			return 0;
		i += l;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_regions rs;
	struct hb_error err = {0};
	size_t n;
	char *body;
	int rc, cj;

	hb_regions_init(&rs);
	body = wrap("{\"name\":\"t\",\"Region\":[],\"x\":", data, size, &n);
	rc = hb_rest_decode_regions(body, n, "strict", &rs, &err);
	if (!rc) {
		FUZZ_CHECK(rs.n == 0);
		FUZZ_CHECK(cjson_accepts(body, n) || surrogate_escape(data, size));
	}
	hb_regions_release(&rs);
	free(body);

	body = wrap("{\"Row\":[],\"x\":", data, size, &n);
	rc = hb_rest_decode_cellset(body, n, "lax", no_row, NULL, &err);
	cj = cjson_accepts(body, n);
	if ((rc == 0) != cj && (!rc || utf8_without_nul(data, size)))
		fprintf(stderr, "lax parser %s (%s), cJSON %s\n", rc ? "refuses" : "accepts",
		        rc ? err.msg : "", cj ? "accepts" : "refuses");
	FUZZ_CHECK(rc || cj);
	FUZZ_CHECK(!cj || !rc || !utf8_without_nul(data, size));
	free(body);
	return 0;
}
