/* hbtab create: validate offline, check absence, DDL via thrift2/shell/rest, wait, verify byte
 * for byte over REST, write the metadata row, check reachability; resumable and idempotent. */
#include "../core/audit.h"
#include "../core/bounds.h"
#include "../core/clock.h"
#include "../core/diff.h"
#include "../core/keyspace.h"
#include "../core/metarow.h"
#include "../core/regioninfo.h"
#include "../core/schema.h"
#include "../core/split.h"
#include "../core/tname.h"
#include "../rest/hbase.h"
#include "../rest/metarow.h"
#include "cli.h"
#include "commands.h"
#include "create.h"
#include "ddl.h"
#include "exit.h"
#include "output.h"
#include "rest_cli.h"
#include "splitspec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define USAGE                                                                                      \
	"create TABLE SPLITSPEC [--family NAME[:ATTR=VAL,...]]... [--attr KEY=VAL]... "            \
	"[--via auto|thrift2|shell|rest|print] [--keyspace SPEC [--allow-unreachable]] "           \
	"[--create-namespace] [--no-metadata] "                                                    \
	"[--metadata-family F] [--metadata-row R] [--wait SEC]"

/* Lines of a boundary diff shown on stderr / in JSON. */
#define DIFF_MAX_LINES 20

enum phase { PH_VALIDATE, PH_ABSENT, PH_DDL, PH_WAIT, PH_VERIFY, PH_METADATA, PH_REACH, PH_N };
static const char *const phase_names[] = {"validate", "absent",   "ddl",  "wait",
                                          "verify",   "metadata", "reach"};

struct create {
	const char *table;
	struct hb_schema schema;
	struct hb_keys splits;
	struct hb_buf spec_text; /* the split spec as hbtab flags */
	enum cli_via via;
	const char *ks_spec;
	struct hb_keyspace *ks;
	struct hb_buf ks_canon;
	int no_metadata;
	int default_family; /* no --family: the table gets CLI_DDL_DEFAULT_FAMILY */
	int exit_status;    /* for the JSON summary of a failure */
	const char *meta_family;
	struct hb_buf meta_row;
	double wait;
	int table_state; /* what the last wait poll learned (HB_TABLE_*), -1 unknown */
	struct hb_rest *rest;
	const char *rotate; /* recorded in the metadata row as <family>:rotate, or NULL */
	int silent;         /* no summary on stdout; errors still on stderr */
	long live_servers;  /* N = auto: the live region servers it was computed from */
	const struct hb_keys *pre_splits; /* computed by the caller, or NULL */
	const char *pre_spec_text;
	int dry_run;           /* read only: verify an existing table, create and write nothing */
	int adopt;             /* mark an unmarked verified table with rotate (rotate --adopt) */
	int create_namespace;  /* create a missing namespace before the table */
	int from_table_sample; /* the splits are a sample of a live table (--sample-table) */
	/* results */
	int created, verified, existed, families_ok;
	int ns_created; /* the namespace was missing and created (--create-namespace) */
	size_t regions;
	const char *metadata; /* "written", "present", "skipped", "adopted", "would write" */
	struct hb_diff diff;
	size_t *unreachable;
	size_t nunreachable;
	int reach_checked;
	double t[PH_N];
	double t0;
};

static void phase_end(struct create *c, enum phase p)
{
	double t = hb_now();

	c->t[p] += t - c->t0;
	c->t0 = t;
}

static void tsb_str(struct hb_buf *b, const void *k, size_t n)
{
	hb_buf_reset(b);
	if (hb_tsb_append_quoted(b, k, n) || hb_buf_adds(b, ""))
		hb_buf_reset(b);
}

/* ---------------------------------------------------------------- validation */

int cli_create_parse_wait(const char *cmd, const char *s, double *out)
{
	char *end;
	double v;

	if (!s) {
		*out = 60;
		return 0;
	}
	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !(v >= 0) || v > 86400) {
		cli_usage_error(cmd, "invalid --wait '%s' (seconds, 0 to 86400)", s);
		return HB_EINVAL;
	}
	*out = v;
	return 0;
}

void cli_create_opts_release(struct cli_create_opts *o)
{
	cli_strlist_release(&o->families);
	cli_strlist_release(&o->attrs);
}

