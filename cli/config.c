/* Resolves global settings from flags, HBTAB_* variables and the profile file, in that order. */
#include "config.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One setting: its name in the file and its HBTAB_ variable, and where the value goes. */
struct setting {
	const char *name; /* key in the config file */
	const char *env;
	const char **str;
	int *flag;
};

static const struct setting settings[] = {
    {"rest", "HBTAB_REST", &cli_g.rest_url, NULL},
    {"thrift", "HBTAB_THRIFT", &cli_g.thrift_url, NULL},
    {"output", "HBTAB_OUTPUT", &cli_g.output_str, NULL},
    {"timeout", "HBTAB_TIMEOUT", &cli_g.timeout_str, NULL},
    {"retries", "HBTAB_RETRIES", &cli_g.retries_str, NULL},
    {"deadline", "HBTAB_DEADLINE", &cli_g.deadline_str, NULL},
    {"cacert", "HBTAB_CACERT", &cli_g.cacert, NULL},
    {"cert", "HBTAB_CERT", &cli_g.cert, NULL},
    {"key", "HBTAB_KEY", &cli_g.key, NULL},
    {"insecure", "HBTAB_INSECURE", NULL, &cli_g.insecure},
    {"compressed", "HBTAB_COMPRESSED", NULL, &cli_g.compressed},
    {"user", "HBTAB_USER", &cli_g.user, NULL},
    {"negotiate", "HBTAB_NEGOTIATE", NULL, &cli_g.negotiate},
    {"hbase-shell", "HBTAB_HBASE_SHELL", &cli_g.hbase_shell, NULL},
    {"color", "HBTAB_COLOR", &cli_g.color_str, NULL},
    {"no-progress", "HBTAB_NO_PROGRESS", NULL, &cli_g.no_progress},
    /* rotate's --known-unmarked for a cluster's profile: added to the flags' tables */
    {"known-unmarked", "HBTAB_KNOWN_UNMARKED", &cli_g.known_unmarked, NULL},
};

const char *cli_config_path(void)
{
	static char path[4096];
	const char *p = getenv("HBTAB_CONFIG"), *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");

	if (p && *p)
		return p;
	if (x && *x)
		snprintf(path, sizeof(path), "%s/hbtab/config", x);
	else if (h && *h)
		snprintf(path, sizeof(path), "%s/.config/hbtab/config", h);
	else
		return NULL;
	return path;
}

static int parse_bool(const char *v, int *out)
{
	if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "on")) {
		*out = 1;
		return 0;
	}
	if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "off") ||
	    !*v) {
		*out = 0;
		return 0;
	}
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* Where each setting's value came from, for messages: its HBTAB_ variable, or the config
 * file and line ("FILE:LINE"); nothing recorded = a flag. */
static char src_where[HB_ARRAY_LEN(settings)][512];

/*
 * Prints "invalid --KEY 'VALUE' (EXPECT)" for a flag, "invalid KEY 'VALUE' from HBTAB_KEY
 * (EXPECT)" for a variable and "FILE:LINE: invalid KEY 'VALUE' (EXPECT)" for the config file,
 * and returns HB_EINVAL.
 */
static int bad_value(const char *cmd, const char *key, const char *value, const char *expect)
{
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(settings); i++) {
		if (strcmp(settings[i].name, key) || !src_where[i][0])
			continue;
		if (!strncmp(src_where[i], "HBTAB_", 6))
			cli_error("invalid %s '%s' from %s (%s)", key, value, src_where[i], expect);
		else
			cli_error("%s: invalid %s '%s' (%s)", src_where[i], key, value, expect);
		return HB_EINVAL;
	}
	return cli_usage_error(cmd, "invalid --%s '%s' (%s)", key, value, expect);
}

/* A configuration file is a few lines; anything this big is not one. */
#define CONFIG_MAX_BYTES (1024 * 1024)

/* Copies taken from the file, one per setting; a later line for the same key replaces it. */
static char *owned[HB_ARRAY_LEN(settings)];

int cli_slurp(const char *what, const char *path, int must_exist, size_t max, char **out,
              size_t *len_out)
{
	struct hb_buf b = HB_BUF_INIT;
	char chunk[8192];
	struct stat st;
	FILE *f;
	size_t n;
	int fd;

	*out = NULL;
	/* O_NONBLOCK: opening a FIFO with no writer must not hang; it is refused below */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT && !must_exist)
			return 0;
		cli_error("cannot read %s '%s': %s", what, path, strerror(errno));
		return HB_EINVAL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		cli_error("%s '%s' is not a regular file", what, path);
		close(fd);
		return HB_EINVAL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		cli_error("cannot read %s '%s': %s", what, path, strerror(errno));
		close(fd);
		return HB_EINVAL;
	}
	hb_buf_init(&b, max);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (hb_buf_add(&b, chunk, n)) {
			cli_error("%s '%s' is larger than %zu bytes", what, path, max);
			goto fail;
		}
	}
	if (ferror(f)) {
		cli_error("cannot read %s '%s': %s", what, path, strerror(errno));
		goto fail;
	}
	fclose(f);
	if (hb_buf_add(&b, "", 0))
		goto nomem;
	*len_out = b.len;
	*out = hb_buf_detach(&b, NULL);
	return *out ? 0 : HB_ENOMEM;
