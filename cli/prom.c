/* --format prometheus and --prom-file PATH: the options, the report's emission, the atomic file. */
#include "prom.h"
#include "exit.h"
#include "exitreport.h"

#include "../core/filereplace.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* An earlier report is a few KiB; anything bigger at PATH is not one of hbtab's. */
#define PREVIOUS_MAX (1u << 20)

int cli_prom_check(const char *cmd, const struct cli_prom_opts *o)
{
	struct stat st;

	if (o->format) {
		if (!strcmp(o->format, "prometheus"))
			cli_g.output = CLI_OUT_PROM;
		else if (!strcmp(o->format, "json"))
			cli_g.output = CLI_OUT_JSON;
		else if (!strcmp(o->format, "text"))
			cli_g.output = CLI_OUT_TEXT;
		else
			return cli_usage_exit(
			    cmd, "invalid --format '%s' (expected text, json or prometheus)",
			    o->format);
	}
	if (o->file && !*o->file)
		return cli_usage_exit(cmd, "--prom-file needs a file name");
	if (o->file && !stat(o->file, &st) && S_ISDIR(st.st_mode))
		return cli_usage_exit(cmd, "--prom-file '%s' is a directory", o->file);
	return CLI_EXIT_OK;
}

int cli_prom_stdout(const struct cli_prom_opts *o)
{
	return o->format && !strcmp(o->format, "prometheus");
}

int cli_prom_wanted(const struct cli_prom_opts *o)
{
	return cli_prom_stdout(o) || o->file;
}

/* Every kind core/audit.h defines, in the order a person reads them. */
static const char *const audit_kinds[] = {
    HB_FIND_UNREACHABLE,
    HB_FIND_HOLE,
    HB_FIND_OVERLAP,
    HB_FIND_DUPLICATE,
    HB_FIND_OFFLINE,
    HB_FIND_SPLIT_PARENT,
    HB_FIND_NO_SERVER,
    HB_FIND_NOT_OPEN,
    HB_FIND_DISABLED,
    HB_FIND_STATE_UNKNOWN,
    HB_FIND_BAD_FIRST_START,
    HB_FIND_BAD_LAST_END,
    HB_FIND_META_REST_MISMATCH,
    HB_FIND_DRIFT,
    HB_FIND_MISSING_METADATA,
    HB_FIND_HOTSPOT,
    HB_FIND_PLACEMENT,
};

int cli_prom_finding_kinds(struct hb_prom_kind **out, size_t *n, const struct hb_findings *f)
{
	size_t cap = HB_ARRAY_LEN(audit_kinds) + f->n, k = 0, i, j;
	struct hb_prom_kind *v = calloc(cap, sizeof(*v));

	if (!v)
		return HB_ENOMEM;
	for (i = 0; i < HB_ARRAY_LEN(audit_kinds); i++)
		v[k++].kind = audit_kinds[i];
	for (i = 0; i < f->n; i++) {
		for (j = 0; j < k && strcmp(v[j].kind, f->v[i].kind); j++)
			;
		if (j == k)
			v[k++].kind = f->v[i].kind; /* a kind newer than the list above */
		v[j].value++;
	}
	*out = v;
	*n = k;
	return 0;
}

/* The temporary file's name starts with a dot and does not end in .prom, so the textfile
 * collector never reads it; 0644 whatever the umask: node_exporter usually runs as another
 * user. */
int cli_prom_write_file(const char *path, const void *data, size_t n, struct hb_error *err)
{
	return hb_file_replace(path, data, n, 0644, err);
}

/* The last success time an earlier report at path holds for r's command and subject, or -1. */
static double previous_success(const char *path, const struct hb_prom_report *r)
{
	const char *labels[4] = {"command", r->command, r->subject_label, r->subject};
	struct hb_buf text = HB_BUF_INIT;
	char chunk[4096];
	double v = -1;
	size_t got;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	hb_buf_init(&text, PREVIOUS_MAX);
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (hb_buf_add(&text, chunk, got))
			break;
	fclose(f);
	if (text.data && hb_prom_find(text.data, text.len, HB_PROM_LAST_SUCCESS, labels, 2, &v))
		v = -1;
	hb_buf_release(&text);
	return v >= 0 ? v : -1;
}

