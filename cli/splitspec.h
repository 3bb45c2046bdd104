/* The split-specification option group shared by splits, create, audit and simulate. */
#ifndef HB_CLI_SPLITSPEC_H
#define HB_CLI_SPLITSPEC_H

#include "../core/buf.h"
#include "../core/key.h"
#include "../rest/rest.h"
#include "cli.h"

struct hb_keygen;

/* The raw flag values; a command keeps one static instance and splices the options. */
struct cli_splitspec {
	const char *hex, *decimal, *uniform, *range, *book_hex, *partition, *salt, *sampled;
	const char *splits_file;
	const char *first, *last, *start, *end, *salt_width;
	const char *sample_file, *generator, *sample_size, *seed, *start_time;
	const char *regions_per_server, *sample_table, *sample_rows;
	/* filled by cli_splitspec_prepare, not by flags */
	long live_servers;          /* live region servers, for N = auto */
	struct hb_keys *table_keys; /* keys sampled from --sample-table */
	/* set by a command: threads that make a generated sample (0: one) */
	size_t threads;
};

/* Default rows sampled from a live table by --sample-table. */
#define CLI_SPLITSPEC_DEFAULT_SAMPLE_ROWS 10000L

/* The text of "SPLITSPEC" in usage lines and man pages. */
#define CLI_SPLITSPEC_USAGE "SPLITSPEC"

/* Default number of keys drawn by --generator for --sampled-splits (the seed's 1,000,000). */
#define CLI_SPLITSPEC_DEFAULT_SAMPLE 1000000L
#define CLI_SPLITSPEC_MAX_SAMPLE     20000000L

/* The option entries; splice into a static option table: CLI_SPLITSPEC_OPTIONS(&ss), */
#define CLI_SPLITSPEC_OPTIONS(s)                                                                   \
	CLI_GROUP("Split specification (N = number of regions, N-1 split keys)"),                  \
	    CLI_STRING(0, "hex-splits", &(s)->hex, "N", "RegionSplitter HexStringSplit"),          \
	    CLI_STRING(0, "decimal-splits", &(s)->decimal, "N",                                    \
	               "RegionSplitter DecimalStringSplit"),                                       \
	    CLI_STRING(0, "uniform-splits", &(s)->uniform, "N", "RegionSplitter UniformSplit"),    \
	    CLI_STRING(0, "range-splits", &(s)->range, "N",                                        \
	               "Admin.createTable(start, end, N): needs --start, --end"),                  \
	    CLI_STRING(0, "book-hex-splits", &(s)->book_hex, "N",                                  \
	               "the reference guide's getHexSplits: needs --start, --end"),                \
	    CLI_STRING(0, "partition-splits", &(s)->partition, "N",                                \
	               "8-byte big-endian longs 1..N-1"),                                          \
	    CLI_STRING(0, "salt-splits", &(s)->salt, "N",                                          \
	               "salt prefixes 1..N-1 (--salt-width bytes)"),                               \
	    CLI_STRING(0, "sampled-splits", &(s)->sampled, "N",                                    \
	               "quantiles of a key sample (--sample-file or --generator)"),                \
	    CLI_INFILE(0, "splits-file", &(s)->splits_file,                                        \
	               "split keys, one toStringBinary key per line ('-' = stdin)"),               \
	    CLI_STRING(0, "first", &(s)->first, "ROW", "hex/decimal/uniform first row"),           \
	    CLI_STRING(0, "last", &(s)->last, "ROW", "hex/decimal/uniform last row"),              \
	    CLI_STRING(0, "start", &(s)->start, "KEY", "range/book-hex start key"),                \
	    CLI_STRING(0, "end", &(s)->end, "KEY", "range/book-hex end key"),                      \
	    CLI_CHOICE(0, "salt-width", &(s)->salt_width, "1|2", "salt prefix width in bytes",     \
	               "1 2"),                                                                     \
	    CLI_INFILE(0, "sample-file", &(s)->sample_file,                                        \
	               "sample keys, one toStringBinary key per line ('-' = stdin)"),              \
	    CLI_SUGGEST(                                                                           \
	        0, "generator", &(s)->generator, "G",                                              \
	        "key generator: md5, partition[:N], sequential, hex8, salt[:B], "                  \
	        "roundrobin[:N], transaction, statistics[:D]",                                     \
	        "md5 hash partition sequential hex8 salt roundrobin transaction statistics"),      \
	    CLI_STRING(0, "sample-size", &(s)->sample_size, "M",                                   \
	               "keys drawn by --generator (1000000)"),                                     \
	    CLI_STRING(0, "seed", &(s)->seed, "S", "java.util.Random seed of the generator (0)"),  \
	    CLI_STRING(0, "start-time", &(s)->start_time, "MS",                                    \
	               "md5 generator's first time in ms (0)"),                                    \
	    CLI_STRING(0, "regions-per-server", &(s)->regions_per_server, "K",                     \
	               "with N = auto: N = K x live region servers (/status/cluster)"),            \
	    CLI_STRING(0, "sample-table", &(s)->sample_table, "T",                                 \
	               "--sampled-splits from row keys of live table T (REST scanner filters)"),   \
	    CLI_STRING(0, "sample-rows", &(s)->sample_rows, "M",                                   \
	               "rows sampled from --sample-table (10000)")

