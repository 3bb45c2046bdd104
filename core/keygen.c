/* Seed row-key generators: java.util.Random, the md5-prefix key, partition and sequential keys. */
#include "keygen.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#define JR_MULT 0x5DEECE66DULL
#define JR_ADD 0xBULL
#define JR_MASK ((1ULL << 48) - 1)

void hb_jrandom_init(struct hb_jrandom *r, int64_t seed)
{
	r->seed = ((uint64_t)seed ^ JR_MULT) & JR_MASK;
}

int32_t hb_jrandom_next(struct hb_jrandom *r, int bits)
{
	r->seed = (r->seed * JR_MULT + JR_ADD) & JR_MASK;
	/* (int)(seed >>> (48 - bits)): keep the low 32 bits as a two's-complement int. */
	return (int32_t)(uint32_t)(r->seed >> (48 - bits));
}

int32_t hb_jrandom_next_int(struct hb_jrandom *r, int32_t bound)
{
	int32_t rv, m, u;

	if (bound <= 0)
		return -1;
	rv = hb_jrandom_next(r, 31);
	m = bound - 1;
	if ((bound & m) == 0)
		return (int32_t)(((int64_t)bound * (int64_t)rv) >> 31);
	/* Java: for (u = r; u - (r = u % bound) + m < 0; u = next(31)); with int overflow. */
	for (u = rv;; u = hb_jrandom_next(r, 31)) {
		rv = u % bound;
		if ((int32_t)(uint32_t)((uint32_t)u - (uint32_t)rv + (uint32_t)m) >= 0)
			break;
	}
	return rv;
}

static void put_be64(unsigned char *out, int64_t v)
{
	uint64_t u = (uint64_t)v;
	int i;

	for (i = 7; i >= 0; i--, u >>= 8)
		out[i] = (unsigned char)(u & 0xFF);
}

int hb_keygen_init(struct hb_keygen *g, const char *spec, int64_t seed, int64_t start_time,
		   struct hb_error *err)
{
	memset(g, 0, sizeof(*g));
	g->id = 1;
	g->ts = start_time;
	g->partitions = 20;
	hb_jrandom_init(&g->rnd, seed);
	if (!strcmp(spec, "md5") || !strcmp(spec, "hash")) {
		g->kind = HB_KEYGEN_MD5;
		g->md = EVP_MD_CTX_new();
		if (!g->md || !EVP_DigestInit_ex(g->md, EVP_md5(), NULL)) {
			hb_keygen_release(g);
			return hb_error_set(err, HB_ENOMEM, "cannot set up MD5");
		}
	} else if (!strcmp(spec, "sequential")) {
		g->kind = HB_KEYGEN_SEQUENTIAL;
	} else if (!strcmp(spec, "hex8")) {
		g->kind = HB_KEYGEN_HEX8;
	} else if (!strncmp(spec, "partition", 9) && (spec[9] == '\0' || spec[9] == ':')) {
		g->kind = HB_KEYGEN_PARTITION;
		if (spec[9] == ':') {
			const char *p = spec + 10;
			long v = 0;

			if (!*p)
				return hb_error_set(err, HB_EINVAL,
						    "generator '%s': the partition count is missing",
						    spec);
			for (; *p; p++) {
				if (*p < '0' || *p > '9' || v > 100000000L)
					return hb_error_set(err, HB_EINVAL,
							    "generator '%s': the partition count must "
							    "be a whole number from 1 to 100000000",
							    spec);
				v = v * 10 + (*p - '0');
			}
			if (v < 1 || v > 100000000L)
				return hb_error_set(err, HB_EINVAL,
						    "generator '%s': the partition count must be a "
						    "whole number from 1 to 100000000",
						    spec);
			g->partitions = v;
		}
	} else {
		return hb_error_set(err, HB_EINVAL, "unknown generator '%s' (expected %s)", spec,
				    "md5, partition[:N], sequential or hex8");
	}
	return 0;
}

void hb_keygen_release(struct hb_keygen *g)
{
	EVP_MD_CTX_free(g->md);
	g->md = NULL;
}

/* MD5 of 8 bytes with one reused context (a fresh context per key costs more than the hash). */
static void md5_8(struct hb_keygen *g, const unsigned char *in, unsigned char *md)
{
	unsigned int mdlen = 0;

	/* A NULL type keeps the digest fetched at init: re-fetching MD5 per key is slow. */
	if (!EVP_DigestInit_ex(g->md, NULL, NULL) ||
	    !EVP_DigestUpdate(g->md, in, 8) || !EVP_DigestFinal_ex(g->md, md, &mdlen) ||
	    mdlen != 16)
		HB_BUG("MD5 is not available");
}

size_t hb_keygen_next(struct hb_keygen *g, unsigned char *out)
{
	static const char hex[] = "0123456789abcdef";
	int64_t id = g->id;
	size_t len = 0;
	int i;

	g->id = (int64_t)((uint64_t)g->id + 1);
	switch (g->kind) {
	case HB_KEYGEN_MD5: {
		unsigned char in[8], md[EVP_MAX_MD_SIZE];
		uint32_t lo_id = (uint32_t)(uint64_t)id, lo_ts;

		/* currentTime += random.nextInt(1000) happens before the key is made. */
		g->ts = (int64_t)((uint64_t)g->ts + (uint64_t)hb_jrandom_next_int(&g->rnd, 1000));
		lo_ts = (uint32_t)(uint64_t)g->ts;
		for (i = 0; i < 4; i++) {
			in[i] = (unsigned char)(lo_id >> (24 - 8 * i));
			in[4 + i] = (unsigned char)(lo_ts >> (24 - 8 * i));
		}
		md5_8(g, in, md);
		for (i = 0; i < 4; i++) {
			out[2 * i] = (unsigned char)hex[md[i] >> 4];
			out[2 * i + 1] = (unsigned char)hex[md[i] & 15];
		}
		put_be64(out + 8, id);
		len = 16;
		break;
	}
	case HB_KEYGEN_PARTITION:
		put_be64(out, id % g->partitions); /* C and Java agree: the sign of the dividend */
		put_be64(out + 8, id);
		len = 16;
		break;
	case HB_KEYGEN_SEQUENTIAL:
		put_be64(out, id);
		len = 8;
		break;
	case HB_KEYGEN_HEX8:
		for (i = 0; i < 8; i++)
			out[i] = (unsigned char)hex[hb_jrandom_next_int(&g->rnd, 16)];
		len = 8;
		break;
	}
	return len;
}

int hb_keygen_fill(struct hb_keys *out, struct hb_keygen *g, long count, struct hb_error *err)
{
	unsigned char k[HB_KEYGEN_MAX_KEY];
	long i;

	if (count > 0 && hb_buf_grow(&out->bytes, (size_t)count * HB_KEYGEN_MAX_KEY))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (i = 0; i < count; i++) {
		size_t len = hb_keygen_next(g, k);

		if (hb_keys_push(out, k, len))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	return 0;
}
