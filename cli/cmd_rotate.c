/* hbtab rotate: daily/hourly tables from a name template, created ahead through the create
 * flow, N from the cluster, older managed tables retired under --yes with a re-check. */
#include "../core/clock.h"
#include "../core/metarow.h"
#include "../core/regioninfo.h"
#include "../core/rotate.h"
#include "../core/tname.h"
#include "../core/vec.h"
#include "../rest/hbase.h"
#include "../rest/metarow.h"
#include "../rest/tempfile.h"
#include "cli.h"
#include "commands.h"
#include "create.h"
#include "exit.h"
#include "output.h"
#include "rest_cli.h"
#include "splitspec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define USAGE                                                                                      \
	"rotate --template TEMPLATE SPLITSPEC [--family ...]... [--attr ...]... [--keyspace "      \
	"SPEC] "                                                                                   \
	"[--period day|hour] [--ahead K] [--retain K] [--max-drops M] [--yes] [--dry-run] "        \
	"[--now TIME] [--tz ZONE] [--via CH] [--wait SEC] [--lock FILE] [--sample-previous] "      \
	"[--adopt] [--create-namespace]"

/* The row and qualifiers the create flow writes (create's defaults). */
#define MAX_AHEAD  1000
#define MAX_RETAIN 100000

struct period {
	struct hb_stamp stamp;
	char name[HB_ROTATE_NAME_MAX];
};

/* A table whose name matches the template. */
struct found {
	char *name;
	struct hb_stamp stamp;
	int managed;  /* its metadata row's rotate mark is this template (-1 not read yet) */
	long n;       /* N from its metadata row, -1 unknown */
	int pending;  /* past retention, managed, not dropped in this run */
	int disabled; /* no readable metadata row because the table is disabled */
};

struct report {
	char *name;
	const char *action;
	long regions, n; /* -1 = unknown */
	const char *note;
};

struct rotate {
	const char *tmpl;
	const char *match_tmpl; /* tmpl without a "default:" prefix */
	enum hb_period period;
	long ahead, retain, max_drops;
	int yes, dry_run, sample_previous, adopt, create_namespace;
	time_t now;
	char now_text[40];
	struct hb_rest *rest;
	struct found *found;
	size_t nfound, capfound;
	struct report *rep;
	size_t nrep, caprep;
	size_t pending;
	size_t unreadable; /* disabled tables past retention: their mark cannot be read */
	int status;
	double t_list, t_create, t_drop, t_sample;
};

static int report(struct rotate *r, const char *name, const char *action, long regions, long n,
                  const char *note)
{
	if (HB_VEC_GROW(r->rep, r->caprep, r->nrep + 1, 16))
		return HB_ENOMEM;
	r->rep[r->nrep].name = strdup(name);
	if (!r->rep[r->nrep].name)
		return HB_ENOMEM;
	r->rep[r->nrep].action = action;
	r->rep[r->nrep].regions = regions;
	r->rep[r->nrep].n = n;
	r->rep[r->nrep].note = note;
	r->nrep++;
	if (cli_g.output == CLI_OUT_TEXT && !cli_g.quiet) {
		printf("%-11s %s", action, name);
		if (regions >= 0 && n >= 0)
			printf(" (%ld region%s, N=%ld)", regions, regions == 1 ? "" : "s", n);
		else if (n >= 0)
			printf(" (N=%ld)", n);
		else if (regions >= 0)
			printf(" (%ld region%s)", regions, regions == 1 ? "" : "s");
		if (note)
			printf(": %s", note);
		putchar('\n');
		fflush(stdout);
	}
	return 0;
}

/* ---------------------------------------------------------------- time */

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

static int digits(const char **p, int n, int *out)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

