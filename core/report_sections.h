/* The parts of hbtab report's page drawn in report_plan.c (a plan's boundaries before and
 * after it and its steps, the servers, simulated writes): private to core/report*.c. */
#ifndef HB_REPORT_SECTIONS_H
#define HB_REPORT_SECTIONS_H

#include "hb.h"
#include "report_model.h"
#include "reportw.h"

#include <stddef.h>

/* The servers' part of the page (regions and writes per server). */
void hb_report_servers_section(struct hb_rw *w, const struct hb_report_input *in);
/* A plan's boundaries before and after, its steps. HB_ENOMEM. */
int hb_report_plan_section(struct hb_rw *w, const struct hb_report_input *in, struct hb_error *err);
/* Simulated writes over the bands b[0..nb-1]. */
void hb_report_sim_section(struct hb_rw *w, const struct hb_report_input *in,
                           const struct hb_report_band *b, size_t nb);

#endif