static int validate(struct create *c, const struct cli_splitspec *ss,
                    const struct cli_strlist *fams, const struct cli_strlist *attrs,
                    const char *via, const char *meta_row)
{
	struct hb_error err = {0};
	struct hb_tname tn;
	size_t i;
	int rc;

	if (hb_tname_check_create(&tn, c->table, &err)) {
		cli_error("%s", err.msg);
		return HB_EINVAL;
	}
	if (cli_check_table("create", c->table))
		return HB_EINVAL;
	if (tn.too_long)
		cli_warn("table name '%s' is longer than %d bytes; HDFS may refuse it", c->table,
		         HB_TNAME_WARN_BYTES);
	if (hb_schema_set_table(&c->schema, c->table))
		return HB_ENOMEM;
	for (i = 0; i < fams->n; i++)
		if (cli_ddl_add_family(&c->schema, fams->items[i], &err)) {
			cli_fail(&err);
			return err.code == HB_ENOMEM ? HB_ENOMEM : HB_EINVAL;
		}
	if (!c->schema.nfamilies) {
		if (cli_ddl_add_family(&c->schema, CLI_DDL_DEFAULT_FAMILY, &err))
			return HB_ENOMEM;
		c->default_family = 1;
	}
	for (i = 0; i < attrs->n; i++)
		if (cli_ddl_add_attr(&c->schema, attrs->items[i], &err)) {
			cli_fail(&err);
			return HB_EINVAL;
		}
	if (c->pre_splits) {
		size_t kl;

		for (i = 0; i < c->pre_splits->n; i++) {
			const unsigned char *k = hb_keys_at(c->pre_splits, i, &kl);

			if (hb_keys_push(&c->splits, k, kl))
				return HB_ENOMEM;
		}
		if (c->pre_spec_text && hb_buf_adds(&c->spec_text, c->pre_spec_text))
			return HB_ENOMEM;
	} else if (ss && cli_splitspec_given(ss)) {
		rc = cli_splitspec_compute(&c->splits, ss, &err);
		if (!rc)
			rc = cli_splitspec_describe(&c->spec_text, ss, &err);
		c->from_table_sample = ss->sampled && ss->sample_table;
		if (rc) {
			cli_fail(&err);
			return rc;
		}
	}
	/* createTable's own check, so no server ever sees keys it would refuse */
	if (hb_split_verify(&c->splits, &err)) {
		cli_fail(&err);
		return HB_EINVAL;
	}
	if (hb_keys_sort(&c->splits))
		return HB_ENOMEM;
	rc = cli_ddl_pick(&c->via, via, c->splits.n + 1);
	if (rc)
		return rc;
	if (c->ks_spec) {
		if (hb_keyspace_parse(&c->ks, c->ks_spec, &err)) {
			cli_error("invalid --keyspace '%s': %s", c->ks_spec, err.msg);
			return HB_EINVAL;
		}
		if (hb_keyspace_format(&c->ks_canon, c->ks) || hb_buf_adds(&c->ks_canon, ""))
			return HB_ENOMEM;
	}
	if (c->meta_family && !hb_schema_family(&c->schema, c->meta_family)) {
		cli_error("--metadata-family '%s' is not one of the table's families",
		          c->meta_family);
		return HB_EINVAL;
	}
	if (!c->meta_family)
		c->meta_family = c->schema.families[0].name;
	if (meta_row) {
		if (hb_tbb_parse(&c->meta_row, meta_row, strlen(meta_row), &err)) {
			cli_error("invalid --metadata-row '%s': %s", meta_row, err.msg);
			return HB_EINVAL;
		}
		if (!c->meta_row.len || c->meta_row.len > HB_MAX_ROW_LENGTH) {
			cli_error("invalid --metadata-row '%s': a row is 1 to %d bytes", meta_row,
			          HB_MAX_ROW_LENGTH);
			return HB_EINVAL;
		}
	} else if (hb_buf_adds(&c->meta_row, HB_METAROW_ROW)) {
		return HB_ENOMEM;
	}
	return 0;
}

/* ---------------------------------------------------------------- verification */

/* Appends "region I ['start', 'end') STATE" for each of rs's live regions not OPEN (or with
 * no server, as meta lists a region that never opened), at most 10, to m. */
static int name_not_online(struct hb_buf *m, const struct hb_regions *rs)
{
	struct hb_buf k = HB_BUF_INIT;
	size_t i, shown = 0, more = 0;
	int rc = 0;

	for (i = 0; !rc && i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at(rs, i, &v);

		if (!hb_region_is_live(r) ||
		    (r->server && *r->server && (!r->state || !strcmp(r->state, "OPEN"))))
			continue;
		if (shown == 10) {
			more++;
			continue;
		}
		hb_buf_reset(&k);
		rc = hb_buf_addf(&k, "%s", shown ? ", " : ": ") ||
		     hb_buf_addf(&k, "region %zu ['", i) ||
		     hb_tsb_append_quoted(&k, r->start, r->start_len) || hb_buf_adds(&k, "', '") ||
		     hb_tsb_append_quoted(&k, r->end, r->end_len) ||
		     hb_buf_addf(&k, "') %s", r->state ? r->state : "without a server") ||
		     hb_buf_add(m, k.data, k.len);
		shown++;
	}
	if (!rc && more)
		rc = hb_buf_addf(m, " and %zu more", more);
	hb_buf_release(&k);
	return rc;
}

/*
 * The error when --wait ran out before every region was online, after waited seconds (the
 * time measured, not the --wait asked for). rs holds the last complete
 * listing with states, or nothing when /T/regions kept answering 500 (regions without a
 * location): then hbase:meta names them.
 */
