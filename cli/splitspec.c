/* The split-specification flags: validation, file reading, key computation and canonical text. */
#include "splitspec.h"

#include "../core/ddlscript.h"
#include "../core/keypar.h"
#include "../core/split.h"
#include "../core/splitsfile.h"
#include "../rest/hbase.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Files larger than this are refused (split and sample files are text, one key a line). */
#define SPLITSPEC_MAX_FILE ((size_t)1 << 30)

struct algo_flag {
	const char *flag;
	size_t off; /* offset of the value in struct cli_splitspec */
	enum hb_split_algo algo;
};

#define ALGO(f, m, a)                                                                              \
	{                                                                                          \
		f, offsetof(struct cli_splitspec, m), a                                            \
	}
static const struct algo_flag algos[] = {
    ALGO("hex-splits", hex, HB_SPLIT_HEX),
    ALGO("decimal-splits", decimal, HB_SPLIT_DECIMAL),
    ALGO("uniform-splits", uniform, HB_SPLIT_UNIFORM),
    ALGO("range-splits", range, HB_SPLIT_RANGE),
    ALGO("book-hex-splits", book_hex, HB_SPLIT_BOOK_HEX),
    ALGO("partition-splits", partition, HB_SPLIT_PARTITION),
    ALGO("salt-splits", salt, HB_SPLIT_SALT),
    ALGO("sampled-splits", sampled, HB_SPLIT_SAMPLED),
    ALGO("splits-file", splits_file, HB_SPLIT_FILE),
};

/* Companion flags and the algorithms they belong to (bit i = algos[i]). */
struct companion {
	const char *flag;
	size_t off;
	unsigned allowed;
	const char *belongs;
};

#define BIT(a) (1u << (a))
#define COMP(f, m, bits, b)                                                                        \
	{                                                                                          \
		f, offsetof(struct cli_splitspec, m), bits, b                                      \
	}
static const struct companion companions[] = {
    COMP("first", first, BIT(0) | BIT(1) | BIT(2),
         "--hex-splits, --decimal-splits or --uniform-splits"),
    COMP("last", last, BIT(0) | BIT(1) | BIT(2),
         "--hex-splits, --decimal-splits or --uniform-splits"),
    COMP("start", start, BIT(3) | BIT(4), "--range-splits or --book-hex-splits"),
    COMP("end", end, BIT(3) | BIT(4), "--range-splits or --book-hex-splits"),
    COMP("salt-width", salt_width, BIT(6), "--salt-splits"),
    COMP("sample-file", sample_file, BIT(7), "--sampled-splits"),
    COMP("generator", generator, BIT(7), "--sampled-splits"),
    COMP("sample-size", sample_size, BIT(7), "--sampled-splits --generator"),
    COMP("seed", seed, BIT(7), "--sampled-splits --generator"),
    COMP("start-time", start_time, BIT(7), "--sampled-splits --generator"),
    COMP("regions-per-server", regions_per_server, 0xFFu /* all but --splits-file */,
         "an algorithm that takes N, with N = auto"),
    COMP("sample-table", sample_table, BIT(7), "--sampled-splits"),
    COMP("sample-rows", sample_rows, BIT(7), "--sampled-splits --sample-table"),
};

static const char *field(const struct cli_splitspec *s, size_t off)
{
	return *(const char *const *)((const char *)s + off);
}

int cli_splitspec_given(const struct cli_splitspec *s)
{
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(algos); i++)
		if (field(s, algos[i].off))
			return 1;
	for (i = 0; i < HB_ARRAY_LEN(companions); i++)
		if (field(s, companions[i].off))
			return 1;
	return 0;
}

/* The sampled algorithm's source flags: one of three, each with its own companions. */
static int check_sampled(const struct cli_splitspec *s, struct hb_error *err)
{
	const char *gen_only = s->sample_size ? "sample-size" : s->seed ? "seed" : "start-time";

	if (!!s->sample_file + !!s->generator + !!s->sample_table != 1)
		return hb_error_set(err, HB_EINVAL,
		                    s->sample_file || s->generator || s->sample_table
		                        ? "--sample-file, --generator and --sample-table "
		                          "cannot be used together"
		                        : "--sampled-splits needs --sample-file or --generator "
		                          "(or --sample-table)");
	if (s->sample_rows && !s->sample_table)
		return hb_error_set(err, HB_EINVAL, "--sample-rows goes with --sample-table");
	if (s->sample_table && (s->sample_size || s->seed || s->start_time))
		return hb_error_set(err, HB_EINVAL,
		                    "--%s goes with --generator, not --sample-table", gen_only);
	if (s->sample_file && (s->sample_size || s->seed || s->start_time))
		return hb_error_set(err, HB_EINVAL, "--%s goes with --generator, not --sample-file",
		                    gen_only);
	return 0;
}

