/* The channels handed down as values: a Thrift2 client made from its settings, a table made
 * through the DDL channel chosen. */
#include "rest/channel.h"
#include "core/activity.h"
#include "rest/ddl.h"
#include "rest/shellrun.h"
#include "rest/tempfile.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

int hb_thrift2_channel_open(const struct hb_thrift2_channel *ch, double extra,
                            struct hb_thrift2 **out, struct hb_error *err)
{
	struct hb_thrift2_opts o;
	int rc;

	*out = NULL;
	if (!ch->opts) {
		*err = ch->why;
		return ch->why.code ? ch->why.code : HB_EINVAL;
	}
	o = *ch->opts;
	o.timeout += extra;
	rc = hb_thrift2_new(out, &o, err);
	if (rc)
		return rc;
	/* a basic-auth password over plain http is readable on the wire */
	if (o.password && o.url && !strncasecmp(o.url, "http://", 7))
		hb_tell_warn(ch->tell, "sending a basic-auth password over plain http to '%s'",
		             o.url);
	return 0;
}

static int ddl_thrift2(const struct hb_ddl_channel *ch, const struct hb_schema *s,
                       const struct hb_keys *splits, double wait, int *race, struct hb_error *err)
{
	struct hb_thrift2 *t = NULL;
	int rc;

	/* createTable is synchronous: the server returns once every region is assigned */
	rc = hb_thrift2_channel_open(ch->thrift, wait, &t, err);
	if (rc)
		return rc;
	rc = hb_ddl_thrift2(t, s, splits, race, err);
	hb_thrift2_free(t);
	return rc;
}

static int ddl_shell(const struct hb_ddl_channel *ch, const struct hb_schema *s,
                     const struct hb_keys *splits, double wait, const struct hb_tell *tell,
                     int *race, struct hb_error *err)
{
	struct hb_ddl_shell sh;
	struct hb_shell_result res;
	char label[200];
	int rc;

	hb_shell_result_init(&res);
	rc = hb_ddl_shell_prepare(&sh, ch->shell, hb_temp_dir(), s, splits, err);
	if (rc)
		goto done;
	hb_tell_verbose(tell, "running %s %s", ch->shell, sh.script_path.data);
	snprintf(label, sizeof(label), "creating table '%s' with the hbase shell", s->table);
	hb_activity_begin(label);
	rc = hb_shell_run(&sh.argv, ch->timeout + wait, &res, err);
	hb_activity_end();
	if (rc)
		goto done;
	hb_tell_verbose(tell, "shell ended after %.2f s (exit %d, signal %d)", res.seconds,
	                res.status, res.signal);
	rc = hb_ddl_shell_outcome(s->table, &res, ch->timeout + wait, race, err);
done:
	hb_ddl_shell_release(&sh);
	hb_shell_result_release(&res);
	return rc;
}

int hb_ddl_create(const struct hb_ddl_channel *ch, struct hb_rest *rest, const struct hb_schema *s,
                  const struct hb_keys *splits, double wait, const struct hb_tell *tell, int *race,
                  struct hb_error *err)
{
	switch (ch->via) {
	case HB_DDL_VIA_THRIFT2:
		return ddl_thrift2(ch, s, splits, wait, race, err);
	case HB_DDL_VIA_SHELL:
		return ddl_shell(ch, s, splits, wait, tell, race, err);
	case HB_DDL_VIA_REST:
		/* only reached after the table was found absent (never PUT over a table) */
		return hb_ddl_rest(rest, s, race, err);
	case HB_DDL_VIA_NONE:
		break;
	}
	HB_BUG("a DDL without a channel");
	return HB_EINVAL;
}
