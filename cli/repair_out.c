/* hbtab repair's output: the plan's steps as text lines (finding, regions, command) or JSON. */
#include "repair_out.h"

#include "../core/key.h"
#include "../core/region.h"
#include "cli.h"
#include "output.h"

#include <string.h>

void cli_repair_result_init(struct cli_repair_result *r, const char *table)
{
	memset(r, 0, sizeof(*r));
	r->table = table;
	hb_repair_survey_init(&r->sv);
	hb_repair_plan_init(&r->plan);
	hb_repair_plan_init(&r->after);
	hb_repair_survey_init(&r->again);
}

void cli_repair_result_release(struct cli_repair_result *r)
{
	hb_repair_survey_release(&r->sv);
	hb_repair_plan_release(&r->plan);
	hb_repair_plan_release(&r->after);
	hb_repair_survey_release(&r->again);
}

static const char *action_name(enum hb_repair_action a)
{
	return a == HB_REPAIR_MERGE ? "merge" : a == HB_REPAIR_SPLIT ? "split" : "report";
}

/* One entry as a text line: the finding, the regions (encoded names and bounds), then the
 * shell command to run (or, for a report, what it says and the operator's command). */
static int text_step(struct hb_buf *b, const struct hb_regions *rs, const struct hb_repair_step *s)
{
	size_t i;
	int rc = hb_buf_addf(b, "%s%s%s:", cli_color(CLI_RED), s->finding, cli_color(CLI_RESET));

	for (i = s->first; !rc && i < s->first + s->n && i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *g = hb_regions_at(rs, i, &v);

		rc = hb_buf_addf(b, "%s region %zu %s ['", i > s->first ? "," : "", i,
		                 g->encoded ? g->encoded : "-") ||
		     hb_tsb_append_quoted(b, g->start, g->start_len) || hb_buf_adds(b, "', '") ||
		     hb_tsb_append_quoted(b, g->end, g->end_len) || hb_buf_adds(b, "')");
	}
	if (!rc && s->action != HB_REPAIR_REPORT)
		rc = hb_buf_addf(b, ": %s\n", s->command);
	else if (!rc)
		rc = hb_buf_addf(b, "%s%s%s%s\n", s->n ? ": " : " ", s->message,
		                 s->command ? "; run: " : "", s->command ? s->command : "");
	return rc;
}

int cli_repair_json_step_regions(cJSON *o, const struct hb_repair_step *s,
                                 const struct hb_regions *rs)
{
	cJSON *regs = cJSON_AddArrayToObject(o, "regions");
	size_t j;

	if (!regs)
		return HB_ENOMEM;
	for (j = s->first; j < s->first + s->n && j < rs->n; j++) {
		struct hb_region_view v;
		const struct hb_region *g = hb_regions_at(rs, j, &v);
		cJSON *ro = cJSON_CreateObject();

		if (!ro || !cJSON_AddItemToArray(regs, ro) ||
		    !cJSON_AddNumberToObject(ro, "index", (double)j) ||
		    !cli_json_add_str(ro, "name", g->encoded) ||
		    !cli_json_add_tsb(ro, "start", g->start, g->start_len) ||
		    !cli_json_add_tsb(ro, "end", g->end, g->end_len))
			return HB_ENOMEM;
	}
	return 0;
}

static int json_plan(cJSON *arr, const struct hb_regions *rs, const struct hb_repair_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		const struct hb_repair_step *s = &p->v[i];
		cJSON *o = cJSON_CreateObject();

		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cli_json_add_str(o, "finding", s->finding) ||
		    !cli_json_add_str(o, "action", action_name(s->action)) ||
		    cli_repair_json_step_regions(o, s, rs))
			return HB_ENOMEM;
		if (!cli_json_add_str(o, "command", s->command) ||
		    !cli_json_add_str(o, "message", s->message) ||
		    (s->action == HB_REPAIR_SPLIT &&
		     !cli_json_add_tsb(o, "split_key", s->split.data, s->split.len)))
			return HB_ENOMEM;
	}
	return 0;
}

