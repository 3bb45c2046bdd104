/* Split algorithms against HBase's own expected values (docs/hbase-keys.md §3-§7, §13) and random
 * properties. */
#include "core/split.h"
#include "core/splitsfile.h"
#include "test.h"

#include <stdint.h>

/* Keys as toStringBinary text joined by single spaces (or "ERR: message"). */
static char *joined(const struct hb_keys *ks)
{
	static struct hb_buf b = HB_BUF_INIT;
	size_t i, len;

	hb_buf_reset(&b);
	hb_buf_adds(&b, "");
	for (i = 0; i < ks->n; i++) {
		const unsigned char *k = hb_keys_at(ks, i, &len);

		if (i)
			hb_buf_addc(&b, ' ');
		hb_tsb_append(&b, k, len);
	}
	return (char *)hb_buf_str(&b);
}

static char *joined_one(const void *k, size_t n)
{
	static struct hb_buf b = HB_BUF_INIT;

	hb_buf_reset(&b);
	hb_buf_adds(&b, "");
	hb_tsb_append(&b, k, n);
	return (char *)hb_buf_str(&b);
}

static struct hb_error last_err;

/* Runs one spec and returns the joined keys, or "ERR: <message>". */
static char *run(struct hb_split_spec *spec)
{
	static char out[1 << 16];
	struct hb_keys ks;
	int rc;

	hb_keys_init(&ks);
	memset(&last_err, 0, sizeof(last_err));
	rc = hb_split_compute(&ks, spec, &last_err);
	if (rc)
		snprintf(out, sizeof(out), "ERR: %s", last_err.msg);
	else
		snprintf(out, sizeof(out), "%s", joined(&ks));
	hb_keys_release(&ks);
	return out;
}

static char *numstr(enum hb_split_algo algo, const char *first, const char *last, long n)
{
	struct hb_split_spec s = {0};

	s.algo = algo;
	s.n = n;
	s.first = first;
	s.last = last;
	return run(&s);
}

static char *bytes_spec(enum hb_split_algo algo, const void *a, size_t al, const void *b, size_t bl,
                        long n)
{
	struct hb_split_spec s = {0};

	s.algo = algo;
	s.n = n;
	s.start = a;
	s.start_len = al;
	s.end = b;
	s.end_len = bl;
	return run(&s);
}

static char *tbb_spec(enum hb_split_algo algo, const char *a, const char *b, long n)
{
	static struct hb_buf ba = HB_BUF_INIT, bb = HB_BUF_INIT;

	hb_buf_reset(&ba);
	hb_buf_reset(&bb);
	hb_buf_adds(&ba, "");
	hb_buf_adds(&bb, "");
	if (a)
		hb_tbb_parse(&ba, a, strlen(a), NULL);
	if (b)
		hb_tbb_parse(&bb, b, strlen(b), NULL);
	return bytes_spec(algo, a ? ba.data : NULL, ba.len, b ? bb.data : NULL, bb.len, n);
}

static char *bsplit(const void *a, size_t al, const void *b, size_t bl, int incl, long num)
{
	static char out[1 << 14];
	struct hb_keys ks;
	struct hb_error err = {0};

	hb_keys_init(&ks);
	if (hb_bytes_split(&ks, a, al, b, bl, incl, num, &err))
		snprintf(out, sizeof(out), "ERR: %s", err.msg);
	else
		snprintf(out, sizeof(out), "%s", joined(&ks));
	hb_keys_release(&ks);
	return out;
}

static int failed(const char *r)
{
	return !strncmp(r, "ERR: ", 5);
}

/* ---- RegionSplitter HexStringSplit / DecimalStringSplit (TestRegionSplitter) ---- */

static void test_split__hex_matches_regionsplitter_unit_test(void)
{
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, NULL, NULL, 2), "80000000");
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, NULL, NULL, 3), "55555555 aaaaaaaa");
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, NULL, NULL, 1), "");
}

static void test_split__hex_matches_regionsplitter_for_n10(void)
{
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, NULL, NULL, 10),
	             "19999999 33333332 4ccccccb 66666664 7ffffffd 99999996 b333332f ccccccc8 "
	             "e6666661");
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, "0000000000000000", "ffffffffffffffff", 10),
	             "1999999999999999 3333333333333332 4ccccccccccccccb 6666666666666664 "
	             "7ffffffffffffffd 9999999999999996 b33333333333332f ccccccccccccccc8 "
	             "e666666666666661");
}

static void test_split__hex_presplit_table_has_16_regions(void)
{
	/* testCreatePresplitTableHex */
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, NULL, NULL, 16),
	             "10000000 20000000 30000000 40000000 50000000 60000000 70000000 80000000 "
	             "90000000 a0000000 b0000000 c0000000 d0000000 e0000000 f0000000");
}

static void test_split__hex_width_is_last_row_length_and_case_is_lower(void)
{
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, "0", "F", 4), "4 8 c");
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, "0", "00FF", 2), "0080");
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, "+0", "+ff", 2), "080"); /* '+' counts in the width */
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, "000000000000", "f", 2),
	             "8"); /* first never sets width */
	CHECK_EQ_STR(numstr(HB_SPLIT_HEX, "-0", "a", 2), "5");
}

static void test_split__decimal_matches_regionsplitter(void)
{
	CHECK_EQ_STR(numstr(HB_SPLIT_DECIMAL, NULL, NULL, 2), "50000000");
	CHECK_EQ_STR(numstr(HB_SPLIT_DECIMAL, NULL, NULL, 3), "33333333 66666666");
	CHECK_EQ_STR(numstr(HB_SPLIT_DECIMAL, NULL, NULL, 7),
	             "14285714 28571428 42857142 57142856 71428570 85714284");
	CHECK_EQ_STR(numstr(HB_SPLIT_DECIMAL, "0", "9", 10), "1 2 3 4 5 6 7 8 9");
}

