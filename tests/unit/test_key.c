/* Key order, toStringBinary / toBytesBinary and base64 against HBase's own expected values. */
#include "core/key.h"
#include "test.h"

static char *tsb(const void *k, size_t n)
{
	static struct hb_buf b = HB_BUF_INIT;

	hb_buf_reset(&b);
	hb_tsb_append(&b, k, n);
	return (char *)hb_buf_str(&b);
}

static char *tbb_tsb(const char *s)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};
	static char out[1024];

	if (hb_tbb_parse(&b, s, strlen(s), &err))
		return NULL;
	snprintf(out, sizeof(out), "%s", tsb(b.data, b.len));
	hb_buf_release(&b);
	return out;
}

static void test_key__order_is_unsigned_then_shorter_first(void)
{
	CHECK(hb_key_cmp("ff", 2, "ffffffffffffffff", 16) < 0);
	CHECK(hb_key_cmp("a", 1, "a\0", 2) < 0);
	CHECK(hb_key_cmp("\x80", 1, "\x7f", 1) > 0);
	CHECK(hb_key_cmp("", 0, "", 0) == 0);
	CHECK(hb_key_cmp("", 0, "\x00", 1) < 0);
}

static void test_key__tsb_matches_bytestestbase(void)
{
	/* BytesTestBase.testToStringBinaryForBytes */
	CHECK_EQ_STR(tsb("09azAZ@\x01", 8), "09azAZ@\\x01");
	CHECK_EQ_STR(tsb("azA", 3), "azA");
	CHECK_EQ_STR(tsb("\\", 1), "\\x5C");
	CHECK_EQ_STR(tsb("\xff\x00 ~\x7f", 5), "\\xFF\\x00 ~\\x7F");
	CHECK_EQ_STR(tsb("", 0), "");
}

static void test_key__tbb_follows_hbase_escape_rules(void)
{
	CHECK_EQ_STR(tbb_tsb("\\x00\\xFF"), "\\x00\\xFF");
	CHECK_EQ_STR(tbb_tsb("\\xff"), "xff");    /* lower case is not an escape */
	CHECK_EQ_STR(tbb_tsb("\\xZZ"), "xZZ");    /* bogus: only the backslash goes */
	CHECK_EQ_STR(tbb_tsb("a\\"), "a\\x5C");   /* trailing backslash kept */
	CHECK_EQ_STR(tbb_tsb("\\x4"), "\\x5Cx4"); /* modern rule: truncated tail literal */
	CHECK_EQ_STR(tbb_tsb("\\x"), "\\x5Cx");
	CHECK_EQ_STR(tbb_tsb("\\n"), "\\x5Cn");
	CHECK_EQ_STR(tbb_tsb("\xc3\xa9"), "\\xE9");          /* U+00E9 -> low 8 bits */
	CHECK_EQ_STR(tbb_tsb("\xe2\x82\xac"), "\\xAC");      /* U+20AC -> 0xAC */
	CHECK_EQ_STR(tbb_tsb("\xf0\x9f\x98\x80"), "=\\x00"); /* U+1F600: D83D DE00 */
	CHECK(tbb_tsb("\xff") == NULL);                      /* not UTF-8 */
	CHECK(tbb_tsb("\xc3") == NULL);
}

static void test_key__tsb_tbb_round_trip_random_bytes(void)
{
	unsigned seed = 12345;
	int iter;

	for (iter = 0; iter < 20000; iter++) {
		unsigned char k[40];
		size_t n, i;
		struct hb_buf s = HB_BUF_INIT, back = HB_BUF_INIT;

		seed = seed * 1103515245u + 12345u;
		n = (seed >> 16) % sizeof(k);
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			k[i] = (unsigned char)(seed >> 16);
			if ((seed >> 8) % 5 == 0)
				k[i] = "\\x0F"[(seed >> 4) % 4];
		}
		hb_tsb_append(&s, k, n);
		CHECK(hb_tbb_parse(&back, s.data ? s.data : "", s.len, NULL) == 0);
		CHECK(back.len == n && (n == 0 || memcmp(back.data, k, n) == 0));
		hb_buf_release(&s);
		hb_buf_release(&back);
		if (t_case_failed)
			break;
	}
}

static void test_key__base64_round_trip_and_rejects_garbage(void)
{
	struct hb_buf b = HB_BUF_INIT, d = HB_BUF_INIT;

	hb_b64_encode(&b, "t1,,1700000000000", 17);
	CHECK_EQ_STR(hb_buf_str(&b), "dDEsLDE3MDAwMDAwMDAwMDA=");
	CHECK(hb_b64_decode(&d, b.data, b.len) == 0);
	CHECK(d.len == 17 && !memcmp(d.data, "t1,,1700000000000", 17));
	hb_buf_reset(&d);
	CHECK(hb_b64_decode(&d, "bQ==", 4) == 0 && d.len == 1 && d.data[0] == 'm');
	CHECK(hb_b64_decode(&d, "bQ=", 3) == HB_EINVAL);
	CHECK(hb_b64_decode(&d, "b!==", 4) == HB_EINVAL);
	CHECK(hb_b64_decode(&d, "bR==", 4) == HB_EINVAL);
	CHECK(hb_b64_decode(&d, "=QQQ", 4) == HB_EINVAL);
	hb_buf_release(&b);
	hb_buf_release(&d);
}