static int not_online_error(struct create *c, const struct hb_regions *rs, int last500,
                            const char *why, double waited, struct hb_error *err)
{
	struct hb_buf m = HB_BUF_INIT;
	struct hb_regions meta;
	int state = -1, rc;
	const char *name = strncmp(c->table, "default:", 8) ? c->table : c->table + 8;

	hb_regions_init(&meta);
	rc = hb_buf_addf(&m, "table '%s': regions not online after %.0f s", c->table, waited);
	if (!rc && last500) {
		struct hb_error merr = {0};

		rc = hb_buf_addf(&m, " (%s)", why);
		if (!rc && !hb_rest_meta_regions(c->rest, name, &meta, &state, &merr)) {
			hb_regions_sort(&meta);
			rc = name_not_online(&m, &meta);
		}
		cli_progress_done();
		if (!rc)
			rc = hb_buf_addf(&m,
			                 "; 'hbtab regions %s --source meta' shows each region's "
			                 "state",
			                 c->table);
	} else if (!rc) {
		if (state < 0)
			state = c->table_state;
		if (state >= 0 && state != HB_TABLE_ENABLED)
			rc = hb_buf_addf(&m, " (the table is %s)", hb_tablestate_name(state));
		if (!rc)
			rc = name_not_online(&m, rs);
	}
	if (!rc)
		hb_error_set(err, HB_ESERVER, "%s", hb_buf_str(&m));
	hb_buf_release(&m);
	hb_regions_release(&meta);
	return rc ? hb_error_set(err, HB_ENOMEM, "out of memory") : HB_ESERVER;
}

/*
 * Polls until every region is online: /T/regions lists a complete chain and hbase:meta (or
 * Thrift2) says the table is ENABLED with every region OPEN. A 500 (a region that has no
 * location yet, an NPE in the gateway) and regions not yet OPEN are waited out; when --wait
 * runs out first, the regions not online are named (HB_ESERVER). *absent = 1 when the table
 * never appeared.
 */
static int wait_regions(struct create *c, struct hb_regions *rs, int *absent, struct hb_error *err)
{
	double started = hb_now(), deadline = started + c->wait, delay = 0.05;
	size_t planned = c->splits.n + 1;
	char why[HB_ERRMSG_MAX] = "";
	int rc, last500 = 0, pending = 0, state, avail;

	*absent = 0;
	for (;;) {
		hb_regions_release(rs);
		hb_regions_init(rs);
		rc = hb_rest_get_regions(c->rest, c->table, rs, err);
		last500 = rc == HB_ENOLOCATION ||
		          (rc == HB_ESERVER && strstr(err->msg, "NullPointerException"));
		pending = last500;
		if (last500)
			snprintf(why, sizeof(why), "%s", err->msg);
		else if (rc && rc != HB_ENOTFOUND)
			return rc;
		/* a table whose regions have no location yet is waited for too */
		cli_progress("regions online", rc ? 0 : rs->n, planned);
		if (!rc) {
			hb_regions_sort(rs);
			hb_bounds_dedupe_replicas(rs);
			if (hb_bounds_chain_complete(rs) && rs->n >= planned) {
				rc = cli_rest_states(c->rest, c->table, rs, &state, &avail, err);
				if (rc)
					return rc;
				c->table_state = state;
				if (state == HB_TABLE_DISABLED || state == HB_TABLE_DISABLING) {
					/* Its regions stay closed until someone enables it:
					 * waiting out --wait would only delay this answer. */
					cli_progress_done();
					return hb_error_set(
					    err, HB_ESERVER,
					    "table '%s' is %s: its regions stay offline until it "
					    "is enabled (hbase shell: enable '%s'); not waiting",
					    c->table, hb_tablestate_name(state), c->table);
				}
				pending = (state >= 0 && state != HB_TABLE_ENABLED) || avail == 0 ||
				          hb_regions_not_open(rs);
				if (!pending)
					break;
			} else if (hb_bounds_chain_complete(rs) &&
			           (!c->created || hb_now() > deadline)) {
				/* a complete chain of another shape will not change by waiting */
				break;
			}
		}
		*absent = rc == HB_ENOTFOUND;
		if (hb_now() + delay > deadline)
			break;
		hb_sleep(delay);
		delay = delay * 2 > 2 ? 2 : delay * 2;
	}
	cli_progress_done();
	if (pending)
		return not_online_error(c, rs, last500, why, hb_now() - started, err);
	return 0;
}

/* ---------------------------------------------------------------- metadata row */

static void tell_warn(void *ctx, const char *msg)
{
	(void)ctx;
	cli_warn("%s", msg);
}

static void tell_verbose(void *ctx, const char *msg)
{
	(void)ctx;
	cli_verbose("%s", msg);
}

static const struct hb_tell tell = {tell_warn, tell_verbose, NULL};

/* The row's owner records the verified design (rest/metarow.h). */
static int write_metadata(struct create *c, struct hb_error *err)
{
	struct hb_metarow m;
	struct hb_metarow_design d;
	int rc;

	memset(&d, 0, sizeof(d));
	d.n = c->splits.n + 1;
	d.keyspace = c->ks ? hb_buf_str(&c->ks_canon) : NULL;
	d.splits = hb_buf_str(&c->spec_text);
	d.rotate = c->rotate;
	d.adopt = c->adopt;
	d.dry_run = c->dry_run;
	rc = hb_metarow_given(&m, c->table, c->meta_family, c->meta_row.data, c->meta_row.len, err);
	if (!rc)
		rc = hb_metarow_record(c->rest, &m, &d, &tell, &c->metadata, err);
	hb_metarow_release(&m);
	return rc;
}