/* ISO-8601: DATE[(T| )HH[:MM[:SS]]][Z|±HH[:]MM]; without an offset it is read in the zone. */
static int parse_now(const char *s, time_t *out)
{
	const char *p = s;
	struct hb_stamp d = {0, 0, 0, 0};
	int mi = 0, se = 0, off = 0, has_off = 0;
	struct tm tmv;

	if (digits(&p, 4, &d.year) || *p++ != '-' || digits(&p, 2, &d.month) || *p++ != '-' ||
	    digits(&p, 2, &d.day))
		goto bad;
	if (*p == 'T' || *p == ' ') {
		p++;
		if (digits(&p, 2, &d.hour))
			goto bad;
		if (*p == ':') {
			p++;
			if (digits(&p, 2, &mi))
				goto bad;
			if (*p == ':') {
				p++;
				if (digits(&p, 2, &se))
					goto bad;
			}
		}
	}
	if (*p == 'Z') {
		has_off = 1;
		p++;
	} else if (*p == '+' || *p == '-') {
		int sign = *p == '-' ? -1 : 1, oh, om = 0;

		p++;
		if (digits(&p, 2, &oh))
			goto bad;
		if (*p == ':')
			p++;
		if (*p && digits(&p, 2, &om))
			goto bad;
		if (oh > 23 || om > 59)
			goto bad;
		off = sign * (oh * 3600 + om * 60);
		has_off = 1;
	}
	if (*p || !hb_stamp_valid(&d) || mi > 59 || se > 60)
		goto bad;
	memset(&tmv, 0, sizeof(tmv));
	tmv.tm_year = d.year - 1900;
	tmv.tm_mon = d.month - 1;
	tmv.tm_mday = d.day;
	tmv.tm_hour = d.hour;
	tmv.tm_min = mi;
	tmv.tm_sec = se;
	if (has_off) {
		*out = timegm(&tmv) - off;
	} else {
		/* a local time in a DST gap or repeat: mktime picks one instant, no error */
		tmv.tm_isdst = -1;
		*out = mktime(&tmv);
	}
	return 0;
bad:
	return cli_usage_error("rotate",
	                       "invalid --now '%s' (ISO-8601 such as 2026-03-29, "
	                       "2026-03-29T02:30 or 2026-03-29T02:30:00+01:00)",
	                       s);
}

static void stamp_at(time_t t, struct hb_stamp *s, enum hb_period period)
{
	struct tm tmv;

	localtime_r(&t, &tmv);
	s->year = tmv.tm_year + 1900;
	s->month = tmv.tm_mon + 1;
	s->day = tmv.tm_mday;
	s->hour = period == HB_PERIOD_HOUR ? tmv.tm_hour : 0;
}

/* The start of the local hour holding t. */
static time_t hour_floor(time_t t)
{
	struct tm tmv;

	localtime_r(&t, &tmv);
	return t - tmv.tm_min * 60 - tmv.tm_sec;
}

/*
 * The last period the run creates (now + --ahead) must have a four-digit year: %Y of year
 * 10000 makes a name the template's four-digit pattern never matches again. Hourly: one
 * hour more than --ahead, for the repeated hour of a DST change.
 */
static int check_years(const struct rotate *r, const char *now_s)
{
	struct hb_stamp s;
	struct tm tmv;

	stamp_at(r->now, &s, HB_PERIOD_DAY);
	if (r->period == HB_PERIOD_DAY) {
		hb_stamp_add_days(&s, r->ahead);
	} else {
		time_t t = hour_floor(r->now) + (time_t)(r->ahead + 1) * 3600;

		if (!localtime_r(&t, &tmv))
			s.year = 10000;
		else
			s.year = tmv.tm_year + 1900;
	}
	if (s.year <= 9999)
		return 0;
	return cli_usage_error("rotate",
	                       "--now '%s' with --ahead %ld reaches the year %d: %%Y names "
	                       "years up to 9999",
	                       now_s ? now_s : "(now)", (long)r->ahead, s.year);
}

/*
 * Periods from the current one: count distinct periods forward (dir 1) or backward (dir -1).
 * Hourly periods walk real hours, so a skipped local hour (DST gap) has no period and a
 * repeated one is the same period.
 */
static int walk(const struct rotate *r, int dir, long count, struct period *out)
{
	long got = 0;

	if (r->period == HB_PERIOD_DAY) {
		struct hb_stamp s;

		stamp_at(r->now, &s, HB_PERIOD_DAY);
		for (got = 0; got < count; got++) {
			out[got].stamp = s;
			hb_stamp_add_days(&s, dir);
		}
	} else {
		time_t t = hour_floor(r->now);
		long guard = 0;

		while (got < count && guard++ < count * 2 + 48) {
			struct hb_stamp s;

			stamp_at(t, &s, HB_PERIOD_HOUR);
			if (!got || hb_stamp_cmp(&s, &out[got - 1].stamp))
				out[got++].stamp = s;
			t += dir * 3600;
			t = hour_floor(t + (dir > 0 ? 1 : 0));
		}
		if (got < count)
			HB_BUG("walking hours did not advance");
	}
	for (got = 0; got < count; got++)
		if (hb_rotate_format(out[got].name, sizeof(out[got].name), r->tmpl,
		                     &out[got].stamp))
			return HB_EINVAL;
	return 0;
}

/* ---------------------------------------------------------------- metadata row */

/* Reads the table's rotate mark (rest/metarow.h): *managed when it is our template, *n its N,
 * *gone when the table no longer exists, *disabled (may be NULL) when the table is disabled, so
 * the mark is unknown, not absent. */
