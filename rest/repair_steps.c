/* hbtab repair's steps: a plan's MERGE and SPLIT commands as an hbase shell script, run step by
 * step or in one batch, each awaited until REST and hbase:meta show its result settled. */
#include "rest/repair_steps.h"

#include "core/activity.h"
#include "core/clock.h"
#include "core/key.h"
#include "core/tname.h"
#include "rest/hbase.h"
#include "rest/shellrun.h"

#include <stdio.h>
#include <string.h>

/* "# FINDING: regions i..j [start, end)" for a step. */
static int step_comment(struct hb_buf *out, const struct hb_repair_step *s)
{
	return hb_buf_addf(out, "# %s: %s\n", s->finding, s->message);
}

int hb_repair_script(struct hb_buf *out, const char *table, const struct hb_regions *rs,
                     const struct hb_repair_plan *p)
{
	size_t i;
	int rc;

	(void)rs;
	/* the 2.x shells wait for a merge but only submit a split (admin.rb's split calls
	 * splitRegionAsync): the check afterwards is what tells */
	rc = hb_buf_addf(out,
	                 "# hbtab repair '%s': %zu step%s for 'hbase shell -n FILE'; a merge is "
	                 "waited for,\n# a split only submitted: run 'hbtab repair %s' "
	                 "afterwards to check\n",
	                 table, p->steps, HB_PLURAL(p->steps), table);
	for (i = 0; !rc && i < p->n; i++) {
		const struct hb_repair_step *s = &p->v[i];

		if (s->action == HB_REPAIR_REPORT)
			continue;
		rc = step_comment(out, s) || hb_buf_addf(out, "%s\n", s->command);
	}
	return rc || hb_buf_adds(out, "exit\n") ? HB_ENOMEM : 0;
}

/*
 * Runs one command in a script of its own through the shell command line a->shell. An ERROR
 * line fails the step; a non-zero exit without one is only a hint (some shells exit 1 after
 * a clean run), and so is a shell killed at its timeout (some shells hang after the script
 * ends, the command done): the region list then tells. *hung is set then, with its message
 * in hang.
 */
