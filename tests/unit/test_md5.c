/* The multi-lane MD5 of 8-byte messages: every implementation against OpenSSL's MD5(). */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "core/hb.h"
#include "core/md5.h"
#include "test.h"

#include <openssl/md5.h>

#define MAXN 200

/* OpenSSL's leading digest word of the message the two words make (little-endian bytes). */
static uint32_t openssl_word(uint32_t m0, uint32_t m1)
{
	unsigned char in[8], md[MD5_DIGEST_LENGTH];
	int i;

	for (i = 0; i < 4; i++) {
		in[i] = (unsigned char)(m0 >> (8 * i));
		in[4 + i] = (unsigned char)(m1 >> (8 * i));
	}
	MD5(in, 8, md);
	return (uint32_t)md[0] | (uint32_t)md[1] << 8 | (uint32_t)md[2] << 16 |
	       (uint32_t)md[3] << 24;
}

static const enum hb_md5_impl impls[] = {HB_MD5_SCALAR, HB_MD5_AVX2, HB_MD5_AVX512};

static void test_md5__every_impl_and_lane_matches_openssl_on_random_messages(void)
{
	uint64_t x = 0x243F6A8885A308D3ULL;
	uint32_t m0[MAXN], m1[MAXN], want[MAXN], got[MAXN + 1];
	size_t i, k, n;
	int round;

	for (round = 0; round < 50; round++) {
		for (i = 0; i < MAXN; i++) {
			uint64_t r = t_xorshift(&x);

			m0[i] = (uint32_t)r;
			m1[i] = (uint32_t)(r >> 32);
			want[i] = openssl_word(m0[i], m1[i]);
		}
		for (k = 0; k < HB_ARRAY_LEN(impls); k++) {
			if (!hb_md5_supported(impls[k]))
				continue;
			/* every length up to a few blocks of the widest form: full blocks, the
			 * padded tail, and each lane position within both */
			for (n = round < 2 ? 0 : MAXN; n <= MAXN; n++) {
				size_t bad = 0;

				memset(got, 0xA5, sizeof(got));
				hb_md5_8_words_with(impls[k], got, m0, m1, n);
				for (i = 0; i < n; i++)
					bad += got[i] != want[i];
				CHECK_EQ_INT(bad, 0);
				CHECK(got[n] == 0xA5A5A5A5u); /* nothing written past n */
			}
		}
	}
}

static void test_md5__edge_messages_match_openssl(void)
{
	static const uint32_t words[] = {0,           1,           0x80,        0x80000000u,
	                                 0x7FFFFFFFu, 0xFFFFFFFFu, 0x01000000u, 0xDEADBEEFu};
	uint32_t m0[64], m1[64], got[64];
	size_t i, j, k, n = 0;

	for (i = 0; i < HB_ARRAY_LEN(words); i++)
		for (j = 0; j < HB_ARRAY_LEN(words); j++, n++) {
			m0[n] = words[i];
			m1[n] = words[j];
		}
	for (k = 0; k < HB_ARRAY_LEN(impls); k++) {
		if (!hb_md5_supported(impls[k]))
			continue;
		hb_md5_8_words_with(impls[k], got, m0, m1, n);
		for (i = 0; i < n; i++)
			CHECK(got[i] == openssl_word(m0[i], m1[i]));
	}
	for (i = 0; i < n; i++)
		CHECK(hb_md5_8_word(m0[i], m1[i]) == openssl_word(m0[i], m1[i]));
}

static void test_md5__best_is_supported_and_used_by_default(void)
{
	uint32_t m0[40], m1[40], a[40], b[40];
	size_t i;

	CHECK(hb_md5_supported(HB_MD5_SCALAR));
	CHECK(hb_md5_supported(hb_md5_best()));
	printf("# md5 implementation on this CPU: %s\n", hb_md5_impl_name(hb_md5_best()));
	for (i = 0; i < 40; i++) {
		m0[i] = (uint32_t)(i * 2654435761u);
		m1[i] = (uint32_t)i;
	}
	hb_md5_8_words(a, m0, m1, 40);
	hb_md5_8_words_with(HB_MD5_SCALAR, b, m0, m1, 40);
	CHECK(!memcmp(a, b, sizeof(a)));
}

int main(void)
{
	RUN(test_md5__every_impl_and_lane_matches_openssl_on_random_messages);
	RUN(test_md5__edge_messages_match_openssl);
	RUN(test_md5__best_is_supported_and_used_by_default);
	return TEST_DONE();
}
