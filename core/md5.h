/* MD5 of 8-byte messages, many at once: the leading digest word of each, on the widest vector
 * unit the CPU offers (AVX-512, AVX2, chosen at run time) or one message at a time. */
#ifndef HB_MD5_H
#define HB_MD5_H

#include <stddef.h>
#include <stdint.h>

enum hb_md5_impl {
	HB_MD5_SCALAR, /* one message at a time, any CPU */
	HB_MD5_AVX2,   /* 8 messages at once (x86_64 with AVX2) */
	HB_MD5_AVX512, /* 16 messages at once (x86_64 with AVX-512F) */
};

/* The leading digest word (digest bytes 0-3 read little-endian) of MD5 of the 8-byte message
 * whose bytes 0-3 and 4-7, read little-endian, are m0 and m1: one message, no vector unit. */
uint32_t hb_md5_8_word(uint32_t m0, uint32_t m1);
/* The leading digest word (digest bytes 0-3 read little-endian) of MD5 of each 8-byte message
 * whose bytes 0-3 and 4-7, read little-endian, are m0[i] and m1[i]; i < n. */
void hb_md5_8_words(uint32_t *out, const uint32_t *m0, const uint32_t *m1, size_t n);
/* The same with a chosen implementation; impl must be one hb_md5_supported accepts. */
void hb_md5_8_words_with(enum hb_md5_impl impl, uint32_t *out, const uint32_t *m0,
                         const uint32_t *m1, size_t n);
/* 1 when this build and CPU can run impl. */
int hb_md5_supported(enum hb_md5_impl impl);
/* The implementation hb_md5_8_words uses: the widest supported. */
enum hb_md5_impl hb_md5_best(void);
/* "scalar", "avx2" or "avx512". */
const char *hb_md5_impl_name(enum hb_md5_impl impl);

#endif