static void test_split__number_string_user_input_preconditions(void)
{
	/* TestRegionSplitter.testUserInput: HexStringSplit then DecimalStringSplit (default n=100)
	 */
	CHECK(!failed(numstr(HB_SPLIT_HEX, NULL, NULL, 100)));
	CHECK(!failed(numstr(HB_SPLIT_HEX, "00", "AA", 100)));
	CHECK(failed(numstr(HB_SPLIT_HEX, "AA", "00", 100)));
	CHECK_EQ_STR(last_err.msg, "last row (00) is configured less than first row (AA)");
	CHECK(failed(numstr(HB_SPLIT_HEX, "AA", "AA", 100)));
	CHECK(!failed(numstr(HB_SPLIT_HEX, "0", "2", 3)));
	CHECK(!failed(numstr(HB_SPLIT_HEX, "0", "A", 11)));
	CHECK(failed(numstr(HB_SPLIT_HEX, "0", "A", 12)));
	CHECK_EQ_STR(last_err.msg, "split granularity (12) is greater than the range (11)");

	CHECK(!failed(numstr(HB_SPLIT_DECIMAL, NULL, NULL, 100)));
	CHECK(!failed(numstr(HB_SPLIT_DECIMAL, "00", "99", 100)));
	CHECK(failed(numstr(HB_SPLIT_DECIMAL, "99", "00", 100)));
	CHECK(failed(numstr(HB_SPLIT_DECIMAL, "99", "99", 100)));
	CHECK(!failed(numstr(HB_SPLIT_DECIMAL, "0", "2", 3)));
	CHECK(!failed(numstr(HB_SPLIT_DECIMAL, "0", "9", 10)));
	CHECK(failed(numstr(HB_SPLIT_DECIMAL, "0", "9", 11)));
	CHECK_EQ_STR(last_err.msg, "split granularity (11) is greater than the range (10)");
}

static void test_split__number_string_rejects_bad_digits_and_negatives(void)
{
	CHECK(failed(numstr(HB_SPLIT_HEX, "0", "fg", 2)));
	CHECK(strstr(last_err.msg, "the last row 'fg' is not a hex number") != NULL);
	CHECK(failed(numstr(HB_SPLIT_DECIMAL, "0", "a", 2)));
	CHECK(failed(numstr(HB_SPLIT_HEX, "", "f", 2)));
	CHECK(failed(numstr(HB_SPLIT_HEX, "+", "f", 2)));
	CHECK(failed(numstr(HB_SPLIT_HEX, "0", " f", 2)));
	CHECK(failed(numstr(HB_SPLIT_HEX, "-10", "10", 2)));
	CHECK(strstr(last_err.msg, "negative") != NULL);
	CHECK(failed(numstr(HB_SPLIT_HEX, NULL, NULL, 0)));
	CHECK(failed(numstr(HB_SPLIT_HEX, NULL, NULL, HB_SPLIT_MAX_REGIONS + 1)));
}

static void test_split__messages_name_parameters_as_the_caller_does(void)
{
	static const struct hb_split_names opt = {
	    "-f", "-l", "-s",
	    "-e", "-w", {"-0", "-x", "-d", "-u", "-r", "-b", "-p", "-a", "-m", "-F"}};
	struct hb_split_spec s = {0};

	s.algo = HB_SPLIT_HEX;
	s.n = 2;
	s.last = "fg";
	s.names = &opt;
	CHECK(failed(run(&s)));
	CHECK_EQ_STR(last_err.msg, "-l 'fg' is not a hex number (bad digit at position 2)");
	s.n = 0;
	CHECK(failed(run(&s)));
	CHECK_EQ_STR(last_err.msg, "-x needs at least 1 region, got 0");
	s.names = NULL; /* plain words */
	CHECK(failed(run(&s)));
	CHECK_EQ_STR(last_err.msg, "HexStringSplit needs at least 1 region, got 0");
	s.algo = HB_SPLIT_BOOK_HEX;
	s.n = 4;
	CHECK(failed(run(&s)));
	CHECK_EQ_STR(last_err.msg, "the book-hex split needs the start key and the end key");
	s.names = &opt;
	CHECK(failed(run(&s)));
	CHECK_EQ_STR(last_err.msg, "-b needs -s and -e");
}

/* ---- UniformSplit (TestRegionSplitter.unitTestUniformSplit, testCreatePresplitTableUniform) ----
 */

static void test_split__uniform_matches_regionsplitter(void)
{
	CHECK(failed(tbb_spec(HB_SPLIT_UNIFORM, NULL, NULL, 1)));
	CHECK_EQ_STR(tbb_spec(HB_SPLIT_UNIFORM, NULL, NULL, 2),
	             "\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x00");
	CHECK_EQ_STR(tbb_spec(HB_SPLIT_UNIFORM, NULL, NULL, 3),
	             "UUUUUUUU \\xAA\\xAA\\xAA\\xAA\\xAA\\xAA\\xAA\\xAA");
	CHECK_EQ_STR(tbb_spec(HB_SPLIT_UNIFORM, NULL, NULL, 5),
	             "33333333 ffffffff \\x99\\x99\\x99\\x99\\x99\\x99\\x99\\x99 "
	             "\\xCC\\xCC\\xCC\\xCC\\xCC\\xCC\\xCC\\xCC");
}

