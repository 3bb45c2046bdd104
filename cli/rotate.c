/* The rotation on the command line: the lock against overlapping runs on one host, then the
 * flow (rest/rotate_flow.c) with create's flow for each table, the split spec's options and
 * the command line's messages. */
#include "rotate.h"
#include "../core/key.h"
#include "../rest/tempfile.h"
#include "create.h"
#include "exit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

struct glue {
	const struct cli_rotate_opts *o;
	struct hb_rest *rest;
	int failed; /* the exit status of the step that stopped the run, or 0 */
};

/* ---------------------------------------------------------------- the flow's hooks */

/* Runs create's whole flow for one table (its failures on stderr). */
static void hook_create(void *ctx, const char *name, const struct hb_keys *keys,
                        const char *spec_text, struct hb_rotate_made *made)
{
	const struct glue *g = ctx;
	const struct cli_rotate_opts *o = g->o;
	struct cli_create_req req;
	struct cli_create_out out;

	memset(&req, 0, sizeof(req));
	req.table = name;
	req.splits = keys;
	req.spec_text = spec_text;
	req.families = o->families;
	req.attrs = o->attrs;
	req.via = o->via;
	req.keyspace = o->keyspace;
	req.wait = o->wait;
	req.rotate = o->flow.cfg.tmpl;
	/* A dry run takes the same steps read-only: an existing table is verified (or found to
	 * differ) exactly as the real run would, an absent one is reported. */
	req.dry_run = o->flow.cfg.dry_run;
	req.adopt = o->adopt;
	req.create_namespace = o->create_namespace;
	made->status = cli_create_table(g->rest, &req, &out);
	/* create refuses (5) an existing table that differs, the difference on stderr */
	made->differs = made->status == CLI_EXIT_REFUSED && out.existed;
	made->created = out.created;
	made->existed = out.existed;
	made->regions = out.regions;
	made->planned = out.planned;
	snprintf(made->metadata, sizeof(made->metadata), "%s", out.metadata);
}

static int hook_prepare(void *ctx, struct hb_splitspec *s, struct hb_error *err)
{
	const struct glue *g = ctx;

	return cli_splitspec_prepare(s, g->rest, err);
}

static int hook_compute(void *ctx, struct hb_keys *out, const struct hb_splitspec *s,
                        struct hb_error *err)
{
	(void)ctx;
	return cli_splitspec_compute(out, s, err);
}

static void hook_fail(void *ctx, int rc, struct hb_error *err)
{
	struct glue *g = ctx;

	g->failed = cli_status(rc, err, 0);
}

static void hook_say(void *ctx, enum hb_rotate_say what, const char *msg)
{
	(void)ctx;
	switch (what) {
	case HB_ROTATE_SAY_VERBOSE:
		cli_verbose("%s", msg);
		break;
	case HB_ROTATE_SAY_WARN:
		cli_warn("%s", msg);
		break;
	case HB_ROTATE_SAY_NOTICE:
		cli_warn_always("%s", msg);
		break;
	case HB_ROTATE_SAY_ERROR:
		cli_error("%s", msg);
		break;
	}
}

static void hook_line(void *ctx, const struct hb_rotate_line *l)
{
	const struct glue *g = ctx;

	if (g->o->on_line)
		g->o->on_line(l);
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

/* ---------------------------------------------------------------- the run */

int cli_rotate_run(struct hb_rest *rest, const struct cli_rotate_opts *o,
                   struct hb_rotate_result *out)
{
	struct glue g = {o, rest, 0};
	struct hb_rotate_hooks h;
	struct hb_rotate_opts fo = o->flow;
	int st, lockfd = -1;

	memset(out, 0, sizeof(*out));
	memset(&h, 0, sizeof(h));
	h.create = hook_create;
	h.spec_prepare = hook_prepare;
	h.spec_compute = hook_compute;
	h.fail = hook_fail;
	h.say = hook_say;
	h.on_line = hook_line;
	h.ctx = &g;
	if (o->known_unmarked) {
		fo.known_unmarked = o->known_unmarked->items;
		fo.nknown_unmarked = o->known_unmarked->n;
	}
	fo.known_unmarked_text = cli_g.known_unmarked;
	st = take_lock(o->lock, fo.cfg.tmpl, &lockfd);
	if (st)
		return st;
	hb_rotate_flow_run(rest, o->sh, &fo, &h, out);
	close(lockfd);
	if (out->create_status)
		return out->create_status;
	return g.failed ? g.failed : cli_exit(out->rc);
}
