/* Option-table driven parsing, --help and the completion listing; reads no configuration. */
#include "../core/vec.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const struct cli_option global_opts[] = {
    CLI_GROUP("Global options"),
    CLI_STRING(0, "rest", &cli_g.rest_url, "URL", "REST gateway (default http://localhost:8080)"),
    CLI_STRING(0, "thrift", &cli_g.thrift_url, "URL", "Thrift2 server in HTTP mode"),
    CLI_STRING(0, "profile", &cli_g.profile, "NAME", "configuration profile"),
    CLI_CHOICE('o', "output", &cli_g.output_str, "FORMAT", "text or json", "text json"),
    CLI_STRING(0, "timeout", &cli_g.timeout_str, "SEC", "per-request timeout in seconds"),
    CLI_STRING(0, "retries", &cli_g.retries_str, "N", "retries for idempotent requests"),
    CLI_STRING(0, "deadline", &cli_g.deadline_str, "SEC",
               "the whole run ends by then, cleaned up, exit 4 (3600; 0 = none)"),
    CLI_STRING(0, "cacert", &cli_g.cacert, "FILE", "CA certificates to verify the server"),
    CLI_STRING(0, "cert", &cli_g.cert, "FILE", "client certificate"),
    CLI_STRING(0, "key", &cli_g.key, "FILE", "client private key"),
    CLI_FLAG(0, "insecure", &cli_g.insecure, "do not verify TLS certificates"),
    CLI_FLAG(0, "compressed", &cli_g.compressed,
             "ask the REST gateway to compress its answers (gzip)"),
    CLI_STRING(0, "user", &cli_g.user, "NAME",
               "basic-auth user (password from HBTAB_PASSWORD or ~/.netrc)"),
    CLI_FLAG(0, "negotiate", &cli_g.negotiate, "Kerberos SPNEGO authentication"),
    CLI_STRING(0, "hbase-shell", &cli_g.hbase_shell, "CMD",
               "hbase shell command (default 'hbase shell -n')"),
    CLI_FLAG('q', "quiet", &cli_g.quiet, "print findings and errors only"),
    CLI_FLAG('v', "verbose", &cli_g.verbose, "trace requests on stderr"),
    CLI_FLAG(0, "no-progress", &cli_g.no_progress, "no progress indicator"),
    CLI_CHOICE(0, "color", &cli_g.color_str, "WHEN", "auto, always or never", "auto always never"),
    CLI_FLAG('h', "help", &cli_g.help, "show this help"),
    CLI_FLAG('V', "version", &cli_g.version, "print the version"),
    CLI_END,
};

void cli_strlist_release(struct cli_strlist *l)
{
	free(l->items);
	l->items = NULL;
	l->n = l->cap = 0;
}

static int strlist_push(struct cli_strlist *l, const char *s)
{
	if (HB_VEC_GROW(l->items, l->cap, l->n + 1, 8))
		return HB_ENOMEM;
	l->items[l->n++] = s;
	return 0;
}

/* Both tables, in order: the command's own, then the global one. */
static const struct cli_option *const *tables(const struct cli_option *opts)
{
	static const struct cli_option *t[3];

	t[0] = opts;
	t[1] = global_opts;
	t[2] = NULL;
	return t;
}

static const struct cli_option *find_long(const struct cli_option *opts, const char *name,
                                          size_t len)
{
	const struct cli_option *const *t;
	const struct cli_option *o;

	for (t = tables(opts); *t; t++)
		for (o = *t; o->type != CLI_OPT_END; o++)
			if (o->long_name && strlen(o->long_name) == len &&
			    !strncmp(o->long_name, name, len))
				return o;
	return NULL;
}

static const struct cli_option *find_short(const struct cli_option *opts, char c)
{
	const struct cli_option *const *t;
	const struct cli_option *o;

	for (t = tables(opts); *t; t++)
		for (o = *t; o->type != CLI_OPT_END; o++)
			if (o->short_name == c)
				return o;
	return NULL;
}