/* Prints what repair found and did: the plan (text lines or the JSON document). */
int cli_repair_print(const struct cli_repair_result *r, size_t max_steps)
{
	struct hb_buf b = HB_BUF_INIT;
	size_t i;
	int rc = 0;

	if (cli_g.output == CLI_OUT_PROM) /* --format prometheus: report_prom prints */
		return 0;
	/* -q: a run that changed what it had to change and left nothing prints nothing */
	if (cli_g.quiet && cli_g.output != CLI_OUT_JSON && r->applied && r->fixed)
		return 0;
	/* a table not read completely: the error said so; only JSON has a document for it */
	if (!r->sv.readable && cli_g.output != CLI_OUT_JSON)
		return 0;
	if (cli_g.output == CLI_OUT_JSON) {
		cJSON *root = cJSON_CreateObject(), *steps, *open;

		rc = root && cli_json_add_str(root, "table", r->table) &&
		             cJSON_AddBoolToObject(root, "readable", r->sv.readable) &&
		             (r->sv.readable || cli_json_add_str(root, "reason", r->sv.why)) &&
		             (steps = cJSON_AddArrayToObject(root, "steps")) &&
		             (!r->sv.readable || !json_plan(steps, &r->sv.live, &r->plan)) &&
		             cJSON_AddNumberToObject(root, "deferred", (double)r->plan.deferred) &&
		             cJSON_AddBoolToObject(root, "applied", r->applied) &&
		             cJSON_AddNumberToObject(root, "steps_done", (double)r->done) &&
		             cJSON_AddBoolToObject(root, "fixed", r->fixed) &&
		             (open = cJSON_AddArrayToObject(root, "open")) &&
		             (!r->applied || !json_plan(open, &r->again.live, &r->after)) &&
		             (!r->script || cli_json_add_str(root, "script", r->script))
		         ? cli_json_print(root)
		         : HB_ENOMEM;
		cJSON_Delete(root);
		return rc;
	}
	for (i = 0; !rc && i < r->plan.n; i++)
		rc = text_step(&b, &r->sv.live, &r->plan.v[i]);
	if (!rc && r->plan.deferred)
		rc = hb_buf_addf(
		    &b, "%zu more step%s after --max-steps %zu: rerun when these are done\n",
		    r->plan.deferred, HB_PLURAL(r->plan.deferred), max_steps);
	if (!rc && !cli_g.quiet) {
		if (r->applied && r->plan.steps)
			rc = hb_buf_addf(&b, "%s%s%s: %zu step%s done on '%s'\n",
			                 cli_color(r->fixed ? CLI_GREEN : CLI_RED),
			                 r->fixed ? "fixed" : "still open", cli_color(CLI_RESET),
			                 r->done, HB_PLURAL(r->done), r->table);
		else if (!r->plan.n)
			rc = hb_buf_addf(&b, "%snothing to repair%s: %zu region%s in '%s'\n",
			                 cli_color(CLI_GREEN), cli_color(CLI_RESET), r->sv.live.n,
			                 HB_PLURAL(r->sv.live.n), r->table);
		else
			rc = hb_buf_addf(
			    &b,
			    "%zu step%s planned, %zu finding%s only reported; run with "
			    "--apply, or --via print for the script\n",
			    r->plan.steps, HB_PLURAL(r->plan.steps), r->plan.n - r->plan.steps,
			    HB_PLURAL(r->plan.n - r->plan.steps));
	}
	for (i = 0; !rc && r->applied && !r->fixed && i < r->after.n; i++) {
		if (!i)
			rc = hb_buf_adds(&b, "left open:\n");
		if (!rc)
			rc = text_step(&b, &r->again.live, &r->after.v[i]);
	}
	if (!rc)
		rc = cli_write_stdout(b.data ? b.data : "", b.len);
	hb_buf_release(&b);
	return rc;
}