int cli_prom_emit(const struct cli_prom_opts *o, struct hb_prom_report *r, int status)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};
	struct timespec ts;

	if (!cli_prom_wanted(o))
		return status;
	cli_exit_report_clear(); /* this run reports itself from here on */
	r->status = status;
	clock_gettime(CLOCK_REALTIME, &ts);
	r->now = (double)ts.tv_sec;
	r->last_success = hb_prom_success(status) || !o->file ? -1 : previous_success(o->file, r);
	if (hb_prom_report(&b, r)) {
		hb_buf_release(&b);
		cli_error("out of memory");
		return hb_prom_success(status) ? CLI_EXIT_SERVER : status;
	}
	/* a failed write to stdout was reported and decides the exit status (cli_finish_stdout) */
	if (cli_prom_stdout(o))
		cli_write_stdout(b.data, b.len);
	if (o->file && cli_prom_write_file(o->file, b.data, b.len, &err)) {
		cli_error("%s", err.msg);
		if (hb_prom_success(status))
			status = CLI_EXIT_USAGE;
	}
	hb_buf_release(&b);
	return status;
}

/* A report of command about one table (rotate's: its template), nothing measured yet. The
 * label is "table" for every command: the textfile collector wants one set of label names per
 * metric name across all its files. */
static void report_init(struct hb_prom_report *r, const char *command, const char *table)
{
	memset(r, 0, sizeof(*r));
	r->command = command;
	r->subject_label = "table";
	r->subject = table;
}

void cli_prom_arm(const struct cli_prom_opts *o, const char *command, const char *table)
{
	static const int status[4] = {CLI_EXIT_SIGINT, CLI_EXIT_SIGTERM, CLI_EXIT_SIGPIPE,
	                              CLI_EXIT_SERVER};
	struct hb_buf b[4] = {HB_BUF_INIT, HB_BUF_INIT, HB_BUF_INIT, HB_BUF_INIT};
	char *text[4];
	struct hb_prom_report r;
	double last;
	int i, rc = 0;

	if (!cli_prom_wanted(o))
		return;
	report_init(&r, command, table);
	last = o->file ? previous_success(o->file, &r) : -1;
	for (i = 0; !rc && i < 4; i++) {
		r.status = status[i];
		r.now = 0; /* the handler writes the time of the end */
		r.last_success = last;
		rc = hb_prom_report(&b[i], &r);
		text[i] = b[i].data;
	}
	if (rc || cli_exit_report_set(o->file, cli_prom_stdout(o), text))
		cli_warn("out of memory: a signal or --deadline would leave no report");
	for (i = 0; i < 4; i++)
		hb_buf_release(&b[i]);
}

int cli_prom_audit(const struct cli_prom_opts *o, const char *table, const struct hb_findings *f,
                   size_t regions, const char *n, int status)
{
	struct hb_prom_gauge g[] = {
	    {"hbtab_audit_regions", "Regions of the table that hbtab's last audit listed.", NAN},
	    {"hbtab_audit_partitions",
	     "N, the partition count the table's metadata row records (absent: no row).", NAN},
	};
	struct hb_prom_report r;
	struct hb_prom_kind *kinds = NULL;

	if (!cli_prom_wanted(o))
		return status;
	report_init(&r, "audit", table);
	if (hb_prom_success(status)) {
		if (cli_prom_finding_kinds(&kinds, &r.nkinds, f)) {
			cli_error("out of memory");
			return CLI_EXIT_SERVER;
		}
		r.kinds_metric = "hbtab_audit_findings";
		r.kinds_help = "Findings of hbtab's last audit of the table, per kind (0: none).";
		r.kinds = kinds;
		g[0].value = (double)regions;
		if (n && *n) {
			char *end;
			long long v;

			errno = 0;
			v = strtoll(n, &end, 10);
			if (!*end && !errno && v >= 0)
				g[1].value = (double)v;
		}
		r.gauges = g;
		r.ngauges = HB_ARRAY_LEN(g);
	}
	status = cli_prom_emit(o, &r, status);
	free(kinds);
	return status;
}

