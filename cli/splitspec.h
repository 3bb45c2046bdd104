/* The split-specification option group shared by splits, create, audit and simulate. */
#ifndef HB_CLI_SPLITSPEC_H
#define HB_CLI_SPLITSPEC_H

#include "../core/buf.h"
#include "../core/key.h"
#include "../core/splitspec.h"
#include "../rest/rest.h"
#include "cli.h"

/* The text of "SPLITSPEC" in usage lines and man pages. */
#define CLI_SPLITSPEC_USAGE "SPLITSPEC"

/* The option entries over a struct hb_splitspec (core/splitspec.h, the model); splice into a
 * static option table: CLI_SPLITSPEC_OPTIONS(&ss), */
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
int cli_splitspec_needs_cluster(const struct hb_splitspec *s);

/*
 * The one rule of N = auto: N = K x region servers, the count from --servers S where the
 * command takes it (splits, audit SPLITSPEC, simulate; then no server is asked), else the
 * live region servers of /status/cluster. servers NULL changes nothing; HB_EINVAL for a bad
 * count, or K x S over the region cap.
 */
int cli_splitspec_set_servers(struct hb_splitspec *s, const char *servers, struct hb_error *err);
/* cli_splitspec_set_servers for a command's --servers that means only that (splits, audit):
 * without N = auto it is a usage error. Prints the error; returns 0 or HB_EINVAL. */
int cli_splitspec_check_servers(const char *cmd, struct hb_splitspec *s, const char *servers);

/*
 * Reads what the spec needs from the cluster through rest: the live region-server count for
 * N = auto, the sampled keys for --sample-table (released by cli_splitspec_release).
 * HB_EINVAL for bad flags, the REST codes.
 */
int cli_splitspec_prepare(struct hb_splitspec *s, struct hb_rest *rest, struct hb_error *err);

/* Frees what cli_splitspec_prepare read. */
void cli_splitspec_release(struct hb_splitspec *s);

/*
 * Checks the flag combination (exactly one algorithm, only its companion flags), reads any
 * file, and computes the split keys into out (empty on entry), verified as createTable would.
 * HB_EINVAL with a message for bad flags or input, HB_ENOMEM.
 */
int cli_splitspec_compute(struct hb_keys *out, const struct hb_splitspec *s, struct hb_error *err);

/* Appends a key for an hbase shell single-quoted string: toStringBinary with 0x27 as \x27
 * and spaces at either end as \x20, so Ruby quoting, strip() and toBytesBinary keep it. */
int cli_splitspec_shell_key(struct hb_buf *out, const void *k, size_t n);
/* Appends a key as one SPLITS_FILE line (no newline): toStringBinary with spaces at either
 * end as \x20, so both chomp-era and strip-era shells read back the same bytes. */
int cli_splitspec_file_key(struct hb_buf *out, const void *k, size_t n);

#endif
