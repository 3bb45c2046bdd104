/* The split specification: which algorithm and companions, checked; N resolved; the
 * metadata row's text written and read back; a recorded design read for the checks. */
#include "splitspec.h"

#include "keygen.h"
#include "keysample.h"
#include "num.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct algo_flag {
	const char *flag;
	size_t off; /* offset of the value in struct hb_splitspec */
	enum hb_split_algo algo;
};

#define ALGO(f, m, a)                                                                              \
	{                                                                                          \
		f, offsetof(struct hb_splitspec, m), a                                             \
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
		f, offsetof(struct hb_splitspec, m), bits, b                                       \
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

static const char *field(const struct hb_splitspec *s, size_t off)
{
	return *(const char *const *)((const char *)s + off);
}

static const char **field_at(struct hb_splitspec *s, size_t off)
{
	return (const char **)((char *)s + off);
}

int hb_splitspec_given(const struct hb_splitspec *s)
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
static int check_sampled(const struct hb_splitspec *s, struct hb_error *err)
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
static int check_algo_needs(const struct hb_splitspec *s, size_t found, struct hb_error *err)
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
static int pick_algo(const struct hb_splitspec *s, size_t *idx, struct hb_error *err)
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

int hb_splitspec_check(const struct hb_splitspec *s, enum hb_split_algo *algo, struct hb_error *err)
{
	size_t idx = 0;
	int rc = pick_algo(s, &idx, err);

	if (!rc && algo)
		*algo = algos[idx].algo;
	return rc;
}

int hb_splitspec_is_auto(const struct hb_splitspec *s)
{
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(algos); i++)
		if (algos[i].algo != HB_SPLIT_FILE && field(s, algos[i].off) &&
		    !strcmp(field(s, algos[i].off), "auto"))
			return 1;
	return 0;
}

int hb_splitspec_needs_cluster(const struct hb_splitspec *s)
{
	return (hb_splitspec_is_auto(s) && s->live_servers <= 0) || s->sample_table;
}

int hb_splitspec_per_server(const struct hb_splitspec *s, long *k, struct hb_error *err)
{
	return hb_parse_long(s->regions_per_server, 1, HB_SPLIT_MAX_REGIONS, "--regions-per-server",
	                     k, err);
}

int hb_splitspec_sample_rows(const struct hb_splitspec *s, long *m, struct hb_error *err)
{
	*m = HB_SPLITSPEC_DEFAULT_SAMPLE_ROWS;
	return s->sample_rows ? hb_parse_long(s->sample_rows, 1, HB_SPLITSPEC_MAX_SAMPLE,
	                                      "--sample-rows", m, err)
	                      : 0;
}

int hb_splitspec_sample_size(const struct hb_splitspec *s, long *m, struct hb_error *err)
{
	*m = HB_SPLITSPEC_DEFAULT_SAMPLE;
	return s->sample_size ? hb_parse_long(s->sample_size, 1, HB_SPLITSPEC_MAX_SAMPLE,
	                                      "--sample-size", m, err)
	                      : 0;
}

/* N as typed, or K x live servers for "auto"; the core checks the range of each algorithm. */
static int parse_n(const struct hb_splitspec *s, const char *v, const char *flag, long *out,
                   struct hb_error *err)
{
	char *end;
	long x, k = 0;

