/* The create flow for the command line: options into a plan, the flow (rest/create.h) with
 * the chosen channel, its failure reported; create and rotate call it. */
#include "create.h"
#include "../core/ddlscript.h"
#include "../core/keyspace.h"
#include "../core/metarow.h"
#include "../core/split.h"
#include "../core/tname.h"
#include "cli.h"
#include "exit.h"
#include "rest_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Lines of a boundary diff shown on stderr / in JSON. */
#define DIFF_MAX_LINES 20

void cli_create_init(struct cli_create *c, const char *table)
{
	memset(c, 0, sizeof(*c));
	hb_create_init(&c->f, table, DIFF_MAX_LINES);
}

void cli_create_release(struct cli_create *c)
{
	hb_create_release(&c->f);
}

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

/* ---------------------------------------------------------------- validation */

/* The table name, --family (default 'cf') and --attr into the schema. */
static int validate_schema(struct cli_create *c, const struct cli_strlist *fams,
                           const struct cli_strlist *attrs)
{
	struct hb_create *f = &c->f;
	struct hb_error err = {0};
	struct hb_tname tn;
	size_t i;

	if (hb_tname_check_create(&tn, f->table, &err)) {
		cli_error("%s", err.msg);
		return HB_EINVAL;
	}
	if (cli_check_table("create", f->table))
		return HB_EINVAL;
	if (tn.too_long)
		cli_warn("table name '%s' is longer than %d bytes; HDFS may refuse it", f->table,
		         HB_TNAME_WARN_BYTES);
	if (hb_schema_set_table(&f->schema, f->table))
		return HB_ENOMEM;
	for (i = 0; i < fams->n; i++)
		if (hb_ddlscript_add_family(&f->schema, fams->items[i], "--family", &err)) {
			cli_fail(&err);
			return err.code == HB_ENOMEM ? HB_ENOMEM : HB_EINVAL;
		}
	if (!f->schema.nfamilies) {
		if (hb_ddlscript_add_family(&f->schema, HB_DDLSCRIPT_DEFAULT_FAMILY, "--family",
		                            &err))
			return HB_ENOMEM;
		c->default_family = 1;
	}
	for (i = 0; i < attrs->n; i++)
		if (hb_ddlscript_add_attr(&f->schema, attrs->items[i], "--attr", &err)) {
			cli_fail(&err);
			return HB_EINVAL;
		}
	return 0;
}

/* The split keys (the caller's, or the spec's), verified and sorted as createTable would. */
static int validate_splits(struct cli_create *c, const struct hb_splitspec *ss)
{
	struct hb_create *f = &c->f;
	struct hb_error err = {0};
	size_t i, kl;
	int rc = 0;

	if (c->pre_splits) {
		for (i = 0; i < c->pre_splits->n; i++) {
			const unsigned char *k = hb_keys_at(c->pre_splits, i, &kl);

			if (hb_keys_push(&f->splits, k, kl))
				return HB_ENOMEM;
		}
		if (c->pre_spec_text && hb_buf_adds(&f->spec_text, c->pre_spec_text))
			return HB_ENOMEM;
	} else if (ss && hb_splitspec_given(ss)) {
		rc = cli_splitspec_compute(&f->splits, ss, &err);
		if (!rc)
			rc = hb_splitspec_write(&f->spec_text, ss, &err);
		f->from_table_sample = ss->sampled && ss->sample_table;
		if (rc) {
			cli_fail(&err);
			return rc;
		}
	}
	/* createTable's own check, so no server ever sees keys it would refuse */
	if (hb_split_verify(&f->splits, &err)) {
		cli_fail(&err);
		return HB_EINVAL;
	}
	return hb_keys_sort(&f->splits) ? HB_ENOMEM : 0;
}

/* --keyspace, --metadata-family and --metadata-row. */
static int validate_meta(struct cli_create *c, const char *meta_row)
{
	struct hb_create *f = &c->f;
	struct hb_error err = {0};

	if (c->ks_spec) {
		if (hb_keyspace_parse(&f->ks, c->ks_spec, &err)) {
			cli_error("invalid --keyspace '%s': %s", c->ks_spec, err.msg);
			return HB_EINVAL;
		}
		if (hb_keyspace_format(&f->ks_canon, f->ks) || hb_buf_adds(&f->ks_canon, ""))
			return HB_ENOMEM;
	}
	if (f->meta_family && !hb_schema_family(&f->schema, f->meta_family)) {
		cli_error("--metadata-family '%s' is not one of the table's families",
		          f->meta_family);
		return HB_EINVAL;
	}
	if (!f->meta_family)
		f->meta_family = f->schema.families[0].name;
	if (!meta_row)
		return hb_buf_adds(&f->meta_row, HB_METAROW_ROW) ? HB_ENOMEM : 0;
	if (hb_tbb_parse(&f->meta_row, meta_row, strlen(meta_row), &err)) {
		cli_error("invalid --metadata-row '%s': %s", meta_row, err.msg);
		return HB_EINVAL;
	}
	if (!f->meta_row.len || f->meta_row.len > HB_MAX_ROW_LENGTH) {
		cli_error("invalid --metadata-row '%s': a row is 1 to %d bytes", meta_row,
		          HB_MAX_ROW_LENGTH);
		return HB_EINVAL;
	}
	return 0;
}