static int run_command(const struct hb_repair_apply *a, const char *cmd, const char *what,
                       double timeout, int *hung, struct hb_error *hang, struct hb_error *err)
{
	struct hb_buf script = HB_BUF_INIT;
	struct hb_shell_result res;
	struct hb_error judged = {0};
	char label[200];
	int rc;

	hb_shell_result_init(&res);
	if (hb_buf_addf(&script, "%s\nexit\n", cmd)) {
		hb_buf_release(&script);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	snprintf(label, sizeof(label), "%s table '%s' with the hbase shell",
	         a->verb ? a->verb : "repairing", a->table);
	hb_activity_begin(label);
	rc = hb_shell_run_script(a->shell, a->verb ? "reshape" : "repair", script.data, script.len,
	                         timeout, &res, err);
	hb_activity_end();
	if (!rc) {
		enum hb_shell_end end = hb_shell_judge(&res, what, timeout, &judged);

		if (end == HB_SHELL_ERROR) {
			if (err)
				*err = judged;
			rc = judged.code;
		} else if (end == HB_SHELL_TIMED_OUT) {
			*hung = 1;
			*hang = judged;
		}
	}
	hb_shell_result_release(&res);
	hb_buf_release(&script);
	return rc;
}

int hb_repair_shell_script(const struct hb_repair_apply *a, const char *script, const char *what,
                           struct hb_error *err)
{
	struct hb_error hang = {0};
	int hung = 0, rc = run_command(a, script, what, a->timeout, &hung, &hang, err);

	if (!rc && hung)
		hb_tell_warn(a->tell, "%s", hang.msg);
	return rc;
}

/* Whether REST's region list shows the step's result: one region with the merged bounds, or
 * a region starting at the split key (1); or, for a split, a region starting elsewhere
 * strictly inside the region split (2, its start in moved): HBase moved the split point, as
 * a split restriction in the master's configuration does, which hbtab cannot read. */
static int step_visible(const struct hb_regions *now, const struct hb_regions *rs,
                        const struct hb_repair_step *s, struct hb_buf *moved)
{
	const unsigned char *a, *b, *c, *d;
	size_t al, bl, cl, dl, i;
	int inside = 0;

	hb_regions_bounds(rs, s->first, &a, &al, &b, &bl);
	hb_regions_bounds(rs, s->first + s->n - 1, &c, &cl, &d, &dl);
	for (i = 0; i < now->n; i++) {
		const unsigned char *x, *y;
		size_t xl, yl;

		hb_regions_bounds(now, i, &x, &xl, &y, &yl);
		if (s->action == HB_REPAIR_MERGE && !hb_key_cmp(x, xl, a, al) &&
		    !hb_key_cmp(y, yl, d, dl))
			return 1;
		if (s->action == HB_REPAIR_SPLIT && !hb_key_cmp(x, xl, s->split.data, s->split.len))
			return 1;
		if (s->action == HB_REPAIR_SPLIT && !inside && hb_key_cmp(x, xl, a, al) > 0 &&
		    (!bl || hb_key_cmp(x, xl, b, bl) < 0)) {
			hb_buf_reset(moved);
			if (hb_buf_add(moved, x, xl))
				return -1;
			inside = 1;
		}
	}
	return inside ? 2 : 0;
}

/* Every live region of the table OPEN in hbase:meta (1), or not yet (0); a meta that cannot
 * be read says nothing (1: the REST list already showed the result). */
static int meta_settled(struct hb_rest *c, const char *table)
{
	/* meta's rows name a table of the default namespace without its prefix */
	const char *name = hb_tname_bare(table);
	struct hb_regions m;
	struct hb_error e = {0};
	size_t i;
	int ok = 1;

	hb_regions_init(&m);
	if (hb_rest_meta_regions(c, name, &m, NULL, &e)) {
		hb_regions_release(&m);
		return 1;
	}
	for (i = 0; ok && i < m.n; i++) {
		struct hb_region_view v;
		const struct hb_region *g = hb_regions_at(&m, i, &v);

		if (g->offline || g->split || g->replica_id)
			continue;
		if (!g->state || strcmp(g->state, "OPEN"))
			ok = 0;
	}
	hb_regions_release(&m);
	return ok;
}

/* Polls until the step's result shows and the table's regions are OPEN, a->wait at most.
 * hang: the shell was killed at its timeout (its message), or NULL. */
static int settle(struct hb_rest *c, const struct hb_repair_apply *a, const struct hb_regions *rs,
                  const struct hb_repair_step *s, const struct hb_error *hang, struct hb_buf *moved,
                  struct hb_error *err)
{
	double t0 = hb_now(), pause = 0.2;

	for (;;) {
		struct hb_regions now;
		struct hb_error e = {0};
		int seen = 0, rc;

		hb_regions_init(&now);
		rc = hb_rest_get_regions(c, a->table, &now, &e);
		if (!rc)
			seen = step_visible(&now, rs, s, moved);
		hb_regions_release(&now);
		if (rc == HB_ENOMEM || seen < 0)
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		if (seen != 2)
			hb_buf_reset(moved);
		if (seen && meta_settled(c, a->table))
			return 0;
		if (hb_now() - t0 > a->wait && hang)
			return hb_error_set(err, hang->code,
			                    "%s; its result did not show within %.0f s after that",
			                    hang->msg, a->wait);
		if (hb_now() - t0 > a->wait)
			return hb_error_set(
			    err, HB_ESERVER,
			    "the shell ran %s, but its result did not show within %.0f s%s%s",
			    s->command, a->wait, e.msg[0] ? ": " : "", e.msg);
		hb_activity_sleep("waiting for the regions to settle", pause);
		if (pause < 2)
			pause *= 2;
	}
}

/* The plan's steps in one shell run (they take disjoint regions), then each one's result
 * awaited in turn. A failure leaves the steps before it done or not: the caller reads the
 * table again. */
static int run_batch(struct hb_rest *c, struct hb_repair_apply *a, const struct hb_regions *rs,
                     const struct hb_repair_plan *p, struct hb_error *err)
{
	struct hb_buf script = HB_BUF_INIT, what = HB_BUF_INIT, moved = HB_BUF_INIT;
	struct hb_error hang = {0};
	size_t i;
	int hung = 0, rc = 0;

	for (i = 0; !rc && i < p->n; i++)
		if (p->v[i].action != HB_REPAIR_REPORT)
			rc = hb_buf_addf(&script, "%s%s", script.len ? "\n" : "", p->v[i].command);
	rc = rc || hb_buf_addf(&what, "of %zu steps on '%s'", p->steps, a->table);
	if (rc) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; a->log && i < p->n; i++)
		if (p->v[i].action != HB_REPAIR_REPORT)
			a->log(a->ctx, p, i, 0, 0, NULL);
	rc = run_command(a, script.data, hb_buf_str(&what), a->timeout * (double)p->steps, &hung,
	                 &hang, err);
	for (i = 0; !rc && i < p->n; i++) {
		if (p->v[i].action == HB_REPAIR_REPORT)
			continue;
		hb_buf_reset(&moved);
		rc = settle(c, a, rs, &p->v[i], hung ? &hang : NULL, &moved, err);
		if (!rc)
			a->done++;
		if (a->log)
			a->log(a->ctx, p, i, 1, rc, err);
	}
	if (!rc && hung)
		hb_tell_warn(a->tell, "%s; the results show: the steps are done", hang.msg);
done:
	hb_buf_release(&script);
	hb_buf_release(&what);
	hb_buf_release(&moved);
	return rc;
}

