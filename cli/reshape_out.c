/* hbtab reshape's output: the plan's rounds as text lines, JSON or an hbase shell script. */
#include "reshape_out.h"

#include "../core/key.h"
#include "../core/metarow.h"
#include "../core/region.h"
#include "../rest/metarow.h"
#include "cli.h"
#include "exit.h"
#include "output.h"
#include "repair_out.h"

#include <string.h>

void cli_reshape_result_init(struct cli_reshape_result *r, const char *table)
{
	memset(r, 0, sizeof(*r));
	r->table = table;
	hb_repair_survey_init(&r->sv);
	hb_reshape_plan_init(&r->plan);
}

void cli_reshape_result_release(struct cli_reshape_result *r)
{
	hb_repair_survey_release(&r->sv);
	hb_reshape_plan_release(&r->plan);
}

static const char *action_name(enum hb_repair_action a)
{
	return a == HB_REPAIR_MERGE ? "merge" : a == HB_REPAIR_SPLIT ? "split" : "report";
}

/* "['start', 'end')" */
static int bounds(struct hb_buf *b, const struct hb_buf *s, const struct hb_buf *e)
{
	return hb_buf_adds(b, "['") || hb_tsb_append_quoted(b, s->data, s->len) ||
	       hb_buf_adds(b, "', '") || hb_tsb_append_quoted(b, e->data, e->len) ||
	       hb_buf_adds(b, "')");
}

static int text_now(struct hb_buf *b, const struct hb_reshape_plan *p, size_t i)
{
	const struct hb_repair_step *s = &p->now.v[i];

	if (s->action == HB_REPAIR_REPORT)
		return hb_buf_addf(b, "round 1: %s%s%s: %s%s%s\n", cli_color(CLI_RED), s->finding,
		                   cli_color(CLI_RESET), s->message, s->command ? "; run: " : "",
		                   s->command ? s->command : "");
	return hb_buf_addf(b, "round 1: %s: %s: %s (%zu regions)\n", s->finding, s->message,
	                   s->command, p->after_now[i]);
}

static int text_later(struct hb_buf *b, const struct hb_reshape_later *l)
{
	int rc =
	    l->action == HB_REPAIR_MERGE
	        ? hb_buf_addf(b, "round %zu: %s: merge the %zu regions of ", l->round,
	                      HB_RESHAPE_MERGE, l->n)
	        : hb_buf_addf(b, "round %zu: %s: split the region ", l->round, HB_RESHAPE_SPLIT);

	rc = rc || bounds(b, &l->start, &l->end);
	if (!rc && l->action == HB_REPAIR_SPLIT)
		rc = hb_buf_adds(b, " at '") ||
		     hb_tsb_append_quoted(b, l->split.data, l->split.len) || hb_buf_adds(b, "'");
	else if (!rc)
		rc = hb_buf_adds(b, " into one");
	return rc || hb_buf_addf(b, " (%zu regions)\n", l->regions_after);
}

static int json_now(cJSON *arr, const struct hb_regions *rs, const struct hb_reshape_plan *p)
{
	size_t i;

	for (i = 0; i < p->now.n; i++) {
		const struct hb_repair_step *s = &p->now.v[i];
		cJSON *o = cJSON_CreateObject();

		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cJSON_AddNumberToObject(o, "round", 1) ||
		    !cli_json_add_str(o, "finding", s->finding) ||
		    !cli_json_add_str(o, "action", action_name(s->action)) ||
		    cli_repair_json_step_regions(o, s, rs))
			return HB_ENOMEM;
		if (!cli_json_add_str(o, "command", s->command) ||
		    !cli_json_add_str(o, "message", s->message) ||
		    !cJSON_AddNumberToObject(o, "regions_after", (double)p->after_now[i]) ||
		    (s->action == HB_REPAIR_SPLIT &&
		     !cli_json_add_tsb(o, "split_key", s->split.data, s->split.len)))
			return HB_ENOMEM;
	}
	for (i = 0; i < p->nlater; i++) {
		const struct hb_reshape_later *l = &p->later[i];
		cJSON *o = cJSON_CreateObject();

		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cJSON_AddNumberToObject(o, "round", (double)l->round) ||
		    !cli_json_add_str(o, "finding",
		                      l->action == HB_REPAIR_MERGE ? HB_RESHAPE_MERGE
		                                                   : HB_RESHAPE_SPLIT) ||
		    !cli_json_add_str(o, "action", action_name(l->action)) ||
		    !cli_json_add_tsb(o, "start", l->start.data, l->start.len) ||
		    !cli_json_add_tsb(o, "end", l->end.data, l->end.len) ||
		    !cJSON_AddNumberToObject(o, "merged",
		                             (double)(l->action == HB_REPAIR_MERGE ? l->n : 0)) ||
		    !cJSON_AddNullToObject(o, "command") ||
		    !cJSON_AddNumberToObject(o, "regions_after", (double)l->regions_after) ||
		    (l->action == HB_REPAIR_SPLIT &&
		     !cli_json_add_tsb(o, "split_key", l->split.data, l->split.len)))
			return HB_ENOMEM;
	}
	return 0;
}