/* 1 when the spec needs the cluster: --sample-table, or N = auto without a region-server
 * count already set (cli_splitspec_set_servers). */
int cli_splitspec_needs_cluster(const struct cli_splitspec *s);

/*
 * The one rule of N = auto: N = K x region servers, the count from --servers S where the
 * command takes it (splits, audit SPLITSPEC, simulate; then no server is asked), else the
 * live region servers of /status/cluster. servers NULL changes nothing; HB_EINVAL for a bad
 * count, or K x S over the region cap.
 */
int cli_splitspec_set_servers(struct cli_splitspec *s, const char *servers, struct hb_error *err);
/* cli_splitspec_set_servers for a command's --servers that means only that (splits, audit):
 * without N = auto it is a usage error. Prints the error; returns 0 or HB_EINVAL. */
int cli_splitspec_check_servers(const char *cmd, struct cli_splitspec *s, const char *servers);

/*
 * Reads what the spec needs from the cluster through rest: the live region-server count for
 * N = auto, the sampled keys for --sample-table (released by cli_splitspec_release).
 * HB_EINVAL for bad flags, the REST codes.
 */
int cli_splitspec_prepare(struct cli_splitspec *s, struct hb_rest *rest, struct hb_error *err);

/* Frees what cli_splitspec_prepare read. */
void cli_splitspec_release(struct cli_splitspec *s);

/* The key generator's --seed and --start-time (0 when not given). HB_EINVAL naming the flag. */
int cli_splitspec_generator_args(const struct cli_splitspec *s, int64_t *seed, int64_t *start_time,
                                 struct hb_error *err);

/* 1 when any split-specification flag was given. */
int cli_splitspec_given(const struct cli_splitspec *s);

/*
 * Checks the flag combination (exactly one algorithm, only its companion flags), reads any
 * file, and computes the split keys into out (empty on entry), verified as createTable would.
 * HB_EINVAL with a message for bad flags or input, HB_ENOMEM.
 */
int cli_splitspec_compute(struct hb_keys *out, const struct cli_splitspec *s, struct hb_error *err);

/* Appends the spec as canonical hbtab flags ("--hex-splits 10 --first 0 --last ff"), values
 * shell-quoted when needed, generator defaults spelled out. HB_EINVAL for a bad combination. */
int cli_splitspec_describe(struct hb_buf *out, const struct cli_splitspec *s, struct hb_error *err);

/* Appends a key for an hbase shell single-quoted string: toStringBinary with 0x27 as \x27
 * and spaces at either end as \x20, so Ruby quoting, strip() and toBytesBinary keep it. */
int cli_splitspec_shell_key(struct hb_buf *out, const void *k, size_t n);
/* Appends a key as one SPLITS_FILE line (no newline): toStringBinary with spaces at either
 * end as \x20, so both chomp-era and strip-era shells read back the same bytes. */
int cli_splitspec_file_key(struct hb_buf *out, const void *k, size_t n);

#endif
