/* The create flow: absence, DDL through the caller's channel, wait, byte-for-byte verification,
 * the metadata row and reachability; resumable and idempotent. */
#include "rest/create.h"
#include "core/audit.h"
#include "core/bounds.h"
#include "core/clock.h"
#include "core/metarow.h"
#include "core/regioninfo.h"
#include "core/tname.h"
#include "rest/ddl.h"
#include "rest/hbase.h"
#include "rest/metarow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const phase_names[HB_CREATE_NPHASES] = {"validate", "absent",   "ddl",  "wait",
                                                           "verify",   "metadata", "reach"};

/* The flow's state beside the plan: the client and the caller's hooks. */
struct flow {
	struct hb_create *c;
	struct hb_rest *rest;
	const struct hb_create_hooks *h;
};

const char *hb_create_phase_name(enum hb_create_phase p)
{
	return phase_names[p];
}

void hb_create_init(struct hb_create *c, const char *table, size_t diff_max)
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
	hb_diff_init(&c->diff, diff_max);
}

void hb_create_release(struct hb_create *c)
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

void hb_create_phase_end(struct hb_create *c, enum hb_create_phase p)
{
	double t = hb_now();

	c->t[p] += t - c->t0;
	c->t0 = t;
}

static void progress(const struct flow *f, const char *what, size_t n, size_t total)
{
	if (f->h->progress)
		f->h->progress(f->h->ctx, what, n, total);
}

static void progress_done(const struct flow *f)
{
	if (f->h->progress_done)
		f->h->progress_done(f->h->ctx);
}

/* ---------------------------------------------------------------- waiting */

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
 * The error when the wait ran out before every region was online, after waited seconds (the
 * time measured, not the wait asked for). rs holds the last complete listing with states, or
 * nothing when /T/regions kept answering 500 (regions without a location): then hbase:meta
 * names them.
 */
