/* hbtab repair's result and its output: the plan as text lines or a JSON document. */
#ifndef HB_CLI_REPAIR_OUT_H
#define HB_CLI_REPAIR_OUT_H

#include "../core/repair.h"
#include "../rest/repair.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* What hbtab read, planned and did: what cli_repair_print shows. */
struct cli_repair_result {
	const char *table;
	struct hb_repair_survey sv; /* the table as read (sv.live: the regions plans index) */
	struct hb_repair_plan plan;
	int applied;                 /* --apply ran (steps were carried out, or there were none) */
	size_t done;                 /* steps carried out */
	int fixed;                   /* after --apply: a fresh plan has nothing left */
	struct hb_repair_plan after; /* that fresh plan */
	struct hb_repair_survey again; /* the table as read for it (again.live: the regions
	                                * after indexes); read_again when it was read */
	int read_again;
	const char *script; /* --via print: the shell script, also in the JSON document */
};

/* Prepares r for table (which must outlive it). */
void cli_repair_result_init(struct cli_repair_result *r, const char *table);
/* Frees what r holds. */
void cli_repair_result_release(struct cli_repair_result *r);

/* Prints what repair found and did (nothing under --format prometheus): the plan, and after
 * --apply what was done and what is left open. max_steps is --max-steps, for the message
 * on deferred steps. 0, or a negative HB_E* code when writing failed. */
int cli_repair_print(const struct cli_repair_result *r, size_t max_steps);

/* Adds to the JSON object o of step s its "regions" array (index, name, start, end of each
 * region of rs it acts on), as repair's and reshape's plans give it. HB_ENOMEM. */
int cli_repair_json_step_regions(cJSON *o, const struct hb_repair_step *s,
                                 const struct hb_regions *rs);

#endif