/* ---------------------------------------------------------------- reachability */

static int check_reach(struct create *c, struct hb_error *err)
{
	size_t i, n = c->splits.n + 1;
	mpz_t keys;
	int rc = 0;

	if (c->reach_checked)
		return 0; /* --strict did it before anything was sent */
	free(c->unreachable);
	c->nunreachable = 0;
	c->unreachable = calloc(n, sizeof(*c->unreachable));
	if (!c->unreachable)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	mpz_init(keys);
	for (i = 0; i < n && !rc; i++) {
		size_t sl = 0, el = 0;
		const unsigned char *s = i ? hb_keys_at(&c->splits, i - 1, &sl) : NULL;
		const unsigned char *e = i < c->splits.n ? hb_keys_at(&c->splits, i, &el) : NULL;
		int reach = 0;

		rc = hb_keyspace_region(c->ks, &reach, keys, NULL, s, sl, e, el, err);
		if (!rc && !reach)
			c->unreachable[c->nunreachable++] = i;
	}
	mpz_clear(keys);
	c->reach_checked = !rc;
	return rc;
}

/* ---------------------------------------------------------------- output */

static void print_timings(const struct create *c, int force)
{
	size_t i;
	double total = 0;

	if (!force && !cli_g.verbose)
		return;
	for (i = 0; i < PH_N; i++) {
		fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", phase_names[i], c->t[i]);
		total += c->t[i];
	}
	fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", "total", total);
}

static int print_summary(const struct create *c, const char *error)
{
	struct hb_buf t = HB_BUF_INIT;
	size_t i;
	int rc = 0;

	if (c->silent)
		return 0;

	if (cli_g.output == CLI_OUT_JSON) {
		cJSON *o = cJSON_CreateObject(), *arr;

		if (!o)
			return HB_ENOMEM;
		cli_json_add_str(o, "table", c->table);
		cJSON_AddBoolToObject(o, "created", c->created);
		cJSON_AddBoolToObject(o, "verified", c->verified);
		cJSON_AddNumberToObject(o, "regions", (double)c->regions);
		cJSON_AddNumberToObject(o, "planned_regions", (double)(c->splits.n + 1));
		cJSON_AddNumberToObject(o, "N", (double)(c->splits.n + 1));
		if (c->live_servers)
			cJSON_AddNumberToObject(o, "live_servers", (double)c->live_servers);
		/* the channel actually used: none when the table existed */
		cli_json_add_str(o, "via", c->created ? cli_via_name(c->via) : "none");
		cli_json_add_str(o, "metadata", c->metadata);
		arr = cJSON_AddArrayToObject(o, "families");
		for (i = 0; arr && i < c->schema.nfamilies; i++) {
			cJSON *f = cJSON_CreateObject();

			if (f && cli_json_add_str(f, "name", c->schema.families[i].name))
				cJSON_AddItemToArray(arr, f);
			else
				cJSON_Delete(f);
		}
		cJSON_AddBoolToObject(o, "default_family", c->default_family);
		cJSON_AddBoolToObject(o, "families_verified", c->families_ok);
		if (c->reach_checked) {
			cJSON_AddBoolToObject(o, "reachable", c->nunreachable == 0);
			arr = cJSON_AddArrayToObject(o, "unreachable");
			for (i = 0; arr && i < c->nunreachable; i++)
				cJSON_AddItemToArray(arr,
				                     cJSON_CreateNumber((double)c->unreachable[i]));
		}
		if (c->diff.lines.len) {
			const char *p = hb_buf_str(&c->diff.lines);

			arr = cJSON_AddArrayToObject(o, "diff");
			while (arr && *p) {
				size_t n = strcspn(p, "\n");
				char *line = strndup(p, n);

				if (line)
					cJSON_AddItemToArray(arr, cJSON_CreateString(line));
				free(line);
				p += n + (p[n] ? 1 : 0);
			}
		}
		if (error) {
			cli_json_add_str(o, "error", error);
			cJSON_AddNumberToObject(o, "exit", c->exit_status);
		}
		{
			cJSON *tm = cJSON_AddObjectToObject(o, "timings");

			for (i = 0; tm && i < PH_N; i++)
				cJSON_AddNumberToObject(tm, phase_names[i], c->t[i]);
		}
		rc = cli_json_print(o);
		cJSON_Delete(o);
		return rc;
	}
	/* -q: a create that succeeded prints nothing; unreachable regions are findings, and
	 * they alone are printed */
	if (error || (cli_g.quiet && !c->nunreachable))
		return 0;
	if (cli_g.quiet)
		goto findings;
	if (c->ns_created)
		printf("created namespace '%.*s'\n", (int)(strchr(c->table, ':') - c->table),
		       c->table);
	if (c->created)
		printf("created table '%s' with %zu region%s via %s; every boundary verified\n",
		       c->table, c->regions, c->regions == 1 ? "" : "s", cli_via_name(c->via));
	else
		printf("table '%s' already exists with the planned %zu region%s; verified, not "
		       "changed\n",
		       c->table, c->regions, c->regions == 1 ? "" : "s");
	if (c->default_family)
		printf("column family '%s': the default (--family names others)\n",
		       c->schema.families[0].name);
	if (c->live_servers)
		printf("N=%zu from %ld live region server%s\n", c->splits.n + 1, c->live_servers,
		       c->live_servers == 1 ? "" : "s");
	if (!strcmp(c->metadata, "written"))
		printf("metadata row written: N=%zu\n", c->splits.n + 1);
	else if (!strcmp(c->metadata, "present"))
		printf("metadata row already present: N=%zu\n", c->splits.n + 1);
findings:
	if (c->reach_checked) {
		if (!c->nunreachable) {
			printf("every region is reachable by keyspace '%s'\n",
			       hb_buf_str(&c->ks_canon));
		} else {
			printf("%zu region%s no key of '%s' can reach:\n", c->nunreachable,
			       c->nunreachable == 1 ? "" : "s", hb_buf_str(&c->ks_canon));
			for (i = 0; i < c->nunreachable && i < 50; i++) {
				size_t idx = c->unreachable[i], sl = 0;
				const unsigned char *s =
				    idx ? hb_keys_at(&c->splits, idx - 1, &sl) : NULL;

				tsb_str(&t, s, sl);
				printf("  region %zu starting at '%s'\n", idx, hb_buf_str(&t));
			}
		}
	}
	hb_buf_release(&t);
	return 0;
}