static void test_split__uniform_presplit_table_has_16_regions(void)
{
	struct hb_split_spec s = {0};
	struct hb_keys ks;
	size_t i, len;

	s.algo = HB_SPLIT_UNIFORM;
	s.n = 16;
	hb_keys_init(&ks);
	CHECK_EQ_INT(hb_split_compute(&ks, &s, NULL), 0);
	CHECK_EQ_INT(ks.n, 15);
	for (i = 0; i < ks.n; i++) {
		const unsigned char *k = hb_keys_at(&ks, i, &len);
		unsigned char want[8] = {(unsigned char)(0x10 * (i + 1)), 0, 0, 0, 0, 0, 0, 0};

		CHECK_EQ_INT(len, 8);
		CHECK(!memcmp(k, want, 8));
	}
	hb_keys_release(&ks);
}

static void test_split__uniform_user_input_preconditions(void)
{
	CHECK(!failed(tbb_spec(HB_SPLIT_UNIFORM, NULL, NULL, 100)));
	CHECK(!failed(tbb_spec(HB_SPLIT_UNIFORM, "\\x00", "\\xAA", 100)));
	CHECK(failed(tbb_spec(HB_SPLIT_UNIFORM, "\\xAA", "\\x00", 100)));
	CHECK_EQ_STR(last_err.msg, "last row (\\x00) is configured less than first row (\\xAA)");
	CHECK(failed(tbb_spec(HB_SPLIT_UNIFORM, "\\xAA", "\\xAA", 100)));
	CHECK(!failed(tbb_spec(HB_SPLIT_UNIFORM, "\\x00", "\\x02", 3)));
	CHECK(!failed(tbb_spec(HB_SPLIT_UNIFORM, "\\x00", "\\x0A", 11)));
	/* UniformSplit never fails for large n: the keys just grow a byte */
	CHECK_EQ_STR(
	    tbb_spec(HB_SPLIT_UNIFORM, "\\x00", "\\x0A", 12),
	    "\\x00\\xD5 \\x01\\xAA \\x02\\x7F \\x03T \\x04) \\x04\\xFE \\x05\\xD3 \\x06\\xA8 "
	    "\\x07} \\x08R \\x09'");
	/* equal after zero padding */
	CHECK(failed(tbb_spec(HB_SPLIT_UNIFORM, "a", "a\\x00", 2)));
	CHECK_EQ_STR(last_err.msg, "b <= a");
}

/* ---- Bytes.split (BytesTestBase testSplit, testSplit2, testSplit3, §3) ---- */

static void test_split__bytes_split_matches_bytestestbase(void)
{
	CHECK_EQ_STR(bsplit("AAA", 3, "EEE", 3, 0, 1), "AAA CCC EEE");
	CHECK_EQ_STR(bsplit("AAA", 3, "DDD", 3, 0, 2), "AAA BBB CCC DDD");
	CHECK_EQ_STR(bsplit("http://A", 8, "http://z", 8, 0, 1), "http://A http://] http://z");
}

static void test_split__bytes_split_invalid_and_narrow_cases(void)
{
	static const unsigned char low[] = {1, 1, 1}, high[] = {1, 1, 3};
	struct hb_keys ks;
	size_t i, len;

	CHECK_EQ_STR(bsplit(high, 3, low, 3, 0, 1), "ERR: b <= a");
	CHECK_EQ_STR(bsplit(low, 3, high, 3, 0, 1),
	             "\\x01\\x01\\x01 \\x01\\x01\\x02 \\x01\\x01\\x03");
	/* split twice: needs an extra byte; 4 parts */
	hb_keys_init(&ks);
	CHECK_EQ_INT(hb_bytes_split(&ks, low, 3, high, 3, 0, 2, NULL), 0);
	CHECK_EQ_INT(ks.n, 4);
	for (i = 0; i < ks.n; i++) {
		hb_keys_at(&ks, i, &len);
		CHECK_EQ_INT(len, 4);
	}
	hb_keys_release(&ks);
	CHECK_EQ_STR(bsplit(low, 3, high, 3, 0, 0), "ERR: num cannot be <= 0");
	CHECK_EQ_STR(bsplit("aaa", 3, "aab", 3, 0, 1), "aaa\\x00 aaa\\x80 aab\\x00");
	/* no extension: the caller's own endpoints, unpadded */
	CHECK_EQ_STR(bsplit("a", 1, "b\0\0", 3, 0, 1), "a a\\x80\\x00 b\\x00\\x00");
	CHECK_EQ_STR(bsplit("a", 1, "a\0", 2, 0, 1), "ERR: b <= a");
	/* order of checks: compare before num */
	CHECK_EQ_STR(bsplit("b", 1, "a", 1, 0, 0), "ERR: b <= a");
}

/* ---- Admin.createTable(desc, start, end, n) (§4, TestAsyncTableAdminApi) ---- */

static void test_split__range_matches_reference_guide_listing(void)
{
	static const signed char book[9][16] = {
	    {48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48},
	    {54, -10, -10, -10, -10, -10, -10, -10, -10, -10, -10, -10, -10, -10, -10, -10},
	    {61, -67, -67, -67, -67, -67, -67, -67, -67, -67, -67, -67, -67, -67, -67, -68},
	    {68, -124, -124, -124, -124, -124, -124, -124, -124, -124, -124, -124, -124, -124, -124,
	     -126},
	    {75, 75, 75, 75, 75, 75, 75, 75, 75, 75, 75, 75, 75, 75, 75, 72},
	    {82, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 14},
	    {88, -40, -40, -40, -40, -40, -40, -40, -40, -40, -40, -40, -40, -40, -40, -44},
	    {95, -97, -97, -97, -97, -97, -97, -97, -97, -97, -97, -97, -97, -97, -97, -102},
	    {102, 102, 102, 102, 102, 102, 102, 102, 102, 102, 102, 102, 102, 102, 102, 102},
	};
	struct hb_split_spec s = {0};
	struct hb_keys ks;
	size_t i, len;

	CHECK_EQ_STR(bytes_spec(HB_SPLIT_RANGE, "0000000000000000", 16, "ffffffffffffffff", 16, 10),
	             "0000000000000000 "
	             "6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6 "
	             "=\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBC "
	             "D\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x82 "
	             "KKKKKKKKKKKKKKKH "
	             "R\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x0E "
	             "X\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD4 "
	             "_\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9A "
	             "ffffffffffffffff");
	s.algo = HB_SPLIT_RANGE;
	s.n = 10;
	s.start = (const unsigned char *)"0000000000000000";
	s.end = (const unsigned char *)"ffffffffffffffff";
	s.start_len = s.end_len = 16;
	hb_keys_init(&ks);
	CHECK_EQ_INT(hb_split_compute(&ks, &s, NULL), 0);
	CHECK_EQ_INT(ks.n, 9);
	for (i = 0; i < ks.n && i < 9; i++) {
		const unsigned char *k = hb_keys_at(&ks, i, &len);

		CHECK_EQ_INT(len, 16);
		CHECK(!memcmp(k, book[i], 16));
	}
	hb_keys_release(&ks);
}

