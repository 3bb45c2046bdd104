/* MD5 (RFC 1321) of 8-byte messages, one at a time or 8 / 16 at once with AVX2 / AVX-512. */
#include "md5.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HB_MD5_X86 1
#include <immintrin.h>
#endif

/*
 * An 8-byte message is one 64-byte block whose padding is constant: 0x80 in word 2, the bit
 * length 64 in word 14, every other word but 0 and 1 zero. The 64 steps below carry those
 * constant words folded into the step constants; W names the message word that still varies
 * (M0, M1) or none (NO). Only the first digest word is wanted, so the last three steps, which
 * change d, c and b alone, are left out.
 */
#define MD5_8_STEPS(S)                                                                             \
	S(F, a, b, c, d, 0xd76aa478u, M0, 7);                                                      \
	S(F, d, a, b, c, 0xe8c7b756u, M1, 12);                                                     \
	S(F, c, d, a, b, 0x242070dbu + 0x80u, NO, 17);                                             \
	S(F, b, c, d, a, 0xc1bdceeeu, NO, 22);                                                     \
	S(F, a, b, c, d, 0xf57c0fafu, NO, 7);                                                      \
	S(F, d, a, b, c, 0x4787c62au, NO, 12);                                                     \
	S(F, c, d, a, b, 0xa8304613u, NO, 17);                                                     \
	S(F, b, c, d, a, 0xfd469501u, NO, 22);                                                     \
	S(F, a, b, c, d, 0x698098d8u, NO, 7);                                                      \
	S(F, d, a, b, c, 0x8b44f7afu, NO, 12);                                                     \
	S(F, c, d, a, b, 0xffff5bb1u, NO, 17);                                                     \
	S(F, b, c, d, a, 0x895cd7beu, NO, 22);                                                     \
	S(F, a, b, c, d, 0x6b901122u, NO, 7);                                                      \
	S(F, d, a, b, c, 0xfd987193u, NO, 12);                                                     \
	S(F, c, d, a, b, 0xa679438eu + 64u, NO, 17);                                               \
	S(F, b, c, d, a, 0x49b40821u, NO, 22);                                                     \
	S(G, a, b, c, d, 0xf61e2562u, M1, 5);                                                      \
	S(G, d, a, b, c, 0xc040b340u, NO, 9);                                                      \
	S(G, c, d, a, b, 0x265e5a51u, NO, 14);                                                     \
	S(G, b, c, d, a, 0xe9b6c7aau, M0, 20);                                                     \
	S(G, a, b, c, d, 0xd62f105du, NO, 5);                                                      \
	S(G, d, a, b, c, 0x02441453u, NO, 9);                                                      \
	S(G, c, d, a, b, 0xd8a1e681u, NO, 14);                                                     \
	S(G, b, c, d, a, 0xe7d3fbc8u, NO, 20);                                                     \
	S(G, a, b, c, d, 0x21e1cde6u, NO, 5);                                                      \
	S(G, d, a, b, c, 0xc33707d6u + 64u, NO, 9);                                                \
	S(G, c, d, a, b, 0xf4d50d87u, NO, 14);                                                     \
	S(G, b, c, d, a, 0x455a14edu, NO, 20);                                                     \
	S(G, a, b, c, d, 0xa9e3e905u, NO, 5);                                                      \
	S(G, d, a, b, c, 0xfcefa3f8u + 0x80u, NO, 9);                                              \
	S(G, c, d, a, b, 0x676f02d9u, NO, 14);                                                     \
	S(G, b, c, d, a, 0x8d2a4c8au, NO, 20);                                                     \
	S(H, a, b, c, d, 0xfffa3942u, NO, 4);                                                      \
	S(H, d, a, b, c, 0x8771f681u, NO, 11);                                                     \
	S(H, c, d, a, b, 0x6d9d6122u, NO, 16);                                                     \
	S(H, b, c, d, a, 0xfde5380cu + 64u, NO, 23);                                               \
	S(H, a, b, c, d, 0xa4beea44u, M1, 4);                                                      \
	S(H, d, a, b, c, 0x4bdecfa9u, NO, 11);                                                     \
	S(H, c, d, a, b, 0xf6bb4b60u, NO, 16);                                                     \
	S(H, b, c, d, a, 0xbebfbc70u, NO, 23);                                                     \
	S(H, a, b, c, d, 0x289b7ec6u, NO, 4);                                                      \
	S(H, d, a, b, c, 0xeaa127fau, M0, 11);                                                     \
	S(H, c, d, a, b, 0xd4ef3085u, NO, 16);                                                     \
	S(H, b, c, d, a, 0x04881d05u, NO, 23);                                                     \
	S(H, a, b, c, d, 0xd9d4d039u, NO, 4);                                                      \
	S(H, d, a, b, c, 0xe6db99e5u, NO, 11);                                                     \
	S(H, c, d, a, b, 0x1fa27cf8u, NO, 16);                                                     \
	S(H, b, c, d, a, 0xc4ac5665u + 0x80u, NO, 23);                                             \
	S(I, a, b, c, d, 0xf4292244u, M0, 6);                                                      \
	S(I, d, a, b, c, 0x432aff97u, NO, 10);                                                     \
	S(I, c, d, a, b, 0xab9423a7u + 64u, NO, 15);                                               \
	S(I, b, c, d, a, 0xfc93a039u, NO, 21);                                                     \
	S(I, a, b, c, d, 0x655b59c3u, NO, 6);                                                      \
	S(I, d, a, b, c, 0x8f0ccc92u, NO, 10);                                                     \
	S(I, c, d, a, b, 0xffeff47du, NO, 15);                                                     \
	S(I, b, c, d, a, 0x85845dd1u, M1, 21);                                                     \
	S(I, a, b, c, d, 0x6fa87e4fu, NO, 6);                                                      \
	S(I, d, a, b, c, 0xfe2ce6e0u, NO, 10);                                                     \
	S(I, c, d, a, b, 0xa3014314u, NO, 15);                                                     \
	S(I, b, c, d, a, 0x4e0811a1u, NO, 21);                                                     \
	S(I, a, b, c, d, 0xf7537e82u, NO, 6)

