/* Generated keys made by several threads: the plan that places each span of a generator's
 * keys, and the runs of keys threads make (a sample made and sorted in parallel is
 * core/keysample.h's). */
#ifndef HB_KEYPAR_H
#define HB_KEYPAR_H

#include "hb.h"
#include "key.h"
#include "keygen.h"

#include <stdint.h>

/* The first `count` keys of a generator cut into spans (core/keygen.h) that threads make in
 * any order; spans are numbered from 0 and hold up to len keys. */
struct hb_keyplan {
	struct hb_keygen g; /* at key 0 */
	uint64_t count, len, spans;
	/* spans + 1 sums of the spans before each; NULL when every span holds len keys and a
	 * generator reaches any span by hb_keygen_skip (or one thread makes them in order) */
	struct hb_keygen_span *before;
};

/* A worker's generator, standing at span `next`. */
struct hb_keyplan_cursor {
	struct hb_keygen g;
	uint64_t next;
};

/* Plans count keys of g for `threads` threads (the spans scanned by as many threads when the
 * generator's clock needs it). HB_ENOMEM. */
int hb_keyplan_init(struct hb_keyplan *p, const struct hb_keygen *g, uint64_t count, size_t threads,
                    struct hb_error *err);
void hb_keyplan_release(struct hb_keyplan *p);
void hb_keyplan_cursor_init(struct hb_keyplan_cursor *c, const struct hb_keyplan *p);
/* Moves c's generator to span t's first key (a worker's spans must come in increasing order)
 * and returns the number of keys the caller then makes with it; *first is the index of the
 * first. */
uint64_t hb_keyplan_seek(struct hb_keyplan_cursor *c, const struct hb_keyplan *p, uint64_t t,
                         uint64_t *first);

/* Makes the count keys g makes next (g itself unchanged) on up to `threads` threads:
 * task(ctx, w, gen, n) makes the next n keys of gen on worker w. Each worker takes runs of keys
 * in order from a range of its own, and one whose range is done takes the second half of the
 * largest range left, reaching its first key by a scan of the generator's clock (no hashing)
 * from where that range's worker stands: no span is scanned before the first key is made.
 * tick as for hb_par_run. HB_ENOMEM. */
int hb_keygen_run(const struct hb_keygen *g, uint64_t count, size_t threads,
                  void (*task)(void *ctx, size_t w, struct hb_keygen *gen, uint64_t n), void *ctx,
                  void (*tick)(void *tick_ctx), void *tick_ctx, struct hb_error *err);

#endif