static void print_usage_lines(FILE *f, const char *usage)
{
	const char *p = usage;
	int first = 1;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		fprintf(f, "%s hbtab %.*s\n", first ? "usage:" : "   or:", (int)len, p);
		first = 0;
		p += len + (nl ? 1 : 0);
	}
}

static void print_help(const struct cli_option *opts, const char *usage)
{
	const struct cli_option *const *t;
	const struct cli_option *o;

	print_usage_lines(stdout, usage);
	for (t = tables(opts); *t; t++) {
		for (o = *t; o->type != CLI_OPT_END; o++) {
			char lhs[96];

			if (o->flags & CLI_OPT_HIDDEN)
				continue;
			if (o->type == CLI_OPT_GROUP) {
				printf("\n%s\n", o->help);
				continue;
			}
			if (o->short_name && o->long_name)
				snprintf(lhs, sizeof(lhs), "-%c, --%s", o->short_name,
				         o->long_name);
			else if (o->long_name)
				snprintf(lhs, sizeof(lhs), "    --%s", o->long_name);
			else
				snprintf(lhs, sizeof(lhs), "-%c", o->short_name);
			if (o->argname) {
				size_t l = strlen(lhs);

				snprintf(lhs + l, sizeof(lhs) - l, " %s", o->argname);
			}
			if (strlen(lhs) >= 26) /* at least one space before the help */
				printf("    %s\n%30s%s\n", lhs, "", o->help);
			else
				printf("    %-26s%s\n", lhs, o->help);
		}
	}
}

/* The zone names of the tz database, space-separated, as completion's choices: tzdata.zi's
 * zones (Z NAME) and links (L TARGET NAME), plus UTC. Nothing when it cannot be read. */
static void print_zones(void)
{
	const char *dir = getenv("TZDIR");
	char path[4096], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tzdata.zi", dir && *dir ? dir : "/usr/share/zoneinfo");
	fputs("UTC", stdout);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line, *w[3];
		size_t len[3];
		int n;

		if (line[0] != 'Z' && line[0] != 'L')
			continue;
		for (n = 0; n < 3; n++) {
			p += strspn(p, " \t\n");
			w[n] = p;
			len[n] = strcspn(p, " \t\n");
			p += len[n];
		}
		n = line[0] == 'Z' ? 1 : 2; /* the name: a zone's second word, a link's third */
		if (len[n])
			printf(" %.*s", (int)len[n], w[n]);
	}
	fclose(f);
}

/* Completion listing: one option per line: "--name", its argument name (empty for a flag), its
 * choices, its short form ("-o") or nothing, and "*" when it may repeat, separated by tabs. */
static void print_completion(const struct cli_option *opts)
{
	const struct cli_option *const *t;
	const struct cli_option *o;

	for (t = tables(opts); *t; t++)
		for (o = *t; o->type != CLI_OPT_END; o++) {
			if (!o->long_name || (o->flags & CLI_OPT_HIDDEN))
				continue;
			printf("--%s\t%s\t%s", o->long_name,
			       o->type == CLI_OPT_FLAG ? "" : (o->argname ? o->argname : "ARG"),
			       o->choices ? o->choices : "");
			if (o->flags & CLI_OPT_ZONE)
				print_zones();
			putchar('\t');
			if (o->short_name)
				printf("-%c", o->short_name);
			printf("\t%s\n", o->type == CLI_OPT_LIST ? "*" : "");
		}
}

/* The command whose options are being parsed (cli_parse), or NULL. */
static const struct cli_command *parsing;

