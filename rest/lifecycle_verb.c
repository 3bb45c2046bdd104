/* One life-cycle verb (enable, disable, truncate) sent through Thrift2 or the hbase shell, and the
 * table's state and regions waited for (rest/lifecycle.c runs the verbs). */
#include "rest/lifecycle_verb.h"

#include "core/activity.h"
#include "core/audit.h"
#include "core/bounds.h"
#include "core/clock.h"
#include "core/regioninfo.h"
#include "core/tname.h"
#include "rest/hbase.h"
#include "rest/shellrun.h"
#include "rest/statefile.h"
#include "rest/thrift2.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const verb_names[] = {"enable", "disable", "truncate"};

const char *hb_lc_verb_name(enum hb_lc_verb verb)
{
	return verb_names[verb];
}

static const char *state_name(int state)
{
	return state == HB_TABLE_CHANGING ? "ENABLING or DISABLING" : hb_tablestate_name(state);
}

/* The table's state from Thrift2 (isTableEnabled, then isTableDisabled) or, without a Thrift2
 * server, from its table:state row in hbase:meta. */
int hb_lc_read_state(struct hb_rest *rest, const struct hb_lc_req *q, int *state,
                     struct hb_error *err)
{
	int rc, yes = 0, off = 0;

	*state = -1;
	if (q->thrift) {
		rc = hb_thrift2_is_table_enabled(q->thrift, q->table, &yes, err);
		if (!rc && !yes)
			rc = hb_thrift2_is_table_disabled(q->thrift, q->table, &off, err);
		if (!rc)
			*state = yes   ? HB_TABLE_ENABLED
			         : off ? HB_TABLE_DISABLED
			               : HB_TABLE_CHANGING;
		return rc;
	}
	rc = hb_rest_table_state(rest, hb_tname_bare(q->table), state, err);
	if (!rc && *state < 0)
		rc =
		    hb_error_set(err, HB_ESERVER,
		                 "cannot learn whether table '%s' is enabled: hbase:meta has no "
		                 "table:state row for it (HBase 1.x keeps the state in ZooKeeper); "
		                 "give the Thrift2 server (--thrift URL) to ask it instead",
		                 q->table);
	return rc;
}

/* The regions as /T/regions lists them, sorted, each region once (replicas dropped). */
int hb_lc_read_regions(struct hb_rest *rest, const char *table, struct hb_regions *rs,
                       struct hb_error *err)
{
	int rc;

	hb_regions_release(rs);
	hb_regions_init(rs);
	rc = hb_rest_get_regions(rest, table, rs, err);
	if (!rc) {
		hb_regions_sort(rs);
		hb_bounds_dedupe_replicas(rs);
	}
	return rc;
}

/*
 * Whether every region of the (enabled) table is online: /T/regions lists one complete chain
 * (a 500 is a region without a location yet) and hbase:meta says each live region is OPEN on
 * a server; when meta cannot be read, Thrift2's isTableAvailable. *missing gets the number of
 * regions known not to be online. rs receives the /T/regions listing.
 */
static int regions_online(struct hb_rest *rest, const struct hb_lc_req *q, struct hb_regions *rs,
                          int *online, size_t *missing, struct hb_error *err)
{
	struct hb_error merr = {0};
	struct hb_regions meta;
	int rc, state = -1, avail = 0;
	size_t i;

	*online = 0;
	*missing = 0;
	rc = hb_lc_read_regions(rest, q->table, rs, err);
	if (rc == HB_ENOLOCATION || rc == HB_ENOTFOUND)
		return 0;
	if (rc)
		return rc;
	if (!hb_bounds_chain_complete(rs))
		return 0;
	hb_regions_init(&meta);
	if (!hb_rest_meta_regions(rest, hb_tname_bare(q->table), &meta, &state, &merr)) {
		for (i = 0; i < meta.n; i++) {
			struct hb_region_view v;
			const struct hb_region *r = hb_regions_at(&meta, i, &v);

			if (hb_region_is_live(r) &&
			    (!r->server || !*r->server || (r->state && strcmp(r->state, "OPEN"))))
				(*missing)++;
		}
		*online = meta.n > 0 && !*missing;
	} else if (q->thrift) {
		rc = hb_thrift2_is_table_available(q->thrift, q->table, &avail, err);
		*online = !rc && avail;
	} else {
		*online =
		    1; /* nothing more to ask: the table is ENABLED and every region located */
	}
	hb_regions_release(&meta);
	return rc;
}