static void test_key__list_sorts_and_searches(void)
{
	struct hb_keys ks;
	size_t len;

	hb_keys_init(&ks);
	hb_keys_push(&ks, "b", 1);
	hb_keys_push(&ks, "a\0", 2);
	hb_keys_push(&ks, "a", 1);
	hb_keys_push(&ks, "", 0);
	CHECK(hb_keys_sort(&ks) == 0);
	CHECK(hb_keys_at(&ks, 0, &len) && len == 0);
	CHECK(hb_keys_at(&ks, 1, &len)[0] == 'a' && len == 1);
	CHECK(len == 1);
	hb_keys_at(&ks, 2, &len);
	CHECK(len == 2);
	CHECK_EQ_INT(hb_keys_lower_bound(&ks, "a\0", 2), 2);
	CHECK_EQ_INT(hb_keys_lower_bound(&ks, "c", 1), 4);
	hb_keys_release(&ks);
}

static void test_key__quoted_escaped_tsb_is_quoted_tsb_with_json_escapes(void)
{
	unsigned char all[256];
	unsigned seed = 1;
	int i, t;

	for (i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	for (t = 0; t < 2000; t++) {
		unsigned char k[40];
		const unsigned char *key = t ? k : all;
		size_t n = t ? (size_t)(seed % 40) : sizeof(all), j;
		struct hb_buf q = HB_BUF_INIT, e = HB_BUF_INIT, want = HB_BUF_INIT;

		for (j = 0; t && j < n; j++) {
			seed = seed * 1103515245u + 12345u;
			k[j] = "\"\\'a\x7f\x80 "[(seed >> 16) % 7] ^
			       (unsigned char)((seed >> 8) & 0x80);
		}
		seed = seed * 1103515245u + 12345u;
		CHECK_EQ_INT(hb_buf_adds(&e, "x"), 0);
		CHECK_EQ_INT(hb_tsb_append_quoted(&q, key, n), 0);
		CHECK_EQ_INT(hb_tsb_append_escaped(&e, key, n, 1), 0);
		hb_buf_addc(&want, 'x');
		for (j = 0; j < q.len; j++) {
			if (q.data[j] == '"' || q.data[j] == '\\')
				hb_buf_addc(&want, '\\');
			hb_buf_addc(&want, q.data[j]);
		}
		CHECK_EQ_STR(hb_buf_str(&e), hb_buf_str(&want));
		hb_buf_release(&q);
		hb_buf_release(&e);
		hb_buf_release(&want);
	}
}

/* The toStringBinary forms a byte at a time, as HBase writes them: the reference for the
 * writers that copy runs of plain bytes whole. */
static void tsb_ref(struct hb_buf *b, const unsigned char *k, size_t n, int quote, int json)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned c = k[i];

		if (c >= 0x20 && c <= 0x7E && c != '\\' && !(quote && c == '\'')) {
			if (json && c == '"')
				hb_buf_addc(b, '\\');
			hb_buf_addc(b, (int)c);
		} else {
			hb_buf_addf(b, "%s\\x%02X", json ? "\\" : "", c);
		}
	}
}

/* Random keys, mostly printable with the bytes each form escapes here and there, read the
 * same through every writer as through the reference, at every length and offset. */
static void test_key__tsb_writers_match_a_byte_at_a_time(void)
{
	static const unsigned char odd[] = {'\\', '"',  '\'', 0x00, 0x1F,
	                                    0x7F, 0x80, 0xFF, ' ',  '~'};
	uint64_t seed = 42;
	unsigned char k[64];
	struct hb_buf got = HB_BUF_INIT, want = HB_BUF_INIT;
	size_t n, i, bad = 0;
	int round, form;

	for (round = 0; round < 4000; round++) {
		n = t_xorshift(&seed) % sizeof(k);
		for (i = 0; i < n; i++) {
			uint64_t r = t_xorshift(&seed);

			k[i] = r % 16 ? (unsigned char)(0x20 + r / 16 % 0x5F)
			              : odd[r / 16 % sizeof(odd)];
		}
		for (form = 0; form < 4; form++) {
			hb_buf_reset(&got);
			hb_buf_reset(&want);
			hb_buf_adds(&got, "x"); /* not at the buffer's start */
			hb_buf_adds(&want, "x");
			if (form == 0)
				hb_tsb_append(&got, k, n);
			else if (form == 1)
				hb_tsb_append_quoted(&got, k, n);
			else
				hb_tsb_append_escaped(&got, k, n, form == 3);
			tsb_ref(&want, k, n, form & 1, form >= 2);
			if (got.len != want.len || memcmp(got.data, want.data, got.len))
				bad++;
		}
	}
	CHECK_EQ_INT(bad, 0);
	hb_buf_release(&got);
	hb_buf_release(&want);
}

int main(void)
{
	RUN(test_key__order_is_unsigned_then_shorter_first);
	RUN(test_key__tsb_matches_bytestestbase);
	RUN(test_key__tsb_writers_match_a_byte_at_a_time);
	RUN(test_key__tbb_follows_hbase_escape_rules);
	RUN(test_key__tsb_tbb_round_trip_random_bytes);
	RUN(test_key__quoted_escaped_tsb_is_quoted_tsb_with_json_escapes);
	RUN(test_key__base64_round_trip_and_rejects_garbage);
	RUN(test_key__list_sorts_and_searches);
	return TEST_DONE();
}