static int read_mark(struct rotate *r, const char *table, int *managed, long *n, int *gone,
                     int *disabled, struct hb_error *err)
{
	struct hb_metarow_mark mk;
	int rc = hb_metarow_read_mark(r->rest, table, r->tmpl, disabled != NULL, &mk, err);

	*managed = mk.managed;
	*n = mk.n;
	*gone = mk.gone;
	if (disabled)
		*disabled = mk.disabled;
	return rc;
}

/* ---------------------------------------------------------------- listing */

static int cmp_found(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	return hb_stamp_cmp(&x->stamp, &y->stamp);
}

static int list_matching(struct rotate *r, struct hb_error *err)
{
	struct hb_names names;
	size_t i;
	int rc;

	hb_names_init(&names);
	rc = hb_rest_list_tables(r->rest, &names, err);
	for (i = 0; !rc && i < names.n; i++) {
		struct hb_stamp s;
		struct found *v;

		if (!hb_rotate_match(r->match_tmpl, names.v[i], &s))
			continue;
		if (HB_VEC_GROW(r->found, r->capfound, r->nfound + 1, 16)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
		v = r->found;
		v[r->nfound].name = strdup(names.v[i]);
		if (!v[r->nfound].name) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
		v[r->nfound].stamp = s;
		v[r->nfound].managed = -1;
		v[r->nfound].n = -1;
		v[r->nfound].pending = 0;
		r->nfound++;
	}
	hb_names_release(&names);
	if (!rc && r->nfound)
		qsort(r->found, r->nfound, sizeof(*r->found), cmp_found);
	return rc;
}

static struct found *find_name(struct rotate *r, const char *name)
{
	size_t i;
	const char *n = !strncmp(name, "default:", 8) ? name + 8 : name;

	for (i = 0; i < r->nfound; i++)
		if (!strcmp(r->found[i].name, n))
			return &r->found[i];
	return NULL;
}

/* ---------------------------------------------------------------- designs */

/* Split keys for a new table: the spec (N = auto read once per run), or a sample of the
 * newest managed table before the current period with --sample-previous. */
struct design {
	struct cli_splitspec *ss;
	int prepared;
	struct hb_keys sampled; /* from --sample-previous */
	int have_sampled;
	char sample_from[HB_ROTATE_NAME_MAX];
	const char *sample_rows;
	/* the run's own design, computed once (a generator's sample can take a second) */
	struct hb_keys cache;
	struct hb_buf cache_text;
	int have_cache;
};

static int copy_keys(struct hb_keys *dst, const struct hb_keys *src)
{
	size_t i, kl;

	for (i = 0; i < src->n; i++) {
		const unsigned char *k = hb_keys_at(src, i, &kl);

		if (hb_keys_push(dst, k, kl))
			return HB_ENOMEM;
	}
	return 0;
}

static int sample_previous(struct rotate *r, struct design *d, const struct hb_stamp *cur,
                           struct hb_error *err)
{
	size_t i;
	long m = CLI_SPLITSPEC_DEFAULT_SAMPLE_ROWS;
	double t0 = hb_now();
	int rc = 0;

	if (d->sample_rows) {
		rc = cli_parse_long(d->sample_rows, 1, CLI_SPLITSPEC_MAX_SAMPLE, "--sample-rows",
		                    &m, err);
		if (rc)
			return rc;
	}
	for (i = r->nfound; i-- > 0;) {
		struct found *f = &r->found[i];
		struct hb_keys keys;
		int gone = 0;

		if (hb_stamp_cmp(&f->stamp, cur) >= 0)
			continue;
		if (f->managed < 0 &&
		    (rc = read_mark(r, f->name, &f->managed, &f->n, &gone, &f->disabled, err)))
			return rc;
		if (!f->managed)
			continue;
		hb_keys_init(&keys);
		rc = hb_rest_sample_keys(r->rest, f->name, (size_t)m, 0x5EEDu, &keys, err);
		if (rc == HB_ENOTFOUND) {
			hb_keys_release(&keys);
			rc = 0;
			continue;
		}
		if (rc) {
			hb_keys_release(&keys);
			return rc;
		}
		if (keys.n) {
			d->sampled = keys;
			d->have_sampled = 1;
			snprintf(d->sample_from, sizeof(d->sample_from), "%s", f->name);
			break;
		}
		hb_keys_release(&keys);
		break; /* the newest managed table is empty: fall back to the spec */
	}
	r->t_sample += hb_now() - t0;
	return 0;
}

/*
 * The split keys and spec text for table name. An existing managed table with a recorded N
 * keeps its N under N = auto; one made from a sample is checked against its own boundaries.
 */
static int design_for(struct rotate *r, struct design *d, const struct found *existing,
                      struct hb_keys *keys, struct hb_buf *text, long *live, struct hb_error *err)
{
	struct cli_splitspec s = *d->ss;
	int rc, own;

	*live = 0;
	if (existing && existing->managed > 0 && existing->n > 0 &&
	    (r->sample_previous || s.sample_table)) {
		struct hb_regions rs;
		size_t i;

		/* its boundaries came from data: verify families and metadata against itself */
		hb_regions_init(&rs);
		rc = hb_rest_get_regions(r->rest, existing->name, &rs, err);
		if (!rc) {
			hb_regions_sort(&rs);
			for (i = 0; i + 1 < rs.n && !rc; i++) {
				const unsigned char *rs_start, *e;
				size_t sl, el;

				hb_regions_bounds(&rs, i, &rs_start, &sl, &e, &el);
				rc = hb_keys_push(keys, e, el);
			}
		}
		hb_regions_release(&rs);
		if (!rc && hb_buf_adds(text, "(boundaries of the existing table)"))
			rc = HB_ENOMEM;
		return rc;
	}
	if (cli_splitspec_needs_cluster(d->ss) && !d->prepared) {
		/* N = auto (live servers) or --sample-table: read once per run */
		rc = cli_splitspec_prepare(d->ss, r->rest, err);
		if (rc)
			return rc;
		d->prepared = 1;
	}
	s = *d->ss;
	if (d->have_sampled) {
		s.sample_table = d->sample_from;
		s.sample_file = NULL;
		s.generator = NULL;
		s.sample_size = s.seed = s.start_time = NULL;
		s.table_keys = &d->sampled;
		s.sample_rows = d->sample_rows; /* recorded as the option in force */
	}
	if (existing && existing->managed > 0 && existing->n > 0 && s.regions_per_server) {
		/* the table keeps the N it was made with */
		s.live_servers = existing->n;
		s.regions_per_server = "1";
	}
	own = !(existing && existing->managed > 0 && existing->n > 0 && s.regions_per_server);
	if (own && s.regions_per_server)
		*live = s.live_servers;
	if (own && d->have_cache) {
		if (copy_keys(keys, &d->cache) || hb_buf_adds(text, hb_buf_str(&d->cache_text)))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		return 0;
	}
	rc = cli_splitspec_compute(keys, &s, err);
	if (!rc)
		rc = cli_splitspec_describe(text, &s, err);
	if (!rc && hb_buf_adds(text, ""))
		rc = HB_ENOMEM;
	if (!rc && own) {
		if (copy_keys(&d->cache, keys) || hb_buf_adds(&d->cache_text, hb_buf_str(text)))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		d->have_cache = 1;
	}
	return rc;
}

/* ---------------------------------------------------------------- the run */

struct rotate_opts {
	struct cli_splitspec *ss;
	const struct cli_strlist *families, *attrs;
	const char *via, *keyspace, *sample_rows;
	double wait;
};

static int ensure_tables(struct rotate *r, const struct rotate_opts *o)
{
	struct period *p = calloc((size_t)r->ahead + 1, sizeof(*p));
	struct design d;
	struct hb_error err = {0};
	long i;
	int rc = 0, st = 0;

	memset(&d, 0, sizeof(d));
	d.ss = o->ss;
	d.sample_rows = o->sample_rows;
	hb_keys_init(&d.sampled);
	hb_keys_init(&d.cache);
	hb_buf_init(&d.cache_text, 0);
	if (!p)
		return HB_ENOMEM;
	if (walk(r, 1, r->ahead + 1, p)) {
		free(p);
		return HB_EINVAL;
	}
	if (r->sample_previous) {
		rc = sample_previous(r, &d, &p[0].stamp, &err);
		if (rc) {
			st = cli_fail(&err);
			goto done;
		}
		if (!d.have_sampled)
			cli_verbose(
			    "no managed table with rows before '%s' to sample; using the spec",
			    p[0].name);
	}
	for (i = 0; i <= r->ahead; i++) {
		struct found *f = find_name(r, p[i].name);
		struct hb_keys keys;
		struct hb_buf text = HB_BUF_INIT;
		struct cli_create_req req;
		struct cli_create_out out;
		long live = 0;
		size_t keys_n;
		int gone = 0, one;
		double t0 = hb_now();

		hb_keys_init(&keys);
		if (f && f->managed < 0) {
			rc = read_mark(r, f->name, &f->managed, &f->n, &gone, &f->disabled, &err);
			if (rc) {
				st = cli_fail(&err);
				break;
			}
			if (gone)
				f = NULL;
		}
		rc = design_for(r, &d, f, &keys, &text, &live, &err);
		if (rc) {
			hb_keys_release(&keys);
			hb_buf_release(&text);
			st = rc == HB_ENOMEM ? (cli_error("out of memory"), CLI_EXIT_SERVER)
			                     : cli_fail(&err);
			break;
		}
		memset(&req, 0, sizeof(req));
		req.table = p[i].name;
		req.splits = &keys;
		req.spec_text = hb_buf_str(&text);
		req.families = o->families;
		req.attrs = o->attrs;
		req.via = o->via;
		req.keyspace = o->keyspace;
		req.wait = o->wait;
		req.rotate = r->tmpl;
		/* A dry run takes the same steps read-only: an existing table is verified (or
		 * found to differ) exactly as the real run would, an absent one is reported. */
		req.dry_run = r->dry_run;
		req.adopt = r->adopt;
		req.create_namespace = r->create_namespace;
		one = cli_create_table(r->rest, &req, &out);
		r->t_create += hb_now() - t0;
		keys_n = keys.n + 1;
		hb_keys_release(&keys);
		hb_buf_release(&text);
		if (one == CLI_EXIT_REFUSED && out.existed) {
			/* create refuses (5) an existing table that differs (the diff is on
			 * stderr); for rotate that is a finding: it is left as it is, no drop
			 * is made, but the tables still missing are created with this run's
			 * design, so the next period does not start without its table. The
			 * line shows the existing table's own regions and recorded N. */
			rc = report(r, p[i].name, "differs", (long)out.regions,
			            f && f->managed > 0 ? f->n : -1,
			            "not this run's design; left as it is");
			st = CLI_EXIT_FINDINGS;
			if (rc)
				break;
			continue;
		}
		if (one) {
			/* create explained it on stderr */
			report(r, p[i].name, "failed", -1, (long)out.planned, NULL);
			st = one;
			break;
		}
		if (r->dry_run && !out.existed) {
			rc = report(r, p[i].name, "would create", (long)keys_n, (long)keys_n, NULL);
			if (rc)
				break;
			continue;
		}
		{
			const char *note = NULL;

			if (!strcmp(out.metadata, "present") && !out.created) {
				int managed = f ? f->managed : -1, g2 = 0;
				long n2 = -1;

				/* The mark read before the create still holds; a table that
				 * appeared since the listing is read now. The note is all that
				 * depends on it. */
				if (managed < 0 &&
				    read_mark(r, p[i].name, &managed, &n2, &g2, NULL, &err)) {
					cli_warn("cannot read the rotate mark of '%s': %s",
					         p[i].name, err.msg);
					managed = -1;
				}
				if (!managed)
					note =
					    "not managed: its metadata row has no rotate mark for "
					    "this template";
			} else if (!strcmp(out.metadata, "adopted")) {
				note = "adopted: it has this run's design and now carries the "
				       "rotate mark";
				if (f)
					f->managed = 1;
			} else if (!strcmp(out.metadata, "would adopt")) {
				note = "would adopt: it has this run's design but no rotate mark";
			}
			if (live && out.created)
				cli_verbose("'%s': N = %zu from %ld live region servers", p[i].name,
				            out.planned, live);
			rc = report(r, p[i].name, out.created ? "created" : "verified",
			            (long)out.regions, (long)out.planned, note);
			if (rc)
				break;
		}
	}
done:
	free(p);
	if (d.have_sampled)
		hb_keys_release(&d.sampled);
	hb_keys_release(&d.cache);
	hb_buf_release(&d.cache_text);
	if (rc == HB_ENOMEM && !st) {
		cli_error("out of memory");
		st = CLI_EXIT_SERVER;
	}
	return st;
}

static int drop_old(struct rotate *r)
{
	struct period *keep = calloc((size_t)r->retain, sizeof(*keep));
	struct hb_error err = {0};
	const struct hb_stamp *cutoff;
	struct hb_buf lookalikes = HB_BUF_INIT; /* unmarked tables past retention */
	size_t i, dropped = 0, nlookalikes = 0;
	int rc = 0, st = 0;
	double t0 = hb_now();

	if (!keep)
		return HB_ENOMEM;
	if (walk(r, -1, r->retain, keep)) {
		free(keep);
		return HB_EINVAL;
	}
	cutoff = &keep[r->retain - 1].stamp;
	for (i = 0; i < r->nfound; i++) {
		struct found *f = &r->found[i];
		int gone = 0;

		if (hb_stamp_cmp(&f->stamp, cutoff) >= 0)
			break; /* sorted: the rest are kept */
		if (f->managed < 0) {
			rc = read_mark(r, f->name, &f->managed, &f->n, &gone, &f->disabled, &err);
			if (rc) {
				st = cli_fail(&err);
				break;
			}
			if (gone)
				continue;
		}
		if (!f->managed && f->disabled) {
			/* Whether rotate made it cannot be known without enabling it: left
			 * alone, and the run does not end as if nothing were due. */
			r->unreadable++;
			cli_error("table '%s' is past retention but disabled, so its metadata row "
			          "cannot be read and whether rotate made it is unknown; left "
			          "alone (a drop stopped between its disable and its delete leaves "
			          "a table so: enable it and run again to retire it)",
			          f->name);
			rc = report(r, f->name, "skipped", -1, -1,
			            "disabled: its rotate mark cannot be read; left alone");
			if (rc)
				break;
			continue;
		}
		if (!f->managed) {
			if (nlookalikes++ < 20)
				hb_buf_addf(&lookalikes, "%s'%s'", nlookalikes > 1 ? ", " : "",
				            f->name);
			rc = report(r, f->name, "skipped", -1, f->n,
			            "matches the template but carries no rotate mark for it; left "
			            "alone");
			if (rc)
				break;
			continue;
		}
		if (!r->yes || dropped >= (size_t)r->max_drops) {
			r->pending++;
			f->pending = 1;
			if (!r->yes)
				rc = report(r, f->name, "would drop", -1, f->n, NULL);
			if (rc)
				break;
			continue;
		}
		if (r->dry_run) {
			/* the real run would drop it (its mark is read again just before) */
			rc = report(r, f->name, "would drop", -1, f->n, NULL);
			dropped++;
			if (rc)
				break;
			continue;
		}
		/* re-check the mark right before the drop: the table may have been replaced */
		{
			int managed = 0;
			long n = -1;

			rc = read_mark(r, f->name, &managed, &n, &gone, NULL, &err);
			if (rc) {
				st = cli_fail(&err);
				break;
			}
			if (gone) {
				rc = report(r, f->name, "dropped", -1, f->n, "already gone");
				dropped++;
				if (rc)
					break;
				continue;
			}
			if (!managed) {
				rc =
				    report(r, f->name, "skipped", -1, n,
				           "its rotate mark changed since the listing; left alone");
				if (rc)
					break;
				continue;
			}
		}
		rc = hb_rest_delete_table(r->rest, f->name, &err);
		if (rc == HB_ENOTFOUND) {
			rc = report(r, f->name, "dropped", -1, f->n, "already gone");
		} else if (rc) {
			st = cli_fail(&err);
			break;
		} else {
			rc = report(r, f->name, "dropped", -1, f->n, NULL);
		}
		dropped++;
		if (rc)
			break;
	}
	if (nlookalikes)
		/* Never dropped, so never gone: said once per run, even under -q, so that
		 * cron's mail shows them. */
		cli_warn_always(
		    "%zu table%s past retention match%s the template '%s' but carr%s no "
		    "rotate mark, so rotate never drops %s: %s%s (drop %s with 'hbtab "
		    "drop TABLE --yes' when no longer needed)",
		    nlookalikes, nlookalikes == 1 ? "" : "s", nlookalikes == 1 ? "es" : "", r->tmpl,
		    nlookalikes == 1 ? "ies" : "y", nlookalikes == 1 ? "it" : "them",
		    hb_buf_str(&lookalikes), nlookalikes > 20 ? ", ..." : "",
		    nlookalikes == 1 ? "it" : "them");
	hb_buf_release(&lookalikes);
	if (!st && r->pending && r->yes) {
		struct hb_buf names = HB_BUF_INIT;
		size_t shown = 0;

		for (i = 0; i < r->nfound; i++)
			if (r->found[i].pending && shown++ < 20)
				hb_buf_addf(&names, "%s'%s'", names.len ? ", " : "",
				            r->found[i].name);
		cli_error("%zu more managed table%s past retention (--max-drops %ld): %s%s",
		          r->pending, r->pending == 1 ? " is" : "s are", r->max_drops,
		          hb_buf_str(&names), r->pending > 20 ? ", ..." : "");
		hb_buf_release(&names);
	}
	r->t_drop += hb_now() - t0;
	free(keep);
	if (rc == HB_ENOMEM && !st) {
		cli_error("out of memory");
		st = CLI_EXIT_SERVER;
	}
	return st;
}

static int print_json(const struct rotate *r)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	size_t i;
	int rc;

	if (!o)
		return HB_ENOMEM;
	cli_json_add_str(o, "now", r->now_text);
	arr = cJSON_AddArrayToObject(o, "tables");
	for (i = 0; arr && i < r->nrep; i++) {
		cJSON *t = cJSON_CreateObject();

		if (!t || !cJSON_AddItemToArray(arr, t))
			break;
		cli_json_add_str(t, "name", r->rep[i].name);
		cli_json_add_str(t, "action", r->rep[i].action);
		if (r->rep[i].regions >= 0)
			cJSON_AddNumberToObject(t, "regions", (double)r->rep[i].regions);
		else
			cJSON_AddNullToObject(t, "regions");
		if (r->rep[i].n >= 0)
			cJSON_AddNumberToObject(t, "N", (double)r->rep[i].n);
		else
			cJSON_AddNullToObject(t, "N");
		if (r->rep[i].note)
			cli_json_add_str(t, "note", r->rep[i].note);
	}
	cJSON_AddNumberToObject(o, "pending_drops", (double)r->pending);
	rc = cli_json_print(o);
	cJSON_Delete(o);
	return rc;
}

