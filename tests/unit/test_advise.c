/* hbtab advise's rule, its costs, and the skew of a key sample over a split set. */
#include "core/advise.h"
#include "test.h"

#define GiB (1ULL << 30)

static struct hb_error err;

static struct hb_advise run(uint64_t servers, uint64_t size, uint64_t split, uint64_t k,
                            uint64_t n_max, uint64_t buckets)
{
	struct hb_advise_in in = {servers, size, split, k, n_max, buckets};
	struct hb_advise a;

	CHECK_EQ_INT(hb_advise_compute(&a, &in, &err), 0);
	return a;
}

static void test_advise__servers_decide_a_small_table(void)
{
	struct hb_advise a = run(5, 3 * GiB, 10 * GiB, 2, 0, 0);

	CHECK_EQ_INT(a.target, 5 * GiB);
	CHECK_EQ_INT(a.n_servers, 10);
	CHECK_EQ_INT(a.n_size, 1);
	CHECK_EQ_INT(a.n, 10);
	CHECK_EQ_INT(a.size_decides, 0);
	CHECK_EQ_INT(a.bound, HB_ADVISE_UNBOUND);
	/* an empty table still gets its regions on every server */
	a = run(3, 0, 10 * GiB, 1, 0, 0);
	CHECK_EQ_INT(a.n_size, 1);
	CHECK_EQ_INT(a.n, 3);
}

static void test_advise__size_decides_and_is_rounded_to_a_multiple_of_servers(void)
{
	/* 32 GiB at 5 GiB a region: 7 regions, rounded up to 9 for 3 servers */
	struct hb_advise a = run(3, 32 * GiB, 10 * GiB, 2, 0, 0);

	CHECK_EQ_INT(a.n_size, 7);
	CHECK_EQ_INT(a.n_wanted, 9);
	CHECK_EQ_INT(a.n, 9);
	CHECK_EQ_INT(a.size_decides, 1);
	/* exactly on the target: no extra region */
	a = run(4, 40 * GiB, 10 * GiB, 1, 0, 0);
	CHECK_EQ_INT(a.n_size, 8);
	CHECK_EQ_INT(a.n, 8);
	/* the table's own MAX_FILESIZE: 1 GiB regions start at 512 MiB */
	a = run(2, 3 * GiB, 1 * GiB, 2, 0, 0);
	CHECK_EQ_INT(a.n_size, 6);
	CHECK_EQ_INT(a.n, 6);
}

static void test_advise__buckets_and_the_specification_bound_n(void)
{
	/* 205 regions wanted, a one-byte salt of 16 buckets holds keys in 16 */
	struct hb_advise a = run(5, 1024 * GiB, 10 * GiB, 2, 256, 16);

	CHECK_EQ_INT(a.n_wanted, 205);
	CHECK_EQ_INT(a.n, 16);
	CHECK_EQ_INT(a.bound, HB_ADVISE_BOUND_BUCKETS);
	/* a specification that makes 12 at most, below the buckets */
	a = run(5, 1024 * GiB, 10 * GiB, 2, 12, 16);
	CHECK_EQ_INT(a.n, 12);
	CHECK_EQ_INT(a.bound, HB_ADVISE_BOUND_SPEC);
	/* bounds above what is wanted change nothing */
	a = run(5, 0, 10 * GiB, 2, 100, 64);
	CHECK_EQ_INT(a.n, 10);
	CHECK_EQ_INT(a.bound, HB_ADVISE_UNBOUND);
}

static void test_advise__bad_inputs_are_refused(void)
{
	struct hb_advise_in in = {0, 1, 1, 1, 0, 0};
	struct hb_advise a;

	CHECK_EQ_INT(hb_advise_compute(&a, &in, &err), HB_EINVAL);
	in.servers = 1;
	in.split_size = 0;
	CHECK_EQ_INT(hb_advise_compute(&a, &in, &err), HB_EINVAL);
	in.split_size = 1;
	in.per_server = 0;
	CHECK_EQ_INT(hb_advise_compute(&a, &in, &err), HB_EINVAL);
	in.per_server = UINT64_MAX;
	in.servers = 2;
	CHECK_EQ_INT(hb_advise_compute(&a, &in, &err), HB_EINVAL);
}

static void test_advise__costs(void)
{
	struct hb_advise_cost c;

	hb_advise_cost(&c, 10, 4, 20 * GiB, 10 * GiB);
	CHECK(c.per_server == 2.5);
	CHECK_EQ_INT(c.region_size, 2 * GiB);
	CHECK(c.split_fill == 0.2);
	CHECK_EQ_INT(c.scanners, 10);
	CHECK_EQ_INT(c.scanners_per_server, 3);
	hb_advise_cost(&c, 0, 4, 1, 1);
	CHECK_EQ_INT(c.scanners, 0);
}

static void push(struct hb_keys *k, const char *s)
{
	CHECK_EQ_INT(hb_keys_push(k, s, strlen(s)), 0);
}

static void test_advise__skew_of_a_sample_and_of_a_key_space(void)
{
	struct hb_keys splits, sample;
	double skew;

	hb_keys_init(&splits);
	hb_keys_init(&sample);
	push(&splits, "8");
	/* 3 keys below '8', 1 above: the most (3) over the mean (2) */
	push(&sample, "1");
	push(&sample, "2");
	push(&sample, "3");
	push(&sample, "9");
	CHECK_EQ_INT(hb_advise_skew(&skew, &splits, &sample, &err), 0);
	CHECK(skew == 1.5);
	/* no sample: no skew */
	hb_keys_clear(&sample);
	CHECK_EQ_INT(hb_advise_skew(&skew, &splits, &sample, &err), 0);
	CHECK(skew == 0);
	/* hex{1} split at '8': half the key space each side, so near 1 */
	CHECK_EQ_INT(hb_advise_skew_keyspace(&skew, &splits, "hex{1}", NULL, 100000, 0, &err), 0);
	CHECK(skew >= 1 && skew < 1.02);
	/* split at 'e': 14 of 16 keys below */
	hb_keys_clear(&splits);
	push(&splits, "e");
	CHECK_EQ_INT(hb_advise_skew_keyspace(&skew, &splits, "hex{1}", NULL, 100000, 0, &err), 0);
	CHECK(skew > 1.7 && skew < 1.8);
	CHECK_EQ_INT(hb_advise_skew_keyspace(&skew, &splits, "hex{", NULL, 10, 0, &err), HB_EINVAL);
	CHECK(!strncmp(err.msg, "key space 'hex{': ", 18)); /* named in words */
	CHECK_EQ_INT(hb_advise_skew_keyspace(&skew, &splits, "hex{", "-k", 10, 0, &err), HB_EINVAL);
	CHECK(!strncmp(err.msg, "-k 'hex{': ", 11)); /* named as the caller does */
	hb_keys_release(&splits);
	hb_keys_release(&sample);
}

int main(void)
{
	RUN(test_advise__servers_decide_a_small_table);
	RUN(test_advise__size_decides_and_is_rounded_to_a_multiple_of_servers);
	RUN(test_advise__buckets_and_the_specification_bound_n);
	RUN(test_advise__bad_inputs_are_refused);
	RUN(test_advise__costs);
	RUN(test_advise__skew_of_a_sample_and_of_a_key_space);
	return TEST_DONE();
}