/* How many of res's lines have action. */
static size_t count_action(const struct hb_rotate_result *res, const char *action)
{
	size_t i, n = 0;

	for (i = 0; i < res->nlines; i++)
		n += !strcmp(res->lines[i].action, action);
	return n;
}

int cli_prom_rotate(const struct cli_prom_opts *o, const char *tmpl,
                    const struct hb_rotate_result *res, int status)
{
	const struct hb_prom_gauge g[] = {
	    {"hbtab_rotate_tables_created", "Tables hbtab's last rotate run created.",
	     (double)count_action(res, "created")},
	    {"hbtab_rotate_tables_dropped", "Tables hbtab's last rotate run dropped.",
	     (double)count_action(res, "dropped")},
	    {"hbtab_rotate_pending_drops",
	     "Managed tables past retention that hbtab's last rotate run left for a later one "
	     "(--max-drops reached, or no --yes).",
	     (double)res->pending},
	};
	struct hb_prom_report r;

	if (!cli_prom_wanted(o))
		return status;
	report_init(&r, "rotate", tmpl); /* the template goes in the table label */
	r.gauges = g;
	r.ngauges = HB_ARRAY_LEN(g);
	return cli_prom_emit(o, &r, status);
}

/* Every kind repair plans (core/repair.h); audit's chain findings join when they appear. */
static const char *const repair_kinds[] = {
    HB_REPAIR_UNREACHABLE, HB_REPAIR_NOT_EMPTY, HB_REPAIR_UNPROVEN,   HB_REPAIR_NO_NEIGHBOUR,
    HB_REPAIR_EMPTY,       HB_REPAIR_HOT,       HB_REPAIR_HOT_NO_KEY,
};

int cli_prom_repair(const struct cli_prom_opts *o, const char *table,
                    const struct cli_prom_repair *rp, int status)
{
	struct hb_prom_gauge g[] = {
	    {"hbtab_repair_table_readable",
	     "Whether hbtab's last repair run could read the table completely (0: nothing "
	     "planned).",
	     NAN},
	    {"hbtab_repair_regions", "Live regions of the table that hbtab's last repair run read.",
	     NAN},
	    {"hbtab_repair_steps_deferred",
	     "Merges and splits hbtab's last repair run left for the next one (--max-steps).", NAN},
	    {"hbtab_repair_steps_done", "Merges and splits hbtab's last repair run carried out.",
	     NAN},
	    {"hbtab_repair_open",
	     "Entries of the repair plan still open after hbtab's last repair run (steps not run "
	     "or not effective, findings only reported).",
	     NAN},
	};
	struct hb_prom_kind *kinds = NULL;
	struct hb_prom_report r;
	size_t i, j, k = 0;

	if (!cli_prom_wanted(o))
		return status;
	report_init(&r, "repair", table);
	if (hb_prom_success(status)) {
		g[0].value = rp->plan ? 1 : 0;
		g[1].value = (double)rp->regions;
		if (rp->plan) {
			kinds = calloc(HB_ARRAY_LEN(repair_kinds) + rp->plan->n, sizeof(*kinds));
			if (!kinds) {
				cli_error("out of memory");
				return CLI_EXIT_SERVER;
			}
			for (i = 0; i < HB_ARRAY_LEN(repair_kinds); i++)
				kinds[k++].kind = repair_kinds[i];
			for (i = 0; i < rp->plan->n; i++) {
				for (j = 0; j < k && strcmp(kinds[j].kind, rp->plan->v[i].finding);
				     j++)
					;
				if (j == k)
					kinds[k++].kind = rp->plan->v[i].finding;
				kinds[j].value++;
			}
			r.kinds_metric = "hbtab_repair_planned";
			r.kinds_help =
			    "Entries of hbtab's last repair plan of the table, per finding kind "
			    "(merges and splits to run, findings only reported).";
			r.kinds = kinds;
			r.nkinds = k;
			g[2].value = (double)rp->plan->deferred;
			g[3].value = (double)rp->done;
			g[4].value = (double)rp->open;
		}
		r.gauges = g;
		r.ngauges = HB_ARRAY_LEN(g);
	}
	status = cli_prom_emit(o, &r, status);
	free(kinds);
	return status;
}
