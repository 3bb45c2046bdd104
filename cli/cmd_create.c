/* hbtab create: validate offline, then the create flow (rest/create.h) through the chosen
 * channel, and its summary; resumable and idempotent. */
#include "../rest/create.h"
#include "cli.h"
#include "commands.h"
#include "create.h"
#include "ddl.h"
#include "exit.h"
#include "output.h"
#include "splitspec.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define USAGE                                                                                      \
	"create TABLE SPLITSPEC [--family NAME[:ATTR=VAL,...]]... [--attr KEY=VAL]... "            \
	"[--via auto|thrift2|shell|rest|print] [--keyspace SPEC [--allow-unreachable]] "           \
	"[--create-namespace] [--no-metadata] "                                                    \
	"[--metadata-family F] [--metadata-row R] [--wait SEC]"

static void tsb_str(struct hb_buf *b, const void *k, size_t n)
{
	hb_buf_reset(b);
	if (hb_tsb_append_quoted(b, k, n) || hb_buf_adds(b, ""))
		hb_buf_reset(b);
}

/* ---------------------------------------------------------------- output */

static void print_timings(const struct cli_create *c, int force)
{
	size_t i;
	double total = 0;

	if (!force && !cli_g.verbose)
		return;
	for (i = 0; i < HB_CREATE_NPHASES; i++) {
		fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", hb_create_phase_name(i),
		        c->f.t[i]);
		total += c->f.t[i];
	}
	fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", "total", total);
}

/* The lines of the diff as a JSON array of strings. */
static void json_diff(cJSON *o, const struct hb_diff *d)
{
	const char *p = hb_buf_str(&d->lines);
	cJSON *arr = cJSON_AddArrayToObject(o, "diff");

	while (arr && *p) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);

		if (line)
			cJSON_AddItemToArray(arr, cJSON_CreateString(line));
		free(line);
		p += n + (p[n] ? 1 : 0);
	}
}

static void json_details(cJSON *o, const struct cli_create *c, const char *error)
{
	const struct hb_create *f = &c->f;
	cJSON *arr = cJSON_AddArrayToObject(o, "families"), *tm;
	size_t i;

	for (i = 0; arr && i < f->schema.nfamilies; i++) {
		cJSON *x = cJSON_CreateObject();

		if (x && cli_json_add_str(x, "name", f->schema.families[i].name))
			cJSON_AddItemToArray(arr, x);
		else
			cJSON_Delete(x);
	}
	cJSON_AddBoolToObject(o, "default_family", c->default_family);
	cJSON_AddBoolToObject(o, "families_verified", f->families_ok);
	if (f->reach_checked) {
		cJSON_AddBoolToObject(o, "reachable", f->nunreachable == 0);
		arr = cJSON_AddArrayToObject(o, "unreachable");
		for (i = 0; arr && i < f->nunreachable; i++)
			cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)f->unreachable[i]));
	}
	if (f->diff.lines.len)
		json_diff(o, &f->diff);
	if (error) {
		cli_json_add_str(o, "error", error);
		cJSON_AddNumberToObject(o, "exit", c->exit_status);
	}
	tm = cJSON_AddObjectToObject(o, "timings");
	for (i = 0; tm && i < HB_CREATE_NPHASES; i++)
		cJSON_AddNumberToObject(tm, hb_create_phase_name(i), f->t[i]);
}

static int print_json(const struct cli_create *c, const char *error)
{
	const struct hb_create *f = &c->f;
	cJSON *o = cJSON_CreateObject();
	int rc;

	if (!o)
		return HB_ENOMEM;
	cli_json_add_str(o, "table", f->table);
	cJSON_AddBoolToObject(o, "created", f->created);
	cJSON_AddBoolToObject(o, "verified", f->verified);
	cJSON_AddNumberToObject(o, "regions", (double)f->regions);
	cJSON_AddNumberToObject(o, "planned_regions", (double)(f->splits.n + 1));
	cJSON_AddNumberToObject(o, "N", (double)(f->splits.n + 1));
	if (c->live_servers)
		cJSON_AddNumberToObject(o, "live_servers", (double)c->live_servers);
	/* the channel actually used: none when the table existed */
	cli_json_add_str(o, "via", f->created ? cli_via_name(c->via) : "none");
	cli_json_add_str(o, "metadata", f->metadata);
	json_details(o, c, error);
	rc = cli_json_print(o);
	cJSON_Delete(o);
	return rc;
}

