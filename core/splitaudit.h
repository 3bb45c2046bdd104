/* The audit of a planned split set, as a stream over its key list. */
#ifndef HB_CORE_SPLITAUDIT_H
#define HB_CORE_SPLITAUDIT_H

#include "audit.h"
#include "hb.h"
#include "key.h"
#include "keyspace.h"
#include "region.h"

#include <stddef.h>

/*
 * A planned split set is audited as a stream over its key list: each region [k(i-1), k(i))
 * is viewed in the list and decided without being stored, so memory stays at the key list
 * plus a few buffers whatever the number of regions or findings. Findings come first in the
 * text output and "healthy" first in JSON, but are only known at the end, so the list is
 * walked more than once: a first pass only counts the findings (any error shows there, before
 * anything is printed), then one pass hands over the findings and another the rows, each in
 * the order the output wants. Deciding a region again costs less than keeping its rendered
 * finding (hundreds of bytes, a million times over) until it is due.
 */
enum hb_walk_pass {
	HB_WALK_COUNT,    /* count the findings, hand over nothing */
	HB_WALK_FINDINGS, /* hand over the findings, by region, table-wide ones last */
	HB_WALK_ROWS,     /* hand over the regions with their results */
};

/* Region i [start, end) with its result (valid during the call only). */
typedef int (*hb_walk_row_fn)(void *ctx, size_t i, const struct hb_region *g,
                              const struct hb_audit_region *ar);
/* A finding (region -1: table-wide); msg is len bytes, escaped as the body of a JSON string
 * when escaped. */
typedef int (*hb_walk_finding_fn)(void *ctx, const char *kind, long region, const char *msg,
                                  size_t len, int escaped);

/* Regions decided so far of total (the count pass, every 1024 regions). */
typedef void (*hb_walk_progress_fn)(void *ctx, size_t done, size_t total);

struct hb_split_walk {
	const struct hb_keys *keys; /* the sorted split keys (borrowed) */
	struct hb_keyspace *ks;     /* borrowed */
	int escape_messages;        /* findings' messages as JSON string bodies */
	hb_walk_row_fn row;
	hb_walk_finding_fn finding;
	hb_walk_progress_fn progress; /* may be NULL */
	void *ctx;
	size_t nf;        /* after the count pass: findings counted */
	size_t chain_nf;  /* ... how many of them the chain check made */
	size_t written;   /* after the findings pass: findings handed over */
	char *total_keys; /* after the count pass: #K in decimal (owned) */
};

/* Sets w up over keys and ks (both borrowed; the callbacks and escape_messages are the
 * caller's to set). */
void hb_split_walk_init(struct hb_split_walk *w, const struct hb_keys *keys,
                        struct hb_keyspace *ks);
void hb_split_walk_release(struct hb_split_walk *w);
/* The number of regions: one more than the split keys. */
size_t hb_split_walk_regions(const struct hb_split_walk *w);

/*
 * One pass over the regions (the count pass first: the others rely on its counts; the count
 * pass reports its progress). A callback's non-zero
 * return stops the pass with it. HB_EINVAL (key space too large to evaluate), HB_ENOMEM.
 */
int hb_split_walk_pass(struct hb_split_walk *w, enum hb_walk_pass pass, struct hb_error *err);

#endif
