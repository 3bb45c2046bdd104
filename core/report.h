/* hbtab report's page: one self-contained HTML file (inline SVG and CSS, nothing fetched) that
 * draws what an audit, a plan and a simulation computed, every figure also as a table. */
#ifndef HB_REPORT_H
#define HB_REPORT_H

#include "buf.h"
#include "hb.h"
#include "report_model.h"
#include "report_plan.h"

/* The class of each of the audit's regions (n bytes, enum hb_report_class) from its findings
 * and reachability. HB_ENOMEM. */
int hb_report_classes(unsigned char **out, const struct hb_audit_report *a);

/* Appends the page to out. HB_EINVAL (a key space too large to place a plan's key), HB_ENOMEM.
 */
int hb_report_html(struct hb_buf *out, const struct hb_report_input *in, struct hb_error *err);

#endif
