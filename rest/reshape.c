/* hbtab reshape over the wire: read, plan, run a round, clear what HBase holds, again. */
#include "rest/reshape.h"

#include "core/activity.h"
#include "core/clock.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hb_reshape_survey(struct hb_reshape_plan *out, struct hb_repair_survey *s, struct hb_rest *c,
                      const char *table, const struct hb_audit_opts *ao,
                      const struct hb_keys *target, const struct hb_reshape_params *p,
                      struct hb_error *err)
{
	struct hb_reshape_params pp = *p;
	struct hb_buckets buckets;
	struct hb_repair_ev *ev = NULL;
	size_t i;
	int rc = hb_repair_survey_chain(s, c, table, ao, &ev, NULL, err);

	if (rc)
		return rc;
	/* A split's daughters are not held back: the region server compacts a daughter's
	 * references away when it opens it, long before the CatalogJanitor's next run removes
	 * the parent's row, and HBase's own refusal ("is not mergeable", "NOT splittable") is
	 * what hb_reshape_apply clears. A merged region's qualifiers are a refusal for sure. */
	for (i = 0; i < s->live.n; i++)
		ev[i].daughter = 0;
	if (!pp.buckets) {
		hb_repair_design_buckets(&buckets, s);
		if (buckets.parts)
			pp.buckets = &buckets;
	}
	if (hb_reshape_plan(out, table, &s->live, ev, target, &pp))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	free(ev);
	return rc;
}

static void note(const struct hb_reshape_run *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(const struct hb_reshape_run *r, const char *fmt, ...)
{
	char buf[HB_ERRMSG_MAX];
	va_list ap;

	if (!r->note)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	r->note(r->ctx, buf);
}

/* Whether a step's error is HBase refusing a region for its references or merge qualifiers
 * (docs/hbase-merge-split.md §2, §3). */
static int refused_for_references(const struct hb_error *e)
{
	return strstr(e->msg, "not mergeable") || strstr(e->msg, "NOT splittable") ||
	       strstr(e->msg, "merge qualifier") || strstr(e->msg, "has references");
}

/* The clearing script of the plan's blocked entries ("major_compact 'X'; ...;
 * catalogjanitor_run" each), one command a line, catalogjanitor_run once at the end; with
 * janitor_only, catalogjanitor_run alone. */
static int clearing_script(struct hb_buf *out, const struct hb_repair_plan *p, int janitor_only)
{
	size_t i;

	for (i = 0; !janitor_only && i < p->n; i++) {
		const char *cmd = p->v[i].command;

		if (p->v[i].action != HB_REPAIR_REPORT || !cmd ||
		    strcmp(p->v[i].finding, HB_RESHAPE_BLOCKED))
			continue;
		while (*cmd) {
			const char *semi = strstr(cmd, "; ");
			size_t len = semi ? (size_t)(semi - cmd) : strlen(cmd);

			if (!(len == 18 && !memcmp(cmd, "catalogjanitor_run", 18)) &&
			    (hb_buf_add(out, cmd, len) || hb_buf_addc(out, '\n')))
				return HB_ENOMEM;
			cmd += len + (semi ? 2 : 0);
		}
	}
	return hb_buf_adds(out, "catalogjanitor_run") ? HB_ENOMEM : 0;
}

/* The major compactions of the regions of the plan's steps (HBase refused one of them). */
static int compact_steps(struct hb_buf *out, const struct hb_regions *rs,
                         const struct hb_repair_plan *p)
{
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		if (p->v[i].action == HB_REPAIR_REPORT)
			continue;
		for (j = p->v[i].first; j < p->v[i].first + p->v[i].n && j < rs->n; j++) {
			struct hb_region_view v;
			const struct hb_region *g = hb_regions_at(rs, j, &v);

			if (g->encoded && hb_buf_addf(out, "major_compact '%s'\n", g->encoded))
				return HB_ENOMEM;
		}
	}
	return hb_buf_adds(out, "catalogjanitor_run") ? HB_ENOMEM : 0;
}

/* A view of the first k steps of p (reports among them kept). */
static struct hb_repair_plan first_steps(const struct hb_repair_plan *p, size_t k)
{
	struct hb_repair_plan v = *p;
	size_t i, moves = 0;

	for (i = 0; i < p->n; i++) {
		if (p->v[i].action == HB_REPAIR_REPORT)
			continue;
		if (moves == k)
			break;
		moves++;
	}
	v.n = i;
	v.steps = moves;
	v.cap = 0;
	return v;
}