int cli_reshape_script(struct hb_buf *out, const struct cli_reshape_result *r)
{
	const struct hb_reshape_plan *p = &r->plan;
	size_t i;
	int rc;

	/* the 2.x shells wait for a merge but only submit a split (admin.rb's split calls
	 * splitRegionAsync): the rerun is what tells */
	rc = hb_buf_addf(out,
	                 "# hbtab reshape '%s' to %s: round 1 of %zu, %zu step%s for 'hbase shell "
	                 "-n FILE';\n# a merge is waited for, a split only submitted. Later "
	                 "rounds take regions these steps make:\n# rerun 'hbtab reshape %s %s "
	                 "--via print' once they show.\n",
	                 r->table, r->spec, p->rounds, p->now.steps, HB_PLURAL(p->now.steps),
	                 r->table, r->spec);
	for (i = 0; !rc && i < p->now.n; i++) {
		const struct hb_repair_step *s = &p->now.v[i];

		if (s->action == HB_REPAIR_REPORT)
			rc = hb_buf_addf(out, "# %s: %s\n# %s\n", s->finding, s->message,
			                 s->command ? s->command : "");
		else
			rc = hb_buf_addf(out, "# %s: %s\n%s\n", s->finding, s->message, s->command);
	}
	return rc || hb_buf_adds(out, "exit\n") ? HB_ENOMEM : 0;
}

static int print_json(const struct cli_reshape_result *r)
{
	const struct hb_reshape_plan *p = &r->plan;
	cJSON *root = cJSON_CreateObject(), *steps;
	int rc;

	rc = root && cli_json_add_str(root, "table", r->table) &&
	             cli_json_add_str(root, "spec", r->spec) &&
	             cJSON_AddNumberToObject(root, "regions", (double)r->first_from) &&
	             cJSON_AddNumberToObject(root, "target_regions", (double)p->to) &&
	             (r->old_n ? cJSON_AddNumberToObject(root, "recorded_n", (double)r->old_n)
	                       : cJSON_AddNullToObject(root, "recorded_n")) &&
	             cJSON_AddNumberToObject(root, "margin", HB_RESHAPE_MARGIN) &&
	             cJSON_AddNumberToObject(root, "upper", (double)p->upper) &&
	             cJSON_AddNumberToObject(root, "low", (double)p->low) &&
	             cJSON_AddNumberToObject(root, "peak", (double)p->peak) &&
	             cJSON_AddNumberToObject(root, "rounds", (double)p->rounds) &&
	             (steps = cJSON_AddArrayToObject(root, "steps")) &&
	             !json_now(steps, &r->sv.live, p) &&
	             cJSON_AddBoolToObject(root, "matches", !p->now.n) &&
	             cJSON_AddBoolToObject(root, "applied", r->applied) &&
	             cJSON_AddNumberToObject(root, "steps_done", (double)r->done) &&
	             cJSON_AddNumberToObject(root, "rounds_done", (double)r->rounds) &&
	             cJSON_AddNumberToObject(root, "clearings", (double)r->clears) &&
	             cJSON_AddBoolToObject(root, "capped", r->capped) &&
	             cJSON_AddBoolToObject(root, "verified", r->verified) &&
	             cli_json_add_str(root, "metadata", r->record) &&
	             (!r->script || cli_json_add_str(root, "script", r->script))
	         ? cli_json_print(root)
	         : HB_ENOMEM;
	cJSON_Delete(root);
	return rc;
}

