/* hbtab splits: compute pre-split keys offline and print them as lines, JSON, shell or a file. */
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "splitspec.h"

#include <string.h>

/* Output is flushed in pieces of about this size, so a million keys stay in little memory. */
#define SPLITS_FLUSH_AT ((size_t)1 << 20)

enum splits_format { FMT_LINES, FMT_JSON, FMT_SHELL, FMT_FILE };

static int flush(struct hb_buf *b, int force)
{
	int rc = 0;

	if (b->len && (force || b->len >= SPLITS_FLUSH_AT)) {
		rc = cli_write_stdout(b->data, b->len);
		hb_buf_reset(b);
	}
	return rc;
}

static int print_keys(const struct hb_keys *keys, enum splits_format fmt)
{
	struct hb_buf b = HB_BUF_INIT;
	size_t i, len;
	int rc = 0;

	if (fmt == FMT_JSON)
		rc = hb_buf_adds(&b, keys->n ? "{\"splits\": [\n" : "{\"splits\": []}\n");
	else if (fmt == FMT_SHELL)
		rc = hb_buf_adds(&b, "SPLITS => [");
	for (i = 0; !rc && i < keys->n; i++) {
		const unsigned char *k = hb_keys_at(keys, i, &len);

		switch (fmt) {
		case FMT_LINES:
			rc = hb_tsb_append(&b, k, len);
			if (!rc)
				rc = hb_buf_addc(&b, '\n');
			break;
		case FMT_FILE:
			rc = cli_splitspec_file_key(&b, k, len);
			if (!rc)
				rc = hb_buf_addc(&b, '\n');
			break;
		case FMT_SHELL:
			rc = hb_buf_adds(&b, i ? ", '" : "'");
			if (!rc)
				rc = cli_splitspec_shell_key(&b, k, len);
			if (!rc)
				rc = hb_buf_addc(&b, '\'');
			break;
		case FMT_JSON:
			rc = hb_buf_adds(&b, "  {\"key\": \"");
			if (!rc)
				rc = hb_tsb_append_escaped(&b, k, len, 0);
			if (!rc)
				rc = hb_buf_adds(&b, "\", \"base64\": \"");
			if (!rc)
				rc = hb_b64_encode(&b, k, len);
			if (!rc)
				rc = hb_buf_adds(&b, i + 1 < keys->n ? "\"},\n" : "\"}\n");
			break;
		}
		if (!rc)
			rc = flush(&b, 0);
	}
	if (!rc && fmt == FMT_JSON && keys->n)
		rc = hb_buf_adds(&b, "]}\n");
	else if (!rc && fmt == FMT_SHELL)
		rc = hb_buf_adds(&b, "]\n");
	if (!rc)
		rc = flush(&b, 1);
	hb_buf_release(&b);
	return rc;
}

static struct hb_splitspec ss;
static const char *format;
static int describe;
static const char *servers;
static const struct cli_option opts[] = {
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_STRING(0, "servers", &servers, "S",
               "with N = auto: region servers to count, so no server is asked"),
    CLI_GROUP("Output"),
    CLI_CHOICE(0, "format", &format, "FORMAT",
               "lines (default), json, shell (SPLITS => [...]) or splits-file",
               "lines json shell splits-file"),
    {CLI_OPT_FLAG, 0, "describe", &describe, NULL,
     "print the spec as canonical hbtab flags instead of the keys", NULL, CLI_OPT_HIDDEN},
    CLI_END,
};

/* Offline unless the spec reads the cluster: N = auto without --servers, --sample-table. */
static int check(struct cli_ctx *x)
{
	if (cli_splitspec_check_servers("splits", &ss, servers))
		return CLI_EXIT_USAGE;
	x->offline = !cli_splitspec_needs_cluster(&ss);
	return CLI_EXIT_OK;
}

/* The spec as canonical flags, one line. */
static int print_describe(struct hb_error *err)
{
	struct hb_buf d = HB_BUF_INIT;
	int rc = hb_splitspec_write(&d, &ss, err);

	if (!rc && !hb_buf_addc(&d, '\n'))
		rc = cli_write_stdout(d.data, d.len);
	hb_buf_release(&d);
	return rc;
}

static int run(struct cli_ctx *x)
{
	struct hb_keys keys;
	struct hb_error err = {0};
	enum splits_format fmt = FMT_LINES;
	int rc;

	if (format)
		fmt = !strcmp(format, "json")          ? FMT_JSON
		      : !strcmp(format, "shell")       ? FMT_SHELL
		      : !strcmp(format, "splits-file") ? FMT_FILE
		                                       : FMT_LINES;
	else if (cli_g.output == CLI_OUT_JSON)
		fmt = FMT_JSON;
	rc = x->offline ? 0 : cli_splitspec_prepare(&ss, x->rest, &err);
	hb_keys_init(&keys);
	if (!rc && describe)
		rc = print_describe(&err);
	else if (!rc && !(rc = cli_splitspec_compute(&keys, &ss, &err)))
		rc = print_keys(&keys, fmt);
	hb_keys_release(&keys);
	return cli_status(rc, &err, 0);
}

static void release(void)
{
	cli_splitspec_release(&ss);
}

const struct cli_command cli_cmd_splits = {
    .name = "splits",
    .summary = "compute pre-split keys offline",
    .usage = "splits SPLITSPEC [--format lines|json|shell|splits-file]",
    .opts = opts,
    .flags = CLI_CMD_HBASE,
    .check = check,
    .run = run,
    .release = release,
};