nomem:
	cli_error("out of memory");
	hb_buf_release(&b);
	return HB_ENOMEM;
fail:
	fclose(f);
	hb_buf_release(&b);
	return HB_EINVAL;
}

/*
 * The file is INI-like:  [default] / [profile NAME] or [NAME] sections of "key = value"
 * lines; '#' and ';' start comments; lines before the first section belong to [default].
 * Keys are the long option names. Only settings that no flag or variable gave (unset[i])
 * are taken; copied values live until exit.
 */
/* What a config file's reader knows while it walks the lines. */
struct file_walk {
	const char *path, *profile;
	unsigned char *unset;
	int lineno, in_profile, in_default, found_profile;
};

/* A "[default]", "[profile NAME]" or "[NAME]" line (s starts with '['). */
static int read_section(struct file_walk *w, char *s)
{
	char *close = strchr(s, ']'), *name;

	if (!close) {
		cli_error("%s:%d: section header without ']'", w->path, w->lineno);
		return HB_EINVAL;
	}
	*close = '\0';
	name = trim(s + 1);
	if (!strncmp(name, "profile ", 8))
		name = trim(name + 8);
	w->in_default = !strcmp(name, "default");
	w->in_profile = w->profile && !strcmp(name, w->profile);
	if (w->in_profile)
		w->found_profile = 1;
	return 0;
}

/* Stores setting i's value v from the file (a later line for the same key replaces it). */
static int take_setting(struct file_walk *w, size_t i, const char *k, const char *v)
{
	char *copy;

	snprintf(src_where[i], sizeof(src_where[i]), "%s:%d", w->path, w->lineno);
	if (settings[i].flag) {
		if (!parse_bool(v, settings[i].flag))
			return 0;
		cli_error("%s:%d: '%s' must be true or false, got '%s'", w->path, w->lineno, k, v);
		return HB_EINVAL;
	}
	copy = strdup(v);
	if (!copy) {
		cli_error("out of memory");
		return HB_ENOMEM;
	}
	free(owned[i]);
	owned[i] = copy;
	*settings[i].str = copy;
	return 0;
}

/* A "key = value" line (s trimmed, not a comment or a section). */
static int read_setting(struct file_walk *w, char *s)
{
	char *eq = strchr(s, '='), *k, *v;
	size_t i;

	if (!eq) {
		cli_error("%s:%d: expected 'key = value'", w->path, w->lineno);
		return HB_EINVAL;
	}
	*eq = '\0';
	k = trim(s);
	v = trim(eq + 1);
	if (strlen(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[strlen(v) - 1] == v[0]) {
		v[strlen(v) - 1] = '\0'; /* key = "value" or 'value': the quotes go */
		v++;
	}
	if (!strcmp(k, "password")) {
		cli_error("%s:%d: passwords are not read from the config file; use "
		          "HBTAB_PASSWORD or ~/.netrc",
		          w->path, w->lineno);
		return HB_EINVAL;
	}
	for (i = 0; i < HB_ARRAY_LEN(settings); i++)
		if (!strcmp(settings[i].name, k))
			break;
	if (i == HB_ARRAY_LEN(settings)) {
		cli_error("%s:%d: unknown setting '%s'", w->path, w->lineno, k);
		return HB_EINVAL;
	}
	if (!w->unset[i] || !(w->in_profile || (w->in_default && !w->profile)))
		return 0;
	return take_setting(w, i, k, v);
}

static int read_file(const char *path, const char *profile, unsigned char *unset, int must_exist)
{
	struct file_walk w = {path, profile, unset, 0, 0, 1, 0};
	char *text, *line, *next;
	size_t len;
	int rc;

	rc = cli_slurp("config file", path, must_exist, CONFIG_MAX_BYTES, &text, &len);
	if (rc || !text)
		return rc;
	line = text;
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) /* a UTF-8 byte-order mark */
		line += 3;
	for (; !rc && line < text + len; line = next) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line)), *s;

		next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = '\0';
		w.lineno++;
		if (strlen(line) != (size_t)((nl ? nl : text + len) - line)) {
			cli_error("%s:%d: NUL byte in the config file", path, w.lineno);
			rc = HB_EINVAL;
			break;
		}
		s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		rc = *s == '[' ? read_section(&w, s) : read_setting(&w, s);
	}
	if (!rc && profile && !w.found_profile) {
		cli_error("profile '%s' not found in '%s'", profile, path);
		rc = HB_EINVAL;
	}
	free(text);
	return rc ? HB_EINVAL : 0;
}