int cli_create_validate(struct cli_create *c, const struct hb_splitspec *ss,
                        const struct cli_strlist *fams, const struct cli_strlist *attrs,
                        const char *via, const char *meta_row)
{
	int rc = validate_schema(c, fams, attrs);

	if (!rc)
		rc = validate_splits(c, ss);
	if (!rc)
		rc = cli_ddl_pick(&c->via, via, c->f.splits.n + 1);
	c->f.via = cli_via_name(c->via);
	return rc ? rc : validate_meta(c, meta_row);
}

/* ---------------------------------------------------------------- the flow */

static void print_diff(const struct cli_create *c)
{
	const char *p = hb_buf_str(&c->f.diff.lines);

	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(stderr, "hbtab:   %.*s\n", (int)n, p);
		p += n + (p[n] ? 1 : 0);
	}
}

static void hook_progress(void *ctx, const char *what, size_t n, size_t total)
{
	(void)ctx;
	cli_progress(what, n, total);
}

static void hook_progress_done(void *ctx)
{
	(void)ctx;
	cli_progress_done();
}

int cli_create_run(struct cli_create *c)
{
	struct hb_create_hooks h;
	struct hb_create *f = &c->f;
	struct hb_error err = {0};
	int st = CLI_EXIT_OK, rc;

	memset(&h, 0, sizeof(h));
	cli_ddl_channel(&h.ddl, c->via);
	h.thrift = cli_thrift2_channel();
	h.progress = hook_progress;
	h.progress_done = hook_progress_done;
	h.tell = cli_tell;
	rc = hb_create_run(f, c->rest, &h, &err);
	if (rc && f->no_channel)
		cli_ddl_no_channel(f->splits.n + 1, &err);
	if (rc) {
		c->exit_status = cli_status(rc, &err, 0);
		if (f->mismatch)
			print_diff(c);
		if (c->summary)
			c->summary(c, err.msg);
		return c->exit_status;
	}
	if (f->dry_run && !f->existed)
		return CLI_EXIT_OK;
	if (f->ks && f->nunreachable) {
		cli_error("%zu of %zu regions cannot hold any key of keyspace '%s'",
		          f->nunreachable, f->splits.n + 1, hb_buf_str(&f->ks_canon));
		st = CLI_EXIT_FINDINGS;
	}
	rc = c->summary ? c->summary(c, NULL) : 0;
	return st ? st : cli_status(rc, &err, 0);
}

int cli_create_table(struct hb_rest *rest, const struct cli_create_req *req,
                     struct cli_create_out *out)
{
	struct cli_create c;
	struct hb_create *f = &c.f;
	int st;

	cli_create_init(&c, req->table);
	c.rest = rest;
	c.ks_spec = req->keyspace;
	c.pre_splits = req->splits;
	c.pre_spec_text = req->spec_text;
	f->rotate = req->rotate;
	f->wait = req->wait;
	f->dry_run = req->dry_run;
	f->adopt = req->adopt;
	f->create_namespace = req->create_namespace;
	st = cli_create_validate(&c, NULL, req->families, req->attrs, req->via, NULL);
	hb_create_phase_end(f, HB_CREATE_VALIDATE);
	if (st)
		st = st == HB_ENOMEM ? (cli_error("out of memory"), CLI_EXIT_SERVER)
		                     : CLI_EXIT_USAGE;
	else if (c.via == CLI_VIA_PRINT)
		st = cli_ddl_print(&f->schema, &f->splits, c.default_family);
	else
		st = cli_create_run(&c);
	memset(out, 0, sizeof(*out));
	out->created = f->created;
	out->existed = f->existed;
	out->verified = f->verified;
	out->ns_created = f->ns_created;
	out->regions = f->regions;
	out->planned = f->splits.n + 1;
	snprintf(out->metadata, sizeof(out->metadata), "%s", f->metadata);
	out->ddl_s = f->t[HB_CREATE_DDL];
	out->wait_s = f->t[HB_CREATE_WAIT];
	out->verify_s = f->t[HB_CREATE_VERIFY] + f->t[HB_CREATE_ABSENT];
	out->metadata_s = f->t[HB_CREATE_METADATA];
	cli_create_release(&c);
	return st;
}
