/* The multi-lane MD5 of core/md5.c against OpenSSL's one-shot MD5() on the same distinct 8-byte
 * inputs, in one run: keys per CPU second of each implementation this CPU runs, and its ratio
 * to MD5(). Best of three rounds each (a busy host only ever slows a round down). The last
 * line, "best IMPL RATE MD5_RATE", names the implementation hb_md5_8_words picks here.
 * With --spin COUNT it hashes COUNT inputs once with that implementation and prints nothing
 * else: a fixed piece of CPU work for the benchmark's measure of how much of two processors
 * the host gives it.
 * Usage: md5_lanes [COUNT] | md5_lanes --spin COUNT
 * (build: cc -O2 -I SRC md5_lanes.c SRC/core/md5.c -lcrypto) */
#define _POSIX_C_SOURCE 200809L
#define OPENSSL_SUPPRESS_DEPRECATED
#include "core/md5.h"

#include <openssl/md5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 64

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* OpenSSL: the message bytes are the two words, little-endian, as md5.h defines them */
static unsigned run_openssl(long n)
{
	unsigned char in[8] = {0}, md[MD5_DIGEST_LENGTH];
	unsigned acc = 0;
	long i;

	for (i = 0; i < n; i++) {
		uint32_t w0 = (uint32_t)i * 2654435761u, w1 = (uint32_t)i;

		memcpy(in, &w0, 4);
		memcpy(in + 4, &w1, 4);
		MD5(in, 8, md);
		acc += md[0];
	}
	return acc;
}

static unsigned run_lanes(enum hb_md5_impl impl, long n)
{
	uint32_t m0[BATCH], m1[BATCH], out[BATCH];
	unsigned acc = 0;
	long i, j;

	for (i = 0; i < n; i += BATCH) {
		long m = n - i < BATCH ? n - i : BATCH;

		for (j = 0; j < m; j++) {
			m0[j] = (uint32_t)(i + j) * 2654435761u;
			m1[j] = (uint32_t)(i + j);
		}
		hb_md5_8_words_with(impl, out, m0, m1, (size_t)m);
		for (j = 0; j < m; j++)
			acc += out[j] & 0xFF;
	}
	return acc;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 10000000L;
	double best[4] = {0}, rate;
	unsigned acc[4] = {0};
	int impl, round;

	if (argc > 2 && !strcmp(argv[1], "--spin"))
		return run_lanes(hb_md5_best(), strtol(argv[2], NULL, 10)) == 1u;

	for (round = 0; round < 3; round++) {
		for (impl = -1; impl <= HB_MD5_AVX512; impl++) {
			double t0, s;

			if (impl >= 0 && !hb_md5_supported((enum hb_md5_impl)impl))
				continue;
			t0 = cpu_now();
			acc[impl + 1] =
			    impl < 0 ? run_openssl(n) : run_lanes((enum hb_md5_impl)impl, n);
			s = cpu_now() - t0;
			rate = s > 0 ? (double)n / s : 0;
			if (rate > best[impl + 1])
				best[impl + 1] = rate;
		}
	}
	printf("%-16s %14.0f keys/s per CPU second  x1.00\n", "openssl MD5()", best[0]);
	for (impl = HB_MD5_SCALAR; impl <= HB_MD5_AVX512; impl++) {
		if (!hb_md5_supported((enum hb_md5_impl)impl)) {
			printf("%-16s (not on this CPU)\n",
			       hb_md5_impl_name((enum hb_md5_impl)impl));
			continue;
		}
		if (acc[impl + 1] != acc[0]) {
			fprintf(stderr, "md5_lanes: %s digests differ from MD5()'s\n",
			        hb_md5_impl_name((enum hb_md5_impl)impl));
			return 1;
		}
		printf("%-16s %14.0f keys/s per CPU second  x%.2f\n",
		       hb_md5_impl_name((enum hb_md5_impl)impl), best[impl + 1],
		       best[0] > 0 ? best[impl + 1] / best[0] : 0);
	}
	/* the one hb_md5_8_words (and so hbtab) uses here */
	printf("best %s %.0f %.0f\n", hb_md5_impl_name(hb_md5_best()), best[hb_md5_best() + 1],
	       best[0]);
	return 0;
}
