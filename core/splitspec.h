/* The split specification: an algorithm, its N and its companions, checked, written as the
 * metadata row's text (hbtab flags) and read back from it. The one file below cli/ that
 * knows how the flags are spelled. */
#ifndef HB_SPLITSPEC_H
#define HB_SPLITSPEC_H

#include "buf.h"
#include "hb.h"
#include "key.h"
#include "split.h"

#include <stddef.h>
#include <stdint.h>

/*
 * A specification as given: each value as typed on the command line (NULL = not given), or
 * as read back from a recorded text by hb_splitspec_read. One algorithm value holds N (or
 * "auto"); the others are its companions.
 */
struct hb_splitspec {
	const char *hex, *decimal, *uniform, *range, *book_hex, *partition, *salt, *sampled;
	const char *splits_file;
	const char *first, *last, *start, *end, *salt_width;
	const char *sample_file, *generator, *sample_size, *seed, *start_time;
	const char *regions_per_server, *sample_table, *sample_rows;
	/* set by the caller, not by flags */
	long live_servers;          /* live region servers, for N = auto (0: not known) */
	struct hb_keys *table_keys; /* keys sampled from sample_table, read by the caller */
	size_t threads;             /* threads that make a generated sample (0: one) */
	/* how the split algorithms' messages name their parameters (core/split.h), or NULL */
	const struct hb_split_names *names;
};

/* Default rows sampled from a live table (sample_table). */
#define HB_SPLITSPEC_DEFAULT_SAMPLE_ROWS 10000L
/* Default keys drawn by a generator (the seed's 1,000,000), and the most. */
#define HB_SPLITSPEC_DEFAULT_SAMPLE 1000000L
#define HB_SPLITSPEC_MAX_SAMPLE     20000000L

/* 1 when any value is given. */
int hb_splitspec_given(const struct hb_splitspec *s);

/* Checks the combination (exactly one algorithm, only its companions, what it needs) and
 * gives its algorithm. HB_EINVAL with a message naming the flags. */
int hb_splitspec_check(const struct hb_splitspec *s, enum hb_split_algo *algo,
                       struct hb_error *err);

/* 1 when the algorithm's N is "auto" (N = K x live region servers). */
int hb_splitspec_is_auto(const struct hb_splitspec *s);

/* 1 when the spec needs the cluster: a live table's sample, or N = auto without a
 * region-server count already set. */
int hb_splitspec_needs_cluster(const struct hb_splitspec *s);

/* K of N = auto (regions_per_server), checked: HB_EINVAL naming the flag. */
int hb_splitspec_per_server(const struct hb_splitspec *s, long *k, struct hb_error *err);

/* The rows sampled from sample_table (its default when not given), checked. */
int hb_splitspec_sample_rows(const struct hb_splitspec *s, long *m, struct hb_error *err);

/* N of a checked spec: as given, or K x live_servers for "auto" (HB_EINVAL when the live
 * servers are not known); 0 for a splits file. The core checks each algorithm's range. */
int hb_splitspec_n(const struct hb_splitspec *s, long *n, struct hb_error *err);

/* The generator's seed and first time (0 when not given). HB_EINVAL naming the flag. */
int hb_splitspec_generator_args(const struct hb_splitspec *s, int64_t *seed, int64_t *start_time,
                                struct hb_error *err);

/* The keys a generator draws (sample_size, its default when not given), checked. */
int hb_splitspec_sample_size(const struct hb_splitspec *s, long *m, struct hb_error *err);

/* The range values of spec->algo into spec (the keys parsed into a and b, which must outlive
 * spec), and the salt width. HB_EINVAL naming the flag. */
int hb_splitspec_bounds(struct hb_split_spec *spec, const struct hb_splitspec *s, struct hb_buf *a,
                        struct hb_buf *b, struct hb_error *err);

/*
 * Computes the split keys of s into out (empty on entry), verified as createTable would. The
 * keys of a splits file or a sample file come read by the caller in file (the caller does
 * not read a sample file for an N out of range: the N is reported); sample_table's are in
 * s->table_keys; a generator's sample is drawn here on s->threads threads. HB_EINVAL with a
 * message naming the flag, HB_ENOMEM.
 */
int hb_splitspec_compute(struct hb_keys *out, const struct hb_splitspec *s,
                         const struct hb_keys *file, struct hb_error *err);

/*
 * Appends the spec as the metadata row records it: canonical hbtab flags ("--hex-splits 10
 * --first 0 --last ff"), N resolved, values single-quoted for a POSIX shell when needed,
 * generator defaults spelled out. HB_EINVAL for a bad combination, HB_ENOMEM.
 */
int hb_splitspec_write(struct hb_buf *out, const struct hb_splitspec *s, struct hb_error *err);

/*
 * Reads a recorded text (hb_splitspec_write's, or any older hbtab's: the same flags) into s,
 * its values kept in words (each NUL-terminated there; words must outlive s). 0, or -1 when
 * the text holds anything but split-specification flags and values.
 */
int hb_splitspec_read(struct hb_splitspec *s, struct hb_buf *words, const char *text);

/* Where s holds its N (the algorithm's value), or NULL for a splits file or none. */
const char **hb_splitspec_n_field(struct hb_splitspec *s);
/* s with N = n (written into num, which must outlive s) and no regions_per_server: 0, or -1
 * when s cannot take another N. */
int hb_splitspec_with_n(struct hb_splitspec *s, uint64_t n, char *num, size_t cap);

/* What a recorded text says of the table's design, for the checks that read it back. */
struct hb_splitspec_design {
	enum hb_split_algo algo; /* HB_SPLIT_NONE when the text is not a specification */
	unsigned long long n;    /* the recorded N, 0 when it is not a whole number */
	int salt_width;          /* the salt prefix's bytes (1 unless recorded as 2) */
};

/* Reads text (NULL: nothing recorded) into d. 0, or -1 (d's algo NONE) when the text is not
 * a specification. */
int hb_splitspec_design(const char *text, struct hb_splitspec_design *d);

#endif
