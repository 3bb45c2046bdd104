/* hbtab rotate: daily/hourly tables from a name template, created ahead through the create
 * flow, N from the cluster, older managed tables retired under --yes with a re-check. */
#include "../core/rotate.h"
#include "../core/tname.h"
#include "cli.h"
#include "commands.h"
#include "create.h"
#include "exit.h"
#include "output.h"
#include "prom.h"
#include "rotate.h"
#include "snapshot.h"
#include "splitspec.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define USAGE                                                                                      \
	"rotate --template TEMPLATE SPLITSPEC [--family ...]... [--attr ...]... [--keyspace "      \
	"SPEC] "                                                                                   \
	"[--period day|hour] [--ahead K] [--retain K] [--max-drops M] [--yes] [--dry-run] "        \
	"[--now TIME] [--tz ZONE] [--via CH] [--wait SEC] [--lock FILE] [--sample-previous] "      \
	"[--adopt] [--create-namespace] [--snapshot-before-drop] [--known-unmarked "               \
	"TABLE]... " CLI_PROM_USAGE

#define MAX_AHEAD  1000
#define MAX_RETAIN 100000

static struct hb_splitspec ss;
static struct cli_create_opts co;
static struct cli_prom_opts po;
static const char *tmpl, *period, *ahead, *retain, *max_drops, *now_s, *tz, *lock;
static int yes, dry_run, opt_sample_previous, adopt, create_namespace, snapshot_before_drop;
static struct cli_strlist known_unmarked;
static const struct cli_option opts[] = {
    CLI_GROUP("Rotation"),
    CLI_STRING(0, "template", &tmpl, "TEMPLATE",
               "table name with %Y %m %d %H fields, e.g. ns:events_%Y%m%d"),
    CLI_CHOICE(0, "period", &period, "day|hour",
               "one table per day or hour (default: the template's finest field)", "day hour"),
    CLI_STRING(0, "ahead", &ahead, "K", "tables after the current one to have ready (1)"),
    CLI_STRING(0, "retain", &retain, "K", "most recent periods kept, the current one included (7)"),
    CLI_STRING(0, "max-drops", &max_drops, "M", "tables dropped at most per run (1)"),
    CLI_FLAG(0, "yes", &yes, "really drop managed tables past retention"),
    CLI_FLAG(0, "dry-run", &dry_run, "show what would be created and dropped, change nothing"),
    CLI_STRING(0, "now", &now_s, "TIME", "reference time, ISO-8601 (default: the clock)"),
    {CLI_OPT_STRING, 0, "tz", &tz, "ZONE", "time zone the template is read in (UTC)", NULL,
     CLI_OPT_ZONE},
    CLI_STRING(0, "lock", &lock, "FILE",
               "lock file against overlapping runs (default under $XDG_RUNTIME_DIR or "
               "/tmp)"),
    CLI_FLAG(0, "sample-previous", &opt_sample_previous,
             "--sampled-splits from the newest managed table (falls back to the spec)"),
    CLI_FLAG(0, "adopt", &adopt,
             "mark unmarked tables in the window that have exactly this design as managed"),
    CLI_FLAG(0, "create-namespace", &create_namespace,
             "create the template's namespace when it does not exist"),
    CLI_FLAG(0, "snapshot-before-drop", &snapshot_before_drop,
             "drop a table only once a snapshot of it is listed (hbase shell)"),
    CLI_LIST(0, "known-unmarked", &known_unmarked, "TABLE",
             "a table kept on purpose that matches the template without a rotate mark: "
             "no warning about it (repeatable)"),
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_CREATE_OPTIONS(&co, "auto (default), thrift2, shell or rest", "auto thrift2 shell rest"),
    CLI_PROM_OPTIONS(&po),
    CLI_END,
};

static struct cli_rotate_opts ro;
static struct hb_shell_channel sh;
static struct hb_rotate_result res;
static char now_text[40];

/* ---------------------------------------------------------------- parse */

/* Selects the zone for localtime/mktime. HB_EINVAL for a zone the system does not know. */
static int set_zone(const char *zone)
{
	const char *z = zone ? zone : "UTC";
	const char *dir = getenv("TZDIR");
	char path[4096];
	int known;

	if (!*z)
		return cli_usage_error("rotate", "empty --tz (a name such as Europe/Berlin from "
		                                 "the tz database, or UTC)");
	if (*z == ':')
		z++;
	known = !strcmp(z, "UTC") || !strcmp(z, "GMT") || !strcmp(z, "Z");
	if (!known && !strstr(z, "..") && *z != '/') {
		snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", z);
		known = access(path, R_OK) == 0;
	} else if (!known && *z == '/') {
		known = access(z, R_OK) == 0;
	}
	if (!known)
		return cli_usage_error("rotate",
		                       "unknown time zone '%s' (a name such as "
		                       "Europe/Berlin from the tz database, or UTC)",
		                       zone);
	if (setenv("TZ", !strcmp(z, "Z") ? "UTC" : z, 1))
		return HB_ENOMEM;
	tzset();
	return 0;
}

