/* Snapshots through the hbase shell: the script, the answer that proves one exists, names. */
#include "rest/snapshot.h"
#include "core/buf.h"
#include "core/ddlscript.h"
#include "core/tname.h"
#include "core/vec.h"
#include "rest/shellrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hb_snapshot_channel_check(const struct hb_shell_channel *sh, const char *what,
                              struct hb_error *err)
{
	struct hb_argv av = {NULL, 0};
	struct hb_error e2 = {0};
	int found = 0;

	if (sh->command && !hb_argv_split(&av, sh->command, &e2))
		found = hb_shell_command_found(av.v[0]);
	hb_argv_release(&av);
	if (found)
		return 0;
	/* A table leaves the cluster only after a snapshot of it exists, and neither REST nor
	 * Thrift2 can take one: without the shell the answer is no. */
	return hb_error_set(
	    err, HB_ESAFETY,
	    "refusing to %s: snapshots are taken with the hbase shell (neither REST "
	    "nor Thrift2 has a snapshot call) and the shell command '%s' cannot be "
	    "run%s%s (set --hbase-shell, HBTAB_HBASE_SHELL or hbase-shell in the "
	    "config file)",
	    what, sh->command ? sh->command : "", e2.msg[0] ? ": " : "", e2.msg);
}

static int legal_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-' || ch == '.';
}

int hb_snapshot_check_name(const char *name, struct hb_error *err)
{
	size_t i, n = strlen(name);

	if (!n)
		return hb_error_set(err, HB_EINVAL, "empty snapshot name");
	if (n >= HB_SNAPSHOT_NAME_MAX)
		return hb_error_set(err, HB_EINVAL, "snapshot name of %zu bytes (at most %d)", n,
		                    HB_SNAPSHOT_NAME_MAX - 1);
	if (name[0] == '.' || name[0] == '-')
		return hb_error_set(err, HB_EINVAL,
		                    "snapshot name '%s' starts with '%c' (HBase refuses it)", name,
		                    name[0]);
	for (i = 0; i < n; i++)
		if (!legal_char(name[i]))
			return hb_error_set(err, HB_EINVAL,
			                    "snapshot name '%s' holds '%c' (HBase allows letters, "
			                    "digits, '_', '-' and '.')",
			                    name, name[i]);
	return 0;
}

int hb_snapshot_default_name(char *out, size_t size, const char *table, time_t t)
{
	const char *q = hb_tname_bare(table);
	struct tm tmv;
	char when[32];
	size_t i;
	int n;

	gmtime_r(&t, &tmv);
	strftime(when, sizeof(when), "%Y%m%dT%H%M%SZ", &tmv);
	n = snprintf(out, size, "%s-%s", q, when);
	if (n < 0 || (size_t)n >= size)
		return HB_EINVAL;
	for (i = 0; out[i]; i++)
		if (out[i] == ':') /* a namespace's separator: snapshot names cannot hold it */
			out[i] = '-';
	return 0;
}

void hb_snapshots_init(struct hb_snapshots *s)
{
	memset(s, 0, sizeof(*s));
}

