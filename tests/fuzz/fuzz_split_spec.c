/* Split specifications: cli_splitspec_compute and the metadata row's text (hb_splitspec_write,
 * hb_splitspec_read) on any combination of flag values. Input: records of one byte (which
 * flag) and a NUL-terminated value. A computed set has N-1 strictly increasing, non-empty keys;
 * a refused one has a message; a computable spec's recorded text reads back to the same text. */
#include "../../cli/splitspec.h"
#include "fuzz.h"

/* The flag values are the struct's first members; what cli_splitspec_prepare and a command
 * fill in after them (the live servers, a table's sample, a sampler) stay zero here. */
#define NFLAGS       (offsetof(struct hb_splitspec, live_servers) / sizeof(const char *))
#define MAX_N_DIGITS 4 /* N and --sample-size up to 9999 keep each run fast */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_splitspec ss;
	const char **flag = (const char **)(void *)&ss;
	const char *n_value = NULL;
	struct hb_keys keys;
	struct hb_buf desc = HB_BUF_INIT, words = HB_BUF_INIT, again = HB_BUF_INIT;
	struct hb_error err = {0};
	char *copy;
	size_t i = 0;
	int rc;

	_Static_assert(offsetof(struct hb_splitspec, live_servers) == NFLAGS * sizeof(const char *),
	               "hb_splitspec opens with its flag values");
	memset(&ss, 0, sizeof(ss));
	copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = 0;
	while (i < size) {
		size_t which = (unsigned char)copy[i] % NFLAGS, len;
		const char *v = copy + i + 1;

		len = i + 1 <= size ? strlen(v) : 0;
		i += len + 2;
		flag[which] = v;
	}
	/* Files (and '-', standard input) are not read here: fuzz_splits_file covers them. */
	if (ss.splits_file || ss.sample_file)
		goto out;
	{
		const char *const nflags[] = {ss.hex,   ss.decimal,  ss.uniform,
		                              ss.range, ss.book_hex, ss.partition,
		                              ss.salt,  ss.sampled,  ss.sample_size};
		for (i = 0; i < HB_ARRAY_LEN(nflags); i++) {
			if (nflags[i] && strlen(nflags[i]) > MAX_N_DIGITS)
				goto out;
			if (i < 8 && nflags[i])
				n_value = nflags[i];
		}
		if (ss.generator && !ss.sample_size)
			goto out; /* the default sample is 1,000,000 keys */
	}
	hb_keys_init(&keys);
	rc = cli_splitspec_compute(&keys, &ss, &err);
	if (rc) {
		FUZZ_CHECK((rc == HB_EINVAL || rc == HB_ENOMEM) && err.msg[0]);
	} else {
		long n;

		FUZZ_CHECK(n_value);
		n = strtol(n_value, NULL, 10);
		/* Quantiles of a sample with fewer distinct keys than N may be fewer. */
		FUZZ_CHECK(n >= 1 &&
		           (ss.sampled ? keys.n <= (size_t)n - 1 : keys.n == (size_t)n - 1));
		for (i = 0; i < keys.n; i++) {
			size_t kl, pl;
			const unsigned char *k = hb_keys_at(&keys, i, &kl);

			FUZZ_CHECK(kl > 0);
			if (i) {
				const unsigned char *p = hb_keys_at(&keys, i - 1, &pl);

				FUZZ_CHECK(hb_key_cmp(p, pl, k, kl) < 0);
			}
		}
		/* A computable specification is recorded as flags, and the record reads back to
		 * a spec recorded the same way. */
		rc = hb_splitspec_write(&desc, &ss, &err);
		FUZZ_CHECK(!rc && desc.len);
		{
			struct hb_splitspec back;
			char *text = strndup((const char *)desc.data, desc.len);

			FUZZ_CHECK(text);
			memset(&back, 0, sizeof(back));
			FUZZ_CHECK(hb_splitspec_read(&back, &words, text) == 0);
			FUZZ_CHECK(hb_splitspec_write(&again, &back, &err) == 0);
			FUZZ_CHECK(again.len == desc.len &&
			           !memcmp(again.data, desc.data, desc.len));
			free(text);
		}
	}
	hb_keys_release(&keys);
	hb_buf_release(&desc);
	hb_buf_release(&words);
	hb_buf_release(&again);
out:
	free(copy);
	return 0;
}