static void test_split__range_matches_async_admin_tests(void)
{
	unsigned char a[10], b[10];
	char want[1024] = "";
	int k;

	memset(a, 1, 10);
	memset(b, 9, 10);
	for (k = 1; k <= 9; k++) {
		char part[64];

		snprintf(part, sizeof(part),
		         "%s\\x%02d\\x%02d\\x%02d\\x%02d\\x%02d\\x%02d\\x%02d\\x%02d"
		         "\\x%02d\\x%02d",
		         k > 1 ? " " : "", k, k, k, k, k, k, k, k, k, k);
		strcat(want, part);
	}
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_RANGE, a, 10, b, 10, 10), want);
	{
		static const unsigned char z6[6] = {0}, one[6] = {1, 0, 0, 0, 0, 0};
		struct hb_split_spec s = {0};
		struct hb_keys ks;

		s.algo = HB_SPLIT_RANGE;
		s.n = 5;
		s.start = z6;
		s.start_len = 6;
		s.end = one;
		s.end_len = 6;
		hb_keys_init(&ks);
		CHECK_EQ_INT(hb_split_compute(&ks, &s, NULL), 0);
		CHECK_EQ_INT(ks.n + 1, 5);
		hb_keys_release(&ks);
	}
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_RANGE, "a", 1, "z", 1, 3), "a z");
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_RANGE, "a", 1, "z", 1, 2),
	             "ERR: Must create at least three regions");
	{
		unsigned char lo = 1, hi = 127;
		struct hb_split_spec s = {0};
		struct hb_keys ks;

		s.algo = HB_SPLIT_RANGE;
		s.n = 16;
		s.start = &lo;
		s.start_len = 1;
		s.end = &hi;
		s.end_len = 1;
		hb_keys_init(&ks);
		CHECK_EQ_INT(hb_split_compute(&ks, &s, NULL), 0);
		CHECK_EQ_INT(ks.n + 1, 16);
		hb_keys_release(&ks);
	}
}

static void test_split__range_narrow_endpoints_are_zero_extended(void)
{
	/* §11.7: createTable("a", "b", 10) */
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_RANGE, "a", 1, "b", 1, 10),
	             "a\\x00 a  a@ a` a\\x80 a\\xA0 a\\xC0 a\\xE0 b\\x00");
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_RANGE, "b", 1, "a", 1, 10),
	             "ERR: Start key must be smaller than end key");
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_RANGE, "a", 1, "a", 1, 10),
	             "ERR: Start key must be smaller than end key");
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_RANGE, "a", 1, "a\0", 2, 10), "ERR: b <= a");
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_RANGE, "", 0, "a", 1, 3),
	             "ERR: Empty split key must not be passed in the split keys.");
}

/* ---- two-argument split and the multi-mapper helper (TestRegionSplitter) ---- */

static char *mid(enum hb_split_algo algo, const char *a, size_t al, const char *b, size_t bl,
                 int fix)
{
	static char out[2048];
	struct hb_split_spec s = {0};
	struct hb_buf k = HB_BUF_INIT;
	struct hb_error err = {0};

	s.algo = algo;
	if (hb_split_midpoint(&k, &s, a, al, b, bl, fix, &err))
		snprintf(out, sizeof(out), "ERR: %s", err.msg);
	else
		snprintf(out, sizeof(out), "%s", joined_one(k.data, k.len));
	hb_buf_release(&k);
	return out;
}

static char *between(enum hb_split_algo algo, const char *a, const char *b, long n, int incl)
{
	static char out[4096];
	struct hb_split_spec s = {0};
	struct hb_keys ks;
	struct hb_error err = {0};

	s.algo = algo;
	hb_keys_init(&ks);
	if (hb_split_between(&ks, &s, a, strlen(a), b, strlen(b), n, incl, &err))
		snprintf(out, sizeof(out), "ERR: %s", err.msg);
	else
		snprintf(out, sizeof(out), "%s", joined(&ks));
	hb_keys_release(&ks);
	return out;
}