void hb_snapshots_release(struct hb_snapshots *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].table);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* The shell's answer (see script()): one line per snapshot, "HBTAB-SNAPSHOT<TAB>NAME<TAB>TABLE",
 * then "HBTAB-SNAPSHOTS<TAB>COUNT". The marker may follow other output on its line (a failed
 * command's "Took N seconds" ends no line); the echoed script cannot hold it, as the script
 * writes the tab as "\t". */
#define ROW_MARK "HBTAB-SNAPSHOT\t"
#define END_MARK "HBTAB-SNAPSHOTS\t"

/* Where mark starts in [p, end), or NULL. */
static const char *find(const char *p, const char *end, const char *mark)
{
	size_t n = strlen(mark);

	for (; p + n <= end; p++)
		if (!memcmp(p, mark, n))
			return p;
	return NULL;
}

/* "NAME<TAB>TABLE" in [p, end): appended to out. 0 when the line is not one (left out). */
static int add_row(struct hb_snapshots *out, const char *p, const char *end)
{
	const char *tab = memchr(p, '\t', (size_t)(end - p));
	struct hb_snapshot *s;

	if (!tab || tab == p || tab + 1 == end || memchr(tab + 1, '\t', (size_t)(end - tab - 1)))
		return 0;
	if (HB_VEC_GROW(out->v, out->cap, out->n + 1, 8))
		return HB_ENOMEM;
	s = &out->v[out->n];
	s->name = strndup(p, (size_t)(tab - p));
	s->table = strndup(tab + 1, (size_t)(end - tab - 1));
	if (!s->name || !s->table) {
		free(s->name);
		free(s->table);
		return HB_ENOMEM;
	}
	out->n++;
	return 0;
}

int hb_snapshot_parse_answer(struct hb_snapshots *out, const char *text, size_t len, int *listed,
                             struct hb_error *err)
{
	const char *p = text, *end = text + len;
	size_t rows = 0;

	*listed = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *m;

		while (le > p && (le[-1] == '\r' || le[-1] == ' '))
			le--;
		if ((m = find(p, le, END_MARK)) != NULL) {
			char *stop;
			unsigned long long n;

			m += strlen(END_MARK);
			n = strtoull(m, &stop, 10);
			/* the count printed after the rows: every row arrived whole */
			*listed = stop != m && stop == le && n == rows;
		} else if ((m = find(p, le, ROW_MARK)) != NULL) {
			if (add_row(out, m + strlen(ROW_MARK), le))
				return hb_error_set(err, HB_ENOMEM, "out of memory");
			rows++;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* The table names a listing line gives and table name the same table ("default:" aside). */
static int same_table(const char *a, const char *b)
{
	return !strcmp(hb_tname_bare(a), hb_tname_bare(b));
}

/* Whether the run's answer lists name for table. */
static int listed_in(const struct hb_shell_result *res, const char *table, const char *name,
                     int *found, int *listed, struct hb_error *err)
{
	struct hb_snapshots l;
	size_t i;
	int rc;

	*found = 0;
	hb_snapshots_init(&l);
	rc = hb_snapshot_parse_answer(&l, res->out.data ? res->out.data : "", res->out.len, listed,
	                              err);
	for (i = 0; !rc && *listed && i < l.n; i++)
		if (!strcmp(l.v[i].name, name) && same_table(l.v[i].table, table))
			*found = 1;
	hb_snapshots_release(&l);
	return rc;
}

/*
 * The script: the snapshot, then a line of Ruby that asks the Admin the shell holds
 * (@shell.admin, Hbase::Admin, in every 2.x and 3.x shell) for the snapshots of that name and
 * prints them itself, one line each, then their count. The shell's list_snapshots is not used:
 * its table is laid out for a terminal (names wrapped at a column, a TTL column since 2.5.9,
 * docs/hbase-wire.md). The name is matched exactly: Pattern.quote for the master's filter,
 * then string equality. "exit" ends the script before the shell reads stdin.
 */
static int script(struct hb_buf *s, const char *table, const char *name)
{
	int rc = hb_buf_adds(s, "snapshot ");

	if (!rc)
		rc = hb_ddlscript_ruby_str(s, table);
	if (!rc)
		rc = hb_buf_adds(s, ", ");
	if (!rc)
		rc = hb_ddlscript_ruby_str(s, name);
	if (!rc)
		rc = hb_buf_adds(s, "\nhbtab_name = ");
	if (!rc)
		rc = hb_ddlscript_ruby_str(s, name);
	if (!rc)
		rc = hb_buf_adds(
		    s, "; hbtab_list = @shell.admin.list_snapshot(java.util.regex.Pattern.quote("
		       "hbtab_name)).select { |x| x.getName == hbtab_name }; hbtab_list.each { |x| "
		       "puts \"HBTAB-SNAPSHOT\\t#{x.getName}\\t#{x.getTableNameAsString}\" }; puts "
		       "\"HBTAB-SNAPSHOTS\\t#{hbtab_list.size}\"\nexit\n");
	return rc ? HB_ENOMEM : 0;
}

int hb_snapshot_take(const struct hb_shell_channel *sh, const char *table, const char *name,
                     struct hb_error *err)
{
	struct hb_buf s = HB_BUF_INIT;
	struct hb_shell_result res;
	struct hb_error judged = {0};
	char what[HB_SNAPSHOT_NAME_MAX + 600];
	enum hb_shell_end end = HB_SHELL_CLEAN;
	int rc, found = 0, listed = 0;

	hb_shell_result_init(&res);
	rc = script(&s, table, name) ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
	if (!rc)
		rc = hb_shell_run_script(sh->command, "snapshot", s.data, s.len, sh->timeout, &res,
		                         err);
	snprintf(what, sizeof(what), "snapshot '%s' of '%s'", name, table);
	/* An error the shell printed fails it (a shell that goes on after an error could list
	 * an older snapshot of that name); otherwise the answer to the listing decides, whatever
	 * the exit status says (some shells exit 1 after a clean run, some hang): HBase lists
	 * completed snapshots only. */
	if (!rc) {
		end = hb_shell_judge(&res, what, sh->timeout, &judged);
		if (end == HB_SHELL_ERROR)
			rc = hb_error_set(err, judged.code, "%s", judged.msg);
	}
	if (!rc)
		rc = listed_in(&res, table, name, &found, &listed, err);
	if (!rc && !found && end != HB_SHELL_CLEAN)
		rc = hb_error_set(err, judged.code, "%s", judged.msg);
	else if (!rc && !found)
		rc = hb_error_set(err, HB_ESERVER, "%s: %s", what,
		                  listed ? "the shell's listing of snapshots does not show it"
		                         : "the shell printed no listing of snapshots");
	hb_shell_result_release(&res);
	hb_buf_release(&s);
	return rc;
}

int hb_snapshot_before_drop(void *ctx, const char *table, struct hb_error *err)
{
	struct hb_snapshot_before *b = ctx;

	if (hb_snapshot_default_name(b->name, sizeof(b->name), table, time(NULL)))
		return hb_error_set(err, HB_EINVAL, "table name '%s' too long for a snapshot name",
		                    table);
	return hb_snapshot_take(b->sh, table, b->name, err);
}
