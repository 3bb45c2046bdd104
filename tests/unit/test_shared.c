/* The shared pieces: the metadata row's N, growable arrays, the monotonic clock, decimal
 * numbers in a buffer. */
#include "core/buf.h"
#include "core/clock.h"
#include "core/hb.h"
#include "core/metarow.h"
#include "core/vec.h"
#include "test.h"

#include <limits.h>
#include <stdint.h>

static long n_of(const char *s)
{
	long v = 0;

	return hb_metarow_parse_n(s, strlen(s), &v) ? -1 : v;
}

static void test_metarow__n_is_decimal_1_to_int_max(void)
{
	CHECK_EQ_INT(n_of("1"), 1);
	CHECK_EQ_INT(n_of("16"), 16);
	CHECK_EQ_INT(n_of("016"), 16); /* written by hand: leading zeros are still a number */
	CHECK_EQ_INT(n_of("2147483647"), 2147483647L);
	CHECK_EQ_INT(n_of("2147483648"), -1);
	CHECK_EQ_INT(n_of("99999999999999999999"), -1);
	CHECK_EQ_INT(n_of("0"), -1);
	CHECK_EQ_INT(n_of(""), -1);
	CHECK_EQ_INT(n_of("-3"), -1);
	CHECK_EQ_INT(n_of("+3"), -1);
	CHECK_EQ_INT(n_of("3 "), -1);
	CHECK_EQ_INT(n_of(" 3"), -1);
	CHECK_EQ_INT(n_of("0x10"), -1);
	CHECK_EQ_INT(hb_metarow_parse_n("12\0", 3, &(long){0}), -1); /* a NUL inside */
}

static void test_vec__grows_by_doubling_from_min_and_keeps_contents(void)
{
	int *v = NULL;
	size_t cap = 0, i;

	CHECK_EQ_INT(HB_VEC_GROW(v, cap, 1, 4), 0);
	CHECK_EQ_INT(cap, 4);
	for (i = 0; i < 4; i++)
		v[i] = (int)i;
	CHECK_EQ_INT(HB_VEC_GROW(v, cap, 3, 4), 0); /* room already: nothing changes */
	CHECK_EQ_INT(cap, 4);
	CHECK_EQ_INT(HB_VEC_GROW(v, cap, 5, 4), 0);
	CHECK_EQ_INT(cap, 8);
	CHECK_EQ_INT(HB_VEC_GROW(v, cap, 33, 4), 0);
	CHECK_EQ_INT(cap, 64);
	for (i = 0; i < 4; i++)
		CHECK_EQ_INT(v[i], (int)i);
	free(v);
}

static void test_vec__overflow_is_out_of_memory_and_leaves_the_array(void)
{
	double *v = NULL;
	size_t cap = 0;

	CHECK_EQ_INT(HB_VEC_GROW(v, cap, 2, 2), 0);
	v[0] = 1.5;
	CHECK_EQ_INT(HB_VEC_GROW(v, cap, SIZE_MAX / 4, 2), HB_ENOMEM);
	CHECK_EQ_INT(cap, 2);
	CHECK(v != NULL && v[0] == 1.5);
	CHECK_EQ_INT(HB_VEC_GROW(v, cap, SIZE_MAX, 2), HB_ENOMEM);
	free(v);
}

static void test_clock__monotonic_and_sleep_waits(void)
{
	double t0 = hb_now(), t1;

	hb_sleep(0.01);
	hb_sleep(0);
	hb_sleep(-1);
	t1 = hb_now();
	CHECK(t1 >= t0 + 0.01);
}

/* hb_buf_add_uint writes what printf's %llu does, at every number of digits. */
static void test_buf__add_uint_matches_printf(void)
{
	struct hb_buf b = HB_BUF_INIT;
	char want[32];
	unsigned long long v = 0, p;
	size_t bad = 0;
	int k;

	for (p = 1, k = 0; k < 20; k++, p *= 10) {
		unsigned long long probe[] = {p - 1, p, p + 1, p * 9 + p / 2, ULLONG_MAX - p};
		size_t j;

		for (j = 0; j < sizeof(probe) / sizeof(probe[0]); j++) {
			v = probe[j];
			hb_buf_reset(&b);
			hb_buf_adds(&b, "x");
			CHECK_EQ_INT(hb_buf_add_uint(&b, v), 0);
			snprintf(want, sizeof(want), "x%llu", v);
			if (strcmp(b.data, want))
				bad++;
		}
	}
	CHECK_EQ_INT(bad, 0);
	hb_buf_release(&b);
}

int main(void)
{
	RUN(test_metarow__n_is_decimal_1_to_int_max);
	RUN(test_vec__grows_by_doubling_from_min_and_keeps_contents);
	RUN(test_vec__overflow_is_out_of_memory_and_leaves_the_array);
	RUN(test_clock__monotonic_and_sleep_waits);
	RUN(test_buf__add_uint_matches_printf);
	return TEST_DONE();
}
