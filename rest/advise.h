/* What hbtab advise reads of a live table: servers, store size, split size, design, a sample. */
#ifndef HB_REST_ADVISE_H
#define HB_REST_ADVISE_H

#include "core/key.h"
#include "rest/hbase.h"

#include <stddef.h>
#include <stdint.h>

struct hb_advise_table {
	size_t servers;        /* live region servers (/status/cluster) */
	size_t regions;        /* the table's regions (/T/regions, replicas once) */
	struct hb_keys splits; /* its split keys: the start keys of regions 1.. */
	size_t loads;          /* its regions /status/cluster reports a load for */
	uint64_t store_mb;     /* their store files and memstores, MiB (the gateway's unit) */
	uint64_t largest_mb;   /* the largest region's */
	uint64_t max_filesize; /* the table's MAX_FILESIZE, 0 when it sets none */
	int metadata;          /* 1 the metadata row exists, 0 not */
	char *stored_n, *stored_keyspace, *stored_splits; /* its qualifiers (NULL = absent) */
	struct hb_keys sample;                            /* row keys sampled, sorted */
	int sample_skipped; /* the table is larger than max_sample_mb: no sample read */
};

void hb_advise_table_init(struct hb_advise_table *t);
void hb_advise_table_release(struct hb_advise_table *t);

/*
 * Reads, and only reads, what advise needs of TABLE: /status/cluster (live servers, the loads
 * of the table's regions), /T/regions, /T/schema (MAX_FILESIZE), the metadata row, and up to
 * sample_rows row keys (hb_rest_sample_keys, a scan of every row through the sampler's
 * filters; 0 = none), unless the table's store is above max_sample_mb MiB (0 = no limit).
 * Errors as those reads: HB_ENOTFOUND for a missing table, the REST client's codes,
 * HB_ENOMEM.
 */
int hb_rest_advise_table(struct hb_advise_table *out, struct hb_rest *c, const char *table,
                         size_t sample_rows, uint64_t max_sample_mb, struct hb_error *err);

#endif
