/* hb_keys_order: the radix order of a key list against qsort with Bytes.compareTo. */
#include "core/keygen.h"
#include "core/keysort.h"
#include "test.h"

/* Checks that the order is a permutation of ks's indexes that qsort's order agrees with, and
 * that the distinct order is qsort's without repeats. */
static void check_order(const struct hb_keys *ks)
{
	struct hb_key_ref *want = malloc((ks->n + 1) * sizeof(*want));
	uint32_t *ord = malloc((ks->n + 1) * sizeof(*ord));
	unsigned char *seen = calloc(ks->n + 1, 1);
	size_t i, j, nd = 0, bad = 0;

	CHECK(want && ord && seen);
	if (!want || !ord || !seen)
		goto done;
	for (i = 0; i < ks->n; i++)
		want[i].p = hb_keys_at(ks, i, &want[i].len);
	qsort(want, ks->n, sizeof(*want), hb_key_ref_cmp);
	CHECK_EQ_INT(hb_keys_order(ord, ks, NULL), 0);
	for (i = 0; i < ks->n; i++) {
		size_t len;
		const unsigned char *k;

		if (ord[i] >= ks->n || seen[ord[i]]++) {
			bad++;
			continue;
		}
		k = hb_keys_at(ks, ord[i], &len);
		bad += hb_key_cmp(k, len, want[i].p, want[i].len) != 0;
	}
	CHECK_EQ_INT(bad, 0);
	/* one of each: the qsort order without its repeats */
	CHECK_EQ_INT(hb_keys_order_distinct(ord, &nd, ks, NULL), 0);
	for (i = j = 0, bad = 0; i < ks->n; i++) {
		size_t len;
		const unsigned char *k;

		if (i && !hb_key_ref_cmp(&want[i - 1], &want[i]))
			continue;
		if (j >= nd) {
			bad++;
			break;
		}
		k = hb_keys_at(ks, ord[j++], &len);
		bad += hb_key_cmp(k, len, want[i].p, want[i].len) != 0;
	}
	CHECK_EQ_INT(bad, 0);
	CHECK_EQ_INT(j, nd);
done:
	free(want);
	free(ord);
	free(seen);
}

/* n keys drawn from a small alphabet and a few shapes, so that equal windows, keys that are
 * prefixes of others, trailing zero bytes and duplicates are all common. */
static void random_keys(struct hb_keys *ks, size_t n, uint64_t *x, size_t maxlen)
{
	static const unsigned char alphabet[] = {0x00, 0x01, 'a', 'b', 0x7F, 0x80, 0xFF};
	unsigned char k[64];
	size_t i, j;

	for (i = 0; i < n; i++) {
		uint64_t r = t_xorshift(x);
		size_t len = (size_t)(r % (maxlen + 1));

		if (r >> 60 == 0)
			len = 0;
		for (j = 0; j < len; j++) {
			r = t_xorshift(x);
			/* a long run of one byte makes whole windows equal */
			k[j] = j < (size_t)(r >> 61) * 4 ? 'k' : alphabet[r % sizeof(alphabet)];
		}
		CHECK_EQ_INT(hb_keys_push(ks, k, len), 0);
	}
}

static void test_keysort__random_keys_of_every_shape_sort_as_qsort(void)
{
	static const size_t sizes[] = {0, 1, 2, 47, 48, 49, 100, 1000, 20000};
	static const size_t maxlens[] = {3, 8, 9, 17, 40, 64};
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	size_t a, b;

	for (a = 0; a < HB_ARRAY_LEN(sizes); a++)
		for (b = 0; b < HB_ARRAY_LEN(maxlens); b++) {
			struct hb_keys ks;

			hb_keys_init(&ks);
			random_keys(&ks, sizes[a], &x, maxlens[b]);
			check_order(&ks);
			hb_keys_release(&ks);
		}
}

static void test_keysort__generated_designs_sort_as_qsort(void)
{
	static const char *const names[] = {"md5",         "partition:20", "sequential",
	                                    "hex8",        "salt:1000",    "roundrobin:300",
	                                    "transaction", "statistics:7"};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(names); i++) {
		struct hb_keys ks;
		struct hb_keygen g;

		hb_keys_init(&ks);
		CHECK_EQ_INT(hb_keygen_init(&g, names[i], 3, 1700000000000LL, NULL), 0);
		CHECK_EQ_INT(hb_keygen_fill(&ks, &g, 50000, NULL), 0);
		check_order(&ks);
		hb_keys_release(&ks);
	}
}

static void test_keysort__equal_keys_and_prefix_chains(void)
{
	static const char *const keys[] = {"abcdefgh",         "abcdefgh\0",        "abcdefg",
	                                   "abcdefghabcdefgh", "abcdefghabcdefg",   "",
	                                   "abcdefgh",         "abcdefghabcdefgh\1"};
	static const size_t lens[] = {8, 9, 7, 16, 15, 0, 8, 17};
	struct hb_keys ks;
	size_t i, r;

	hb_keys_init(&ks);
	/* enough copies that the runs are longer than the whole-key cut-off */
	for (r = 0; r < 40; r++)
		for (i = 0; i < HB_ARRAY_LEN(keys); i++)
			CHECK_EQ_INT(hb_keys_push(&ks, keys[i], lens[i]), 0);
	check_order(&ks);
	hb_keys_release(&ks);
}

/* A list already in order (a sample made sorted) takes the one-pass path; one pair out of
 * order at the very end must still be sorted. */
static void test_keysort__sorted_lists_and_a_last_pair_out_of_order(void)
{
	uint64_t x = 0x0123456789ABCDEFULL;
	size_t i;
	int swap;

	for (swap = 0; swap < 2; swap++) {
		struct hb_keys ks, sorted;
		struct hb_key_ref *r;

		hb_keys_init(&ks);
		hb_keys_init(&sorted);
		random_keys(&ks, 5000, &x, 17);
		r = malloc(ks.n * sizeof(*r));
		for (i = 0; i < ks.n; i++)
			r[i].p = hb_keys_at(&ks, i, &r[i].len);
		qsort(r, ks.n, sizeof(*r), hb_key_ref_cmp);
		for (i = 0; i < ks.n; i++) {
			/* the last two swapped unless they are equal */
			size_t j = swap && i >= ks.n - 2 ? 2 * ks.n - 3 - i : i;

			CHECK_EQ_INT(hb_keys_push(&sorted, r[j].p, r[j].len), 0);
		}
		check_order(&sorted);
		free(r);
		hb_keys_release(&ks);
		hb_keys_release(&sorted);
	}
}

int main(void)
{
	RUN(test_keysort__random_keys_of_every_shape_sort_as_qsort);
	RUN(test_keysort__generated_designs_sort_as_qsort);
	RUN(test_keysort__equal_keys_and_prefix_chains);
	RUN(test_keysort__sorted_lists_and_a_last_pair_out_of_order);
	return TEST_DONE();
}