int hb_repair_run(struct hb_rest *c, struct hb_repair_apply *a, const struct hb_regions *rs,
                  const struct hb_repair_plan *p, struct hb_error *err)
{
	struct hb_buf moved = HB_BUF_INIT;
	size_t i;
	int rc = 0;

	a->done = 0;
	if (a->batch && p->steps > 1)
		return run_batch(c, a, rs, p, err);
	for (i = 0; !rc && i < p->n; i++) {
		const struct hb_repair_step *s = &p->v[i];

		if (s->action == HB_REPAIR_REPORT)
			continue;
		struct hb_error hang = {0};
		int hung = 0;

		hb_buf_reset(&moved);

		if (a->log)
			a->log(a->ctx, p, i, 0, 0, NULL);
		rc = run_command(a, s->command, s->command, a->timeout, &hung, &hang, err);
		if (rc == HB_ESERVER && s->action == HB_REPAIR_SPLIT && err &&
		    strstr(err->msg, "Unknown table ")) {
			/* admin.rb's split falls back to a table of the encoded name when the
			 * region is gone */
			struct hb_error shell = *err;

			hb_error_set(err, rc,
			             "%s (the region is no longer in hbase:meta: it changed since "
			             "the plan; rerun to plan again)",
			             shell.msg);
		}
		if (!rc)
			rc = settle(c, a, rs, s, hung ? &hang : NULL, &moved, err);
		if (!rc && hung)
			hb_tell_warn(a->tell, "%s; its result shows: the step is done", hang.msg);
		if (!rc && moved.len) {
			struct hb_buf k = HB_BUF_INIT, m = HB_BUF_INIT;

			if (hb_tsb_append_quoted(&k, s->split.data, s->split.len) ||
			    hb_buf_add(&k, "", 0) ||
			    hb_tsb_append_quoted(&m, moved.data, moved.len) ||
			    hb_buf_add(&m, "", 0))
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			else
				hb_tell_warn(
				    a->tell,
				    "%s: HBase split the region at '%s', not at '%s' (a split "
				    "restriction in the master's configuration, "
				    "hbase.regionserver.region.split_restriction.type, moves a "
				    "split point; the table's schema sets none): the region is "
				    "split",
				    s->command, m.data, k.data);
			hb_buf_release(&k);
			hb_buf_release(&m);
		}
		if (!rc)
			a->done++;
		if (a->log)
			a->log(a->ctx, p, i, 1, rc, err);
	}
	hb_buf_release(&moved);
	return rc;
}