static int set_value(const char *cmd, const struct cli_option *o, const char *val)
{
	switch (o->type) {
	case CLI_OPT_FLAG:
		*(int *)o->value = 1;
		return 0;
	case CLI_OPT_STRING:
		if (o->choices && !(o->flags & CLI_OPT_SUGGEST)) {
			const char *p = o->choices;
			size_t vl = strlen(val);
			int ok = 0;

			while (*p) {
				const char *sp = strchr(p, ' ');
				size_t l = sp ? (size_t)(sp - p) : strlen(p);

				if (l == vl && !strncmp(p, val, l))
					ok = 1;
				p += l + (sp ? 1 : 0);
			}
			if (!ok && o->value == (void *)&cli_g.output_str && parsing &&
			    (parsing->flags & CLI_CMD_OUTPUT_FILE)) {
				/* "-o FILE.html": the command writes a file, its name given so */
				cli_g.output_file = val;
				return 0;
			}
			if (!ok)
				return cli_usage_error(cmd,
				                       "invalid value '%s' for --%s (expected %s)",
				                       val, o->long_name, o->choices);
		}
		*(const char **)o->value = val;
		return 0;
	case CLI_OPT_LIST:
		if (strlist_push(o->value, val))
			return cli_usage_error(cmd, "out of memory");
		return 0;
	default:
		HB_BUG("option without a value type");
	}
}

/* The option loop. With leading set, stops at the first positional argument and returns its
 * index; otherwise compacts positionals into argv[1..] and returns their count + 1. */
static int parse_loop(int argc, char **argv, const struct cli_option *opts, int leading)
{
	const char *cmd = leading ? NULL : argv[0];
	int i, out = 1, only_args = 0;

	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		const struct cli_option *o;

		if (only_args || a[0] != '-' || !a[1]) {
			if (leading)
				return i;
			argv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			if (leading)
				return i + 1;
			only_args = 1;
			continue;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);

			o = find_long(opts, name, len);
			if (!o || o->type == CLI_OPT_GROUP)
				return cli_usage_error(cmd, "unknown option '--%.*s'", (int)len,
				                       name);
			if (o->type == CLI_OPT_FLAG) {
				if (eq)
					return cli_usage_error(cmd, "option '--%s' takes no value",
					                       o->long_name);
				set_value(cmd, o, NULL);
			} else if (eq) {
				if (set_value(cmd, o, eq + 1))
					return HB_EINVAL;
			} else {
				if (i + 1 >= argc)
					return cli_usage_error(cmd,
					                       "option '--%s' needs a value (%s)",
					                       o->long_name, o->argname);
				if (set_value(cmd, o, argv[++i]))
					return HB_EINVAL;
			}
			continue;
		}
		/* Short options, possibly bundled: -qv, -ojson, -o json. */
		for (const char *p = a + 1; *p; p++) {
			o = find_short(opts, *p);
			if (!o)
				return cli_usage_error(cmd, "unknown option '-%c'", *p);
			if (o->type == CLI_OPT_FLAG) {
				set_value(cmd, o, NULL);
				continue;
			}
			if (p[1]) {
				if (set_value(cmd, o, p + 1))
					return HB_EINVAL;
			} else {
				if (i + 1 >= argc)
					return cli_usage_error(
					    cmd, "option '-%c' needs a value (%s)", *p, o->argname);
				if (set_value(cmd, o, argv[++i]))
					return HB_EINVAL;
			}
			break;
		}
	}
	if (leading)
		return argc;
	argv[out] = NULL;
	return out;
}

int cli_parse_leading_globals(int argc, char **argv)
{
	static const struct cli_option none[] = {CLI_END};

	return parse_loop(argc, argv, none, 1);
}

int cli_parse(int argc, char **argv, const struct cli_command *cmd)
{
	static const struct cli_option none[] = {CLI_END};
	int rc;

	parsing = cmd;
	rc = parse_loop(argc, argv, cmd->opts ? cmd->opts : none, 0);
	parsing = NULL;
	return rc;
}

void cli_print_help(const struct cli_command *cmd)
{
	static const struct cli_option none[] = {CLI_END};

	print_help(cmd->opts ? cmd->opts : none, cmd->usage);
}

void cli_print_completion(const struct cli_command *cmd)
{
	static const struct cli_option none[] = {CLI_END};

	print_completion(cmd->opts ? cmd->opts : none);
}

/* Exposed for "hbtab --help" and "hbtab help". */
void cli_print_global_help(void)
{
	static const struct cli_option none[] = {CLI_END};

	print_help(none, "[GLOBAL OPTIONS] COMMAND [ARGS]");
}