/* Polls until the table is in state target (and, with need_online, every region is online)
 * or the deadline passes. */
int hb_lc_wait_for(struct hb_rest *rest, const struct hb_lc_req *q, int target, int need_online,
                   double started, struct hb_regions *rs, int *state, struct hb_error *err)
{
	double deadline = started + q->wait, delay = 0.05;
	size_t missing = 0;
	int rc, online = 0;
	char label[300];

	snprintf(label, sizeof(label), "waiting for table '%s' to be %s", q->table,
	         hb_tablestate_name(target));
	hb_activity_begin(label);
	for (;;) {
		rc = hb_lc_read_state(rest, q, state, err);
		if (!rc && *state == target && need_online)
			rc = regions_online(rest, q, rs, &online, &missing, err);
		if (rc || (*state == target && (!need_online || online)))
			break;
		if (hb_now() + delay > deadline)
			break;
		hb_activity_tick();
		hb_sleep(delay);
		delay = delay * 2 > 1 ? 1 : delay * 2;
	}
	hb_activity_end();
	if (rc)
		return rc;
	if (*state != target)
		return hb_error_set(
		    err, HB_ESERVER, "table '%s' is %s, not %s, after %.0f s (--wait)", q->table,
		    state_name(*state), hb_tablestate_name(target), hb_now() - started);
	if (need_online && !online) {
		if (missing)
			return hb_error_set(
			    err, HB_ESERVER,
			    "table '%s' is %s but %zu of its regions are not online "
			    "after %.0f s (--wait); 'hbtab regions %s --source meta' "
			    "shows each region's state",
			    q->table, hb_tablestate_name(target), missing, hb_now() - started,
			    q->table);
		return hb_error_set(err, HB_ESERVER,
		                    "table '%s' is %s but its regions are not all online after "
		                    "%.0f s (--wait); 'hbtab regions %s --source meta' shows each "
		                    "region's state",
		                    q->table, hb_tablestate_name(target), hb_now() - started,
		                    q->table);
	}
	return 0;
}

/* Waits while the table is ENABLING or DISABLING (someone else's enable or disable). */
int hb_lc_wait_settled(struct hb_rest *rest, const struct hb_lc_req *q, double started, int *state,
                       struct hb_error *err)
{
	double deadline = started + q->wait, delay = 0.05;
	int rc;