static void test_split__midpoints_match_regionsplitter(void)
{
	int fix;

	for (fix = 0; fix <= 1; fix++) {
		CHECK_EQ_STR(mid(HB_SPLIT_HEX, "10000000", 8, "30000000", 8, fix), "20000000");
		CHECK_EQ_STR(mid(HB_SPLIT_HEX, "00000000", 8, "20000000", 8, fix), "10000000");
		CHECK_EQ_STR(mid(HB_SPLIT_HEX, "dfffffff", 8, "ffffffff", 8, fix), "efffffff");
		CHECK_EQ_STR(mid(HB_SPLIT_DECIMAL, "10000000", 8, "30000000", 8, fix), "20000000");
		CHECK_EQ_STR(mid(HB_SPLIT_DECIMAL, "00000000", 8, "20000000", 8, fix), "10000000");
		CHECK_EQ_STR(mid(HB_SPLIT_DECIMAL, "00000000", 8, "19999999", 8, fix), "09999999");
		CHECK_EQ_STR(mid(HB_SPLIT_DECIMAL, "79999999", 8, "99999999", 8, fix), "89999999");
	}
	/* HBASE-29472: the last row counts as inclusive only with the fix */
	CHECK_EQ_STR(mid(HB_SPLIT_HEX, "fffffffd", 8, "ffffffff", 8, 0), "fffffffe");
	CHECK_EQ_STR(mid(HB_SPLIT_HEX, "fffffffe", 8, "ffffffff", 8, 0), "fffffffe");
	CHECK_EQ_STR(mid(HB_SPLIT_HEX, "fffffffe", 8, "ffffffff", 8, 1), "ffffffff");
	CHECK_EQ_STR(mid(HB_SPLIT_HEX, "", 0, "", 0, 0), "ERR: the end row must not be 0");
	CHECK_EQ_STR(mid(HB_SPLIT_UNIFORM, "\x10", 1, "\x30", 1, 0), " "); /* 0x20 */
	CHECK_EQ_STR(mid(HB_SPLIT_UNIFORM, "", 0, "\x20", 1, 0), "\\x10");
	CHECK_EQ_STR(mid(HB_SPLIT_UNIFORM, "\xdf\xff\xff\xff\xff\xff\xff\xff", 8,
	                 "\xff\xff\xff\xff\xff\xff\xff\xff", 8, 0),
	             "\\xEF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF");
	CHECK_EQ_STR(mid(HB_SPLIT_UNIFORM, "aaa", 3, "aab", 3, 0), "aaa\\x80");
}

static void test_split__multi_mapper_splits_match_regionsplitter(void)
{
	CHECK_EQ_STR(between(HB_SPLIT_HEX, "00000000", "30000000", 3, 0), "10000000 20000000");
	CHECK_EQ_STR(between(HB_SPLIT_HEX, "00000000", "20000000", 2, 1),
	             "00000000 10000000 20000000");
	CHECK_EQ_STR(between(HB_SPLIT_DECIMAL, "00000000", "30000000", 3, 0), "10000000 20000000");
	CHECK_EQ_STR(between(HB_SPLIT_DECIMAL, "00000000", "20000000", 2, 1),
	             "00000000 10000000 20000000");
	CHECK_EQ_STR(between(HB_SPLIT_UNIFORM, "aaa", "aad", 3, 0), "aab aac");
	CHECK_EQ_STR(between(HB_SPLIT_UNIFORM, "aaa", "aae", 2, 1), "aaa aac aae");
	CHECK(failed(between(HB_SPLIT_HEX, "30000000", "00000000", 3, 0)));
	CHECK(failed(between(HB_SPLIT_UNIFORM, "b", "a", 3, 0)));
}

/* ---- the reference guide's getHexSplits (seed 001, §7.1) ---- */

static void test_split__book_hex_matches_seed_001(void)
{
	CHECK_EQ_STR(
	    bytes_spec(HB_SPLIT_BOOK_HEX, "0000000000000000", 16, "ffffffffffffffff", 16, 10),
	    "1999999999999999 3333333333333332 4ccccccccccccccb 6666666666666664 "
	    "7ffffffffffffffd 9999999999999996 b33333333333332f ccccccccccccccc8 "
	    "e666666666666661");
	/* no +1 and a fixed width of 16: differs from HexStringSplit */
	CHECK(!strncmp(bytes_spec(HB_SPLIT_BOOK_HEX, "00000000", 8, "ffffffff", 8, 16),
	               "000000000fffffff 000000001ffffffe", 33));
	CHECK(failed(bytes_spec(HB_SPLIT_BOOK_HEX, "0", 1, "2", 1, 4)));
	CHECK_EQ_STR(last_err.msg,
	             "All split keys must be unique, found duplicate: 0000000000000000, "
	             "0000000000000000");
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_BOOK_HEX, "0", 1, "1", 1, 2), "0000000000000000");
	/* no start < end check in the recipe: (0 - f) / 2 truncates to -7 */
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_BOOK_HEX, "f", 1, "0", 1, 2), "0000000000000008");
	CHECK(failed(bytes_spec(HB_SPLIT_BOOK_HEX, "8", 1, "-ff", 3, 3)));
	CHECK(failed(bytes_spec(HB_SPLIT_BOOK_HEX, "0", 1, "xyz", 3, 2)));
	/* keys wider than 16 digits are put in key order, as createTable does */
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_BOOK_HEX, "0", 1, "30000000000000000", 17, 3),
	             "10000000000000000 20000000000000000");
	CHECK_EQ_STR(bytes_spec(HB_SPLIT_BOOK_HEX, "0", 1, "20000000000000000", 17, 4),
	             "10000000000000000 18000000000000000 8000000000000000");
}

/* ---- partition, salt, sampled, file ---- */

