/* Row-key spaces (--keyspace SPEC): parsing, canonical form, exact reachability and counting. */
#ifndef HB_KEYSPACE_H
#define HB_KEYSPACE_H

#include "buf.h"
#include "hb.h"

#include <gmp.h>
#include <stddef.h>

/*
 * A key space K is the set of byte strings formed by concatenating one value of each field
 * of a SPEC such as "hex{8} byte{8}" or "u64<20 *" (grammar in hbtab(1), KEY SPACES). Keys are the
 * distinct strings of at least one byte (HBase rows are 1..32767 bytes), so a string that
 * two field splits can produce is counted once.
 *
 * Counting and shares are exact over the finite set K. With a '*' tail, K is infinite; its
 * keys are then counted by their prefix before the '*' (the fields before it), as if the
 * tail were empty: each prefix weighs the same and belongs to the region holding the
 * prefix itself. Reachability always uses the full K, '*' included, so a region that only
 * holds longer keys sharing a prefix can be reachable with a share of 0.
 *
 * Evaluation builds a deterministic automaton lazily; its caches live in the object, so
 * the query functions take a non-const pointer and are not thread-safe.
 */
struct hb_keyspace;

/* Parses spec. On error returns HB_EINVAL with "column C: what was expected" in err (the
 * caller adds which input it was). *out is freed with hb_keyspace_free. HB_ENOMEM. */
int hb_keyspace_parse(struct hb_keyspace **out, const char *spec, struct hb_error *err);

/* Frees ks (NULL is a no-op). */
void hb_keyspace_free(struct hb_keyspace *ks);

/* Appends the canonical form: single spaces, {1} omitted, charsets as sorted ranges,
 * charsets equal to a named class printed as the class, uW<2^(8W) printed as byte{W}. */
int hb_keyspace_format(struct hb_buf *out, const struct hb_keyspace *ks);

/* 1 when a and b describe the same set of keys field-wise (after merging adjacent fields of
 * the same alphabet, so "hex{8} hex{8}" equals "hex{16}"), else 0. */
int hb_keyspace_same(const struct hb_keyspace *a, const struct hb_keyspace *b);

/* 1 when the spec ends in a '*' field. */
int hb_keyspace_has_star(const struct hb_keyspace *ks);

/* When the first field is uW<N (a partition prefix), stores N (if it fits) in *n_out and
 * the width in *width_out and returns 1; else returns 0. */
int hb_keyspace_partitions(const struct hb_keyspace *ks, unsigned long long *n_out, int *width_out);

/* Smallest key k of K with k >= s (HBase order). Sets *found; on found, appends k to out.
 * HB_EINVAL when the key space is too ambiguous to evaluate within memory limits. */
int hb_keyspace_first_at_or_after(struct hb_keyspace *ks, struct hb_buf *out, int *found,
                                  const void *s, size_t n, struct hb_error *err);

/* out = #{k in K : k < x} (keys counted by prefix for a '*' tail). HB_EINVAL (limits). */
int hb_keyspace_count_below(struct hb_keyspace *ks, mpz_t out, const void *x, size_t n,
                            struct hb_error *err);

/* out = #K (prefixes for a '*' tail). HB_EINVAL (limits). */
int hb_keyspace_total(struct hb_keyspace *ks, mpz_t out, struct hb_error *err);

/*
 * One region [start, end) (empty = unbounded): *reachable is 1 iff some key of K lies in it;
 * keys = the number of keys of K in it (keys NULL: not counted). first (may be NULL) receives
 * the smallest key >= start when one exists, whether or not it is below end. Consecutive
 * regions reuse the shared bound, so auditing a sorted chain costs one walk per boundary.
 */
int hb_keyspace_region(struct hb_keyspace *ks, int *reachable, mpz_t keys, struct hb_buf *first,
                       const void *start, size_t start_len, const void *end, size_t end_len,
                       struct hb_error *err);

/* Counting uses native 64-bit integers when #K fits (the default; results are the same);
 * on = 0 keeps it in GMP throughout, which the tests compare against. */
void hb_keyspace_set_native(struct hb_keyspace *ks, int on);

/* a / b as a double, exact up to rounding even for numbers beyond double's range; 0 if b=0. */
double hb_mpz_ratio(const mpz_t a, const mpz_t b);

#endif