#define MD5_A0 0x67452301u
#define MD5_B0 0xefcdab89u
#define MD5_C0 0x98badcfeu
#define MD5_D0 0x10325476u

/* ---- one message at a time ---- */

#define SF(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define SG(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define SH(x, y, z) ((x) ^ (y) ^ (z))
#define SI(x, y, z) ((y) ^ ((x) | ~(z)))
#define SW_M0       m0
#define SW_M1       m1
#define SW_NO       0u
#define SSTEP(f, a, b, c, d, k, w, s)                                                              \
	do {                                                                                       \
		(a) += S##f((b), (c), (d)) + (uint32_t)(k) + SW_##w;                               \
		(a) = (((a) << (s)) | ((a) >> (32 - (s)))) + (b);                                  \
	} while (0)

uint32_t hb_md5_8_word(uint32_t m0, uint32_t m1)
{
	uint32_t a = MD5_A0, b = MD5_B0, c = MD5_C0, d = MD5_D0;

	MD5_8_STEPS(SSTEP);
	return a + MD5_A0;
}

static void md5_8_scalar(uint32_t *out, const uint32_t *m0, const uint32_t *m1, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = hb_md5_8_word(m0[i], m1[i]);
}

#ifdef HB_MD5_X86
/*
 * The vector forms run two independent groups of lanes in each step (suffixes 0 and 1), so
 * that one group's additions fill the cycles the other's dependency chain leaves idle.
 */