static void test_split__partition_and_salt_prefixes(void)
{
	struct hb_split_spec s = {0};

	s.algo = HB_SPLIT_PARTITION;
	s.n = 3;
	CHECK_EQ_STR(run(&s), "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01 "
	                      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02");
	s.algo = HB_SPLIT_SALT;
	s.salt_width = 1;
	s.n = 256;
	CHECK(!failed(run(&s)));
	s.n = 257;
	CHECK(failed(run(&s)));
	s.n = 4;
	CHECK_EQ_STR(run(&s), "\\x01 \\x02 \\x03");
	s.salt_width = 2;
	CHECK_EQ_STR(run(&s), "\\x00\\x01 \\x00\\x02 \\x00\\x03");
	s.n = 65536;
	{
		struct hb_keys ks;
		size_t len;
		const unsigned char *k;

		hb_keys_init(&ks);
		CHECK_EQ_INT(hb_split_compute(&ks, &s, NULL), 0);
		CHECK_EQ_INT(ks.n, 65535);
		k = hb_keys_at(&ks, ks.n - 1, &len);
		CHECK(len == 2 && k[0] == 0xFF && k[1] == 0xFF);
		hb_keys_release(&ks);
	}
	s.n = 65537;
	CHECK(failed(run(&s)));
	s.salt_width = 3;
	s.n = 2;
	CHECK(failed(run(&s)));
}

static void test_split__sampled_takes_every_base_th_distinct_key(void)
{
	static const char *sample[] = {"e", "a", "c", "b", "d", "a"};
	struct hb_split_spec s = {0};
	struct hb_keys ks;
	size_t i;

	hb_keys_init(&ks);
	for (i = 0; i < HB_ARRAY_LEN(sample); i++)
		hb_keys_push(&ks, sample[i], 1);
	s.algo = HB_SPLIT_SAMPLED;
	s.sample = &ks;
	s.sample_draws = 6;
	s.n = 3; /* base 2: distinct a b c d e -> positions 2 and 4 */
	CHECK_EQ_STR(run(&s), "c e");
	s.n = 2; /* base 3 */
	CHECK_EQ_STR(run(&s), "d");
	s.n = 6; /* base 1: needs 5 distinct keys after position 0 */
	CHECK(failed(run(&s)));
	CHECK(strstr(last_err.msg, "only 5 distinct keys") != NULL);
	s.n = 7; /* base 0 */
	CHECK(failed(run(&s)));
	CHECK(strstr(last_err.msg, "too small") != NULL);
	s.n = 1;
	CHECK_EQ_STR(run(&s), "");
	hb_keys_release(&ks);
}

static void test_split__sampled_from_a_sample_its_maker_marked_ordered(void)
{
	static const char *sample[] = {"a", "b", "c", "d", "e", "f"};
	struct hb_split_spec s = {0};
	struct hb_keys ks;
	size_t i;

	hb_keys_init(&ks);
	for (i = 0; i < HB_ARRAY_LEN(sample); i++)
		hb_keys_push(&ks, sample[i], 1);
	ks.ordered = ks.n;
	s.algo = HB_SPLIT_SAMPLED;
	s.sample = &ks;
	s.sample_draws = 6;
	s.n = 3; /* base 2: positions 2 and 4, read in place */
	CHECK_EQ_STR(run(&s), "c e");
	s.n = 6; /* base 1 */
	CHECK_EQ_STR(run(&s), "b c d e f");
	s.n = 7;
	CHECK(failed(run(&s)));
	hb_keys_release(&ks);
}

static void test_split__verify_uses_hbase_messages(void)
{
	struct hb_keys ks;
	struct hb_error err = {0};

	hb_keys_init(&ks);
	hb_keys_push(&ks, "b", 1);
	hb_keys_push(&ks, "a", 1);
	CHECK_EQ_INT(hb_split_verify(&ks, &err), 0); /* unsorted is accepted */
	hb_keys_push(&ks, "b", 1);
	CHECK_EQ_INT(hb_split_verify(&ks, &err), HB_EINVAL);
	CHECK_EQ_STR(err.msg, "All split keys must be unique, found duplicate: b, b");
	hb_keys_clear(&ks);
	hb_keys_push(&ks, "a", 1);
	hb_keys_push(&ks, "", 0);
	CHECK_EQ_INT(hb_split_verify(&ks, &err), HB_EINVAL);
	CHECK_EQ_STR(err.msg, "Empty split key must not be passed in the split keys.");
	hb_keys_release(&ks);
}

static char *parse_file(const char *text, int flags)
{
	static char out[4096];
	struct hb_keys ks;
	struct hb_error err = {0};

	hb_keys_init(&ks);
	if (hb_splitsfile_parse(&ks, text, strlen(text), "splits.txt", flags, &err))
		snprintf(out, sizeof(out), "ERR: %s", err.msg);
	else
		snprintf(out, sizeof(out), "%s", joined(&ks));
	hb_keys_release(&ks);
	return out;
}

static void test_split__splits_file_lines_and_errors(void)
{
	CHECK_EQ_STR(parse_file("a\nb\\x00\n\\xFF", HB_SPLITSFILE_SORTED), "a b\\x00 \\xFF");
	CHECK_EQ_STR(parse_file("a\r\nb\r\n", HB_SPLITSFILE_SORTED), "a b");
	CHECK_EQ_STR(parse_file(" a \n", HB_SPLITSFILE_SORTED), " a ");
	CHECK_EQ_STR(parse_file("a\nc\nb\n", HB_SPLITSFILE_SORTED),
	             "ERR: splits.txt:3: key 'b' is not greater than the key on line 2");
	CHECK_EQ_STR(parse_file("a\na\n", HB_SPLITSFILE_SORTED),
	             "ERR: splits.txt:2: key 'a' is not greater than the key on line 1");
	CHECK_EQ_STR(parse_file("a\n\nb\n", HB_SPLITSFILE_SORTED),
	             "ERR: splits.txt:2: empty line (HBase rejects an empty split key)");
	CHECK_EQ_STR(parse_file("a\n\r\n", HB_SPLITSFILE_SORTED),
	             "ERR: splits.txt:2: empty line (HBase rejects an empty split key)");
	CHECK_EQ_STR(parse_file("a\nb\xff\n", HB_SPLITSFILE_SORTED),
	             "ERR: splits.txt:2: invalid UTF-8 at byte 2");
	CHECK_EQ_STR(parse_file("", HB_SPLITSFILE_SORTED), "ERR: splits.txt: no keys in the file");
	CHECK_EQ_STR(parse_file("c\na\na\n", 0), "c a a"); /* samples need no order */
	{
		size_t n = HB_MAX_ROW_LENGTH + 1;
		char *big = malloc(n + 2);

		memset(big, 'k', n);
		big[n] = '\n';
		big[n + 1] = '\0';
		CHECK(!strncmp(parse_file(big, HB_SPLITSFILE_SORTED),
		               "ERR: splits.txt:1: key is 32768 bytes long", 42));
		big[n - 1] = '\n';
		big[n] = '\0';
		CHECK(!failed(parse_file(big, HB_SPLITSFILE_SORTED)));
		free(big);
	}
}

/* ---- properties over random parameters, with 64-bit oracles where the numbers fit ---- */

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	return t_xorshift(&rng_state);
}