/* What the chosen algorithm needs beyond its own flag: --start/--end, a sample source, and
 * --regions-per-server exactly when N is auto. */
static int check_algo_needs(const struct cli_splitspec *s, size_t found, struct hb_error *err)
{
	const char *nv = field(s, algos[found].off);
	int is_auto = algos[found].algo != HB_SPLIT_FILE && !strcmp(nv, "auto");
	int rc = 0;

	if ((algos[found].algo == HB_SPLIT_RANGE || algos[found].algo == HB_SPLIT_BOOK_HEX) &&
	    (!s->start || !s->end))
		return hb_error_set(err, HB_EINVAL, "--%s needs both --start and --end",
		                    algos[found].flag);
	if (algos[found].algo == HB_SPLIT_SAMPLED)
		rc = check_sampled(s, err);
	if (rc)
		return rc;
	if (is_auto && !s->regions_per_server)
		return hb_error_set(err, HB_EINVAL,
		                    "--%s auto needs --regions-per-server K (N = K x live "
		                    "region servers)",
		                    algos[found].flag);
	if (!is_auto && s->regions_per_server)
		return hb_error_set(err, HB_EINVAL,
		                    "--regions-per-server goes with N = auto (--%s auto)",
		                    algos[found].flag);
	return 0;
}

/* Finds the one algorithm flag and checks that every companion belongs to it. */
static int pick_algo(const struct cli_splitspec *s, size_t *idx, struct hb_error *err)
{
	size_t i, found = HB_ARRAY_LEN(algos);

	for (i = 0; i < HB_ARRAY_LEN(algos); i++) {
		if (!field(s, algos[i].off))
			continue;
		if (found != HB_ARRAY_LEN(algos))
			return hb_error_set(err, HB_EINVAL, "--%s and --%s cannot be used together",
			                    algos[found].flag, algos[i].flag);
		found = i;
	}
	if (found == HB_ARRAY_LEN(algos)) {
		for (i = 0; i < HB_ARRAY_LEN(companions); i++)
			if (field(s, companions[i].off))
				return hb_error_set(err, HB_EINVAL, "--%s needs %s",
				                    companions[i].flag, companions[i].belongs);
		return hb_error_set(err, HB_EINVAL,
		                    "no split specification given (use one of --hex-splits, "
		                    "--decimal-splits, --uniform-splits, --range-splits, "
		                    "--book-hex-splits, --partition-splits, --salt-splits, "
		                    "--sampled-splits, --splits-file)");
	}
	for (i = 0; i < HB_ARRAY_LEN(companions); i++)
		if (field(s, companions[i].off) && !(companions[i].allowed & BIT(found)))
			return hb_error_set(
			    err, HB_EINVAL, "--%s cannot be used with --%s (it goes with %s)",
			    companions[i].flag, algos[found].flag, companions[i].belongs);
	if (check_algo_needs(s, found, err))
		return HB_EINVAL;
	*idx = found;
	return 0;
}

static int is_auto(const struct cli_splitspec *s)
{
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(algos); i++)
		if (algos[i].algo != HB_SPLIT_FILE && field(s, algos[i].off) &&
		    !strcmp(field(s, algos[i].off), "auto"))
			return 1;
	return 0;
}

int cli_splitspec_needs_cluster(const struct cli_splitspec *s)
{
	return (is_auto(s) && s->live_servers <= 0) || s->sample_table;
}

int cli_splitspec_check_servers(const char *cmd, struct cli_splitspec *s, const char *servers)
{
	struct hb_error err = {0};

	if (!servers)
		return 0;
	if (!is_auto(s))
		return cli_usage_error(cmd, "--servers goes with N = auto (such as --hex-splits "
		                            "auto --regions-per-server K)");
	if (cli_splitspec_set_servers(s, servers, &err))
		return cli_usage_error(cmd, "%s", err.msg);
	return 0;
}