int cli_reshape_print(const struct cli_reshape_result *r)
{
	const struct hb_reshape_plan *p = &r->plan;
	struct hb_buf b = HB_BUF_INIT;
	size_t i;
	int rc = 0;

	if (cli_g.output == CLI_OUT_JSON)
		return print_json(r);
	if (!r->applied || p->now.n) {
		for (i = 0; !rc && i < p->now.n; i++)
			rc = text_now(&b, p, i);
		for (i = 0; !rc && i < p->nlater; i++)
			rc = text_later(&b, &p->later[i]);
	}
	if (!rc && !cli_g.quiet) {
		if (r->applied && r->verified)
			rc = hb_buf_addf(
			    &b,
			    "%sreshaped%s: '%s' has the %zu regions of %s, every boundary "
			    "verified (%zu step%s in %zu round%s); metadata row %s\n",
			    cli_color(CLI_GREEN), cli_color(CLI_RESET), r->table, r->sv.live.n,
			    r->spec, r->done, HB_PLURAL(r->done), r->rounds, HB_PLURAL(r->rounds),
			    r->record ? r->record : "not written");
		else if (r->applied)
			rc = hb_buf_addf(&b,
			                 "%snot done%s: %zu step%s done on '%s'; rerun to go on\n",
			                 cli_color(CLI_RED), cli_color(CLI_RESET), r->done,
			                 HB_PLURAL(r->done), r->table);
		else if (!p->now.n)
			rc = hb_buf_addf(&b,
			                 "%snothing to reshape%s: '%s' has the %zu regions of %s\n",
			                 cli_color(CLI_GREEN), cli_color(CLI_RESET), r->table,
			                 r->sv.live.n, r->spec);
		else
			rc = hb_buf_addf(
			    &b,
			    "%zu regions to %zu: %zu step%s now, %zu in later rounds (%zu "
			    "round%s); region count between %zu and %zu (at most %zu); run "
			    "with --apply, or --via print for round 1's script\n",
			    p->from, p->to, p->now.steps, HB_PLURAL(p->now.steps), p->nlater,
			    p->rounds, HB_PLURAL(p->rounds), p->low, p->peak, p->upper);
	}
	if (!rc)
		rc = cli_write_stdout(b.data ? b.data : "", b.len);
	hb_buf_release(&b);
	return rc;
}

/* A design whose row keys depend on N, as the metadata row or the key space records it. */
int cli_reshape_refuse_design(const struct cli_reshape_result *r)
{
	struct hb_buckets b;

	hb_repair_design_buckets(&b, &r->sv);
	if (!b.parts && hb_buckets_of_boundaries(&b, &r->sv.live)) {
		cli_error(
		    "refusing to reshape '%s': its boundaries are those of a %s design of %llu "
		    "buckets (--%s-splits %llu%s), which no metadata row records: " N_IN_KEYS,
		    r->table, b.kind, b.parts, b.kind, b.parts,
		    b.width == 2 ? " --salt-width 2" : "");
		return CLI_EXIT_REFUSED;
	}
	if (!b.parts)
		return 0;
	cli_error("refusing to reshape '%s': it is a %s design of %llu buckets (recorded: %s%s%s): "
	          "" N_IN_KEYS,
	          r->table, b.kind, b.parts,
	          r->sv.audit.stored_splits ? r->sv.audit.stored_splits : "",
	          r->sv.audit.stored_splits && !r->sv.audit.any_key ? ", key space " : "",
	          !r->sv.audit.any_key ? hb_buf_str(&r->sv.audit.ks_canon) : "");
	return CLI_EXIT_REFUSED;
}

/* The metadata row's N (raw bytes into n_raw, parsed into *n; 0 without one). */
int cli_reshape_recorded_n(struct hb_rest *c, struct hb_metarow *m, const char *table,
                           struct hb_buf *n_raw, size_t *n, struct hb_error *err)
{
	int found = 0, rc = hb_metarow_locate(m, c, table, NULL, NULL, err);
	long v;

	*n = 0;
	if (!rc && !m->absent)
		rc = hb_metarow_read_cell(c, m, HB_METAROW_N, n_raw, &found, err);
	if (!rc && found && !hb_metarow_parse_n(n_raw->data, n_raw->len, &v))
		*n = (size_t)v;
	return rc;
}
