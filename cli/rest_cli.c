/* The REST client as the commands see it: settings from cli_g, traces, progress, table names. */
#include "rest_cli.h"
#include "../core/clock.h"
#include "../core/netrc.h"
#include "../core/regioninfo.h"
#include "../core/tname.h"
#include "../rest/curlx.h"
#include "../rest/hbase.h"
#include "../rest/thrift2.h"
#include "cli.h"
#include "config.h"
#include "exit.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
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

int cli_rest_regions(struct hb_rest *c, const char *table, int meta, struct hb_regions *rs,
                     int *state, struct hb_error *err)
{
	/* Meta rows name default-namespace tables without "default:". */
	const char *meta_name = strncmp(table, "default:", 8) ? table : table + 8;
	int rc = meta ? hb_rest_meta_regions(c, meta_name, rs, state, err)
	              : hb_rest_get_regions(c, table, rs, err);

	cli_progress_done();
	if (!rc && meta && !rs->n && *state < 0) {
		cli_error("table '%s' not found in hbase:meta", table);
		return CLI_EXIT_SERVER;
	}
	if (rc == HB_ENOTFOUND && !meta) {
		cli_error("table '%s' not found", table);
		return CLI_EXIT_SERVER;
	}
	if (rc == HB_ENOLOCATION) {
		cli_error("table '%s': regions not online (%s); 'hbtab regions %s --source meta' "
		          "shows each region's state",
		          table, err->msg, table);
		return CLI_EXIT_SERVER;
	}
	return rc;
}

/*
 * info:state of the meta rows, joined to the REST regions by name while hbase:meta is scanned
 * (no second region list is held). A name holds its region's start key, so the REST regions
 * of a meta row's name are among those with its start (the list is sorted by start); each
 * meta row's state is noted for every REST region of that name, and the notes are applied
 * only once the whole scan has succeeded. States are a handful of words, kept once each.
 */
#define STATE_WORDS_SEARCHED 32
struct state_join {
	struct hb_regions *rs;
	uint32_t *note; /* per REST region: its state word + 1, or 0 */
	struct hb_names words;
};

static int note_state(void *ctx, const struct hb_region *m, struct hb_error *err)
{
	struct state_join *j = ctx;
	size_t lo = 0, hi = j->rs->n, i, w = 0;
	int have_word = 0;

	if (!m->state || !m->name)
		return 0;
	/* the first REST region whose start is not below m's */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, sl, el;
		const unsigned char *s, *e;

		hb_regions_bounds(j->rs, mid, &s, &sl, &e, &el);
		if (hb_key_cmp(s, sl, m->start, m->start_len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < j->rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at(j->rs, i, &v);

		if (hb_key_cmp(r->start, r->start_len, m->start, m->start_len))
			break;
		if (!r->name || r->name_len != m->name_len ||
		    (m->name_len && memcmp(r->name, m->name, m->name_len)))
			continue;
		for (; !have_word && w < j->words.n && w < STATE_WORDS_SEARCHED; w++)
			if (!strcmp(j->words.v[w], m->state))
				have_word = 1;
		if (!have_word) {
			if (hb_names_push(&j->words, m->state))
				return hb_error_set(err, HB_ENOMEM, "out of memory");
			w = j->words.n;
			have_word = 1;
		}
		j->note[i] = (uint32_t)w;
	}
	return 0;
}

/* Copies each noted state onto its REST region. */
static int apply_states(struct state_join *j)
{
	size_t i;

	for (i = 0; i < j->rs->n; i++)
		if (j->note[i] && hb_regions_set_state(j->rs, i, j->words.v[j->note[i] - 1]))
			return HB_ENOMEM;
	return 0;
}

int cli_rest_states_why(struct hb_rest *c, const char *table, struct hb_regions *rs,
                        int *table_state, int *available, struct hb_error *why,
                        struct hb_error *err)
{
	const char *meta_name = strncmp(table, "default:", 8) ? table : table + 8;
	struct hb_error merr = {0}, terr = {0};
	struct hb_thrift2 *t = NULL;
	struct state_join j;
	int rc, yes = 0;

	*table_state = -1;
	*available = -1;
	why->code = 0;
	why->msg[0] = 0;
	j.rs = rs;
	j.note = calloc(rs->n ? rs->n : 1, sizeof(*j.note));
	hb_names_init(&j.words);
	if (!j.note)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	rc = hb_rest_meta_scan(c, meta_name, note_state, &j, table_state, &merr);
	cli_progress_done();
	if (!rc && apply_states(&j))
		rc = HB_ENOMEM;
	free(j.note);
	hb_names_release(&j.words);
	if (!rc)
		return 0;
	if (rc == HB_ENOMEM)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (cli_g.thrift_url && !cli_thrift2_open(&t, cli_g.timeout, &terr)) {
		/* isTableEnabled is false for ENABLING and DISABLING too: isTableDisabled tells
		 * DISABLED from those. */
		int off = 0;

		if (!hb_thrift2_is_table_enabled(t, table, &yes, &terr) &&
		    (yes || !hb_thrift2_is_table_disabled(t, table, &off, &terr))) {
			*table_state = yes   ? HB_TABLE_ENABLED
			               : off ? HB_TABLE_DISABLED
			                     : HB_TABLE_CHANGING;
			if (!hb_thrift2_is_table_available(t, table, &yes, &terr))
				*available = yes;
		}
		hb_thrift2_free(t);
	}
	if (*table_state < 0)
		hb_error_set(
		    why, HB_EFINDING,
		    "cannot learn whether table '%s' is enabled and its regions open: %s; %s",
		    table, merr.msg, terr.msg[0] ? terr.msg : "no --thrift server to ask instead");
	return 0;
}

int cli_rest_states(struct hb_rest *c, const char *table, struct hb_regions *rs, int *table_state,
                    int *available, struct hb_error *err)
{
	struct hb_error why = {0};
	int rc = cli_rest_states_why(c, table, rs, table_state, available, &why, err);

	if (!rc && why.code)
		cli_warn("%s", why.msg);
	return rc;
}

int cli_explain_disabled(struct hb_rest *c, const char *table, struct hb_error *err)
{
	struct hb_error e2 = {0};
	int state = -1;

	if ((err->code != HB_ESERVER && err->code != HB_EFINDING) ||
	    hb_rest_table_state(c, table, &state, &e2) ||
	    (state != HB_TABLE_DISABLED && state != HB_TABLE_DISABLING))
		return 0;
	hb_error_set(err, HB_ESERVER, "table '%s' is disabled", table);
	return 1;
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
