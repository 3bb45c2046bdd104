/* hbtab advise's output: the recommendation, every input with where it came from, each cost. */
#ifndef HB_CLI_ADVISE_OUT_H
#define HB_CLI_ADVISE_OUT_H

#include "../core/advise.h"
#include "../core/buf.h"

#include <stddef.h>
#include <stdint.h>

struct cli_advice {
	const char *table; /* NULL for a split specification */
	uint64_t servers, size, split_size, per_server, buckets;
	const char *servers_from, *split_from; /* where each input came from */
	struct hb_buf size_from;
	int keys_depend_on_n; /* partition or salt design: the keys hold N */
	struct hb_advise a;
	struct hb_advise_cost now, rec;
	uint64_t largest; /* the table's largest region, bytes (table only) */
	int have_skew;
	double skew_now, skew_rec;
	const char *skew_source;          /* "rows" or "keyspace" */
	uint64_t skew_keys;               /* keys in the sample */
	const char *keyspace;             /* the key space drawn from or decoded, or NULL */
	const char *skew_note;            /* why the table's rows were not sampled, or NULL */
	struct hb_buf spec_now, spec_rec; /* the split specifications as flags (empty: none) */
	const char *spec_note;            /* why there is no recommended specification */
};

void cli_advice_init(struct cli_advice *v);
void cli_advice_release(struct cli_advice *v);
/* The advice as text or, with -o json, one JSON object. 0, HB_ENOMEM or a write error
 * (reported). */
int cli_advice_print(const struct cli_advice *v);

#endif