int cli_splitspec_set_servers(struct cli_splitspec *s, const char *servers, struct hb_error *err)
{
	long n, k = 0;
	int rc;

	if (!servers || !is_auto(s))
		return 0;
	rc = cli_parse_long(servers, 1, HB_SPLIT_MAX_REGIONS, "--servers", &n, err);
	if (!rc && s->regions_per_server)
		rc = cli_parse_long(s->regions_per_server, 1, HB_SPLIT_MAX_REGIONS,
		                    "--regions-per-server", &k, err);
	if (!rc && k > HB_SPLIT_MAX_REGIONS / n)
		rc = hb_error_set(err, HB_EINVAL,
		                  "N = auto: %ld x %ld servers is more than %ld regions", k, n,
		                  HB_SPLIT_MAX_REGIONS);
	if (!rc)
		s->live_servers = n;
	return rc;
}

int cli_splitspec_prepare(struct cli_splitspec *s, struct hb_rest *rest, struct hb_error *err)
{
	size_t idx;
	long k = 0, m = CLI_SPLITSPEC_DEFAULT_SAMPLE_ROWS;
	int rc = pick_algo(s, &idx, err);

	if (rc)
		return rc;
	if (is_auto(s) && s->live_servers <= 0) {
		struct hb_cluster_status st;

		rc = cli_parse_long(s->regions_per_server, 1, HB_SPLIT_MAX_REGIONS,
		                    "--regions-per-server", &k, err);
		if (rc)
			return rc;
		memset(&st, 0, sizeof(st));
		rc = hb_rest_get_status(rest, &st, err);
		if (rc)
			return rc;
		/* only live servers count: dead ones hold no regions */
		s->live_servers = (long)st.nlive;
		hb_cluster_status_release(&st);
		if (!s->live_servers)
			return hb_error_set(err, HB_ESERVER,
			                    "N = auto: the cluster reports no live region server");
		if (k > HB_SPLIT_MAX_REGIONS / s->live_servers)
			return hb_error_set(err, HB_EINVAL,
			                    "N = auto: %ld x %ld live servers is more than %ld "
			                    "regions",
			                    k, s->live_servers, HB_SPLIT_MAX_REGIONS);
	}
	if (s->sample_table) {
		if (s->sample_rows)
			rc = cli_parse_long(s->sample_rows, 1, CLI_SPLITSPEC_MAX_SAMPLE,
			                    "--sample-rows", &m, err);
		if (rc)
			return rc;
		cli_splitspec_release(s);
		s->table_keys = malloc(sizeof(*s->table_keys));
		if (!s->table_keys)
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		hb_keys_init(s->table_keys);
		rc = hb_rest_sample_keys(rest, s->sample_table, (size_t)m, 0x5EEDu, s->table_keys,
		                         err);
		if (rc == HB_ENOTFOUND)
			rc = hb_error_set(err, HB_ENOTFOUND, "--sample-table '%s' not found",
			                  s->sample_table);
		if (!rc && !s->table_keys->n)
			rc = hb_error_set(err, HB_EINVAL,
			                  "--sample-table '%s' has no rows to sample",
			                  s->sample_table);
	}
	return rc;
}

void cli_splitspec_release(struct cli_splitspec *s)
{
	if (s->table_keys) {
		hb_keys_release(s->table_keys);
		free(s->table_keys);
		s->table_keys = NULL;
	}
}

/* N as typed, or K x live servers for "auto"; the core checks the range of each algorithm. */
static int parse_n(const struct cli_splitspec *s, const char *v, const char *flag, long *out,
                   struct hb_error *err)
{
	char *end;
	long x, k = 0;

	if (!strcmp(v, "auto")) {
		int rc = cli_parse_long(s->regions_per_server, 1, HB_SPLIT_MAX_REGIONS,
		                        "--regions-per-server", &k, err);

		if (rc)
			return rc;
		if (s->live_servers <= 0)
			return hb_error_set(err, HB_EINVAL,
			                    "--%s auto needs the cluster's live region servers "
			                    "(this command does not read them)",
			                    flag);
		*out = k * s->live_servers;
		return 0;
	}
	errno = 0;
	x = strtol(v, &end, 10);
	if (!*v || *end || ((*v < '0' || *v > '9') && *v != '-'))
		return hb_error_set(err, HB_EINVAL, "--%s must be a whole number, got '%s'", flag,
		                    v);
	if (errno == ERANGE && *v == '-')
		return hb_error_set(err, HB_EINVAL, "--%s needs at least 1 region, got '%s'", flag,
		                    v);
	if (errno == ERANGE)
		return hb_error_set(err, HB_EINVAL,
		                    "--%s: at most %ld regions are supported, got '%s'", flag,
		                    HB_SPLIT_MAX_REGIONS, v);
	*out = x;
	return 0;
}