/* Keys strictly increasing, every toStringBinary text parses back to the same bytes. */
static int well_formed(const struct hb_keys *ks)
{
	struct hb_buf t = HB_BUF_INIT, back = HB_BUF_INIT;
	size_t i, len, plen = 0;
	const unsigned char *prev = NULL;
	int ok = 1;

	for (i = 0; i < ks->n && ok; i++) {
		const unsigned char *k = hb_keys_at(ks, i, &len);

		if (prev && hb_key_cmp(prev, plen, k, len) >= 0)
			ok = 0;
		hb_buf_reset(&t);
		hb_buf_reset(&back);
		hb_tsb_append(&t, k, len);
		hb_tbb_parse(&back, hb_buf_str(&t), t.len, NULL);
		if (back.len != len || (len && memcmp(back.data, k, len)))
			ok = 0;
		prev = k;
		plen = len;
	}
	hb_buf_release(&t);
	hb_buf_release(&back);
	return ok;
}

static void test_split__hex_random_matches_64bit_oracle(void)
{
	int iter;

	for (iter = 0; iter < 3000; iter++) {
		int digits = 1 + (int)(rnd() % 15), radix = (iter & 1) ? 16 : 10;
		uint64_t maxv = 1, first, last, range, step;
		char fs[32], ls[32], want[32];
		struct hb_split_spec s = {0};
		struct hb_keys ks;
		long n, i;
		int ok = 1, d;

		for (d = 0; d < digits; d++)
			maxv *= (uint64_t)radix;
		last = rnd() % maxv;
		first = last ? rnd() % last : 0;
		if (last == 0)
			continue;
		range = last - first + 1;
		n = 1 + (long)(rnd() % (range < 3000 ? range + 2 : 3000));
		snprintf(fs, sizeof(fs), radix == 16 ? "%llx" : "%llu", (unsigned long long)first);
		snprintf(ls, sizeof(ls), radix == 16 ? "%0*llX" : "%0*llu", digits,
		         (unsigned long long)last);
		s.algo = radix == 16 ? HB_SPLIT_HEX : HB_SPLIT_DECIMAL;
		s.n = n;
		s.first = fs;
		s.last = ls;
		hb_keys_init(&ks);
		if ((uint64_t)n > range) {
			CHECK(hb_split_compute(&ks, &s, NULL) == HB_EINVAL);
			hb_keys_release(&ks);
			continue;
		}
		CHECK_EQ_INT(hb_split_compute(&ks, &s, NULL), 0);
		CHECK_EQ_INT(ks.n, n - 1);
		step = range / (uint64_t)n;
		for (i = 1; i < n && (size_t)i <= ks.n; i++) {
			size_t len;
			const unsigned char *k = hb_keys_at(&ks, (size_t)i - 1, &len);

			snprintf(want, sizeof(want), radix == 16 ? "%0*llx" : "%0*llu", digits,
			         (unsigned long long)(first + (uint64_t)i * step));
			if (len != strlen(want) || memcmp(k, want, len))
				ok = 0;
		}
		CHECK(ok);
		CHECK(well_formed(&ks));
		hb_keys_release(&ks);
	}
}

/* Bytes.split by 64-bit arithmetic for keys up to 7 bytes (the oracle extends by bytes). */
static void test_split__bytes_split_random_matches_64bit_oracle(void)
{
	int iter;

	for (iter = 0; iter < 5000; iter++) {
		unsigned char a[8], b[8];
		size_t al = rnd() % 4, bl = 1 + rnd() % 4, L, i, len, ext = 0;
		long num = 1 + (long)(rnd() % 40);
		int incl = (int)(rnd() & 1), ok = 1;
		uint64_t A = 0, B = 0, diff, step;
		struct hb_keys ks;
		struct hb_error err = {0};

		for (i = 0; i < al; i++)
			a[i] = (unsigned char)(rnd() % 4 ? rnd() : (rnd() & 1) * 0xFF);
		for (i = 0; i < bl; i++)
			b[i] = (unsigned char)(rnd() % 4 ? rnd() : (rnd() & 1) * 0xFF);
		if (rnd() % 3 == 0 && al) { /* near-equal keys exercise the extension loop */
			memcpy(b, a, al);
			bl = al;
			b[bl - 1] = (unsigned char)(b[bl - 1] + 1 + rnd() % 2);
		}
		L = al > bl ? al : bl;
		for (i = 0; i < L; i++) {
			A = A << 8 | (i < al ? a[i] : 0);
			B = B << 8 | (i < bl ? b[i] : 0);
		}
		hb_keys_init(&ks);
		if (A >= B) {
			CHECK_EQ_INT(hb_bytes_split(&ks, a, al, b, bl, incl, num, &err), HB_EINVAL);
			CHECK_EQ_STR(err.msg, "b <= a");
			hb_keys_release(&ks);
			continue;
		}
		while ((diff = B - A + (uint64_t)incl) < (uint64_t)num + 1) {
			A <<= 8;
			B <<= 8;
			L++;
			ext++;
		}
		step = diff / ((uint64_t)num + 1);
		CHECK_EQ_INT(hb_bytes_split(&ks, a, al, b, bl, incl, num, &err), 0);
		CHECK_EQ_INT(ks.n, (size_t)num + 2);
		for (i = 0; i < ks.n; i++) {
			const unsigned char *k = hb_keys_at(&ks, i, &len);
			uint64_t v = 0;
			size_t j;

			if (i == 0 && !ext) {
				ok &= len == al && (!al || !memcmp(k, a, al));
				continue;
			}
			if (i + 1 == ks.n && !ext) {
				ok &= len == bl && !memcmp(k, b, bl);
				continue;
			}
			ok &= len == L;
			for (j = 0; j < len; j++)
				v = v << 8 | k[j];
			if (i == 0)
				ok &= v == A;
			else if (i + 1 == ks.n)
				ok &= v == B;
			else
				ok &= v == A + (uint64_t)i * step;
		}
		CHECK(ok);
		hb_keys_release(&ks);
	}
}

