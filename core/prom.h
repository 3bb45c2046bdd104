/* A run's findings in the Prometheus text exposition format 0.0.4, and reading one sample back. */
#ifndef HB_CORE_PROM_H
#define HB_CORE_PROM_H

#include "buf.h"
#include "hb.h"

#include <stddef.h>

/* A gauge per kind: one sample labelled kind="..." (a finding kind, a repair step's kind). */
struct hb_prom_kind {
	const char *kind;
	double value;
};

/* A gauge with the report's subject label only (regions, N, tables created...). A NaN value
 * means unknown: the family is left out. */
struct hb_prom_gauge {
	const char *name; /* the metric name, e.g. "hbtab_audit_regions" */
	const char *help; /* the HELP text (the same wherever the name appears) */
	double value;
};

/*
 * One run of one command. Every report has the run's families, labelled
 * {command="...",<subject_label>="<subject>"}:
 *   hbtab_last_run_success                1 when status is 0 or 1 (the run completed; findings
 *                                         are a result), else 0
 *   hbtab_last_run_exit_status            status
 *   hbtab_last_run_timestamp_seconds      now
 *   hbtab_last_success_timestamp_seconds  now after a success, else last_success (left out
 *                                         when last_success < 0: no success known)
 * then, labelled {<subject_label>="<subject>",kind="..."}, kinds_metric with one sample per
 * kind, and the gauges, labelled {<subject_label>="<subject>"}.
 */
struct hb_prom_report {
	const char *command;       /* "audit", "rotate", "repair" */
	const char *subject_label; /* "table" or "template" */
	const char *subject;       /* its value: any UTF-8, escaped as the format wants */
	int status;                /* the run's exit status */
	double now;                /* this run's end, seconds since the epoch */
	double last_success;       /* the last successful run's time, < 0 none known */
	const char *kinds_metric;  /* e.g. "hbtab_audit_findings"; NULL or nkinds 0 = none */
	const char *kinds_help;
	const struct hb_prom_kind *kinds;
	size_t nkinds;
	const struct hb_prom_gauge *gauges;
	size_t ngauges;
};

/* The run-level metric that carries the time of the last success over a failed run. */
#define HB_PROM_LAST_SUCCESS "hbtab_last_success_timestamp_seconds"

/* 1 when status counts as a successful run (0 ok, 1 findings). */
int hb_prom_success(int status);

/* Appends r as exposition text (HELP and TYPE lines, then the samples; '\n' line ends) to out.
 * HB_ENOMEM. */
int hb_prom_report(struct hb_buf *out, const struct hb_prom_report *r);

/* Appends s (n bytes) as a label value's inside: backslash, double quote and newline escaped
 * (\\ \" \n); bytes that are not UTF-8 become U+FFFD. HB_ENOMEM. */
int hb_prom_escape_label(struct hb_buf *out, const char *s, size_t n);
/* Appends s as HELP text: backslash and newline escaped. HB_ENOMEM. */
int hb_prom_escape_help(struct hb_buf *out, const char *s);
/* Appends v as a sample value: an integer when v is one (|v| < 2^53), NaN, +Inf, -Inf, else
 * the shortest decimal that reads back as v. HB_ENOMEM. */
int hb_prom_value(struct hb_buf *out, double v);

/*
 * Looks in text (an earlier report, any exposition text; n bytes) for the sample of metric
 * name whose label set is exactly labels (nlabels name/value pairs: labels[2i] the name,
 * labels[2i+1] the unescaped value; order free) and stores its value in *out. 0 found,
 * HB_ENOTFOUND when no line matches (malformed lines are skipped).
 */
int hb_prom_find(const char *text, size_t n, const char *name, const char *const *labels,
                 size_t nlabels, double *out);

#endif
