/* hbtab audit's output: a table's audit and a planned split set's, as text and as JSON. */
#ifndef HB_CLI_AUDIT_OUT_H
#define HB_CLI_AUDIT_OUT_H

#include "../core/audit.h"
#include "../core/splitaudit.h"

/* A table's audit r as one JSON document, streamed (the list can hold 100,000s of regions).
 * 0, HB_ENOMEM, or the error of a failed write to stdout (reported). */
int cli_audit_print_json(const struct hb_audit_report *r);
/* A table's audit r as text: findings first ("kind: message"), then (unless -q) a summary
 * and every region (a table on a terminal, else tab-separated). Errors as above. */
int cli_audit_print_text(const struct hb_audit_report *r);

/* A planned split set's audit (w after its count pass; ks_canon its key space, canonical) as
 * JSON or as text, each walking w's findings and rows passes straight to stdout. Errors as
 * hb_split_walk_pass (err filled) or of a write to stdout (reported, err empty). */
int cli_audit_splits_json(struct hb_split_walk *w, const char *ks_canon, struct hb_error *err);
int cli_audit_splits_text(struct hb_split_walk *w, const char *ks_canon, struct hb_error *err);

#endif
