/* The JSON string writer: escapes, UTF-8 kept or replaced, and the word-at-a-time path against
 * a byte-at-a-time statement of the same rules. */
#include "core/jsonstr.h"
#include "core/key.h"
#include "test.h"

/* The rules one byte at a time: '"' and '\\' escaped, C0, DEL and C1 controls as \u00xx,
 * valid UTF-8 kept, any other byte as \ufffd. */
static int reference(struct hb_buf *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, l;
	int rc = hb_buf_addc(out, '"');

	while (!rc && i < n) {
		unsigned ch = p[i];

		l = ch < 0x80 ? 1 : hb_utf8_len(p + i, n - i);
		if (ch == '"' || ch == '\\')
			rc = hb_buf_addc(out, '\\') || hb_buf_addc(out, (char)ch);
		else if (ch < 0x20 || ch == 0x7f)
			rc = hb_buf_addf(out, "\\u00%c%c", hex[ch >> 4], hex[ch & 15]);
		else if (l == 2 && ch == 0xC2 && p[i + 1] < 0xA0)
			rc = hb_buf_addf(out, "\\u00%c%c", hex[p[i + 1] >> 4], hex[p[i + 1] & 15]);
		else if (!l)
			rc = hb_buf_adds(out, "\\ufffd");
		else
			rc = hb_buf_add(out, p + i, l);
		i += l ? l : 1;
	}
	return rc ? HB_ENOMEM : hb_buf_addc(out, '"');
}

static const char *json(struct hb_buf *b, const char *s, size_t n)
{
	hb_buf_reset(b);
	return hb_json_str(b, s, n) ? "(failed)" : hb_buf_str(b);
}

static void test_jsonstr__escapes_quotes_controls_and_bad_bytes(void)
{
	struct hb_buf b = HB_BUF_INIT;

	CHECK_EQ_STR(json(&b, "", 0), "\"\"");
	CHECK_EQ_STR(json(&b, "a\"b\\c", 5), "\"a\\\"b\\\\c\"");
	CHECK_EQ_STR(json(&b, "\x01\x1f\x7f\t", 4), "\"\\u0001\\u001f\\u007f\\u0009\"");
	CHECK_EQ_STR(json(&b, "x\0y", 3), "\"x\\u0000y\"");
	CHECK_EQ_STR(json(&b, "\xc2\x85|\xc3\xa9|\xe2\x82\xac", 9),
	             "\"\\u0085|\xc3\xa9|\xe2\x82\xac\"");
	CHECK_EQ_STR(json(&b, "\xff\xc3", 2), "\"\\ufffd\\ufffd\"");
	CHECK_EQ_STR(json(&b, "0123456789\"abcdef\\", 18), "\"0123456789\\\"abcdef\\\\\"");
	hb_buf_reset(&b);
	CHECK(!hb_json_strz(&b, "t\"1"));
	CHECK_EQ_STR(hb_buf_str(&b), "\"t\\\"1\"");
	hb_buf_release(&b);
}

/* Random texts of printable ASCII, quotes, backslashes, controls and UTF-8 pieces (whole, cut
 * or C1), at every offset and length around the 8-byte words. */
static void test_jsonstr__words_write_what_bytes_write(void)
{
	static const char *const pieces[] = {
	    "a",        "Z~",       "\"",       "\\",           "\x01",
	    "\x7f",     "\xc2\x85", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
	    "\xe2\x82", "\xff",     " ",        "\\x0A"};
	struct hb_buf got = HB_BUF_INIT, want = HB_BUF_INIT, in = HB_BUF_INIT;
	uint64_t st = 0x9e3779b97f4a7c15ULL;
	int round, bad = 0;

	for (round = 0; round < 4000; round++) {
		size_t k, n = t_xorshift(&st) % 24;

		hb_buf_reset(&in);
		hb_buf_reset(&got);
		hb_buf_reset(&want);
		for (k = 0; k < n; k++)
			hb_buf_adds(&in, pieces[t_xorshift(&st) % HB_ARRAY_LEN(pieces)]);
		CHECK(!hb_json_str(&got, in.data ? in.data : "", in.len));
		CHECK(!reference(&want, in.data ? in.data : "", in.len));
		if (got.len != want.len || memcmp(got.data, want.data, got.len))
			bad++;
	}
	CHECK_EQ_INT(bad, 0);
	hb_buf_release(&in);
	hb_buf_release(&got);
	hb_buf_release(&want);
}

int main(void)
{
	RUN(test_jsonstr__escapes_quotes_controls_and_bad_bytes);
	RUN(test_jsonstr__words_write_what_bytes_write);
	return TEST_DONE();
}
