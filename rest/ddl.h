/* Making a table through a DDL channel (Thrift2 createTable, an hbase shell script, the REST
 * gateway's schema PUT) and what each outcome says about a table that exists afterwards. */
#ifndef HB_REST_DDL_H
#define HB_REST_DDL_H

#include "core/buf.h"
#include "core/hb.h"
#include "core/key.h"
#include "core/schema.h"
#include "rest/rest.h"
#include "rest/shellrun.h"

/* What a failed create says about a table that exists afterwards (*race). */
#define HB_DDL_RACE_OTHER 1 /* an error was reported: someone else may have made it */
#define HB_DDL_RACE_OURS  2 /* only an exit status or a hang: the table is ours */

struct hb_thrift2;

/* Thrift2 createTable (synchronous: it returns once every region is assigned). A TIOError,
 * what TableExistsException becomes, sets *race to HB_DDL_RACE_OTHER. Codes of
 * hb_thrift2_create_table. */
int hb_ddl_thrift2(struct hb_thrift2 *t, const struct hb_schema *s, const struct hb_keys *splits,
                   int *race, struct hb_error *err);

/* The REST gateway's schema PUT (one region). DANGER: only for a table known to be absent;
 * a 304 (made first by someone else) sets *race to HB_DDL_RACE_OTHER. */
int hb_ddl_rest(struct hb_rest *rest, const struct hb_schema *s, int *race, struct hb_error *err);

/* The shell channel's run: the script (and, above HB_DDLSCRIPT_INLINE_MAX keys, the
 * SPLITS_FILE it names) in temporary files, and the argv that runs the script. */
struct hb_ddl_shell {
	struct hb_argv argv;
	struct hb_buf script_path, splits_path; /* empty until written */
};

/*
 * Splits command into argv, writes the files under tmpdir (mode 0600, removed on a signal)
 * and appends the script's path to argv. Release with hb_ddl_shell_release (removes the
 * files) even on failure. HB_EINVAL (a bad command, a file that cannot be written), HB_ENOMEM.
 */
int hb_ddl_shell_prepare(struct hb_ddl_shell *sh, const char *command, const char *tmpdir,
                         const struct hb_schema *s, const struct hb_keys *splits,
                         struct hb_error *err);
void hb_ddl_shell_release(struct hb_ddl_shell *sh);

/*
 * What a finished shell run of a create of table means: an ERROR line is the failure (its
 * exception class named; *race OTHER), a timeout or a bare non-zero exit only a hint (some
 * shells exit 1 after a clean run or never exit: *race OURS, the table that appears is ours).
 * timeout is what the run was given, for the message. 0, HB_ESERVER, HB_ENET.
 */
int hb_ddl_shell_outcome(const char *table, const struct hb_shell_result *res, double timeout,
                         int *race, struct hb_error *err);

#endif