	while (*state != HB_TABLE_ENABLED && *state != HB_TABLE_DISABLED) {
		if (hb_now() + delay > deadline)
			return hb_error_set(
			    err, HB_ESERVER,
			    "table '%s' is still %s after %.0f s (--wait); not sending "
			    "%s",
			    q->table, state_name(*state), hb_now() - started,
			    hb_lc_verb_name(q->verb));
		hb_sleep(delay);
		delay = delay * 2 > 1 ? 1 : delay * 2;
		rc = hb_lc_read_state(rest, q, state, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* One shell command on the table ("disable 't1'"), judged as the shell channel is. Returns
 * 0 when it ran clean; otherwise *end says how it ended and err why. */
static int send_shell(const struct hb_lc_req *q, const char *command, enum hb_shell_end *end,
                      struct hb_error *err)
{
	struct hb_buf script = HB_BUF_INIT, what = HB_BUF_INIT;
	struct hb_shell_result res;
	char label[300];
	int rc;

	*end = HB_SHELL_CLEAN;
	hb_shell_result_init(&res);
	/* the name was checked (hb_tname_parse): letters, digits, '_', '-', '.' and one ':',
	 * nothing Ruby's single quotes would treat specially */
	if (hb_buf_addf(&what, "%s '%s'", command, q->table) ||
	    hb_buf_addf(&script,
	                "# hbtab %s: the table's state is read back afterwards\n%s\nexit\n",
	                hb_lc_verb_name(q->verb), hb_buf_str(&what))) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	snprintf(label, sizeof(label), "%s with the hbase shell", hb_buf_str(&what));
	hb_activity_begin(label);
	rc = hb_shell_run_script(q->shell, hb_lc_verb_name(q->verb), script.data, script.len,
	                         q->timeout + q->wait, &res, err);
	hb_activity_end();
	if (!rc) {
		*end = hb_shell_judge(&res, hb_buf_str(&what), q->timeout + q->wait, err);
		rc = *end == HB_SHELL_CLEAN ? 0 : err->code;
	}
done:
	hb_shell_result_release(&res);
	hb_buf_release(&script);
	hb_buf_release(&what);
	return rc;
}

/* Thrift2's call for verb (truncate: truncateTable with preserveSplits). */
static int send_thrift(const struct hb_lc_req *q, enum hb_lc_verb verb,
                       enum hb_thrift_outcome *outcome, int32_t *app_type, struct hb_error *err)
{
	static const char *const doing[] = {"enabling", "disabling", "truncating"};
	char label[300];
	int rc;

	snprintf(label, sizeof(label), "%s table '%s' over Thrift2", doing[verb], q->table);
	hb_activity_begin(label);
	if (verb == HB_LC_ENABLE)
		rc = hb_thrift2_enable_table(q->thrift, q->table, outcome, app_type, err);
	else if (verb == HB_LC_DISABLE)
		rc = hb_thrift2_disable_table(q->thrift, q->table, outcome, app_type, err);
	else
		rc = hb_thrift2_truncate_table(q->thrift, q->table, 1, outcome, app_type, err);
	hb_activity_end();
	return rc;
}

/*
 * Sends verb through the request's channel and settles what a failure means: an error the
 * server gave (TIOError, the shell's ERROR line) stands unless the table is in target state
 * anyway (*raced = 1: someone else got there first); a shell that ended without an error
 * line but with a bad status or a timeout is only a hint, so the caller's wait decides
 * (*hint gets the message). A Thrift2 server without the call hands over to the shell when
 * the request allows it.
 */
/* Whether a failed truncate's message is a refusal HBase gave before any work (the
 * procedure's preflight, hbase-wire.md §8.1, or the shell's own checks): anything else (a
 * timeout, a lost answer, another exception) leaves open that the truncate goes on. */
static int refusal(const char *msg)
{
	static const char *const sure[] = {"TableNotDisabledException",
	                                   "TableNotFoundException",
	                                   "TableNotEnabledException",
	                                   "AccessDeniedException",
	                                   "ConstraintException",
	                                   "Unknown table",
	                                   "does not exist",
	                                   "catalog tables"};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(sure); i++)
		if (strstr(msg, sure[i]))
			return 1;
	return 0;
}

int hb_lc_send_verb(struct hb_rest *rest, const struct hb_lc_req *q, enum hb_lc_verb verb,
                    int target, struct hb_lc_result *out, int *raced, int *unclear,
                    struct hb_error *hint, struct hb_error *err)
{
	static const char *const shell_cmd[] = {"enable", "disable", "truncate_preserve"};
	enum hb_thrift_outcome outcome = HB_TR_VOID;
	enum hb_shell_end end = HB_SHELL_CLEAN;
	int32_t app_type = -1;
	int rc, state = -1;

	*raced = 0;
	if (!q->use_shell && q->thrift) {
		out->via = "thrift2";
		rc = send_thrift(q, verb, &outcome, &app_type, err);
		if (!rc || outcome != HB_TR_APP_EXCEPTION || app_type != 1 || !q->shell_fallback)
			goto judged;
	}
	out->via = "shell";
	rc = send_shell(q, shell_cmd[verb], &end, err);
	if (rc && (end == HB_SHELL_TIMED_OUT || end == HB_SHELL_FAILED)) {
		*hint = *err;
		*unclear = 1;
		return 0;
	}
judged:
	/* A truncate whose answer was lost (a timeout, a reset, a gateway's 5xx) or unclear (a
	 * TIOError that is not a refusal: Admin.truncateTable's own wait timing out while the
	 * master's procedure goes on) is settled by the wait and the regions after it. */
	if (rc && verb == HB_LC_TRUNCATE && rc != HB_ENOMEM && rc != HB_EINVAL &&
	    outcome != HB_TR_APP_EXCEPTION && outcome != HB_TR_ILLEGAL_ARG && !refusal(err->msg)) {
		*hint = *err;
		*unclear = 1;
		return 0;
	}
	/* Within a truncate, so is the answer to its disable or enable that never came (the
	 * procedure goes on in the master): the wait for the state decides. */
	if (rc && q->verb == HB_LC_TRUNCATE && outcome == HB_TR_VOID &&
	    (rc == HB_ENET || rc == HB_ESERVER)) {
		*hint = *err;
		*unclear = 1;
		return 0;
	}
	if (!rc || !(outcome == HB_TR_IOERROR || end == HB_SHELL_ERROR))
		return rc;
	{
		struct hb_error serr = {0};

		if (!hb_lc_read_state(rest, q, &state, &serr) && state == target) {
			*raced = 1;
			return 0;
		}
	}
	return rc;
}
