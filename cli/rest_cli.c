/* The REST client as the commands see it: settings from cli_g, traces, progress, table names. */
#include "rest_cli.h"
#include "../core/netrc.h"
#include "../core/tname.h"
#include "../rest/curlx.h"
#include "../rest/hbase.h"
#include "../rest/states.h"
#include "../rest/thrift2.h"
#include "cli.h"
#include "config.h"
#include "exit.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static void on_progress(void *ctx, size_t done, size_t total)
{
	cli_progress(ctx, done, total);
}

static void on_trace(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "hbtab: %s\n", line);
}

/*
 * The settings every channel (REST, Thrift2) takes from the global options, with the same
 * names in hb_rest_opts and hb_thrift2_opts; the credentials from conn_credentials.
 */
#define CONN_APPLY(o, timeout_s, cr)                                                               \
	do {                                                                                       \
		(o)->timeout = (timeout_s);                                                        \
		(o)->retries = cli_g.retries;                                                      \
		(o)->cacert = cli_g.cacert;                                                        \
		(o)->cert = cli_g.cert;                                                            \
		(o)->key = cli_g.key;                                                              \
		(o)->insecure = cli_g.insecure;                                                    \
		(o)->user = (cr)->user;                                                            \
		(o)->password = (cr)->password;                                                    \
		(o)->password_from = (cr)->from;                                                   \
		(o)->negotiate = cli_g.negotiate;                                                  \
		(o)->trace = cli_g.verbose ? on_trace : NULL;                                      \
		(o)->trace_ctx = NULL;                                                             \
	} while (0)

/* Basic-auth credentials for one server; the strings live until exit. */
struct cred {
	const char *user, *password, *from;
	struct hb_buf login, secret; /* from ~/.netrc */
};

/* HBTAB_PASSWORD when --user is given; the warning about an unused one is printed once. */
static const char *env_password(void)
{
	static int warned;
	const char *pw = getenv("HBTAB_PASSWORD");

	if (!pw || !*pw)
		return NULL;
	if (!cli_g.user) {
		if (!warned++)
			cli_warn(
			    "HBTAB_PASSWORD is set but --user is not; the password is not used");
		return NULL;
	}
	return pw;
}

/* ~/.netrc, as libcurl finds it: $HOME, else the account's home directory. Returns 1 with
 * the path, 0 when no home directory is known, -1 when out of memory. */
static int netrc_path(struct hb_buf *path)
{
	const char *home = getenv("HOME");

	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());

		home = pw ? pw->pw_dir : NULL;
	}
	if (!home || !*home)
		return 0;
	return hb_buf_addf(path, "%s/.netrc", home) ? -1 : 1;
}

/* Without --user a ~/.netrc is optional: one that is not a readable regular file is passed
 * over in silence, as libcurl does. */
static int netrc_usable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, R_OK);
}

/*
 * Who logs in to url: --user with HBTAB_PASSWORD, else --user with the password of its
 * "machine HOST login USER" entry in ~/.netrc, else (without --user) the login and password
 * ~/.netrc holds for the host, else nobody. --user without any password is bad input
 * (HB_EINVAL) before anything is sent: libcurl would send the name with an empty password.
 */
static int conn_credentials(const char *url, struct cred *cr, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	char host[256], *text = NULL;
	size_t len = 0;
	int found = 0, rc = 0;

	cr->user = cli_g.user;
	cr->password = env_password();
	cr->from = cr->password ? "HBTAB_PASSWORD" : NULL;
	if (cli_g.negotiate || cr->password || !url || hb_curlx_url_host(host, sizeof(host), url))
		return 0; /* a bad URL is reported by the client itself */
	found = netrc_path(&path);
	if (found < 0) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	if (!found || (!cli_g.user && !netrc_usable(path.data))) {
		found = 0;
	} else if (cli_slurp("netrc file", path.data, 0, 1024 * 1024, &text, &len)) {
		rc = hb_error_set(err, HB_EINVAL, "cannot read the basic-auth password");
		goto done;
	}
	if (text)
		found = hb_netrc_lookup(text, len, host, cli_g.user, &cr->login, &cr->secret);
	else
		found = 0;
	if (found < 0) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	} else if (found) {
		cr->user = cli_g.user ? cli_g.user : hb_buf_str(&cr->login);
		cr->password = hb_buf_str(&cr->secret);
		cr->from = "~/.netrc";
	} else if (cli_g.user && text) {
		rc =
		    hb_error_set(err, HB_EINVAL,
		                 "--user %s has no password: HBTAB_PASSWORD is not set and "
		                 "~/.netrc has no 'machine %s login %s' entry; set HBTAB_PASSWORD, "
		                 "or add 'machine %s login %s password ...' to ~/.netrc",
		                 cli_g.user, host, cli_g.user, host, cli_g.user);
	} else if (cli_g.user) {
		rc = hb_error_set(err, HB_EINVAL,
		                  "--user %s has no password: HBTAB_PASSWORD is not set and there "
		                  "is no ~/.netrc; set HBTAB_PASSWORD, or add 'machine %s login %s "
		                  "password ...' to ~/.netrc",
		                  cli_g.user, host, cli_g.user);
	}
done:
	if (text) {
		memset(text, 0, len);
		free(text);
	}
	hb_buf_release(&path);
	return rc;
}