#define VSTEP2(S, f, a, b, c, d, k, w, s)                                                          \
	S(f, a##0, b##0, c##0, d##0, k, w, 0, s);                                                  \
	S(f, a##1, b##1, c##1, d##1, k, w, 1, s)

/* ---- AVX2: 8 lanes a vector ---- */

#define A2_ADD(x, y)  _mm256_add_epi32((x), (y))
#define A2_XOR(x, y)  _mm256_xor_si256((x), (y))
#define A2_F(x, y, z) A2_XOR((z), _mm256_and_si256((x), A2_XOR((y), (z))))
#define A2_G(x, y, z) A2_XOR((y), _mm256_and_si256((z), A2_XOR((x), (y))))
#define A2_H(x, y, z) A2_XOR(A2_XOR((x), (y)), (z))
#define A2_I(x, y, z) A2_XOR((y), _mm256_or_si256((x), A2_XOR((z), ones)))
#define A2_W_M0(k, j) A2_ADD(_mm256_set1_epi32((int32_t)(k)), m0_##j)
#define A2_W_M1(k, j) A2_ADD(_mm256_set1_epi32((int32_t)(k)), m1_##j)
#define A2_W_NO(k, j) _mm256_set1_epi32((int32_t)(k))
#define A2_ROTL(x, s) _mm256_or_si256(_mm256_slli_epi32((x), (s)), _mm256_srli_epi32((x), 32 - (s)))
#define A2_STEP1(f, a, b, c, d, k, w, j, s)                                                        \
	do {                                                                                       \
		(a) = A2_ADD((a), A2_ADD(A2_##f((b), (c), (d)), A2_W_##w(k, j)));                  \
		(a) = A2_ADD(A2_ROTL((a), (s)), (b));                                              \
	} while (0)
#define A2_STEP(f, a, b, c, d, k, w, s) VSTEP2(A2_STEP1, f, a, b, c, d, k, w, s)

__attribute__((target("avx2"))) static void md5_8_avx2_16(uint32_t *out, const uint32_t *m0,
                                                          const uint32_t *m1)
{
	const __m256i ones = _mm256_set1_epi32(-1);
	__m256i m0_0 = _mm256_loadu_si256((const __m256i *)m0);
	__m256i m0_1 = _mm256_loadu_si256((const __m256i *)(m0 + 8));
	__m256i m1_0 = _mm256_loadu_si256((const __m256i *)m1);
	__m256i m1_1 = _mm256_loadu_si256((const __m256i *)(m1 + 8));
	__m256i a0 = _mm256_set1_epi32((int32_t)MD5_A0), b0 = _mm256_set1_epi32((int32_t)MD5_B0);
	__m256i c0 = _mm256_set1_epi32((int32_t)MD5_C0), d0 = _mm256_set1_epi32((int32_t)MD5_D0);
	__m256i a1 = a0, b1 = b0, c1 = c0, d1 = d0;

	MD5_8_STEPS(A2_STEP);
	a0 = A2_ADD(a0, _mm256_set1_epi32((int32_t)MD5_A0));
	a1 = A2_ADD(a1, _mm256_set1_epi32((int32_t)MD5_A0));
	_mm256_storeu_si256((__m256i *)out, a0);
	_mm256_storeu_si256((__m256i *)(out + 8), a1);
}

/* ---- AVX-512: 16 lanes a vector, one ternary-logic instruction per round function ---- */

#define A5_ADD(x, y)  _mm512_add_epi32((x), (y))
#define A5_F(x, y, z) _mm512_ternarylogic_epi32((x), (y), (z), 0xCA) /* x ? y : z */
#define A5_G(x, y, z) _mm512_ternarylogic_epi32((x), (y), (z), 0xE4) /* z ? x : y */
#define A5_H(x, y, z) _mm512_ternarylogic_epi32((x), (y), (z), 0x96) /* x ^ y ^ z */
#define A5_I(x, y, z) _mm512_ternarylogic_epi32((x), (y), (z), 0x39) /* y ^ (x | ~z) */
#define A5_W_M0(k, j) A5_ADD(_mm512_set1_epi32((int32_t)(k)), m0_##j)
#define A5_W_M1(k, j) A5_ADD(_mm512_set1_epi32((int32_t)(k)), m1_##j)
#define A5_W_NO(k, j) _mm512_set1_epi32((int32_t)(k))
#define A5_STEP1(f, a, b, c, d, k, w, j, s)                                                        \
	do {                                                                                       \
		(a) = A5_ADD((a), A5_ADD(A5_##f((b), (c), (d)), A5_W_##w(k, j)));                  \
		(a) = A5_ADD(_mm512_rol_epi32((a), (s)), (b));                                     \
	} while (0)
#define A5_STEP(f, a, b, c, d, k, w, s) VSTEP2(A5_STEP1, f, a, b, c, d, k, w, s)

__attribute__((target("avx512f"))) static void md5_8_avx512_32(uint32_t *out, const uint32_t *m0,
                                                               const uint32_t *m1)
{
	__m512i m0_0 = _mm512_loadu_si512((const void *)m0);
	__m512i m0_1 = _mm512_loadu_si512((const void *)(m0 + 16));
	__m512i m1_0 = _mm512_loadu_si512((const void *)m1);
	__m512i m1_1 = _mm512_loadu_si512((const void *)(m1 + 16));
	__m512i a0 = _mm512_set1_epi32((int32_t)MD5_A0), b0 = _mm512_set1_epi32((int32_t)MD5_B0);
	__m512i c0 = _mm512_set1_epi32((int32_t)MD5_C0), d0 = _mm512_set1_epi32((int32_t)MD5_D0);
	__m512i a1 = a0, b1 = b0, c1 = c0, d1 = d0;

	MD5_8_STEPS(A5_STEP);
	a0 = A5_ADD(a0, _mm512_set1_epi32((int32_t)MD5_A0));
	a1 = A5_ADD(a1, _mm512_set1_epi32((int32_t)MD5_A0));
	_mm512_storeu_si512((void *)out, a0);
	_mm512_storeu_si512((void *)(out + 16), a1);
}

/* Runs a block function of `width` messages over n messages; a short tail goes through a
 * zero-padded copy so the lanes past n never read or write outside the caller's arrays. */
static void by_blocks(void (*block)(uint32_t *, const uint32_t *, const uint32_t *), size_t width,
                      uint32_t *out, const uint32_t *m0, const uint32_t *m1, size_t n)
{
	uint32_t t0[32], t1[32], to[32];
	size_t i = 0;

	for (; i + width <= n; i += width)
		block(out + i, m0 + i, m1 + i);
	if (i < n) {
		memset(t0, 0, sizeof(t0));
		memset(t1, 0, sizeof(t1));
		memcpy(t0, m0 + i, (n - i) * sizeof(*t0));
		memcpy(t1, m1 + i, (n - i) * sizeof(*t1));
		block(to, t0, t1);
		memcpy(out + i, to, (n - i) * sizeof(*to));
	}
}
#endif

int hb_md5_supported(enum hb_md5_impl impl)
{
	switch (impl) {
	case HB_MD5_SCALAR:
		return 1;
#ifdef HB_MD5_X86
	case HB_MD5_AVX2:
		return __builtin_cpu_supports("avx2");
	case HB_MD5_AVX512:
		return __builtin_cpu_supports("avx512f");
#else
	case HB_MD5_AVX2:
	case HB_MD5_AVX512:
		return 0;
#endif
	}
	return 0;
}

enum hb_md5_impl hb_md5_best(void)
{
	/* __builtin_cpu_supports reads what libgcc found at start-up: cheap enough per batch */
	if (hb_md5_supported(HB_MD5_AVX512))
		return HB_MD5_AVX512;
	if (hb_md5_supported(HB_MD5_AVX2))
		return HB_MD5_AVX2;
	return HB_MD5_SCALAR;
}

const char *hb_md5_impl_name(enum hb_md5_impl impl)
{
	switch (impl) {
	case HB_MD5_SCALAR:
		return "scalar";
	case HB_MD5_AVX2:
		return "avx2";
	case HB_MD5_AVX512:
		return "avx512";
	}
	return "?";
}

void hb_md5_8_words_with(enum hb_md5_impl impl, uint32_t *out, const uint32_t *m0,
                         const uint32_t *m1, size_t n)
{
	switch (impl) {
#ifdef HB_MD5_X86
	case HB_MD5_AVX2:
		by_blocks(md5_8_avx2_16, 16, out, m0, m1, n);
		return;
	case HB_MD5_AVX512:
		by_blocks(md5_8_avx512_32, 32, out, m0, m1, n);
		return;
#endif
	default:
		md5_8_scalar(out, m0, m1, n);
		return;
	}
}

void hb_md5_8_words(uint32_t *out, const uint32_t *m0, const uint32_t *m1, size_t n)
{
	hb_md5_8_words_with(hb_md5_best(), out, m0, m1, n);
}
