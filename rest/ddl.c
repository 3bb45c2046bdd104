/* The DDL channels' calls and the meaning of their outcomes; what they send is core's
 * (core/ddlscript.h). */
#include "rest/ddl.h"
#include "core/activity.h"
#include "core/ddlscript.h"
#include "core/thrift.h"
#include "rest/hbase.h"
#include "rest/thrift2.h"

#include <stdio.h>
#include <string.h>

/* Names the create call for the progress line while it blocks. */
static void activity(const char *table, const char *channel)
{
	char label[200];

	snprintf(label, sizeof(label), "creating table '%s' %s", table, channel);
	hb_activity_begin(label);
}

int hb_ddl_thrift2(struct hb_thrift2 *t, const struct hb_schema *s, const struct hb_keys *splits,
                   int *race, struct hb_error *err)
{
	enum hb_thrift_outcome outcome = HB_TR_VOID;
	int rc;

	activity(s->table, "over Thrift2");
	rc = hb_thrift2_create_table(t, s, splits, &outcome, err);
	hb_activity_end();
	/* A TIOError is what TableExistsException becomes: re-check before failing. */
	if (rc && outcome == HB_TR_IOERROR)
		*race = HB_DDL_RACE_OTHER;
	return rc;
}

int hb_ddl_rest(struct hb_rest *rest, const struct hb_schema *s, int *race, struct hb_error *err)
{
	int rc;

	activity(s->table, "over REST");
	rc = hb_rest_create_schema(rest, s, err);
	hb_activity_end();
	if (rc == HB_ESAFETY)
		*race = HB_DDL_RACE_OTHER;
	return rc;
}

/* Writes data to a new temporary file from the template in path (rewritten in place). */
static int write_temp(struct hb_buf *path, const char *tmpdir, const char *name, size_t suffix,
                      const struct hb_buf *data, struct hb_error *err)
{
	int rc;

	if (hb_buf_addf(path, "%s/%s", tmpdir, name))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	rc = hb_shell_write_temp(path->data, suffix, data->data, data->len, err);
	if (rc)
		hb_buf_reset(path);
	return rc;
}

int hb_ddl_shell_prepare(struct hb_ddl_shell *sh, const char *command, const char *tmpdir,
                         const struct hb_schema *s, const struct hb_keys *splits,
                         struct hb_error *err)
{
	struct hb_buf body = HB_BUF_INIT;
	int rc;

	memset(sh, 0, sizeof(*sh));
	hb_buf_init(&sh->script_path, 0);
	hb_buf_init(&sh->splits_path, 0);
	rc = hb_argv_split(&sh->argv, command, err);
	if (!rc && splits->n > HB_DDLSCRIPT_INLINE_MAX) {
		rc = hb_ddlscript_splits_file(&body, splits)
		         ? hb_error_set(err, HB_ENOMEM, "out of memory")
		         : write_temp(&sh->splits_path, tmpdir, "hbtab-splits-XXXXXX.txt", 4, &body,
		                      err);
		hb_buf_reset(&body);
	}
	if (!rc && hb_ddlscript_shell_script(&body, s, splits,
	                                     sh->splits_path.len ? sh->splits_path.data : NULL))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc)
		rc = write_temp(&sh->script_path, tmpdir, "hbtab-create-XXXXXX.rb", 3, &body, err);
	if (!rc && hb_argv_push(&sh->argv, sh->script_path.data))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_buf_release(&body);
	return rc;
}

void hb_ddl_shell_release(struct hb_ddl_shell *sh)
{
	if (sh->script_path.len)
		hb_shell_remove_temp(sh->script_path.data);
	if (sh->splits_path.len)
		hb_shell_remove_temp(sh->splits_path.data);
	hb_argv_release(&sh->argv);
	hb_buf_release(&sh->script_path);
	hb_buf_release(&sh->splits_path);
}

int hb_ddl_shell_outcome(const char *table, const struct hb_shell_result *res, double timeout,
                         int *race, struct hb_error *err)
{
	struct hb_buf what = HB_BUF_INIT;
	enum hb_shell_end end;

	if (hb_buf_addf(&what, "create '%s'", table))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	end = hb_shell_judge(res, hb_buf_str(&what), timeout, err);
	hb_buf_release(&what);
	/*
	 * 2.4.8 exits 1 after a clean run and some builds never exit (docs/hbase-versions.md,
	 * "hbase shell"): without an ERROR line the table that appears is ours.
	 */
	switch (end) {
	case HB_SHELL_CLEAN:
		return 0;
	case HB_SHELL_ERROR:
		*race = HB_DDL_RACE_OTHER;
		break;
	case HB_SHELL_TIMED_OUT:
		*race = HB_DDL_RACE_OURS;
		break;
	case HB_SHELL_FAILED:
		*race = res->exited ? HB_DDL_RACE_OURS : HB_DDL_RACE_OTHER;
		break;
	}
	return err->code;
}