/* Runs a clearing script; its failure is only warned of (the next read tells). */
static int run_clearing(struct hb_reshape_run *r, const struct hb_buf *script)
{
	struct hb_error e = {0};
	int rc;

	r->clears++;
	rc = hb_repair_shell_script(&r->a, script->data, "clearing blocked regions", &e);
	if (rc == HB_ENOMEM)
		return rc;
	if (rc == HB_EINVAL)
		return rc;
	if (rc)
		hb_tell_warn(r->a.tell, "%s", e.msg);
	return 0;
}

/* One pass: what the plan says next. 1 = done (no entry), 0 = go on, < 0 an error. */
static int next_move(struct hb_rest *c, struct hb_reshape_run *r, struct hb_reshape_plan *plan,
                     struct hb_repair_survey *s, double *blocked_since, int *refusals,
                     struct hb_error *err)
{
	struct hb_buf script = HB_BUF_INIT;
	struct hb_repair_plan view;
	int first, rc;

	if (!plan->now.n)
		return 1;
	if (plan->stuck)
		return hb_error_set(err, HB_ESAFETY,
		                    "table '%s' cannot reach the new boundaries without merging "
		                    "regions of two buckets of its recorded design; nothing more "
		                    "is changed",
		                    r->a.table);
	if (r->done >= r->max_steps) {
		r->capped = 1; /* steps (or regions to clear for them) left for a rerun */
		return 1;
	}
	if (plan->now.steps) {
		*blocked_since = -1;
		view = first_steps(&plan->now, r->max_steps - r->done);
		r->rounds++;
		note(r, "round %zu: %zu step%s", r->rounds, view.steps, HB_PLURAL(view.steps));
		rc = hb_repair_run(c, &r->a, &s->live, &view, err);
		r->done += r->a.done;
		if (rc && refused_for_references(err) && *refusals < 3) {
			/* HBase saw references hbase:meta did not show: compact those regions */
			hb_tell_warn(r->a.tell,
			             "%s; compacting the step's regions and planning again",
			             err->msg);
			memset(err, 0, sizeof(*err));
			(*refusals)++;
			rc = compact_steps(&script, &s->live, &view) ? HB_ENOMEM
			                                             : run_clearing(r, &script);
		}
		hb_buf_release(&script);
		return rc;
	}
	/* only blocked regions: compact them once, then run the CatalogJanitor until it has
	 * cleared them */
	first = *blocked_since < 0;
	if (first)
		*blocked_since = hb_now();
	else if (hb_now() - *blocked_since > r->a.wait)
		return hb_error_set(err, HB_ESERVER,
		                    "regions of table '%s' stayed blocked for %.0f s (%s); run the "
		                    "plan's commands, then rerun",
		                    r->a.table, r->a.wait, plan->now.v[0].message);
	note(r, "%zu blocked entr%s: clearing", plan->now.n, plan->now.n == 1 ? "y" : "ies");
	rc = clearing_script(&script, &plan->now, !first);
	rc = rc ? HB_ENOMEM : run_clearing(r, &script);
	hb_buf_release(&script);
	if (!rc)
		hb_activity_sleep("waiting for the CatalogJanitor", 1.0);
	return rc;
}

int hb_reshape_apply(struct hb_rest *c, struct hb_reshape_run *r, const struct hb_audit_opts *ao,
                     const struct hb_keys *target, const struct hb_reshape_params *p,
                     struct hb_reshape_plan *out, struct hb_repair_survey *s, struct hb_error *err)
{
	double blocked_since = -1, unsettled_since = -1;
	int refusals = 0, rc;

	r->a.batch = 1;
	r->a.verb = "reshaping";
	for (;;) {
		hb_reshape_plan_release(out);
		hb_reshape_plan_init(out);
		hb_repair_survey_release(s);
		hb_repair_survey_init(s);
		rc = hb_reshape_survey(out, s, c, r->a.table, ao, target, p, err);
		if (rc)
			return rc;
		if (!s->settled) {
			/* a region moving (the balancer, a server restarting): wait for it */
			if (unsettled_since < 0)
				unsettled_since = hb_now();
			else if (hb_now() - unsettled_since > r->a.wait)
				return hb_error_set(err, HB_ESAFETY,
				                    "table '%s' did not settle within %.0f s: %s; "
				                    "rerun when it has",
				                    r->a.table, r->a.wait, s->why);
			hb_activity_sleep("waiting for the regions to settle", 1.0);
			continue;
		}
		unsettled_since = -1;
		rc = next_move(c, r, out, s, &blocked_since, &refusals, err);
		if (rc == 1)
			return 0;
		if (rc)
			return rc;
	}
}
