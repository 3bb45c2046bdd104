/* Reachability: which regions a row-key space can reach, and each one's exact share of its keys. */
#ifndef HB_REACH_H
#define HB_REACH_H

#include "findings.h"
#include "key.h"
#include "keyspace.h"
#include "region.h"

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

/* Regions [∅,s0) [s0,s1) ... [s(k-1),∅) from sorted split keys (ModifyRegionUtils). out must
 * be empty. HB_ENOMEM. */
int hb_audit_regions_from_splits(struct hb_regions *out, const struct hb_keys *splits);

struct hb_audit_region {
	int reachable; /* 1 / 0; -1 when no key space was given */
	double share;  /* share of the key space's keys, 0..1 (0 without a key space) */
	char *keys;    /* the exact key count in decimal; NULL without a key space */
};

/* A million regions' results in 4 bytes each: a region's share is a function of its key count
 * and evenly split tables repeat a handful of counts, so each distinct count is kept once. */
struct hb_audit {
	uint32_t *r; /* one per audited region, same indices: HB_AUDIT_REACHABLE | count + 1 (0
	              * when no key space was given); read with hb_audit_at */
	size_t n;
	struct hb_audit_region *counts; /* the distinct counts (keys owned, reachable unused) */
	size_t ncounts, counts_cap;
	char *total_keys; /* #K in decimal (prefixes for a '*' tail); NULL without a key space */
	struct hb_findings findings;
};

#define HB_AUDIT_REACHABLE 0x80000000u

void hb_audit_init(struct hb_audit *a);
/* Region i's result (keys owned by a). */
void hb_audit_at(const struct hb_audit *a, size_t i, struct hb_audit_region *out);
void hb_audit_release(struct hb_audit *a);

/*
 * Sizes a->r for rs and, when ks is not NULL, decides each region's reachability and exact
 * share of K; adds an "unreachable" finding for every unreachable live region. rs should be
 * sorted (hb_regions_sort) so that shared bounds are counted once. HB_EINVAL (key space too
 * large to evaluate), HB_ENOMEM.
 */
int hb_audit_reach(struct hb_audit *a, struct hb_keyspace *ks, const struct hb_regions *rs,
                   struct hb_error *err);

/*
 * The same two checks one region at a time, for lists too long to hold (regions in sorted
 * order, i counting from 0; findings are appended to f / out as each region is decided).
 * hb_reach_stream_next sets out->keys to a string owned by s, valid until the next call;
 * with f NULL it decides the region without making its finding. s->unreachable counts the
 * "unreachable" findings due so far, made or not. With s->decide_only set (after begin) the
 * keys are not counted: out->keys is NULL and out->share 0. With s->escape_messages set
 * (after begin) messages are made with a backslash before each '"' and '\\', as the body of
 * a JSON string: a message is printable ASCII and only its keys hold those two characters.
 * With s->keep_message set (after begin) and f NULL, the message of the region's finding is
 * left in s->msg, valid until the next call (empty when the region makes none).
 * hb_chain_stream keeps copies of the previous and covering regions' bounds only.
 */
#define HB_REACH_MEMO 4
struct hb_reach_stream {
	struct hb_keyspace *ks;
	mpz_t total, keys;
	char *total_keys; /* #K in decimal */
	struct hb_buf first, msg;
	/* The last few distinct key counts with their decimal form and share: evenly split
	 * chains repeat a handful of counts, so most regions need no conversion. */
	struct {
		mpz_t keys;
		struct hb_buf num;
		double share;
		int used;
	} memo[HB_REACH_MEMO];
	unsigned memo_next;
	/* The quoted message form of the last few keys: a region starts at the bound the one
	 * before ended at and most regions' smallest key is one and the same, so most keys of a
	 * message need no formatting. */
	struct {
		struct hb_buf key, text;
		unsigned long used; /* when last used (0 = empty): the least recent goes first */
	} quoted[HB_REACH_MEMO];
	unsigned long quoted_clock;
	size_t unreachable;
	int decide_only, escape_messages, keep_message;
	int inited;
};

int hb_reach_stream_begin(struct hb_reach_stream *s, struct hb_keyspace *ks, struct hb_error *err);
int hb_reach_stream_next(struct hb_reach_stream *s, size_t i, const struct hb_region *r,
                         struct hb_audit_region *out, struct hb_findings *f, struct hb_error *err);
void hb_reach_stream_release(struct hb_reach_stream *s);

#endif
