/* The split-specification option group: what the spec reads from the cluster and from files,
 * and its keys computed; the spec itself (checks, N, the recorded text) is core/splitspec.c. */
#include "splitspec.h"

#include "../core/ddlscript.h"
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

/* The split algorithms' parameters as the options that set them, for core's messages. */
static const struct hb_split_names option_names = {
    "--first",
    "--last",
    "--start",
    "--end",
    "--salt-width",
    {"--none", "--hex-splits", "--decimal-splits", "--uniform-splits", "--range-splits",
     "--book-hex-splits", "--partition-splits", "--salt-splits", "--sampled-splits",
     "--splits-file"},
};

int cli_splitspec_needs_cluster(const struct hb_splitspec *s)
{
	return hb_splitspec_needs_cluster(s);
}

int cli_splitspec_check_servers(const char *cmd, struct hb_splitspec *s, const char *servers)
{
	struct hb_error err = {0};

	if (!servers)
		return 0;
	if (!hb_splitspec_is_auto(s))
		return cli_usage_error(cmd, "--servers goes with N = auto (such as --hex-splits "
		                            "auto --regions-per-server K)");
	if (cli_splitspec_set_servers(s, servers, &err))
		return cli_usage_error(cmd, "%s", err.msg);
	return 0;
}

int cli_splitspec_set_servers(struct hb_splitspec *s, const char *servers, struct hb_error *err)
{
	long n, k = 0;
	int rc;

	if (!servers || !hb_splitspec_is_auto(s))
		return 0;
	rc = cli_parse_long(servers, 1, HB_SPLIT_MAX_REGIONS, "--servers", &n, err);
	if (!rc && s->regions_per_server)
		rc = hb_splitspec_per_server(s, &k, err);
	if (!rc && k > HB_SPLIT_MAX_REGIONS / n)
		rc = hb_error_set(err, HB_EINVAL,
		                  "N = auto: %ld x %ld servers is more than %ld regions", k, n,
		                  HB_SPLIT_MAX_REGIONS);
	if (!rc)
		s->live_servers = n;
	return rc;
}

int cli_splitspec_prepare(struct hb_splitspec *s, struct hb_rest *rest, struct hb_error *err)
{
	long k = 0, m = HB_SPLITSPEC_DEFAULT_SAMPLE_ROWS;
	int rc = hb_splitspec_check(s, NULL, err);

	if (rc)
		return rc;
	if (hb_splitspec_is_auto(s) && s->live_servers <= 0) {
		struct hb_cluster_status st;

		rc = hb_splitspec_per_server(s, &k, err);
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
		rc = hb_splitspec_sample_rows(s, &m, err);
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

void cli_splitspec_release(struct hb_splitspec *s)
{
	if (s->table_keys) {
		hb_keys_release(s->table_keys);
		free(s->table_keys);
		s->table_keys = NULL;
	}
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

int cli_splitspec_compute(struct hb_keys *out, const struct hb_splitspec *spec,
                          struct hb_error *err)
{
	enum hb_split_algo algo = HB_SPLIT_NONE;
	struct hb_splitspec named = *spec;
	const struct hb_splitspec *s = &named;
	struct hb_keys file;
	long n = 0;
	int rc;

	named.names = &option_names;
	rc = hb_splitspec_check(s, &algo, err);

	if (!rc)
		rc = hb_splitspec_n(s, &n, err);
	if (rc)
		return rc;
	hb_keys_init(&file);
	/* a sample file is not read for an N the core refuses */
	if (algo == HB_SPLIT_FILE)
		rc = read_keys(&file, s->splits_file, HB_SPLITSFILE_SORTED | HB_SPLITSFILE_SPLITS,
		               err);
	else if (algo == HB_SPLIT_SAMPLED && s->sample_file && n >= 1 && n <= HB_SPLIT_MAX_REGIONS)
		rc = read_keys(&file, s->sample_file, 0, err);
	if (!rc)
		rc = hb_splitspec_compute(out, s, &file, err);
	hb_keys_release(&file);
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