static int parse_count(const char *s, const char *flag, long min, long max, long def, long *out)
{
	struct hb_error err = {0};

	if (!s) {
		*out = def;
		return 0;
	}
	if (cli_parse_long(s, min, max, flag, out, &err)) {
		cli_usage_error("rotate", "%s", err.msg);
		return HB_EINVAL;
	}
	return 0;
}

/* --template and --period into ro.flow.cfg. */
static int check_template(void)
{
	struct hb_error err = {0};
	enum hb_period implied;

	if (!tmpl)
		return cli_usage_error("rotate", "missing --template TEMPLATE");
	if (hb_rotate_check(tmpl, &implied, &err))
		return cli_usage_error("rotate", "invalid --template '%s': %s", tmpl, err.msg);
	if (!strncmp(tmpl, "hbase:", 6)) {
		cli_error("refusing to run 'rotate' on system tables ('%s'): the 'hbase' namespace "
		          "holds HBase's system tables",
		          tmpl);
		return HB_ESAFETY;
	}
	ro.flow.cfg.tmpl = tmpl;
	ro.flow.cfg.period = implied;
	if (!period)
		return 0;
	if (!strcmp(period, "hour") && implied == HB_PERIOD_DAY)
		return cli_usage_error(
		    "rotate", "--period hour is finer than the template '%s' (it has no %%H)",
		    tmpl);
	if (!strcmp(period, "day") && implied == HB_PERIOD_HOUR)
		return cli_usage_error("rotate",
		                       "--period day does not fit the template '%s': its %%H would "
		                       "name hours no daily table has",
		                       tmpl);
	if (strcmp(period, "day") && strcmp(period, "hour"))
		return cli_usage_error("rotate", "invalid --period '%s' (day or hour)", period);
	return 0;
}

/* The split spec and its companions. */
static int check_spec(void)
{
	if (co.via && !strcmp(co.via, "print"))
		return cli_usage_error("rotate",
		                       "--via print is not a rotation channel (use 'hbtab "
		                       "create --via print' for a script)");
	if (!hb_splitspec_given(&ss))
		return cli_usage_error("rotate", "missing SPLITSPEC (such as --hex-splits 16 or "
		                                 "--hex-splits auto --regions-per-server 2)");
	if (opt_sample_previous && !ss.sampled)
		return cli_usage_error("rotate", "--sample-previous needs --sampled-splits N and a "
		                                 "fallback (--generator or --sample-file)");
	if (opt_sample_previous && ss.sample_table)
		return cli_usage_error("rotate",
		                       "--sample-previous and --sample-table cannot be used "
		                       "together");
	return 0;
}

/* --tz, --now and the names the template makes then. */
static int check_time(void)
{
	struct hb_error err = {0};
	struct hb_tname tn;
	struct hb_rotate_period first;
	int year;

	if (set_zone(tz))
		return HB_EINVAL;
	ro.flow.cfg.now = time(NULL);
	if (now_s && hb_rotate_parse_time(now_s, &ro.flow.cfg.now))
		return cli_usage_error("rotate",
		                       "invalid --now '%s' (ISO-8601 such as 2026-03-29, "
		                       "2026-03-29T02:30 or 2026-03-29T02:30:00+01:00)",
		                       now_s);
	/* the last period created must have a four-digit year: %Y of year 10000 makes a name
	 * the template's four-digit pattern never matches again */
	year = hb_rotate_last_year(&ro.flow.cfg);
	if (year > 9999)
		return cli_usage_error("rotate",
		                       "--now '%s' with --ahead %ld reaches the year %d: %%Y names "
		                       "years up to 9999",
		                       now_s ? now_s : "(now)", ro.flow.cfg.ahead, year);
	hb_rotate_now_text(ro.flow.cfg.now, now_text, sizeof(now_text));
	/* every name the template makes has the same shape: one check covers them all */
	hb_rotate_stamp_at(ro.flow.cfg.now, ro.flow.cfg.period, &first.stamp);
	if (hb_rotate_format(first.name, sizeof(first.name), tmpl, &first.stamp) ||
	    hb_tname_check_create(&tn, first.name, &err))
		return cli_usage_error("rotate",
		                       "--template '%s' makes invalid table names such as '%s': %s",
		                       tmpl, first.name, err.msg[0] ? err.msg : "too long");
	return 0;
}

/* A spec that needs no cluster is computed offline before the cluster is touched. */
static int check_offline_spec(void)
{
	struct hb_error err = {0};
	struct hb_keys k;
	int rc;

	if (ss.sample_table || opt_sample_previous || cli_splitspec_needs_cluster(&ss))
		return 0;
	hb_keys_init(&k);
	rc = cli_splitspec_compute(&k, &ss, &err);
	hb_keys_release(&k);
	if (rc)
		cli_fail(&err);
	return rc;
}