static void print_diff(const struct create *c)
{
	const char *p = hb_buf_str(&c->diff.lines);

	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(stderr, "hbtab:   %.*s\n", (int)n, p);
		p += n + (p[n] ? 1 : 0);
	}
}

/* ---------------------------------------------------------------- the flow */

static int fail_with(struct create *c, const struct hb_error *err)
{
	int st = cli_fail(err);

	c->exit_status = st;
	print_summary(c, err->msg);
	return st;
}

/* The existing or new table differs from the request: err says how, the diff shows it. */
static int fail_mismatch(struct create *c, const struct hb_error *err)
{
	cli_error("%s", err->msg);
	print_diff(c);
	c->exit_status = cli_exit(err->code);
	print_summary(c, err->msg);
	return c->exit_status;
}

/*
 * A table made from a sample of a live table: the server's random row filter draws another
 * sample on every run, so a rerun cannot compare against a fresh one. When the table's
 * metadata row records exactly this run's split spec (the options in force), the table is
 * verified against its own boundaries instead (as rotate does), which must still number N:
 * families, attributes and the metadata row are checked as for any table. Anything else
 * keeps the fresh sample, and the difference is reported.
 */
static int own_sampled_bounds(struct create *c, const struct hb_regions *rs, struct hb_error *err)
{
	struct hb_metarow m;
	struct hb_buf sp = HB_BUF_INIT;
	struct hb_keys own;
	size_t i;
	int found = 0, rc;

	hb_keys_init(&own);
	rc = hb_metarow_given(&m, c->table, c->meta_family, c->meta_row.data, c->meta_row.len, err);
	if (!rc)
		rc = hb_metarow_read_cell(c->rest, &m, HB_METAROW_SPLITS, &sp, &found, err);
	if (!rc && found && sp.len == c->spec_text.len &&
	    (!sp.len || !memcmp(sp.data, c->spec_text.data, sp.len)) && rs->n == c->splits.n + 1) {
		for (i = 0; i + 1 < rs->n && !rc; i++) {
			const unsigned char *s, *e;
			size_t sl, el;

			hb_regions_bounds(rs, i, &s, &sl, &e, &el);
			if (hb_keys_push(&own, e, el))
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		}
		if (!rc) {
			cli_verbose("table '%s' was made from a sample (%s): verified against its "
			            "own boundaries",
			            c->table, hb_buf_str(&c->spec_text));
			hb_keys_release(&c->splits);
			c->splits = own;
			hb_keys_init(&own);
			c->reach_checked = 0;
		}
	}
	hb_keys_release(&own);
	hb_buf_release(&sp);
	hb_metarow_release(&m);
	return rc;
}

/* The namespace of c->table as a new string; NULL for the default namespace (or no memory). */
static char *table_namespace(const struct create *c)
{
	struct hb_tname tn;

	if (hb_tname_parse(&tn, c->table, NULL) || !tn.has_ns ||
	    (tn.ns_len == 7 && !memcmp(tn.ns, "default", 7)))
		return NULL;
	return strndup(tn.ns, tn.ns_len);
}

/* err for a table whose namespace ns is missing: what is missing and how to make it, then
 * what the channel said (Thrift2's bare TIOError names only the namespace), if anything. */