/* A file setting must name a readable regular file. */
static int check_file(const char *cmd, const char *key, const char *path)
{
	struct stat st;
	int fd;

	if (!path)
		return 0;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return bad_value(cmd, key, path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return bad_value(cmd, key, path, "not a regular file");
	}
	close(fd);
	return 0;
}

/* Takes every setting no flag gave from its HBTAB_ variable; unset[i] says which are still
 * open for the file. */
static int resolve_env(unsigned char *unset)
{
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(settings); i++) {
		const char *e = getenv(settings[i].env);
		int isset = settings[i].flag ? *settings[i].flag : *settings[i].str != NULL;

		unset[i] = !isset;
		if (isset || !e || !*e)
			continue;
		unset[i] = 0;
		snprintf(src_where[i], sizeof(src_where[i]), "%s", settings[i].env);
		if (settings[i].flag && parse_bool(e, settings[i].flag)) {
			cli_error("%s must be true or false, got '%s'", settings[i].env, e);
			return HB_EINVAL;
		}
		if (!settings[i].flag)
			*settings[i].str = e;
	}
	return 0;
}

/* A number of seconds in (0 or more than 0, per min_zero) .. max into *out. */
static int parse_seconds(const char *s, int min_zero, double max, double *out)
{
	char *end;
	double t;

	errno = 0;
	t = strtod(s, &end);
	if (*end || end == s || errno || !(min_zero ? t >= 0 : t > 0) || t > max)
		return HB_EINVAL;
	*out = t;
	return 0;
}

/* --output, --timeout, --retries and --deadline from their strings. */
static int resolve_numbers(const char *cmd)
{
	struct hb_error err = {0};
	long v;

	cli_g.output = CLI_OUT_TEXT;
	if (cli_g.output_str) {
		if (!strcmp(cli_g.output_str, "json"))
			cli_g.output = CLI_OUT_JSON;
		else if (strcmp(cli_g.output_str, "text"))
			return bad_value(cmd, "output", cli_g.output_str, "expected text or json");
	}
	cli_g.timeout = 30;
	if (cli_g.timeout_str && parse_seconds(cli_g.timeout_str, 0, 86400, &cli_g.timeout))
		return bad_value(cmd, "timeout", cli_g.timeout_str, "seconds, > 0, <= 86400");
	cli_g.retries = CLI_DEFAULT_RETRIES;
	if (cli_g.retries_str) {
		if (cli_parse_long(cli_g.retries_str, 0, 100, "retries", &v, &err))
			return bad_value(cmd, "retries", cli_g.retries_str,
			                 "a whole number, 0 to 100");
		cli_g.retries = v;
	}
	cli_g.deadline = CLI_DEFAULT_DEADLINE;
	if (cli_g.deadline_str && parse_seconds(cli_g.deadline_str, 1, 31536000, &cli_g.deadline))
		return bad_value(cmd, "deadline", cli_g.deadline_str,
		                 "seconds, 0 (none) to 31536000");
	return 0;
}

/* --color auto|always|never; auto honours NO_COLOR and a terminal on stdout. */
static int resolve_color(const char *cmd)
{
	if (!cli_g.color_str || !strcmp(cli_g.color_str, "auto")) {
		const char *nc = getenv("NO_COLOR");

		cli_g.color = isatty(STDOUT_FILENO) && !(nc && *nc);
	} else if (!strcmp(cli_g.color_str, "always")) {
		cli_g.color = 1;
	} else if (!strcmp(cli_g.color_str, "never")) {
		cli_g.color = 0;
	} else {
		return bad_value(cmd, "color", cli_g.color_str, "expected auto, always or never");
	}
	return 0;
}

int cli_config_resolve(const char *cmd)
{
	unsigned char unset[HB_ARRAY_LEN(settings)];
	const char *profile = cli_g.profile, *path;
	int rc;

	if (!profile) {
		const char *e = getenv("HBTAB_PROFILE");

		if (e && *e)
			profile = e;
	}
	rc = resolve_env(unset);
	if (rc)
		return rc;
	path = cli_config_path();
	if (path) {
		const char *explicit_path = getenv("HBTAB_CONFIG");

		rc = read_file(path, profile, unset, (explicit_path && *explicit_path) || profile);
		if (rc)
			return rc;
		cli_g.config_path = path;
	}
	if (!cli_g.rest_url)
		cli_g.rest_url = "http://localhost:8080";
	if (!cli_g.hbase_shell)
		cli_g.hbase_shell = "hbase shell -n";
	rc = resolve_numbers(cmd);
	if (rc)
		return rc;
	if ((cli_g.cert != NULL) != (cli_g.key != NULL))
		return cli_usage_error(cmd, "--cert and --key must be given together");
	/* local files are checked before any request: a typo is bad input, not a TLS failure */
	if (check_file(cmd, "cacert", cli_g.cacert) || check_file(cmd, "cert", cli_g.cert) ||
	    check_file(cmd, "key", cli_g.key))
		return HB_EINVAL;
	return resolve_color(cmd);
}