/* The regions no key of the key space reaches, at most 50, with their start keys. */
static void print_unreachable(const struct hb_create *f, void (*line)(const char *, ...))
{
	struct hb_buf t = HB_BUF_INIT;
	size_t i;

	for (i = 0; i < f->nunreachable && i < 50; i++) {
		size_t idx = f->unreachable[i], sl = 0;
		const unsigned char *s = idx ? hb_keys_at(&f->splits, idx - 1, &sl) : NULL;

		tsb_str(&t, s, sl);
		line("  region %zu starting at '%s'", idx, hb_buf_str(&t));
	}
	hb_buf_release(&t);
}

static void out_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void out_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void print_text(const struct cli_create *c)
{
	const struct hb_create *f = &c->f;
	size_t n = f->splits.n + 1;

	if (f->ns_created)
		printf("created namespace '%.*s'\n", (int)(strchr(f->table, ':') - f->table),
		       f->table);
	if (f->created)
		printf("created table '%s' with %zu region%s via %s; every boundary verified\n",
		       f->table, f->regions, f->regions == 1 ? "" : "s", cli_via_name(c->via));
	else
		printf("table '%s' already exists with the planned %zu region%s; verified, not "
		       "changed\n",
		       f->table, f->regions, f->regions == 1 ? "" : "s");
	if (c->default_family)
		printf("column family '%s': the default (--family names others)\n",
		       f->schema.families[0].name);
	if (c->live_servers)
		printf("N=%zu from %ld live region server%s\n", n, c->live_servers,
		       c->live_servers == 1 ? "" : "s");
	if (!strcmp(f->metadata, "written"))
		printf("metadata row written: N=%zu\n", n);
	else if (!strcmp(f->metadata, "present"))
		printf("metadata row already present: N=%zu\n", n);
}

static int print_summary(const struct cli_create *c, const char *error)
{
	const struct hb_create *f = &c->f;

	if (cli_g.output == CLI_OUT_JSON)
		return print_json(c, error);
	/* -q: a create that succeeded prints nothing; unreachable regions are findings, and
	 * they alone are printed */
	if (error || (cli_g.quiet && !f->nunreachable))
		return 0;
	if (!cli_g.quiet)
		print_text(c);
	if (f->reach_checked && !f->nunreachable) {
		printf("every region is reachable by keyspace '%s'\n", hb_buf_str(&f->ks_canon));
	} else if (f->reach_checked) {
		printf("%zu region%s no key of '%s' can reach:\n", f->nunreachable,
		       f->nunreachable == 1 ? "" : "s", hb_buf_str(&f->ks_canon));
		print_unreachable(f, out_line);
	}
	return 0;
}

static struct hb_splitspec ss;
static struct cli_create_opts co;
static const char *meta_family, *meta_row;
static int no_metadata, strict, allow_unreachable, create_namespace;
static const struct cli_option opts[] = {
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_CREATE_OPTIONS(&co, "auto (default), thrift2, shell, rest (1 region only) or print",
                       "auto thrift2 shell rest print"),
    CLI_FLAG(0, "allow-unreachable", &allow_unreachable,
             "create even when regions no key of --keyspace can reach (exit 1 after)"),
    /* the opt-in to what is now the default, kept for scripts that pass it */
    {CLI_OPT_FLAG, 0, "strict", &strict, NULL, "refuse an unreachable design (the default)", NULL,
     CLI_OPT_HIDDEN},
    CLI_FLAG(0, "create-namespace", &create_namespace,
             "create the table's namespace when it does not exist"),
    CLI_FLAG(0, "no-metadata", &no_metadata, "do not write the metadata row"),
    CLI_STRING(0, "metadata-family", &meta_family, "F",
               "family of the metadata row (default: the first family)"),
    CLI_STRING(0, "metadata-row", &meta_row, "R",
               "metadata row key, toStringBinary (default totalPartition)"),
    CLI_END,
};

static struct cli_create cr;
static int validated;