static void missing_namespace(struct create *c, const char *ns, struct hb_error *err)
{
	char said[HB_ERRMSG_MAX];

	snprintf(said, sizeof(said), "%s", err->code ? err->msg : "");
	hb_error_set(err, HB_ENOTFOUND,
	             "namespace '%s' does not exist, so table '%s' cannot be created in it; add "
	             "--create-namespace to create it, or create it in the hbase shell: "
	             "create_namespace '%s'%s%s%s",
	             ns, c->table, ns, said[0] ? " (" : "", said, said[0] ? ")" : "");
}

/* After a failed DDL: when the table's namespace is missing, err says so plainly. */
static void explain_namespace(struct create *c, struct hb_error *err)
{
	struct hb_error e2 = {0};
	char *ns = table_namespace(c);
	int exists = 1;

	if (ns && !hb_rest_namespace_exists(c->rest, ns, &exists, &e2) && !exists)
		missing_namespace(c, ns, err);
	free(ns);
}

/*
 * A table in a namespace that does not exist cannot be created (Thrift2 and the shell fail
 * with a bare NamespaceNotFoundException). With --create-namespace the namespace is created
 * first (POST /namespaces/NS); a dry run checks it, as the real run's failure would show.
 * Otherwise a failed DDL is explained afterwards (explain_namespace), at no cost to a
 * create that succeeds.
 */
static int ensure_namespace(struct create *c)
{
	struct hb_error err = {0};
	char *ns;
	int exists = 0, st = 0;

	if (!c->create_namespace && !c->dry_run)
		return 0;
	ns = table_namespace(c);
	if (!ns)
		return 0;
	if (hb_rest_namespace_exists(c->rest, ns, &exists, &err)) {
		st = fail_with(c, &err);
	} else if (!exists && !c->create_namespace) {
		missing_namespace(c, ns, &err);
		st = fail_with(c, &err);
	} else if (!exists && !c->dry_run) {
		if (hb_rest_create_namespace(c->rest, ns, &err)) {
			struct hb_error e2 = {0};

			/* another run may have created it meanwhile */
			if (hb_rest_namespace_exists(c->rest, ns, &exists, &e2) || !exists) {
				hb_error_prefix(&err, err.code, "cannot create namespace '%s'", ns);
				st = fail_with(c, &err);
			}
		} else {
			c->ns_created = 1;
		}
	}
	free(ns);
	return st;
}

static int run(struct create *c)
{
	struct hb_error err = {0};
	struct hb_regions rs;
	struct hb_schema have;
	int exists = 0, rc, race = 0, absent = 0, st = 0;

	hb_regions_init(&rs);
	hb_schema_init(&have);
	/* never a schema PUT/POST, nor any DDL, on a table that exists */
	rc = hb_rest_table_exists(c->rest, c->table, &exists, &err);
	phase_end(c, PH_ABSENT);
	if (rc) {
		st = fail_with(c, &err);
		goto done;
	}
	c->existed = exists;
	if (!exists) {
		st = ensure_namespace(c);
		if (st || c->dry_run)
			goto done;
		rc = cli_ddl_create(c->via, c->rest, &c->schema, &c->splits, c->wait, &race, &err);
		phase_end(c, PH_DDL);
		if (rc && rc != HB_EINVAL && rc != HB_ENOMEM) {
			/* Did the table appear anyway (a race, or a reply lost after the create)?
			 */
			struct hb_error e2 = {0};
			int now_exists = 0;

			if (!hb_rest_table_exists(c->rest, c->table, &now_exists, &e2) &&
			    now_exists) {
				cli_warn("%s", err.msg);
				if (race == CLI_DDL_RACE_OURS) {
					/* no error was reported: only the exit status or a hang */
					cli_warn("table '%s' exists now; the shell reported no "
					         "error, so the read-back decides: verifying it",
					         c->table);
				} else {
					cli_warn("table '%s' exists now (%s); verifying it instead",
					         c->table,
					         race ? "created concurrently"
					              : "the create may have succeeded");
					c->existed = 1;
				}
				rc = 0;
			}
		}
		if (rc) {
			if (rc != HB_EINVAL && rc != HB_ENOMEM)
				explain_namespace(c, &err);
			st = fail_with(c, &err);
			goto done;
		}
		c->created = !c->existed;
	}
	rc = wait_regions(c, &rs, &absent, &err);
	phase_end(c, PH_WAIT);
	if (rc) {
		st = fail_with(c, &err);
		goto done;
	}
	if (absent) {
		hb_error_set(&err, HB_EFINDING,
		             "table '%s' does not exist after the %s create (waited %.0f s); the "
		             "channel reported success but nothing was created",
		             c->table, cli_via_name(c->via), c->t[PH_WAIT]);
		c->created = 0;
		st = fail_with(c, &err);
		goto done;
	}
	c->regions = rs.n;
	if (c->existed && c->from_table_sample && !hb_bounds_equal(&rs, &c->splits)) {
		rc = own_sampled_bounds(c, &rs, &err);
		if (rc) {
			st = fail_with(c, &err);
			goto done;
		}
	}
	if (!hb_bounds_equal(&rs, &c->splits)) {
		/* the mismatch is reported even when memory cuts the listing short */
		(void)hb_bounds_diff(&c->diff, &rs, &c->splits);
		phase_end(c, PH_VERIFY);
		if (c->created)
			hb_error_set(&err, HB_EFINDING,
			             "table '%s' was created but its regions differ from the plan:",
			             c->table);
		else
			hb_error_set(&err, HB_ESAFETY,
			             "table '%s' already exists with other region boundaries; left "
			             "untouched:",
			             c->table);
		st = fail_mismatch(c, &err);
		goto done;
	}
	rc = hb_rest_get_schema(c->rest, c->table, &have, &err);
	if (rc) {
		st = fail_with(c, &err);
		goto done;
	}
	c->families_ok = hb_schema_compare(&c->diff, &c->schema, &have);
	phase_end(c, PH_VERIFY);
	if (!c->families_ok) {
		if (c->created)
			hb_error_set(&err, HB_EFINDING,
			             "table '%s' was created but its families differ from the "
			             "request:",
			             c->table);
		else
			hb_error_set(&err, HB_ESAFETY,
			             "table '%s' already exists with other families or attributes; "
			             "left untouched:",
			             c->table);
		st = fail_mismatch(c, &err);
		goto done;
	}
	c->verified = 1;
	if (!c->no_metadata) {
		rc = write_metadata(c, &err);
		phase_end(c, PH_METADATA);
		if (rc) {
			st = fail_with(c, &err);
			goto done;
		}
	}
	if (c->ks) {
		rc = check_reach(c, &err);
		phase_end(c, PH_REACH);
		if (rc) {
			st = fail_with(c, &err);
			goto done;
		}
		if (c->nunreachable) {
			cli_error("%zu of %zu regions cannot hold any key of keyspace '%s'",
			          c->nunreachable, c->splits.n + 1, hb_buf_str(&c->ks_canon));
			st = CLI_EXIT_FINDINGS;
		}
	}
	rc = print_summary(c, NULL);
	if (rc && !st)
		st = cli_exit(rc);
done:
	hb_regions_release(&rs);
	hb_schema_release(&have);
	return st;
}

