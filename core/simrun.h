/* One run of hbtab simulate: the initial regions and their servers, writes from one key
 * source (generated keys on several threads, keys one at a time, or draws from a key space),
 * with or without a split policy, and the outcome per final region and per server. */
#ifndef HB_SIMRUN_H
#define HB_SIMRUN_H

#include "hb.h"
#include "key.h"
#include "keygen.h"
#include "region.h"
#include "schema.h"
#include "simulate.h"

#include <stdint.h>

/* Reports progress: done of total writes (total 0 when unknown); from the calling thread. */
typedef void (*hb_simrun_progress_fn)(void *arg, uint64_t done, uint64_t total);

struct hb_simrun {
	struct hb_keys splits; /* boundaries of the initial regions */
	char **server_names;   /* live names (from a table) or NULL: "server-N" */
	size_t nservers;
	size_t *server_of; /* initial region -> server */
	uint64_t *counts;  /* writes per initial region (no policy) */
	uint64_t count;    /* writes made */
	int policy_on;
	struct hb_sim sim;                             /* with a policy */
	struct hb_sim_router router;                   /* without one */
	struct hb_buf key;                             /* a keys file's key, parsed */
	uint64_t table_max_filesize, table_flush_size; /* a table's own, 0 when unset */
	hb_simrun_progress_fn progress;
	void *progress_arg;
	/* The final regions as plain arrays, whichever mode ran (hb_simrun_finish). With a
	 * policy a region's writes are those since it opened, so regions' shares are of total,
	 * the writes the final regions took; servers count every write, their own regions'
	 * and those of the parents that split on them (a daughter stays on its parent's
	 * server), out of count. Both sets of shares add up to 100%. */
	size_t n;
	uint64_t *writes;
	size_t *server;
	uint64_t total;    /* writes of the final regions (count without a policy) */
	uint64_t *lineage; /* per server: every write its regions and their parents took */
	size_t *sregions;  /* per server: final regions */
	struct hb_sim_stats stats;
};

void hb_simrun_init(struct hb_simrun *run);
void hb_simrun_release(struct hb_simrun *run);

/* Places region i of run->splits on server i % servers. HB_ENOMEM. */
int hb_simrun_place_round_robin(struct hb_simrun *run, size_t servers, struct hb_error *err);
/* Takes the initial regions and their servers from a live table's regions (sorted here):
 * HB_ESERVER when they overlap or the first does not start at the empty key; HB_ENOMEM. */
int hb_simrun_place_table(struct hb_simrun *run, struct hb_regions *rs, const char *table,
                          struct hb_error *err);
/* Notes a table's MAX_FILESIZE and MEMSTORE_FLUSHSIZE (positive whole numbers only). */
void hb_simrun_table_sizes(struct hb_simrun *run, const struct hb_schema *schema);

/* Makes the run ready for writes, with the policy of cfg (NULL: no policy; cfg->servers is
 * set here). HB_ENOMEM, HB_EINVAL. */
int hb_simrun_start(struct hb_simrun *run, const struct hb_sim_config *cfg, struct hb_error *err);
/* Writes the first count keys of g (made by `threads` threads without a policy; in order,
 * on this thread, with one). HB_ENOMEM. */
int hb_simrun_generated(struct hb_simrun *run, const struct hb_keygen *g, uint64_t count,
                        size_t threads, struct hb_error *err);
/* Writes one key. HB_ENOMEM. */
int hb_simrun_key(struct hb_simrun *run, const void *k, size_t len, struct hb_error *err);
/* Writes one key given as line `lineno` of a toStringBinary keys file called name (the line's
 * end, \n or \r\n, is dropped): HB_EINVAL with "name:line: ..." for an empty line, a key that
 * does not parse or one longer than HBase's maximum row length; HB_ENOMEM. */
int hb_simrun_key_line(struct hb_simrun *run, const char *line, size_t n, const char *name,
                       uint64_t lineno, struct hb_error *err);
/* Draws count writes uniformly from the key space spec (java.util.Random(seed)): exact
 * region shares, no keys. HB_EINVAL with "WHAT 'SPEC': ..." for a bad spec (what names it as
 * the caller does; NULL: "key space"); HB_ENOMEM. */
int hb_simrun_keyspace(struct hb_simrun *run, const char *spec, const char *what, uint64_t count,
                       int64_t seed, struct hb_error *err);
/* Fills the view of the final regions and servers, and their statistics. HB_ENOMEM. */
int hb_simrun_finish(struct hb_simrun *run, struct hb_error *err);

/* Final region i's bounds (NULL with length 0 = unbounded). */
void hb_simrun_bounds(const struct hb_simrun *run, size_t i, const unsigned char **start,
                      size_t *start_len, const unsigned char **end, size_t *end_len);
/* A final region's share of the writes the final regions took; a server's share of all. */
double hb_simrun_region_share(const struct hb_simrun *run, size_t i);
double hb_simrun_server_share(const struct hb_simrun *run, size_t s);
/* With a policy: 1 when final region i received no write in the last tenth of the run. */
int hb_simrun_is_cold(const struct hb_simrun *run, size_t i);
/* Server s's name: the live one, else "server-N" written into buf. */
const char *hb_simrun_server_name(const struct hb_simrun *run, size_t s, char *buf, size_t n);

#endif