/* ---------------------------------------------------------------- lock */

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
	return h;
}

/* Takes an exclusive lock on path (default: per template and gateway). *fd_out >= 0 held. */
static int take_lock(const char *path, const char *tmpl, int *fd_out)
{
	char def[4096];
	int fd;

	*fd_out = -1;
	if (!path) {
		const char *dir = getenv("XDG_RUNTIME_DIR");
		uint64_t h = fnv1a(fnv1a(0xCBF29CE484222325ull, tmpl), cli_g.rest_url);

		/* an XDG_RUNTIME_DIR that is gone or not writable (a cron job's leftover
		 * environment) falls back to /tmp like an unset one */
		if (hb_dir_usable(dir))
			snprintf(def, sizeof(def), "%s/hbtab-rotate-%016llx.lock", dir,
			         (unsigned long long)h);
		else
			snprintf(def, sizeof(def), "/tmp/hbtab-rotate-%lu-%016llx.lock",
			         (unsigned long)getuid(), (unsigned long long)h);
		path = def;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		cli_error("cannot open the lock file '%s': %s", path, strerror(errno));
		return CLI_EXIT_USAGE;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		close(fd);
		if (e == EWOULDBLOCK) {
			cli_error("another 'hbtab rotate' run holds the lock '%s'; nothing done "
			          "(runs on one host do not overlap)",
			          path);
			return CLI_EXIT_REFUSED;
		}
		cli_error("cannot lock '%s': %s", path, strerror(e));
		return CLI_EXIT_USAGE;
	}
	*fd_out = fd;
	return 0;
}

