/* --format prometheus and --prom-file PATH for audit, rotate and repair: the options, the
 * per-kind counts of findings, and the atomic file writer for node_exporter's textfile
 * collector. */
#ifndef HB_CLI_PROM_H
#define HB_CLI_PROM_H

#include "../core/audit.h"
#include "../core/hb.h"
#include "../core/prom.h"
#include "../core/repair.h"
#include "cli.h"
#include "rotate.h"

#include <stddef.h>

/* The option values; the option table (CLI_PROM_OPTIONS) points at them. */
struct cli_prom_opts {
	const char *format; /* --format text|json|prometheus, NULL = as -o */
	const char *file;   /* --prom-file PATH, NULL = none */
};

/* --format and --prom-file; entries for a struct cli_option table. */
#define CLI_PROM_OPTIONS(o)                                                                        \
	CLI_GROUP("Output"),                                                                       \
	    CLI_CHOICE(0, "format", &(o)->format, "FORMAT",                                        \
	               "text or json (as -o, which this overrides), or prometheus: gauges for a "  \
	               "monitor, in Prometheus text format",                                       \
	               "text json prometheus"),                                                    \
	    CLI_STRING(0, "prom-file", &(o)->file, "PATH",                                         \
	               "also write those gauges to PATH, atomically (node_exporter's textfile "    \
	               "collector)")

/* The synopsis fragment of the options. */
#define CLI_PROM_USAGE "[--format text|json|prometheus] [--prom-file PATH]"

/*
 * Checks the options offline, after the configuration was read (a command's check): FORMAT
 * one of text, json, prometheus, which then sets cli_g.output (CLI_OUT_TEXT, CLI_OUT_JSON,
 * CLI_OUT_PROM: the command prints neither text nor JSON), whatever -o said; PATH not empty
 * and not a directory. Prints a usage error of cmd and returns CLI_EXIT_USAGE, else
 * CLI_EXIT_OK.
 */
int cli_prom_check(const char *cmd, const struct cli_prom_opts *o);

/* 1 when --format prometheus: standard output gets the exposition instead of the command's
 * text or JSON output. */
int cli_prom_stdout(const struct cli_prom_opts *o);

/* 1 when there is anything to emit (--format prometheus or --prom-file). */
int cli_prom_wanted(const struct cli_prom_opts *o);

/*
 * Emits r, the report of a run that ends with status (r->status and r->now are filled here;
 * the caller leaves kinds and gauges out when the run failed and they are unknown): on
 * standard output under --format prometheus, and into --prom-file PATH atomically. After a
 * failed run (status other than 0 and 1) the last success time is the one PATH held. Returns
 * the status to exit with: status, or CLI_EXIT_USAGE when PATH could not be written (the
 * message printed) and status was 0 or 1.
 */
int cli_prom_emit(const struct cli_prom_opts *o, struct hb_prom_report *r, int status);

/*
 * Writes n bytes to path atomically: a temporary file in the same directory (".NAME.XXXXXX",
 * removed on a signal), mode 0644, fsync, rename over path, fsync of the directory. Readers see
 * the old file or the new one, never a part. HB_EINVAL with "cannot write 'PATH': reason".
 */
int cli_prom_write_file(const char *path, const void *data, size_t n, struct hb_error *err);

/*
 * Makes the report of a run of command about table that a signal or --deadline ends (exit
 * 130, 143, 141 or 4: a failure, the last success time PATH holds kept), for the handler to
 * write to PATH and, under --format prometheus, to standard output (cli/exitreport.h). Called
 * as the run starts; cli_prom_emit forgets it. Nothing when neither option is given.
 */
void cli_prom_arm(const struct cli_prom_opts *o, const char *command, const char *table);

/*
 * audit's report for table (cli_prom_emit): after a run that completed, every finding kind's
 * count in f (hbtab_audit_findings), the regions listed (hbtab_audit_regions) and the metadata
 * row's N (hbtab_audit_partitions; left out when n is NULL or not a number). Returns the
 * status to exit with.
 */
int cli_prom_audit(const struct cli_prom_opts *o, const char *table, const struct hb_findings *f,
                   size_t regions, const char *n, int status);

/*
 * rotate's report for the template tmpl, labelled table="<tmpl>" (cli_prom_emit): the tables
 * res says this run created and dropped and the drops it left pending, whatever the status
 * (they count what the run did before it stopped). Returns the status to exit with.
 */
int cli_prom_rotate(const struct cli_prom_opts *o, const char *tmpl,
                    const struct hb_rotate_result *res, int status);

/* What a repair run planned and did, for cli_prom_repair. */
struct cli_prom_repair {
	const struct hb_repair_plan *plan; /* this run's plan; NULL: the table could not be read
	                                    * completely, nothing was planned */
	size_t regions;                    /* live regions read */
	size_t done;                       /* steps carried out (--apply) */
	size_t open;                       /* plan entries still open after the run */
};

/*
 * repair's report for table (cli_prom_emit): after a run that completed, the plan's entries
 * per finding kind (hbtab_repair_planned, every kind repair plans present), the steps left
 * by --max-steps, carried out, and still open, the regions read, and whether the table could
 * be read completely. Returns the status to exit with.
 */
int cli_prom_repair(const struct cli_prom_opts *o, const char *table,
                    const struct cli_prom_repair *rp, int status);

/*
 * The audit findings per kind: *out (malloc'd, caller frees) gets every kind audit knows,
 * with 0 for those f does not hold, then any other kind f holds, each with its count.
 * HB_ENOMEM.
 */
int cli_prom_finding_kinds(struct hb_prom_kind **out, size_t *n, const struct hb_findings *f);

#endif
