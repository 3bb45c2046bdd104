/* Resolves global settings from flags, HBTAB_* variables and the profile file, in that order. */
#include "config.h"
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
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
	{"cacert", "HBTAB_CACERT", &cli_g.cacert, NULL},
	{"cert", "HBTAB_CERT", &cli_g.cert, NULL},
	{"key", "HBTAB_KEY", &cli_g.key, NULL},
	{"insecure", "HBTAB_INSECURE", NULL, &cli_g.insecure},
	{"user", "HBTAB_USER", &cli_g.user, NULL},
	{"negotiate", "HBTAB_NEGOTIATE", NULL, &cli_g.negotiate},
	{"hbase-shell", "HBTAB_HBASE_SHELL", &cli_g.hbase_shell, NULL},
	{"color", "HBTAB_COLOR", &cli_g.color_str, NULL},
	{"no-progress", "HBTAB_NO_PROGRESS", NULL, &cli_g.no_progress},
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

/*
 * The file is INI-like:  [default] / [profile NAME] or [NAME] sections of "key = value"
 * lines; '#' and ';' start comments. Keys are the long option names. Only settings that
 * no flag or variable gave (unset[i]) are taken; copied values live until exit.
 */
static int read_file(const char *path, const char *profile, unsigned char *unset, int must_exist)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int lineno = 0, in_profile = 0, in_default = 0, found_profile = 0;

	if (!f) {
		if (errno == ENOENT && !must_exist)
			return 0;
		cli_error("cannot read config file '%s': %s", path, strerror(errno));
		return HB_EINVAL;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s = trim(line), *eq, *k, *v;
		size_t i;

		lineno++;
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']'), *name;

			if (!end) {
				cli_error("%s:%d: section header without ']'", path, lineno);
				fclose(f);
				return HB_EINVAL;
			}
			*end = '\0';
			name = trim(s + 1);
			if (!strncmp(name, "profile ", 8))
				name = trim(name + 8);
			in_default = !strcmp(name, "default");
			in_profile = profile && !strcmp(name, profile);
			if (in_profile)
				found_profile = 1;
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			cli_error("%s:%d: expected 'key = value'", path, lineno);
			fclose(f);
			return HB_EINVAL;
		}
		*eq = '\0';
		k = trim(s);
		v = trim(eq + 1);
		if (!in_profile && !(in_default && !profile))
			continue;
		if (!strcmp(k, "password")) {
			cli_error("%s:%d: passwords are not read from the config file; use "
				  "HBTAB_PASSWORD or ~/.netrc", path, lineno);
			fclose(f);
			return HB_EINVAL;
		}
		for (i = 0; i < HB_ARRAY_LEN(settings); i++)
			if (!strcmp(settings[i].name, k))
				break;
		if (i == HB_ARRAY_LEN(settings)) {
			cli_error("%s:%d: unknown setting '%s'", path, lineno, k);
			fclose(f);
			return HB_EINVAL;
		}
		if (!unset[i])
			continue;
		if (settings[i].flag) {
			if (parse_bool(v, settings[i].flag)) {
				cli_error("%s:%d: '%s' must be true or false, got '%s'", path, lineno, k, v);
				fclose(f);
				return HB_EINVAL;
			}
		} else {
			char *copy = strdup(v);

			if (!copy) {
				fclose(f);
				return HB_ENOMEM;
			}
			*settings[i].str = copy;
		}
	}
	fclose(f);
	if (profile && !found_profile) {
		cli_error("profile '%s' not found in '%s'", profile, path);
		return HB_EINVAL;
	}
	return 0;
}

int cli_config_resolve(const char *cmd)
{
	unsigned char unset[HB_ARRAY_LEN(settings)];
	const char *profile = cli_g.profile, *path;
	struct hb_error err = {0};
	size_t i;
	long v;
	int rc;

	if (!profile) {
		const char *e = getenv("HBTAB_PROFILE");

		if (e && *e)
			profile = e;
	}
	for (i = 0; i < HB_ARRAY_LEN(settings); i++) {
		const char *e = getenv(settings[i].env);
		int isset = settings[i].flag ? *settings[i].flag : *settings[i].str != NULL;

		unset[i] = !isset;
		if (isset || !e || !*e)
			continue;
		unset[i] = 0;
		if (settings[i].flag) {
			if (parse_bool(e, settings[i].flag)) {
				cli_error("%s must be true or false, got '%s'", settings[i].env, e);
				return HB_EINVAL;
			}
		} else {
			*settings[i].str = e;
		}
	}
	path = cli_config_path();
	if (path) {
		rc = read_file(path, profile, unset, getenv("HBTAB_CONFIG") != NULL || profile != NULL);
		if (rc)
			return rc;
		cli_g.config_path = path;
	}
	if (!cli_g.rest_url)
		cli_g.rest_url = "http://localhost:8080";
	if (!cli_g.hbase_shell)
		cli_g.hbase_shell = "hbase shell -n";
	cli_g.output = CLI_OUT_TEXT;
	if (cli_g.output_str) {
		if (!strcmp(cli_g.output_str, "json"))
			cli_g.output = CLI_OUT_JSON;
		else if (strcmp(cli_g.output_str, "text"))
			return cli_usage_error(cmd, "invalid output format '%s' (expected text or json)",
					       cli_g.output_str);
	}
	cli_g.timeout = 30;
	if (cli_g.timeout_str) {
		char *end;
		double t;

		errno = 0;
		t = strtod(cli_g.timeout_str, &end);
		if (*end || end == cli_g.timeout_str || errno || !(t > 0) || t > 86400)
			return cli_usage_error(cmd, "invalid --timeout '%s' (seconds, > 0, <= 86400)",
					       cli_g.timeout_str);
		cli_g.timeout = t;
	}
	cli_g.retries = 2;
	if (cli_g.retries_str) {
		if (cli_parse_long(cli_g.retries_str, 0, 100, "--retries", &v, &err))
			return cli_usage_error(cmd, "%s", err.msg);
		cli_g.retries = v;
	}
	if ((cli_g.cert != NULL) != (cli_g.key != NULL))
		return cli_usage_error(cmd, "--cert and --key must be given together");
	if (!cli_g.color_str || !strcmp(cli_g.color_str, "auto")) {
		const char *nc = getenv("NO_COLOR");

		cli_g.color = isatty(STDOUT_FILENO) && !(nc && *nc);
	} else if (!strcmp(cli_g.color_str, "always")) {
		cli_g.color = 1;
	} else if (!strcmp(cli_g.color_str, "never")) {
		cli_g.color = 0;
	} else {
		return cli_usage_error(cmd, "invalid --color '%s' (expected auto, always or never)",
				       cli_g.color_str);
	}
	return 0;
}