int cli_splitspec_generator_args(const struct cli_splitspec *s, int64_t *seed, int64_t *start_time,
                                 struct hb_error *err)
{
	int rc = 0;

	*seed = *start_time = 0;
	if (s->seed)
		rc = cli_parse_i64(s->seed, "--seed", seed, err);
	if (!rc && s->start_time)
		rc = cli_parse_i64(s->start_time, "--start-time", start_time, err);
	return rc;
}

/* Reads a whole file ("-" = standard input) into out. */
static int read_file(struct hb_buf *out, const char *path, struct hb_error *err)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char chunk[65536];
	size_t n;
	int rc = 0;

	if (!f)
		return hb_error_set(err, HB_EINVAL, "cannot open '%s': %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (out->len + n > SPLITSPEC_MAX_FILE) {
			rc = hb_error_set(err, HB_EINVAL, "'%s' is larger than 1 GiB", path);
			break;
		}
		if (hb_buf_add(out, chunk, n)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
	}
	if (!rc && ferror(f))
		rc = hb_error_set(err, HB_EINVAL, "cannot read '%s': %s", path, strerror(errno));
	if (f != stdin)
		fclose(f);
	return rc;
}

static int read_keys(struct hb_keys *out, const char *path, int flags, struct hb_error *err)
{
	struct hb_buf text = HB_BUF_INIT;
	int rc = read_file(&text, path, err);

	if (!rc)
		rc = hb_splitsfile_parse(out, text.data ? text.data : "", text.len,
		                         strcmp(path, "-") ? path : "stdin", flags, err);
	hb_buf_release(&text);
	return rc;
}

static int parse_key(struct hb_buf *out, const char *v, const char *flag, struct hb_error *err)
{
	struct hb_error e = {0};
	int rc = hb_tbb_parse(out, v, strlen(v), &e);

	if (rc)
		return hb_error_set(err, rc, "--%s '%s': %s", flag, v, e.msg);
	if (out->len > HB_MAX_ROW_LENGTH)
		return hb_error_set(err, HB_EINVAL,
		                    "--%s is %zu bytes long, more than HBase's maximum "
		                    "row length %d",
		                    flag, out->len, HB_MAX_ROW_LENGTH);
	return 0;
}

/* The range flags of the algorithms that take them into spec; parsed keys live in a and b. */
static int fill_bounds(struct hb_split_spec *spec, const struct cli_splitspec *s, struct hb_buf *a,
                       struct hb_buf *b, struct hb_error *err)
{
	int rc = 0;

	switch (spec->algo) {
	case HB_SPLIT_HEX:
	case HB_SPLIT_DECIMAL:
		spec->first = s->first;
		spec->last = s->last;
		break;
	case HB_SPLIT_UNIFORM:
		if (s->first && !(rc = parse_key(a, s->first, "first", err))) {
			spec->start = (const unsigned char *)(a->data ? a->data : "");
			spec->start_len = a->len;
		}
		if (!rc && s->last && !(rc = parse_key(b, s->last, "last", err))) {
			spec->end = (const unsigned char *)(b->data ? b->data : "");
			spec->end_len = b->len;
		}
		break;
	case HB_SPLIT_RANGE:
		rc = parse_key(a, s->start, "start", err);
		if (!rc)
			rc = parse_key(b, s->end, "end", err);
		spec->start = (const unsigned char *)(a->data ? a->data : "");
		spec->start_len = a->len;
		spec->end = (const unsigned char *)(b->data ? b->data : "");
		spec->end_len = b->len;
		break;
	case HB_SPLIT_BOOK_HEX:
		spec->start = (const unsigned char *)s->start;
		spec->end = (const unsigned char *)s->end;
		spec->start_len = strlen(s->start);
		spec->end_len = strlen(s->end);
		break;
	case HB_SPLIT_SALT:
		spec->salt_width = s->salt_width ? (s->salt_width[0] == '2' ? 2 : 1) : 1;
		if (s->salt_width && strcmp(s->salt_width, "1") && strcmp(s->salt_width, "2"))
			rc = hb_error_set(err, HB_EINVAL, "--salt-width must be 1 or 2, got '%s'",
			                  s->salt_width);
		break;
	default:
		break;
	}
	return rc;
}