	if (!strcmp(v, "auto")) {
		int rc = hb_splitspec_per_server(s, &k, err);

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

int hb_splitspec_n(const struct hb_splitspec *s, long *n, struct hb_error *err)
{
	size_t idx = 0;
	int rc = pick_algo(s, &idx, err);

	*n = 0;
	if (rc || algos[idx].algo == HB_SPLIT_FILE)
		return rc;
	return parse_n(s, field(s, algos[idx].off), algos[idx].flag, n, err);
}

int hb_splitspec_generator_args(const struct hb_splitspec *s, int64_t *seed, int64_t *start_time,
                                struct hb_error *err)
{
	int rc = 0;

	*seed = *start_time = 0;
	if (s->seed)
		rc = hb_parse_i64(s->seed, "--seed", seed, err);
	if (!rc && s->start_time)
		rc = hb_parse_i64(s->start_time, "--start-time", start_time, err);
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

int hb_splitspec_bounds(struct hb_split_spec *spec, const struct hb_splitspec *s, struct hb_buf *a,
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

/* ---------------------------------------------------------------- the keys */

/* The keys of a --sample-table sample, read from the table by the caller. */
static int copy_table_sample(struct hb_keys *sample, const struct hb_splitspec *s,
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

/* --generator's sample of --sample-size keys (default HB_SPLITSPEC_DEFAULT_SAMPLE), thinned
 * where it is made to the keys the quantiles of spec->n regions take. */
static int generate_sample(struct hb_keys *sample, const struct hb_splitspec *s,
                           struct hb_split_spec *spec, struct hb_error *err)
{
	struct hb_keygen g;
	int64_t seed = 0, t0 = 0;
	long m = 0;
	int rc = hb_splitspec_sample_size(s, &m, err);

	if (!rc)
		rc = hb_splitspec_generator_args(s, &seed, &t0, err);
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

/* The sample (or, for a splits file, the keys) an algorithm computes from. */
static int load_keys(struct hb_keys *sample, struct hb_split_spec *spec,
                     const struct hb_splitspec *s, const struct hb_keys *file, struct hb_error *err)
{
	int rc = 0;

	if (spec->algo == HB_SPLIT_FILE) {
		spec->sample = file;
		return 0;
	}
	if (spec->algo != HB_SPLIT_SAMPLED || spec->n < 1 || spec->n > HB_SPLIT_MAX_REGIONS)
		return 0; /* the core reports a bad N */
	if (s->sample_table) {
		rc = copy_table_sample(sample, s, err);
		spec->sample_draws = (long)sample->n;
	} else if (s->sample_file) {
		spec->sample = file;
		spec->sample_draws = (long)file->n;
		return 0;
	} else {
		rc = generate_sample(sample, s, spec, err);
	}
	spec->sample = sample;
	return rc;
}

int hb_splitspec_compute(struct hb_keys *out, const struct hb_splitspec *s,
                         const struct hb_keys *file, struct hb_error *err)
{
	struct hb_split_spec spec;
	struct hb_buf a = HB_BUF_INIT, b = HB_BUF_INIT;
	struct hb_keys sample;
	int rc;

	memset(&spec, 0, sizeof(spec));
	spec.names = s->names;
	rc = hb_splitspec_check(s, &spec.algo, err);
	if (!rc)
		rc = hb_splitspec_n(s, &spec.n, err);
	if (rc)
		return rc;
	hb_keys_init(&sample);
	rc = hb_splitspec_bounds(&spec, s, &a, &b, err);
	if (!rc)
		rc = load_keys(&sample, &spec, s, file, err);
	if (!rc)
		rc = hb_split_compute(out, &spec, err);
	hb_buf_release(&a);
	hb_buf_release(&b);
	hb_keys_release(&sample);
	return rc;
}

/* ---------------------------------------------------------------- the recorded text */

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
static int write_sample(struct hb_buf *t, const struct hb_splitspec *s, struct hb_error *err)
{
	long m = 0;
	int64_t seed = 0, t0 = 0;
	char num[32];
	int rc = 0;

	if (s->sample_table) {
		/* the option in force (not the keys it kept): replayed, with the sampler's fixed
		 * seed, on the same rows it draws the same keys */
		rc = add_flag(t, "sample-table", s->sample_table);
		if (!rc)
			rc = hb_splitspec_sample_rows(s, &m, err);
		snprintf(num, sizeof(num), "%ld", m);
		return rc ? rc : add_flag(t, "sample-rows", num);
	}
	if (s->sample_file)
		return add_flag(t, "sample-file", s->sample_file);
	rc = add_flag(t, "generator", s->generator);
	if (!rc)
		rc = hb_splitspec_sample_size(s, &m, err);
	if (!rc)
		rc = hb_splitspec_generator_args(s, &seed, &t0, err);
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

/* The companions of the algorithm as flags, after its own. */
static int write_companions(struct hb_buf *t, const struct hb_splitspec *s, enum hb_split_algo algo,
                            struct hb_error *err)
{
	int rc = 0;

	switch (algo) {
	case HB_SPLIT_HEX:
	case HB_SPLIT_DECIMAL:
	case HB_SPLIT_UNIFORM:
		if (s->first)
			rc = add_flag(t, "first", s->first);
		if (!rc && s->last)
			rc = add_flag(t, "last", s->last);
		break;
	case HB_SPLIT_RANGE:
	case HB_SPLIT_BOOK_HEX:
		rc = add_flag(t, "start", s->start);
		if (!rc)
			rc = add_flag(t, "end", s->end);
		break;
	case HB_SPLIT_SALT:
		rc = add_flag(t, "salt-width", s->salt_width ? s->salt_width : "1");
		break;
	case HB_SPLIT_SAMPLED:
		rc = write_sample(t, s, err);
		break;
	default:
		break;
	}
	return rc;
}

int hb_splitspec_write(struct hb_buf *out, const struct hb_splitspec *s, struct hb_error *err)
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
	if (!rc)
		rc = write_companions(&t, s, algos[idx].algo, err);
	if (!rc && hb_buf_add(out, t.data ? t.data : "", t.len))
		rc = HB_ENOMEM;
	hb_buf_release(&t);
	if (rc == HB_ENOMEM) {
		out->len = start;
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	return rc;
}

/* The next word of a POSIX-shell-quoted flag string (single quotes only, as
 * hb_splitspec_write writes it) into w; NULL at the end. */
static const char *next_word(const char *p, struct hb_buf *w)
{
	hb_buf_reset(w);
	while (*p == ' ')
		p++;
	if (!*p)
		return NULL;
	while (*p && *p != ' ') {
		if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');

			if (!q || hb_buf_add(w, p + 1, (size_t)(q - p - 1)))
				return NULL;
			p = q + 1;
		} else if (*p == '\\' && p[1]) {
			if (hb_buf_addc(w, p[1]))
				return NULL;
			p += 2;
		} else if (hb_buf_addc(w, *p++)) {
			return NULL;
		}
	}
	if (hb_buf_add(w, "", 0))
		return NULL;
	return p;
}

/* Where the value of "--name" goes in a spec, or (size_t)-1 for a word that is no flag of
 * the split specification. */
static size_t flag_offset(const char *word)
{
	size_t j;

	if (strncmp(word, "--", 2))
		return (size_t)-1;
	for (j = 0; j < HB_ARRAY_LEN(algos); j++)
		if (!strcmp(word + 2, algos[j].flag))
			return algos[j].off;
	for (j = 0; j < HB_ARRAY_LEN(companions); j++)
		if (!strcmp(word + 2, companions[j].flag) &&
		    companions[j].off != offsetof(struct hb_splitspec, regions_per_server))
			return companions[j].off;
	return (size_t)-1;
}

int hb_splitspec_read(struct hb_splitspec *s, struct hb_buf *words, const char *text)
{
	struct hb_buf w = HB_BUF_INIT;
	size_t offs[64], n = 0, i;
	const char *p = text;

	hb_buf_reset(words);
	while (n < HB_ARRAY_LEN(offs) && (p = next_word(p, &w)) != NULL) {
		offs[n++] = words->len;
		if (hb_buf_add(words, w.data, w.len + 1))
			break;
	}
	hb_buf_release(&w);
	if (!n || n % 2 || n == HB_ARRAY_LEN(offs))
		return -1;
	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i += 2) {
		size_t off = flag_offset(words->data + offs[i]);

		if (off == (size_t)-1)
			return -1;
		*field_at(s, off) = words->data + offs[i + 1];
	}
	return 0;
}

const char **hb_splitspec_n_field(struct hb_splitspec *s)
{
	size_t j;

	for (j = 0; j < HB_ARRAY_LEN(algos); j++)
		if (algos[j].algo != HB_SPLIT_FILE && field(s, algos[j].off))
			return field_at(s, algos[j].off);
	return NULL;
}

int hb_splitspec_with_n(struct hb_splitspec *s, uint64_t n, char *num, size_t cap)
{
	const char **f = hb_splitspec_n_field(s);

	if (!f)
		return -1;
	snprintf(num, cap, "%llu", (unsigned long long)n);
	*f = num;
	s->regions_per_server = NULL;
	return 0;
}

/* A recorded N: digits only (at most 10^12), else 0. */
static unsigned long long recorded_n(const char *v)
{
	unsigned long long n = 0;

	if (!v || !*v)
		return 0;
	for (; *v >= '0' && *v <= '9' && n < 1000000000000ULL; v++)
		n = n * 10 + (unsigned long long)(*v - '0');
	return *v ? 0 : n;
}

int hb_splitspec_design(const char *text, struct hb_splitspec_design *d)
{
	struct hb_buf words = HB_BUF_INIT;
	struct hb_splitspec s;
	size_t j;
	int rc = -1;

	memset(d, 0, sizeof(*d));
	d->salt_width = 1;
	if (text && !hb_splitspec_read(&s, &words, text)) {
		for (j = 0; j < HB_ARRAY_LEN(algos); j++) {
			if (!field(&s, algos[j].off))
				continue;
			d->algo = algos[j].algo;
			d->n = recorded_n(field(&s, algos[j].off));
			break;
		}
		if (s.salt_width && s.salt_width[0] == '2')
			d->salt_width = 2;
		rc = d->algo == HB_SPLIT_NONE ? -1 : 0;
	}
	hb_buf_release(&words);
	return rc;
}
