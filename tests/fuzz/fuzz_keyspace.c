/* Key-space specs: hb_keyspace_parse; the canonical form parses to the same key space and
 * formats to itself; counting and reachability queries on a key from the input succeed or
 * fail with HB_EINVAL (limits), and agree with each other. Input: SPEC NUL KEY NUL KEY. */
#include "../../core/key.h"
#include "../../core/keyspace.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *f[3], *buf;
	size_t len[3], nf;
	struct hb_keyspace *ks = NULL, *ks2 = NULL;
	struct hb_buf canon = HB_BUF_INIT, canon2 = HB_BUF_INIT, first = HB_BUF_INIT;
	struct hb_error err = {0};
	mpz_t total, below, keys;
	int found, reach, rc;

	if (size > 512)
		return 0; /* specs are short; long ones only slow the search down */
	nf = fuzz_fields(data, size, f, len, 3, &buf);
	mpz_inits(total, below, keys, NULL);
	if (strlen(f[0]) != len[0] || hb_keyspace_parse(&ks, f[0], &err)) {
		FUZZ_CHECK(!ks);
		goto done;
	}
	FUZZ_CHECK(!hb_keyspace_format(&canon, ks));
	rc = hb_keyspace_parse(&ks2, canon.data, &err);
	if (rc)
		fprintf(stderr, "canonical form '%s' of '%s' does not parse: %s\n", canon.data,
		        f[0], err.msg);
	FUZZ_CHECK(!rc);
	FUZZ_CHECK(!hb_keyspace_format(&canon2, ks2));
	FUZZ_CHECK(!strcmp(canon.data, canon2.data));
	FUZZ_CHECK(hb_keyspace_same(ks, ks2));
	FUZZ_CHECK(hb_keyspace_has_star(ks) == hb_keyspace_has_star(ks2));
	if (nf < 2)
		goto done;
	rc = hb_keyspace_total(ks, total, &err);
	FUZZ_CHECK(!rc || rc == HB_EINVAL);
	if (rc)
		goto done;
	rc = hb_keyspace_count_below(ks, below, f[1], len[1], &err);
	FUZZ_CHECK(!rc || rc == HB_EINVAL);
	if (rc)
		goto done;
	FUZZ_CHECK(mpz_cmp(below, total) <= 0 && mpz_sgn(below) >= 0);
	rc = hb_keyspace_first_at_or_after(ks, &first, &found, f[1], len[1], &err);
	FUZZ_CHECK(!rc || rc == HB_EINVAL);
	if (rc)
		goto done;
	if (found)
		FUZZ_CHECK(hb_key_cmp(first.data, first.len, f[1], len[1]) >= 0);
	if (nf < 3)
		goto done;
	/* The region [KEY1, KEY2): its count is count_below(KEY2) - count_below(KEY1) when the
	 * bounds are ordered, and it is reachable iff the first key at or after KEY1 is in it. */
	hb_buf_reset(&first);
	rc = hb_keyspace_region(ks, &reach, keys, &first, f[1], len[1], f[2], len[2], &err);
	FUZZ_CHECK(!rc || rc == HB_EINVAL);
	if (rc)
		goto done;
	FUZZ_CHECK(reach == 0 || reach == 1);
	if (len[2] && hb_key_cmp(f[1], len[1], f[2], len[2]) < 0) {
		mpz_t upper;

		mpz_init(upper);
		if (!hb_keyspace_count_below(ks, upper, f[2], len[2], &err)) {
			mpz_sub(upper, upper, below);
			FUZZ_CHECK(!mpz_cmp(upper, keys));
		}
		mpz_clear(upper);
		FUZZ_CHECK(reach == (found && hb_key_cmp(first.data, first.len, f[2], len[2]) < 0));
	}
done:
	mpz_clears(total, below, keys, NULL);
	hb_keyspace_free(ks);
	hb_keyspace_free(ks2);
	hb_buf_release(&canon);
	hb_buf_release(&canon2);
	hb_buf_release(&first);
	free(buf);
	return 0;
}