/* The keys of a --sample-table sample, read from the table by the caller. */
static int copy_table_sample(struct hb_keys *sample, const struct cli_splitspec *s,
                             struct hb_error *err)
{
	size_t i, kl;

	if (!s->table_keys)
		return hb_error_set(err, HB_EINVAL,
		                    "--sample-table needs the cluster (this command "
		                    "does not read it)");
	for (i = 0; i < s->table_keys->n; i++) {
		const unsigned char *k = hb_keys_at(s->table_keys, i, &kl);

		if (hb_keys_push(sample, k, kl))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	return 0;
}

/* --generator's sample of --sample-size keys (default CLI_SPLITSPEC_DEFAULT_SAMPLE), thinned
 * where it is made to the keys the quantiles of spec->n regions take. */
static int generate_sample(struct hb_keys *sample, const struct cli_splitspec *s,
                           struct hb_split_spec *spec, struct hb_error *err)
{
	struct hb_keygen g;
	int64_t seed = 0, t0 = 0;
	long m = CLI_SPLITSPEC_DEFAULT_SAMPLE;
	int rc = 0;

	if (s->sample_size)
		rc = cli_parse_long(s->sample_size, 1, CLI_SPLITSPEC_MAX_SAMPLE, "--sample-size",
		                    &m, err);
	if (!rc)
		rc = cli_splitspec_generator_args(s, &seed, &t0, err);
	if (!rc)
		rc = hb_keygen_init(&g, s->generator, seed, t0, err);
	spec->sample_draws = m;
	spec->sample_step = (uint64_t)(m / spec->n ? m / spec->n : 1);
	if (!rc) {
		rc = hb_keygen_sample_quantiles(sample, &spec->sample_distinct, &g, (uint64_t)m,
		                                spec->sample_step, s->threads, err);
		hb_keygen_release(&g);
	}
	return rc;
}

/* The sample (or, for --splits-file, the keys) an algorithm computes from. */
static int load_keys(struct hb_keys *sample, struct hb_split_spec *spec,
                     const struct cli_splitspec *s, struct hb_error *err)
{
	int rc = 0;

	if (spec->algo == HB_SPLIT_FILE) {
		spec->sample = sample;
		return read_keys(sample, s->splits_file,
		                 HB_SPLITSFILE_SORTED | HB_SPLITSFILE_SPLITS, err);
	}
	if (spec->algo != HB_SPLIT_SAMPLED || spec->n < 1 || spec->n > HB_SPLIT_MAX_REGIONS)
		return 0; /* the core reports a bad N */
	if (s->sample_table) {
		rc = copy_table_sample(sample, s, err);
		spec->sample_draws = (long)sample->n;
	} else if (s->sample_file) {
		rc = read_keys(sample, s->sample_file, 0, err);
		spec->sample_draws = (long)sample->n;
	} else {
		rc = generate_sample(sample, s, spec, err);
	}
	spec->sample = sample;
	return rc;
}

int cli_splitspec_compute(struct hb_keys *out, const struct cli_splitspec *s, struct hb_error *err)
{
	struct hb_split_spec spec;
	struct hb_buf a = HB_BUF_INIT, b = HB_BUF_INIT;
	struct hb_keys sample;
	size_t idx = 0;
	int rc;

	memset(&spec, 0, sizeof(spec));
	hb_keys_init(&sample);
	rc = pick_algo(s, &idx, err);
	if (rc)
		return rc;
	spec.algo = algos[idx].algo;
	if (spec.algo != HB_SPLIT_FILE) {
		rc = parse_n(s, field(s, algos[idx].off), algos[idx].flag, &spec.n, err);
		if (rc)
			return rc;
	}
	rc = fill_bounds(&spec, s, &a, &b, err);
	if (!rc)
		rc = load_keys(&sample, &spec, s, err);
	if (!rc)
		rc = hb_split_compute(out, &spec, err);
	hb_buf_release(&a);
	hb_buf_release(&b);
	hb_keys_release(&sample);
	return rc;
}

/* Appends " --flag value", single-quoting the value for a POSIX shell when needed. */
static int add_flag(struct hb_buf *out, const char *flag, const char *v)
{
	const char *p;
	int plain = v && *v;

	if (hb_buf_addf(out, "%s--%s", out->len ? " " : "", flag))
		return HB_ENOMEM;
	if (!v)
		return 0;
	for (p = v; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		               "_@%+=:,./-",
		               *p) != NULL;
	if (plain)
		return hb_buf_addf(out, " %s", v) ? HB_ENOMEM : 0;
	if (hb_buf_adds(out, " '"))
		return HB_ENOMEM;
	for (p = v; *p; p++)
		if (*p == '\'' ? hb_buf_adds(out, "'\\''") : hb_buf_addc(out, *p))
			return HB_ENOMEM;
	return hb_buf_addc(out, '\'') ? HB_ENOMEM : 0;
}

/* The sample source of --sampled-splits as flags: the options in force, defaults spelled
 * out, so a replay draws the same sample. */
static int describe_sample(struct hb_buf *t, const struct cli_splitspec *s, struct hb_error *err)
{
	long m = s->sample_table ? CLI_SPLITSPEC_DEFAULT_SAMPLE_ROWS : CLI_SPLITSPEC_DEFAULT_SAMPLE;
	int64_t seed = 0, t0 = 0;
	char num[32];
	int rc = 0;

	if (s->sample_table) {
		/* the option in force (not the keys it kept): replayed, with the sampler's fixed
		 * seed, on the same rows it draws the same keys */
		rc = add_flag(t, "sample-table", s->sample_table);
		if (!rc && s->sample_rows)
			rc = cli_parse_long(s->sample_rows, 1, CLI_SPLITSPEC_MAX_SAMPLE,
			                    "--sample-rows", &m, err);
		snprintf(num, sizeof(num), "%ld", m);
		return rc ? rc : add_flag(t, "sample-rows", num);
	}
	if (s->sample_file)
		return add_flag(t, "sample-file", s->sample_file);
	rc = add_flag(t, "generator", s->generator);
	if (!rc && s->sample_size)
		rc = cli_parse_long(s->sample_size, 1, CLI_SPLITSPEC_MAX_SAMPLE, "--sample-size",
		                    &m, err);
	if (!rc)
		rc = cli_splitspec_generator_args(s, &seed, &t0, err);
	snprintf(num, sizeof(num), "%ld", m);
	if (!rc)
		rc = add_flag(t, "sample-size", num);
	snprintf(num, sizeof(num), "%lld", (long long)seed);
	if (!rc)
		rc = add_flag(t, "seed", num);
	snprintf(num, sizeof(num), "%lld", (long long)t0);
	if (!rc)
		rc = add_flag(t, "start-time", num);
	return rc;
}

int cli_splitspec_describe(struct hb_buf *out, const struct cli_splitspec *s, struct hb_error *err)
{
	struct hb_buf t = HB_BUF_INIT;
	size_t idx = 0, start = out->len;
	char num[32];
	long n = 0;
	int rc = pick_algo(s, &idx, err);

	if (rc)
		return rc;
	if (algos[idx].algo == HB_SPLIT_FILE) {
		rc = add_flag(&t, "splits-file", s->splits_file);
	} else {
		rc = parse_n(s, field(s, algos[idx].off), algos[idx].flag, &n, err);
		if (rc)
			return rc;
		snprintf(num, sizeof(num), "%ld", n);
		rc = add_flag(&t, algos[idx].flag, num);
	}
	switch (algos[idx].algo) {
	case HB_SPLIT_HEX:
	case HB_SPLIT_DECIMAL:
	case HB_SPLIT_UNIFORM:
		if (!rc && s->first)
			rc = add_flag(&t, "first", s->first);
		if (!rc && s->last)
			rc = add_flag(&t, "last", s->last);
		break;
	case HB_SPLIT_RANGE:
	case HB_SPLIT_BOOK_HEX:
		if (!rc)
			rc = add_flag(&t, "start", s->start);
		if (!rc)
			rc = add_flag(&t, "end", s->end);
		break;
	case HB_SPLIT_SALT:
		if (!rc)
			rc = add_flag(&t, "salt-width", s->salt_width ? s->salt_width : "1");
		break;
	case HB_SPLIT_SAMPLED:
		if (!rc)
			rc = describe_sample(&t, s, err);
		break;
	default:
		break;
	}
	if (!rc && hb_buf_add(out, t.data ? t.data : "", t.len))
		rc = HB_ENOMEM;
	hb_buf_release(&t);
	if (rc == HB_ENOMEM) {
		out->len = start;
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	return rc;
}

int cli_splitspec_shell_key(struct hb_buf *out, const void *k, size_t n)
{
	return hb_ddlscript_shell_key(out, k, n);
}

int cli_splitspec_file_key(struct hb_buf *out, const void *k, size_t n)
{
	return hb_ddlscript_file_key(out, k, n);
}