static void create_init(struct create *c, const char *table)
{
	memset(c, 0, sizeof(*c));
	c->t0 = hb_now();
	c->table = table;
	c->table_state = -1;
	c->metadata = "none";
	hb_schema_init(&c->schema);
	hb_keys_init(&c->splits);
	hb_buf_init(&c->spec_text, 0);
	hb_buf_init(&c->ks_canon, 0);
	hb_buf_init(&c->meta_row, 0);
	hb_diff_init(&c->diff, DIFF_MAX_LINES);
}

static void create_release(struct create *c)
{
	hb_keyspace_free(c->ks);
	free(c->unreachable);
	hb_schema_release(&c->schema);
	hb_keys_release(&c->splits);
	hb_buf_release(&c->spec_text);
	hb_buf_release(&c->ks_canon);
	hb_buf_release(&c->meta_row);
	hb_diff_release(&c->diff);
}

int cli_create_table(struct hb_rest *rest, const struct cli_create_req *req,
                     struct cli_create_out *out)
{
	struct create c;
	int st;

	create_init(&c, req->table);
	c.rest = rest;
	c.silent = 1;
	c.rotate = req->rotate;
	c.ks_spec = req->keyspace;
	c.wait = req->wait;
	c.pre_splits = req->splits;
	c.pre_spec_text = req->spec_text;
	c.dry_run = req->dry_run;
	c.adopt = req->adopt;
	c.create_namespace = req->create_namespace;
	st = validate(&c, NULL, req->families, req->attrs, req->via, NULL);
	phase_end(&c, PH_VALIDATE);
	if (st)
		st = st == HB_ENOMEM ? (cli_error("out of memory"), CLI_EXIT_SERVER)
		                     : CLI_EXIT_USAGE;
	else if (c.via == CLI_VIA_PRINT)
		st = cli_ddl_print(&c.schema, &c.splits, c.default_family);
	else
		st = run(&c);
	memset(out, 0, sizeof(*out));
	out->created = c.created;
	out->existed = c.existed;
	out->verified = c.verified;
	out->ns_created = c.ns_created;
	out->regions = c.regions;
	out->planned = c.splits.n + 1;
	snprintf(out->metadata, sizeof(out->metadata), "%s", c.metadata);
	out->ddl_s = c.t[PH_DDL];
	out->wait_s = c.t[PH_WAIT];
	out->verify_s = c.t[PH_VERIFY] + c.t[PH_ABSENT];
	out->metadata_s = c.t[PH_METADATA];
	create_release(&c);
	return st;
}

static struct cli_splitspec ss;
static struct cli_create_opts co;
static const char *meta_family, *meta_row;
static int no_metadata, strict, allow_unreachable, create_namespace;
static const struct cli_option opts[] = {
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_CREATE_OPTIONS(&co, "auto (default), thrift2, shell, rest (1 region only) or print",
                       "auto thrift2 shell rest print"),
    CLI_FLAG(0, "allow-unreachable", &allow_unreachable,
             "create even when regions no key of --keyspace can reach (exit 1 after)"),
    /* the opt-in to what is now the default, kept for scripts that pass it */
    {CLI_OPT_FLAG, 0, "strict", &strict, NULL, "refuse an unreachable design (the default)", NULL,
     CLI_OPT_HIDDEN},
    CLI_FLAG(0, "create-namespace", &create_namespace,
             "create the table's namespace when it does not exist"),
    CLI_FLAG(0, "no-metadata", &no_metadata, "do not write the metadata row"),
    CLI_STRING(0, "metadata-family", &meta_family, "F",
               "family of the metadata row (default: the first family)"),
    CLI_STRING(0, "metadata-row", &meta_row, "R",
               "metadata row key, toStringBinary (default totalPartition)"),
    CLI_END,
};