/*
 * With --keyspace: the planned regions against the key space before anything is sent or
 * created; a region no key can reach refuses the whole design (exit 1), listing the
 * regions, unless --allow-unreachable asks for the table anyway. An unattended run must not
 * create a table it already knows is broken.
 */
static int strict_check(struct cli_create *c)
{
	struct hb_create *f = &c->f;
	struct hb_error err = {0};
	int rc = hb_create_reach(f, &err), refused = 0;

	if (!rc) {
		hb_create_phase_end(f, HB_CREATE_REACH);
		if (!f->nunreachable)
			return CLI_EXIT_OK;
		rc = hb_error_set(
		    &err, HB_EFINDING,
		    "refusing to create '%s': %zu of %zu region%s cannot hold any key "
		    "of keyspace '%s'; nothing was sent (--allow-unreachable creates it "
		    "anyway)",
		    f->table, f->nunreachable, f->splits.n + 1, HB_PLURAL(f->splits.n + 1),
		    hb_buf_str(&f->ks_canon));
		refused = 1;
	}
	c->exit_status = cli_status(rc, &err, 0);
	if (refused) {
		print_unreachable(f, cli_error);
		if (f->nunreachable > 50)
			cli_error("  ... and %zu more", f->nunreachable - 50);
	}
	print_summary(c, err.msg);
	return c->exit_status;
}

/* Validation; a spec that takes N from the cluster is validated once connected. */
static int check_spec(void)
{
	struct hb_error err = {0};
	int rc = cli_create_validate(&cr, &ss, &co.families, &co.attrs, co.via, meta_row);

	hb_create_phase_end(&cr.f, HB_CREATE_VALIDATE);
	validated = 1;
	if (rc == HB_ENOMEM)
		return cli_status(rc, &err, 0);
	if (rc) /* reported */
		return CLI_EXIT_USAGE;
	return cr.f.ks && !allow_unreachable ? strict_check(&cr) : CLI_EXIT_OK;
}

/* Everything that can be checked offline; --via print needs no connection. */
static int check(struct cli_ctx *x)
{
	int st;

	cli_create_init(&cr, x->table);
	cr.summary = print_summary;
	/* --strict was the opt-in to what is now the default; it is still accepted */
	if ((strict || allow_unreachable) && !co.keyspace) {
		cli_usage_error("create",
		                "%s needs --keyspace (the key space the regions are "
		                "checked against)",
		                strict ? "--strict" : "--allow-unreachable");
		return CLI_EXIT_USAGE;
	}
	if (strict && allow_unreachable) {
		cli_usage_error("create",
		                "--strict and --allow-unreachable cannot be used together");
		return CLI_EXIT_USAGE;
	}
	cr.ks_spec = co.keyspace;
	cr.f.no_metadata = no_metadata;
	cr.f.create_namespace = create_namespace;
	cr.f.meta_family = meta_family;
	cr.f.metadata = no_metadata ? "skipped" : "none";
	if (cli_create_parse_wait("create", co.wait, &cr.f.wait))
		return CLI_EXIT_USAGE;
	if (cli_splitspec_needs_cluster(&ss))
		return CLI_EXIT_OK;
	st = check_spec();
	x->offline = !st && cr.via == CLI_VIA_PRINT;
	return st;
}

static int run_create(struct cli_ctx *x)
{
	struct hb_error err = {0};
	int st = CLI_EXIT_OK, rc;

	cr.rest = x->rest;
	if (!validated) {
		rc = cli_splitspec_prepare(&ss, cr.rest, &err);
		if (rc)
			return cli_status(rc, &err, 0);
		cr.live_servers = ss.live_servers;
		st = check_spec();
	}
	if (!st)
		st = cr.via == CLI_VIA_PRINT
		         ? cli_ddl_print(&cr.f.schema, &cr.f.splits, cr.default_family)
		         : cli_create_run(&cr);
	print_timings(&cr, co.timings);
	return st;
}

static void release(void)
{
	cli_create_release(&cr);
	cli_splitspec_release(&ss);
	cli_create_opts_release(&co);
}

const struct cli_command cli_cmd_create = {
    .name = "create",
    .summary = "create a pre-split table and verify it byte for byte",
    .usage = USAGE,
    .opts = opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check,
    .run = run_create,
    .release = release,
};
