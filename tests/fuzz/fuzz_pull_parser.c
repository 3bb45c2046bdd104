/* The JSON pull parser (/T/regions, RFC 8259), differentially against cJSON. The input is
 * placed as the value of an unknown member, which the decoder skips:
 *   {"name":"t","Region":[],"x":INPUT}
 * accepted => cJSON accepts the same body (RFC 8259 JSON is a subset of cJSON's grammar)
 * unless it escapes a lone surrogate, which RFC 8259 allows (read as U+FFFD) and cJSON
 * refuses. */
#include "../../core/key.h"
#include "../../rest/regions.h"
#include "fuzz.h"

#include <cjson/cJSON.h>

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
		if (p[i] == '\\' && p[i + 1] == 'u' && (p[i + 2] | 0x20) == 'd' && p[i + 3] &&
		    strchr("89abcdefABCDEF", p[i + 3]))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_regions rs;
	struct hb_error err = {0};
	size_t n;
	char *body;
	int rc;

	hb_regions_init(&rs);
	body = wrap("{\"name\":\"t\",\"Region\":[],\"x\":", data, size, &n);
	rc = hb_rest_decode_regions(body, n, "strict", &rs, &err);
	if (!rc) {
		FUZZ_CHECK(rs.n == 0);
		FUZZ_CHECK(cjson_accepts(body, n) || surrogate_escape(data, size));
	}
	hb_regions_release(&rs);
	free(body);
	return 0;
}
