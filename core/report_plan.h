/* A plan as hbtab report's page draws it: the boundaries after its steps. */
#ifndef HB_REPORT_PLAN_H
#define HB_REPORT_PLAN_H

#include "hb.h"
#include "report_model.h"

#include <stddef.h>

void hb_report_plan_init(struct hb_report_plan *p);
void hb_report_plan_release(struct hb_report_plan *p);
/* The split keys once steps [0, nsteps) ran over p->before: a merge drops the boundaries
 * inside its regions, a split adds its key. Fills p->after. HB_ENOMEM. */
int hb_report_plan_after(struct hb_report_plan *p);

#endif
