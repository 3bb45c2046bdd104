/* hbtab reshape's output: the plan's rounds as text lines, JSON or an hbase shell script. */
#ifndef HB_CLI_RESHAPE_OUT_H
#define HB_CLI_RESHAPE_OUT_H

#include "../core/buf.h"
#include "../core/reshape.h"
#include "../rest/metarow.h"
#include "../rest/repair.h"

struct cli_reshape_result {
	const char *table;
	const char *spec; /* the target split spec as hbtab flags */
	size_t old_n;     /* the recorded N (0: none) */
	struct hb_repair_survey sv;
	struct hb_reshape_plan plan; /* the first plan (plan only), or the last (--apply) */
	size_t first_from;           /* the region count when the run began */
	int applied;
	size_t done, rounds, clears;
	int capped;         /* --apply stopped at --max-steps */
	int verified;       /* the boundaries equal the split computation, byte for byte */
	const char *record; /* the metadata row: "recorded", "present", or NULL (not reached) */
	const char *script; /* --via print -o json: the script */
};

void cli_reshape_result_init(struct cli_reshape_result *r, const char *table);
void cli_reshape_result_release(struct cli_reshape_result *r);

/* Why a design whose row keys carry N cannot be reshaped by moving boundaries. */
#define N_IN_KEYS                                                                                  \
	"its row keys carry the bucket (a key's prefix is computed modulo N), so moving region "   \
	"boundaries cannot change N: every row would stay in its old bucket. Such a table "        \
	"moves to a new table (see MIGRATING A DESIGN THAT DEPENDS ON N in hbtab-reshape(1))"

/* The metadata row's N (raw bytes into n_raw, parsed into *n; 0 without one); m is located.
 * Errors as hb_metarow_locate's. */
int cli_reshape_recorded_n(struct hb_rest *c, struct hb_metarow *m, const char *table,
                           struct hb_buf *n_raw, size_t *n, struct hb_error *err);

/* A design whose row keys depend on N, as the metadata row, the key space or the live
 * boundaries show it: says why it cannot be reshaped and gives CLI_EXIT_REFUSED; else 0. */
int cli_reshape_refuse_design(const struct cli_reshape_result *r);

/* The hbase shell script of the plan's first round (later rounds named in comments). */
int cli_reshape_script(struct hb_buf *out, const struct cli_reshape_result *r);

/* Prints the plan or the run's outcome: text lines or the JSON document. */
int cli_reshape_print(const struct cli_reshape_result *r);

#endif