static struct create cr;
static int validated;

/*
 * With --keyspace: the planned regions against the key space before anything is sent or
 * created; a region no key can reach refuses the whole design (exit 1), listing the
 * regions, unless --allow-unreachable asks for the table anyway. An unattended run must not
 * create a table it already knows is broken.
 */
static int strict_check(struct create *c)
{
	struct hb_error err = {0};
	struct hb_buf t = HB_BUF_INIT;
	size_t i;

	if (check_reach(c, &err)) {
		c->exit_status = cli_fail(&err);
		print_summary(c, err.msg);
		return c->exit_status;
	}
	phase_end(c, PH_REACH);
	if (!c->nunreachable)
		return CLI_EXIT_OK;
	hb_error_set(&err, HB_EFINDING,
	             "refusing to create '%s': %zu of %zu region%s cannot hold any key of "
	             "keyspace '%s'; nothing was sent (--allow-unreachable creates it anyway)",
	             c->table, c->nunreachable, c->splits.n + 1, HB_PLURAL(c->splits.n + 1),
	             hb_buf_str(&c->ks_canon));
	cli_error("%s", err.msg);
	for (i = 0; i < c->nunreachable && i < 50; i++) {
		size_t idx = c->unreachable[i], sl = 0;
		const unsigned char *s = idx ? hb_keys_at(&c->splits, idx - 1, &sl) : NULL;

		tsb_str(&t, s, sl);
		cli_error("  region %zu starting at '%s'", idx, hb_buf_str(&t));
	}
	if (c->nunreachable > 50)
		cli_error("  ... and %zu more", c->nunreachable - 50);
	hb_buf_release(&t);
	c->exit_status = CLI_EXIT_FINDINGS;
	print_summary(c, err.msg);
	return CLI_EXIT_FINDINGS;
}

/* Validation; a spec that takes N from the cluster is validated once connected. */
static int check_spec(void)
{
	int rc = validate(&cr, &ss, &co.families, &co.attrs, co.via, meta_row);

	phase_end(&cr, PH_VALIDATE);
	validated = 1;
	if (rc == HB_ENOMEM) {
		cli_error("out of memory");
		return CLI_EXIT_SERVER;
	}
	if (rc)
		return CLI_EXIT_USAGE;
	return cr.ks && !allow_unreachable ? strict_check(&cr) : CLI_EXIT_OK;
}

/* Everything that can be checked offline; --via print needs no connection. */
static int check(struct cli_ctx *x)
{
	int st;

	create_init(&cr, x->table);
	/* --strict was the opt-in to what is now the default; it is still accepted */
	if ((strict || allow_unreachable) && !co.keyspace) {
		cli_usage_error("create",
		                "%s needs --keyspace (the key space the regions are "
		                "checked against)",
		                strict ? "--strict" : "--allow-unreachable");
		return CLI_EXIT_USAGE;
	}
	if (strict && allow_unreachable) {
		cli_usage_error("create",
		                "--strict and --allow-unreachable cannot be used together");
		return CLI_EXIT_USAGE;
	}
	cr.ks_spec = co.keyspace;
	cr.no_metadata = no_metadata;
	cr.create_namespace = create_namespace;
	cr.meta_family = meta_family;
	cr.metadata = no_metadata ? "skipped" : "none";
	if (cli_create_parse_wait("create", co.wait, &cr.wait))
		return CLI_EXIT_USAGE;
	if (cli_splitspec_needs_cluster(&ss))
		return CLI_EXIT_OK;
	st = check_spec();
	x->offline = !st && cr.via == CLI_VIA_PRINT;
	return st;
}

static int run_create(struct cli_ctx *x)
{
	struct hb_error err = {0};
	int st = CLI_EXIT_OK;

	cr.rest = x->rest;
	if (!validated) {
		if (cli_splitspec_prepare(&ss, cr.rest, &err))
			return cli_fail(&err);
		cr.live_servers = ss.live_servers;
		st = check_spec();
	}
	if (!st)
		st = cr.via == CLI_VIA_PRINT
		         ? cli_ddl_print(&cr.schema, &cr.splits, cr.default_family)
		         : run(&cr);
	print_timings(&cr, co.timings);
	return st;
}

static void release(void)
{
	create_release(&cr);
	cli_splitspec_release(&ss);
	cli_create_opts_release(&co);
}

const struct cli_command cli_cmd_create = {
    .name = "create",
    .summary = "create a pre-split table and verify it byte for byte",
    .usage = USAGE,
    .opts = opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check,
    .run = run_create,
    .release = release,
};