/* A notice from the REST client (a scanner left open): shown even under -q. */
static void on_notice(void *ctx, const char *msg)
{
	(void)ctx;
	cli_warn_always("%s", msg);
}

/* A basic-auth password over plain http is readable on the wire: say so for every URL. */
static void warn_plain_password(const struct cred *cr, const char *url)
{
	if (cr->password && url && !strncasecmp(url, "http://", 7))
		cli_warn("sending a basic-auth password over plain http to '%s'", url);
}

int cli_rest_open(struct hb_rest **out, struct hb_error *err)
{
	static struct cred cr = {NULL, NULL, NULL, HB_BUF_INIT, HB_BUF_INIT};
	struct hb_rest_opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = conn_credentials(cli_g.rest_url, &cr, err);
	if (rc)
		return rc;
	o.base_url = cli_g.rest_url;
	CONN_APPLY(&o, cli_g.timeout, &cr);
	o.compressed = cli_g.compressed;
	rc = hb_rest_new(out, &o, err);
	if (rc)
		return rc;
	warn_plain_password(&cr, cli_g.rest_url);
	hb_rest_set_progress(*out, on_progress, "reading");
	hb_rest_set_notice(*out, on_notice, NULL);
	return 0;
}

int cli_thrift2_open(struct hb_thrift2 **out, double timeout, struct hb_error *err)
{
	static struct cred cr = {NULL, NULL, NULL, HB_BUF_INIT, HB_BUF_INIT};
	struct hb_thrift2_opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = conn_credentials(cli_g.thrift_url, &cr, err);
	if (rc)
		return rc;
	o.url = cli_g.thrift_url;
	CONN_APPLY(&o, timeout, &cr);
	rc = hb_thrift2_new(out, &o, err);
	if (rc)
		return rc;
	warn_plain_password(&cr, cli_g.thrift_url);
	return 0;
}

/* A region list REST cannot give: the way to see why. The gateway's listing fails for a
 * region replica without a location as for a region (RegionsResource dereferences each
 * location), while hbase:meta's listing shows the primaries' states only: said so, lest an
 * operator seeing every region OPEN there look no further. Returns CLI_EXIT_SERVER. */
static int no_location(const char *table, const struct hb_error *err)
{
	cli_error("table '%s': regions not online (%s); 'hbtab regions %s --source meta' "
	          "shows each region's state (with region replicas, a replica not yet open "
	          "fails this listing too, and meta's shows the primaries)",
	          table, err->msg, table);
	return CLI_EXIT_SERVER;
}

int cli_rest_regions(struct hb_rest *c, const char *table, int meta, struct hb_regions *rs,
                     int *state, struct hb_error *err)
{
	int rc = hb_rest_table_regions(c, table, meta, rs, state, err);

	cli_progress_done();
	if (rc == HB_ENOTFOUND && (!meta || !rs->n)) {
		cli_error("%s", err->msg);
		return CLI_EXIT_SERVER;
	}
	return rc == HB_ENOLOCATION ? no_location(table, err) : rc;
}

int cli_regions_status(const char *table, int rc, struct hb_error *err, size_t findings)
{
	if (rc == HB_ENOLOCATION)
		return no_location(table, err);
	return cli_status(rc, err, findings);
}

const struct hb_thrift2_channel *cli_thrift2_channel(void)
{
	static struct cred cr = {NULL, NULL, NULL, HB_BUF_INIT, HB_BUF_INIT};
	static struct hb_thrift2_opts o;
	static struct hb_thrift2_channel ch;
	static int made;

	if (made)
		return &ch;
	made = 1;
	ch.tell = &cli_tell;
	if (!cli_g.thrift_url) {
		hb_error_set(&ch.why, HB_EINVAL, "no --thrift server to ask instead");
		return &ch;
	}
	if (conn_credentials(cli_g.thrift_url, &cr, &ch.why))
		return &ch;
	o.url = cli_g.thrift_url;
	CONN_APPLY(&o, cli_g.timeout, &cr);
	ch.opts = &o;
	return &ch;
}

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

const struct hb_tell cli_tell = {tell_warn, tell_verbose, NULL};

int cli_rest_states(struct hb_rest *c, const char *table, struct hb_regions *rs, int *table_state,
                    int *available, struct hb_error *err)
{
	struct hb_table_avail av;
	int rc = hb_rest_region_states(c, table, rs, cli_thrift2_channel(), &av, err);

	cli_progress_done();
	*table_state = av.table_state;
	*available = av.available;
	if (!rc && av.why.code)
		cli_warn("%s", av.why.msg);
	return rc;
}

int cli_explain_disabled(struct hb_rest *c, const char *table, struct hb_error *err)
{
	return hb_rest_explain_disabled(c, table, err);
}

int cli_check_table(const char *cmd, const char *name)
{
	struct hb_error err = {0};
	struct hb_tname tn;

	(void)cmd;
	if (hb_tname_parse(&tn, name, &err)) {
		cli_error("%s", err.msg);
		return HB_EINVAL;
	}
	/* JAX-RS literal routes win over /{table} (docs/hbase-wire.md §0). */
	if (!tn.has_ns &&
	    (!strcmp(name, "version") || !strcmp(name, "status") || !strcmp(name, "namespaces"))) {
		cli_error("table '%s' cannot be reached over REST (the name collides with a REST "
		          "resource); use 'default:%s'",
		          name, name);
		return HB_EINVAL;
	}
	return 0;
}