/* Every option, and the split spec when it needs no cluster, checked offline. */
static int check(struct cli_ctx *x)
{
	int rc;

	(void)x;
	if (cli_prom_check("rotate", &po))
		return CLI_EXIT_USAGE;
	rc = check_template();
	if (rc)
		return rc == HB_ESAFETY ? CLI_EXIT_REFUSED : CLI_EXIT_USAGE;
	if (parse_count(ahead, "--ahead", 0, MAX_AHEAD, 1, &ro.flow.cfg.ahead) ||
	    parse_count(retain, "--retain", 1, MAX_RETAIN, 7, &ro.flow.cfg.retain) ||
	    parse_count(max_drops, "--max-drops", 0, MAX_RETAIN, 1, &ro.flow.cfg.max_drops) ||
	    cli_create_parse_wait("rotate", co.wait, &ro.wait) || check_spec() || check_time() ||
	    check_offline_spec())
		return CLI_EXIT_USAGE;
	ro.flow.cfg.yes = yes;
	ro.flow.cfg.dry_run = dry_run;
	ro.flow.sample_previous = opt_sample_previous;
	ro.adopt = adopt;
	ro.create_namespace = create_namespace;
	ro.flow.snapshot_before_drop = snapshot_before_drop;
	ro.known_unmarked = &known_unmarked;
	cli_snapshot_channel(&sh);
	ro.sh = &sh;
	ro.lock = lock;
	ro.flow.ss = &ss;
	ro.families = &co.families;
	ro.attrs = &co.attrs;
	ro.via = co.via;
	ro.keyspace = co.keyspace;
	ro.flow.sample_rows = ss.sample_table ? NULL : ss.sample_rows;
	if (opt_sample_previous && ss.sample_rows && !ss.sample_table)
		ss.sample_rows = NULL; /* it sizes the --sample-previous sample */
	return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- print */

static void print_line(const struct hb_rotate_line *l)
{
	/* a line with an error: the error on stderr says it (the JSON report keeps both) */
	if (cli_g.output != CLI_OUT_TEXT || cli_g.quiet || l->error)
		return;
	printf("%-11s %s", l->action, l->name);
	if (l->regions >= 0 && l->n >= 0)
		printf(" (%ld region%s, N=%ld)", l->regions, l->regions == 1 ? "" : "s", l->n);
	else if (l->n >= 0)
		printf(" (N=%ld)", l->n);
	else if (l->regions >= 0)
		printf(" (%ld region%s)", l->regions, l->regions == 1 ? "" : "s");
	if (l->note)
		printf(": %s", l->note);
	if (l->snapshot)
		printf(": snapshot '%s' taken first (restore: clone_snapshot '%s', '%s')",
		       l->snapshot, l->snapshot, l->name);
	putchar('\n');
	fflush(stdout);
}

static void add_count(cJSON *o, const char *key, long v)
{
	if (v >= 0)
		cJSON_AddNumberToObject(o, key, (double)v);
	else
		cJSON_AddNullToObject(o, key);
}

static int print_json(void)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	size_t i;
	int rc;

	if (!o)
		return HB_ENOMEM;
	cli_json_add_str(o, "now", now_text);
	arr = cJSON_AddArrayToObject(o, "tables");
	for (i = 0; arr && i < res.nlines; i++) {
		cJSON *t = cJSON_CreateObject();

		if (!t || !cJSON_AddItemToArray(arr, t))
			break;
		cli_json_add_str(t, "name", res.lines[i].name);
		cli_json_add_str(t, "action", res.lines[i].action);
		add_count(t, "regions", res.lines[i].regions);
		add_count(t, "N", res.lines[i].n);
		if (res.lines[i].note)
			cli_json_add_str(t, "note", res.lines[i].note);
		if (res.lines[i].snapshot)
			cli_json_add_str(t, "snapshot", res.lines[i].snapshot);
		if (res.lines[i].error)
			cli_json_add_str(t, "error", res.lines[i].error);
	}
	cJSON_AddNumberToObject(o, "pending_drops", (double)res.pending);
	rc = cli_json_print(o);
	cJSON_Delete(o);
	return rc;
}

static void print_timings(void)
{
	fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", "list", res.t_list);
	fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", "sample", res.t_sample);
	fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", "create", res.t_create);
	fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", "drop", res.t_drop);
}

static int run(struct cli_ctx *x)
{
	int st;

	ro.on_line = print_line;
	cli_prom_arm(&po, "rotate", tmpl); /* a signal or --deadline: a failed run */
	st = cli_rotate_run(x->rest, &ro, &res);
	/* a run refused by another's lock did nothing: the one holding it reports */
	if (!res.listed && st == CLI_EXIT_REFUSED)
		return st;
	st = cli_prom_rotate(&po, tmpl, &res, st);
	if (!res.listed)
		return st;
	if (cli_g.output == CLI_OUT_JSON && print_json() && !st)
		st = CLI_EXIT_USAGE;
	if (co.timings)
		print_timings();
	return st;
}

static void release(void)
{
	hb_rotate_result_release(&res);
	cli_strlist_release(&known_unmarked);
	cli_splitspec_release(&ss);
	cli_create_opts_release(&co);
}

const struct cli_command cli_cmd_rotate = {
    .name = "rotate",
    .summary = "keep daily/hourly tables created ahead and retire old ones",
    .usage = USAGE,
    .opts = opts,
    .flags = CLI_CMD_HBASE | CLI_CMD_WRITES,
    .check = check,
    .run = run,
    .release = release,
};