static void test_split__random_specs_give_n_minus_1_increasing_keys_in_bounds(void)
{
	int iter;

	for (iter = 0; iter < 2000; iter++) {
		unsigned char a[40], b[40];
		size_t al = 1 + rnd() % 20, bl = 1 + rnd() % 20, i, len;
		struct hb_split_spec s = {0};
		struct hb_keys ks;
		int rc;

		for (i = 0; i < al; i++)
			a[i] = (unsigned char)rnd();
		for (i = 0; i < bl; i++)
			b[i] = (unsigned char)rnd();
		if (hb_key_cmp(a, al, b, bl) > 0) {
			unsigned char t[40];
			size_t tl = al;

			memcpy(t, a, al);
			memcpy(a, b, bl);
			al = bl;
			memcpy(b, t, tl);
			bl = tl;
		}
		s.algo = (iter & 1) ? HB_SPLIT_RANGE : HB_SPLIT_UNIFORM;
		s.n = 3 + (long)(rnd() % (iter % 50 == 0 ? 100000 : 300));
		s.start = a;
		s.start_len = al;
		s.end = b;
		s.end_len = bl;
		hb_keys_init(&ks);
		rc = hb_split_compute(&ks, &s, NULL);
		if (rc) {
			/* only equal-after-padding keys may fail */
			size_t L = al > bl ? al : bl;
			unsigned char pa[40] = {0}, pb[40] = {0};

			memcpy(pa, a, al);
			memcpy(pb, b, bl);
			CHECK(!memcmp(pa, pb, L));
			hb_keys_release(&ks);
			continue;
		}
		CHECK_EQ_INT(ks.n, (size_t)s.n - 1);
		CHECK(well_formed(&ks));
		for (i = 0; i < ks.n; i++) {
			const unsigned char *k = hb_keys_at(&ks, i, &len);

			if (s.algo == HB_SPLIT_UNIFORM) {
				CHECK(hb_key_cmp(a, al, k, len) < 0);
				CHECK(hb_key_cmp(k, len, b, bl) < 0);
			} else {
				CHECK(hb_key_cmp(a, al, k, len) <= 0);
			}
		}
		hb_keys_release(&ks);
	}
}

static void test_split__large_n_is_fast_and_exact_at_the_ends(void)
{
	struct hb_split_spec s = {0};
	struct hb_keys ks;
	size_t len;
	const unsigned char *k;

	s.algo = HB_SPLIT_HEX;
	s.n = 1000001;
	s.first = "0";
	s.last = "ffffffffffff";
	hb_keys_init(&ks);
	CHECK_EQ_INT(hb_split_compute(&ks, &s, NULL), 0);
	CHECK_EQ_INT(ks.n, 1000000);
	k = hb_keys_at(&ks, 0, &len);
	CHECK(len == 12 && !memcmp(k, "000010c6f687", 12)); /* 2^48 / 1000001 */
	hb_keys_release(&ks);
}

int main(void)
{
	RUN(test_split__hex_matches_regionsplitter_unit_test);
	RUN(test_split__hex_matches_regionsplitter_for_n10);
	RUN(test_split__hex_presplit_table_has_16_regions);
	RUN(test_split__hex_width_is_last_row_length_and_case_is_lower);
	RUN(test_split__decimal_matches_regionsplitter);
	RUN(test_split__number_string_user_input_preconditions);
	RUN(test_split__number_string_rejects_bad_digits_and_negatives);
	RUN(test_split__messages_name_parameters_as_the_caller_does);
	RUN(test_split__uniform_matches_regionsplitter);
	RUN(test_split__uniform_presplit_table_has_16_regions);
	RUN(test_split__uniform_user_input_preconditions);
	RUN(test_split__bytes_split_matches_bytestestbase);
	RUN(test_split__bytes_split_invalid_and_narrow_cases);
	RUN(test_split__range_matches_reference_guide_listing);
	RUN(test_split__range_matches_async_admin_tests);
	RUN(test_split__range_narrow_endpoints_are_zero_extended);
	RUN(test_split__midpoints_match_regionsplitter);
	RUN(test_split__multi_mapper_splits_match_regionsplitter);
	RUN(test_split__book_hex_matches_seed_001);
	RUN(test_split__partition_and_salt_prefixes);
	RUN(test_split__sampled_takes_every_base_th_distinct_key);
	RUN(test_split__sampled_from_a_sample_its_maker_marked_ordered);
	RUN(test_split__verify_uses_hbase_messages);
	RUN(test_split__splits_file_lines_and_errors);
	RUN(test_split__hex_random_matches_64bit_oracle);
	RUN(test_split__bytes_split_random_matches_64bit_oracle);
	RUN(test_split__random_specs_give_n_minus_1_increasing_keys_in_bounds);
	RUN(test_split__large_n_is_fast_and_exact_at_the_ends);
	return TEST_DONE();
}