static int not_online_error(const struct flow *f, const struct hb_regions *rs, int last500,
                            const char *why, double waited, struct hb_error *err)
{
	struct hb_create *c = f->c;
	struct hb_buf m = HB_BUF_INIT;
	struct hb_regions meta;
	int state = -1, rc;
	const char *name = hb_tname_bare(c->table);

	hb_regions_init(&meta);
	rc = hb_buf_addf(&m, "table '%s': regions not online after %.0f s", c->table, waited);
	if (!rc && last500) {
		struct hb_error merr = {0};

		rc = hb_buf_addf(&m, " (%s)", why);
		if (!rc && !hb_rest_meta_regions(f->rest, name, &meta, &state, &merr)) {
			hb_regions_sort(&meta);
			rc = name_not_online(&m, &meta);
		}
		progress_done(f);
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
 * One look at a complete chain of the planned size: *pending when hbase:meta says the table is
 * not ENABLED or a region not OPEN. A DISABLED table's regions stay closed until someone
 * enables it: waiting out the wait would only delay that answer (HB_ESERVER).
 */
static int check_states(const struct flow *f, struct hb_regions *rs, int *pending,
                        struct hb_error *err)
{
	struct hb_create *c = f->c;
	struct hb_table_avail av;
	int rc;

	rc = hb_rest_region_states(f->rest, c->table, rs, f->h->thrift, &av, err);
	progress_done(f);
	if (rc)
		return rc;
	if (av.why.code)
		hb_tell_warn(&f->h->tell, "%s", av.why.msg);
	c->table_state = av.table_state;
	if (av.table_state == HB_TABLE_DISABLED || av.table_state == HB_TABLE_DISABLING) {
		progress_done(f);
		return hb_error_set(
		    err, HB_ESERVER,
		    "table '%s' is %s: its regions stay offline until it is enabled "
		    "(hbase shell: enable '%s'); not waiting",
		    c->table, hb_tablestate_name(av.table_state), c->table);
	}
	*pending = (av.table_state >= 0 && av.table_state != HB_TABLE_ENABLED) ||
	           av.available == 0 || hb_regions_not_open(rs);
	return 0;
}

/*
 * Polls until every region is online: /T/regions lists a complete chain and hbase:meta (or
 * Thrift2) says the table is ENABLED with every region OPEN. A 500 (a region that has no
 * location yet, an NPE in the gateway) and regions not yet OPEN are waited out; when the wait
 * runs out first, the regions not online are named (HB_ESERVER). *absent = 1 when the table
 * never appeared.
 */
static int wait_regions(const struct flow *f, struct hb_regions *rs, int *absent,
                        struct hb_error *err)
{
	struct hb_create *c = f->c;
	double started = hb_now(), deadline = started + c->wait, delay = 0.05;
	size_t planned = c->splits.n + 1;
	char why[HB_ERRMSG_MAX] = "";
	int rc, last500 = 0, pending = 0;

	*absent = 0;
	for (;;) {
		hb_regions_release(rs);
		hb_regions_init(rs);
		rc = hb_rest_get_regions(f->rest, c->table, rs, err);
		last500 = rc == HB_ENOLOCATION ||
		          (rc == HB_ESERVER && strstr(err->msg, "NullPointerException"));
		pending = last500;
		if (last500)
			snprintf(why, sizeof(why), "%s", err->msg);
		else if (rc && rc != HB_ENOTFOUND)
			return rc;
		/* a table whose regions have no location yet is waited for too */
		progress(f, "regions online", rc ? 0 : rs->n, planned);
		if (!rc) {
			hb_regions_sort(rs);
			hb_bounds_dedupe_replicas(rs);
			if (hb_bounds_chain_complete(rs) && rs->n >= planned) {
				rc = check_states(f, rs, &pending, err);
				if (rc)
					return rc;
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
	progress_done(f);
	if (pending)
		return not_online_error(f, rs, last500, why, hb_now() - started, err);
	return 0;
}

/* ---------------------------------------------------------------- metadata row */

static int metarow(const struct hb_create *c, struct hb_metarow *m, struct hb_error *err)
{
	return hb_metarow_given(m, c->table, c->meta_family, c->meta_row.data, c->meta_row.len,
	                        err);
}

/* The row's owner records the verified design (rest/metarow.h). */
static int write_metadata(const struct flow *f, struct hb_error *err)
{
	struct hb_create *c = f->c;
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
	rc = metarow(c, &m, err);
	if (!rc)
		rc = hb_metarow_record(f->rest, &m, &d, &f->h->tell, &c->metadata, err);
	hb_metarow_release(&m);
	return rc;
}

/*
 * A table made from a sample of a live table: the server's random row filter draws another
 * sample on every run, so a rerun cannot compare against a fresh one. When the table's
 * metadata row records exactly this run's split spec (the options in force), the table is
 * verified against its own boundaries instead (as rotate does), which must still number N:
 * families, attributes and the metadata row are checked as for any table. Anything else
 * keeps the fresh sample, and the difference is reported.
 */
static int own_sampled_bounds(const struct flow *f, const struct hb_regions *rs,
                              struct hb_error *err)
{
	struct hb_create *c = f->c;
	struct hb_metarow m;
	struct hb_buf sp = HB_BUF_INIT;
	struct hb_keys own;
	size_t i;
	int found = 0, rc;

	hb_keys_init(&own);
	rc = metarow(c, &m, err);
	if (!rc)
		rc = hb_metarow_read_cell(f->rest, &m, HB_METAROW_SPLITS, &sp, &found, err);
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
			hb_tell_verbose(
			    &f->h->tell,
			    "table '%s' was made from a sample (%s): verified against its "
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

/* ---------------------------------------------------------------- reachability */

int hb_create_reach(struct hb_create *c, struct hb_error *err)
{
	size_t i, n = c->splits.n + 1;
	mpz_t keys;
	int rc = 0;

	if (c->reach_checked)
		return 0; /* the check before anything was sent did it */
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

/* ---------------------------------------------------------------- namespace */

/* The namespace of c->table as a new string; NULL for the default namespace (or no memory). */
static char *table_namespace(const struct hb_create *c)
{
	struct hb_tname tn;

	if (hb_tname_parse(&tn, c->table, NULL) || !tn.has_ns ||
	    (tn.ns_len == 7 && !memcmp(tn.ns, "default", 7)))
		return NULL;
	return strndup(tn.ns, tn.ns_len);
}

/* err for a table whose namespace ns is missing: what is missing and how to make it, then
 * what the channel said (Thrift2's bare TIOError names only the namespace), if anything. */
static void missing_namespace(const struct hb_create *c, const char *ns, struct hb_error *err)
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
static void explain_namespace(const struct flow *f, struct hb_error *err)
{
	struct hb_error e2 = {0};
	char *ns = table_namespace(f->c);
	int exists = 1;
	char denied[400], said[HB_ERRMSG_MAX];
	size_t n;

	/* HBase refused a permission: that is the answer (a user without grants sees no
	 * namespaces, so the check below would call the namespace missing). The shell's words
	 * (Thrift2's are said plainly already) get the plain sentence in front. */
	if (strstr(err->msg, "permission denied: ")) {
		free(ns);
		return;
	}
	if (hb_error_denied(denied, sizeof(denied), err->msg)) {
		snprintf(said, sizeof(said), "%s", err->msg);
		n = strcspn(said, "(");
		while (n && said[n - 1] == ' ')
			n--;
		said[n] = '\0';
		hb_error_set(err, err->code, "%s: %s", said[0] ? said : "create", denied);
		free(ns);
		return;
	}
	if (ns && !hb_rest_namespace_exists(f->rest, ns, &exists, &e2) && !exists)
		missing_namespace(f->c, ns, err);
	free(ns);
}

/*
 * A table in a namespace that does not exist cannot be created (Thrift2 and the shell fail
 * with a bare NamespaceNotFoundException). With create_namespace the namespace is created
 * first (POST /namespaces/NS); a dry run checks it, as the real run's failure would show.
 * Otherwise a failed DDL is explained afterwards (explain_namespace), at no cost to a
 * create that succeeds.
 */
static int ensure_namespace(const struct flow *f, struct hb_error *err)
{
	struct hb_create *c = f->c;
	struct hb_error e = {0};
	char *ns;
	int exists = 0, rc = 0;

	if (!c->create_namespace && !c->dry_run)
		return 0;
	ns = table_namespace(c);
	if (!ns)
		return 0;
	rc = hb_rest_namespace_exists(f->rest, ns, &exists, &e);
	if (!rc && !exists && !c->create_namespace) {
		missing_namespace(c, ns, &e);
		rc = e.code;
	} else if (!rc && !exists && !c->dry_run) {
		rc = hb_rest_create_namespace(f->rest, ns, &e);
		if (rc) {
			struct hb_error e2 = {0};

			/* another run may have created it meanwhile */
			if (hb_rest_namespace_exists(f->rest, ns, &exists, &e2) || !exists)
				hb_error_prefix(&e, e.code, "cannot create namespace '%s'", ns);
			else
				rc = 0;
		} else {
			c->ns_created = 1;
		}
	}
	free(ns);
	if (rc)
		*err = e;
	return rc;
}

/* ---------------------------------------------------------------- the flow */

/*
 * The DDL of an absent table. A failure after which the table exists anyway (a race, or a
 * reply lost after the create) becomes a verification of it; otherwise a missing namespace
 * is named.
 */
static int make_table(const struct flow *f, struct hb_error *err)
{
	struct hb_create *c = f->c;
	const struct hb_tell *t = &f->h->tell;
	struct hb_error e2 = {0};
	int race = 0, now_exists = 0, rc;

	if (f->h->ddl.via == HB_DDL_VIA_NONE) {
		c->no_channel = 1;
		hb_create_phase_end(c, HB_CREATE_DDL);
		return hb_error_set(err, HB_EINVAL, "no channel can make table '%s'", c->table);
	}
	rc = hb_ddl_create(&f->h->ddl, f->rest, &c->schema, &c->splits, c->wait, t, &race, err);
	hb_create_phase_end(c, HB_CREATE_DDL);
	if (rc && rc != HB_EINVAL && rc != HB_ENOMEM &&
	    !hb_rest_table_exists(f->rest, c->table, &now_exists, &e2) && now_exists) {
		hb_tell_warn(t, "%s", err->msg);
		if (race == HB_DDL_RACE_OURS) {
			/* no error was reported: only the exit status or a hang */
			hb_tell_warn(t,
			             "table '%s' exists now; the shell reported no error, so the "
			             "read-back decides: verifying it",
			             c->table);
		} else {
			hb_tell_warn(
			    t, "table '%s' exists now (%s); verifying it instead", c->table,
			    race ? "created concurrently" : "the create may have succeeded");
			c->existed = 1;
		}
		rc = 0;
	}
	if (rc && rc != HB_EINVAL && rc != HB_ENOMEM)
		explain_namespace(f, err);
	if (!rc)
		c->created = !c->existed;
	return rc;
}

/* The table (or, mismatch, its difference from the plan): what is, against what was asked. */
static int mismatch(struct hb_create *c, struct hb_error *err, int code_created,
                    const char *created, const char *existing)
{
	c->mismatch = 1;
	if (c->created)
		return hb_error_set(err, code_created, "table '%s' %s", c->table, created);
	return hb_error_set(err, HB_ESAFETY, "table '%s' %s", c->table, existing);
}

/* Waits for the regions, then compares boundaries and families byte for byte. */
static int verify(const struct flow *f, struct hb_regions *rs, struct hb_schema *have,
                  struct hb_error *err)
{
	struct hb_create *c = f->c;
	int absent = 0, rc;

	rc = wait_regions(f, rs, &absent, err);
	hb_create_phase_end(c, HB_CREATE_WAIT);
	if (rc)
		return rc;
	if (absent) {
		c->created = 0;
		return hb_error_set(
		    err, HB_EFINDING,
		    "table '%s' does not exist after the %s create (waited %.0f s); "
		    "the channel reported success but nothing was created",
		    c->table, c->via, c->t[HB_CREATE_WAIT]);
	}
	c->regions = rs->n;
	if (c->existed && c->from_table_sample && !hb_bounds_equal(rs, &c->splits)) {
		rc = own_sampled_bounds(f, rs, err);
		if (rc)
			return rc;
	}
	if (!hb_bounds_equal(rs, &c->splits)) {
		/* the mismatch is reported even when memory cuts the listing short */
		(void)hb_bounds_diff(&c->diff, rs, &c->splits);
		hb_create_phase_end(c, HB_CREATE_VERIFY);
		return mismatch(c, err, HB_EFINDING,
		                "was created but its regions differ from the plan:",
		                "already exists with other region boundaries; left untouched:");
	}
	rc = hb_rest_get_schema(f->rest, c->table, have, err);
	if (rc)
		return rc;
	c->families_ok = hb_schema_compare(&c->diff, &c->schema, have);
	hb_create_phase_end(c, HB_CREATE_VERIFY);
	if (!c->families_ok)
		return mismatch(c, err, HB_EFINDING,
		                "was created but its families differ from the request:",
		                "already exists with other families or attributes; left "
		                "untouched:");
	c->verified = 1;
	return 0;
}

static int run(const struct flow *f, struct hb_regions *rs, struct hb_schema *have,
               struct hb_error *err)
{
	struct hb_create *c = f->c;
	int exists = 0, rc;

	/* never a schema PUT/POST, nor any DDL, on a table that exists */
	rc = hb_rest_table_exists(f->rest, c->table, &exists, err);
	hb_create_phase_end(c, HB_CREATE_ABSENT);
	if (rc)
		return rc;
	c->existed = exists;
	if (!exists) {
		rc = ensure_namespace(f, err);
		if (rc || c->dry_run)
			return rc;
		rc = make_table(f, err);
		if (rc)
			return rc;
	}
	rc = verify(f, rs, have, err);
	if (rc)
		return rc;
	if (!c->no_metadata) {
		rc = write_metadata(f, err);
		hb_create_phase_end(c, HB_CREATE_METADATA);
		/* the table stands, verified: say so, and what finishes the job */
		if (rc && rc != HB_ENOMEM && c->created) {
			char why[HB_ERRMSG_MAX];

			snprintf(why, sizeof(why), "%s", err->msg);
			return hb_error_set(
			    err, rc,
			    "table '%s' was created and its regions verified, but its "
			    "metadata row was not written: %s; a rerun of the same "
			    "create writes it",
			    c->table, why);
		}
		if (rc)
			return rc;
	}
	if (c->ks) {
		rc = hb_create_reach(c, err);
		hb_create_phase_end(c, HB_CREATE_REACH);
	}
	return rc;
}

int hb_create_run(struct hb_create *c, struct hb_rest *rest, const struct hb_create_hooks *h,
                  struct hb_error *err)
{
	struct flow f = {c, rest, h};
	struct hb_regions rs;
	struct hb_schema have;
	int rc;

	hb_regions_init(&rs);
	hb_schema_init(&have);
	rc = run(&f, &rs, &have, err);
	hb_regions_release(&rs);
	hb_schema_release(&have);
	return rc;
}