/* ---------------------------------------------------------------- entry */

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

static struct cli_splitspec ss;
static struct cli_create_opts co;
static const char *tmpl, *period, *ahead, *retain, *max_drops, *now_s, *tz, *lock;
static int yes, dry_run, opt_sample_previous, adopt, create_namespace;
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
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_CREATE_OPTIONS(&co, "auto (default), thrift2, shell or rest", "auto thrift2 shell rest"),
    CLI_END,
};

static struct rotate rot;
static struct rotate_opts ropts;

/* Every option, and the split spec when it needs no cluster, checked offline. */
static int check(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct hb_tname tn;
	struct period first;
	enum hb_period implied;

	(void)x;
	if (!tmpl) {
		cli_usage_error("rotate", "missing --template TEMPLATE");
		return CLI_EXIT_USAGE;
	}
	if (hb_rotate_check(tmpl, &implied, &err)) {
		cli_usage_error("rotate", "invalid --template '%s': %s", tmpl, err.msg);
		return CLI_EXIT_USAGE;
	}
	if (!strncmp(tmpl, "hbase:", 6)) {
		cli_error("refusing to run 'rotate' on system tables ('%s'): the 'hbase' namespace "
		          "holds HBase's system tables",
		          tmpl);
		return CLI_EXIT_REFUSED;
	}
	rot.tmpl = tmpl;
	rot.match_tmpl = !strncmp(tmpl, "default:", 8) ? tmpl + 8 : tmpl;
	rot.period = implied;
	if (period) {
		if (!strcmp(period, "hour") && implied == HB_PERIOD_DAY) {
			cli_usage_error(
			    "rotate",
			    "--period hour is finer than the template '%s' (it has no %%H)", tmpl);
			return CLI_EXIT_USAGE;
		}
		if (!strcmp(period, "day") && implied == HB_PERIOD_HOUR) {
			cli_usage_error(
			    "rotate",
			    "--period day does not fit the template '%s': its %%H would "
			    "name hours no daily table has",
			    tmpl);
			return CLI_EXIT_USAGE;
		}
		if (strcmp(period, "day") && strcmp(period, "hour")) {
			cli_usage_error("rotate", "invalid --period '%s' (day or hour)", period);
			return CLI_EXIT_USAGE;
		}
	}
	if (parse_count(ahead, "--ahead", 0, MAX_AHEAD, 1, &rot.ahead) ||
	    parse_count(retain, "--retain", 1, MAX_RETAIN, 7, &rot.retain) ||
	    parse_count(max_drops, "--max-drops", 0, MAX_RETAIN, 1, &rot.max_drops) ||
	    cli_create_parse_wait("rotate", co.wait, &ropts.wait))
		return CLI_EXIT_USAGE;
	if (co.via && !strcmp(co.via, "print")) {
		cli_usage_error("rotate", "--via print is not a rotation channel (use 'hbtab "
		                          "create --via print' for a script)");
		return CLI_EXIT_USAGE;
	}
	if (!cli_splitspec_given(&ss)) {
		cli_usage_error("rotate", "missing SPLITSPEC (such as --hex-splits 16 or "
		                          "--hex-splits auto --regions-per-server 2)");
		return CLI_EXIT_USAGE;
	}
	if (opt_sample_previous && !ss.sampled) {
		cli_usage_error("rotate", "--sample-previous needs --sampled-splits N and a "
		                          "fallback (--generator or --sample-file)");
		return CLI_EXIT_USAGE;
	}
	if (opt_sample_previous && ss.sample_table) {
		cli_usage_error("rotate", "--sample-previous and --sample-table cannot be used "
		                          "together");
		return CLI_EXIT_USAGE;
	}
	if (set_zone(tz))
		return CLI_EXIT_USAGE;
	rot.now = time(NULL);
	if (now_s && parse_now(now_s, &rot.now))
		return CLI_EXIT_USAGE;
	if (check_years(&rot, now_s))
		return CLI_EXIT_USAGE;
	{
		struct tm tmv;
		char z[8];

		localtime_r(&rot.now, &tmv);
		strftime(rot.now_text, sizeof(rot.now_text), "%Y-%m-%dT%H:%M:%S", &tmv);
		strftime(z, sizeof(z), "%z", &tmv);
		if (strlen(z) == 5)
			snprintf(rot.now_text + strlen(rot.now_text), 8, "%.3s:%.2s", z, z + 3);
	}
	/* every name the template makes has the same shape: one check covers them all */
	stamp_at(rot.now, &first.stamp, rot.period);
	if (hb_rotate_format(first.name, sizeof(first.name), tmpl, &first.stamp) ||
	    hb_tname_check_create(&tn, first.name, &err)) {
		cli_usage_error("rotate",
		                "--template '%s' makes invalid table names such as '%s': %s", tmpl,
		                first.name, err.msg[0] ? err.msg : "too long");
		return CLI_EXIT_USAGE;
	}
	if (!ss.sample_table && !opt_sample_previous && !cli_splitspec_needs_cluster(&ss)) {
		/* check the spec offline before touching the cluster */
		struct hb_keys k;

		hb_keys_init(&k);
		if (cli_splitspec_compute(&k, &ss, &err)) {
			hb_keys_release(&k);
			cli_fail(&err);
			return CLI_EXIT_USAGE;
		}
		hb_keys_release(&k);
	}
	rot.yes = yes;
	rot.dry_run = dry_run;
	rot.sample_previous = opt_sample_previous;
	rot.adopt = adopt;
	rot.create_namespace = create_namespace;
	ropts.ss = &ss;
	ropts.families = &co.families;
	ropts.attrs = &co.attrs;
	ropts.via = co.via;
	ropts.keyspace = co.keyspace;
	ropts.sample_rows = ss.sample_table ? NULL : ss.sample_rows;
	if (opt_sample_previous && ss.sample_rows && !ss.sample_table)
		ss.sample_rows = NULL; /* it sizes the --sample-previous sample */
	return CLI_EXIT_OK;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	int st, lockfd = -1;
	double t0;

	st = take_lock(lock, tmpl, &lockfd);
	if (st)
		goto out;
	rot.rest = x->rest;
	t0 = hb_now();
	if (list_matching(&rot, &err)) {
		st = cli_fail(&err);
		goto out;
	}
	rot.t_list = hb_now() - t0;
	st = ensure_tables(&rot, &ropts);
	if (st)
		goto print;
	st = drop_old(&rot);
	if (!st && (rot.pending || rot.unreadable))
		st = CLI_EXIT_REFUSED;
print:
	if (cli_g.output == CLI_OUT_JSON && print_json(&rot) && !st)
		st = CLI_EXIT_USAGE;
	if (co.timings) {
		fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", "list", rot.t_list);
		fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", "sample", rot.t_sample);
		fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", "create", rot.t_create);
		fprintf(stderr, "hbtab: timing: %-9s %10.3f s\n", "drop", rot.t_drop);
	}
out:
	if (lockfd >= 0)
		close(lockfd);
	return st;
}

static void release(void)
{
	size_t i;

	for (i = 0; i < rot.nfound; i++)
		free(rot.found[i].name);
	free(rot.found);
	for (i = 0; i < rot.nrep; i++)
		free(rot.rep[i].name);
	free(rot.rep);
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
