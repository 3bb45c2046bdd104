/* hbtab's entry point: the command table and the one prologue every command runs through. */
#include "../core/tname.h"
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "config.h"
#include "exit.h"
#include "output.h"
#include "progress.h"
#include "rest_cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef HB_VERSION
#define HB_VERSION "0.0.0"
#endif

static const struct cli_command cmd_help, cmd_complete, cmd_complete_table;

const struct cli_command *const cli_commands[] = {
    &cli_cmd_splits,
    &cli_cmd_create,
    &cli_cmd_regions,
    &cli_cmd_audit,
    &cli_cmd_simulate,
    &cli_cmd_rotate,
    &cli_cmd_meta,
    &cli_cmd_status,
    &cli_cmd_tables,
    &cli_cmd_describe,
    &cli_cmd_drop,
    &cli_cmd_snapshot,
    &cli_cmd_enable,
    &cli_cmd_disable,
    &cli_cmd_truncate,
    &cli_cmd_repair,
    &cli_cmd_reshape,
    &cli_cmd_advise,
    &cli_cmd_report,
    &cmd_help,
    &cmd_complete,
    &cmd_complete_table,
    NULL,
};

const struct cli_command *cli_find_command(const char *name)
{
	const struct cli_command *const *c;

	for (c = cli_commands; *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

static void print_main_help(void)
{
	const struct cli_command *const *c;

	cli_print_global_help();
	puts("\nCommands");
	for (c = cli_commands; *c; c++)
		if ((*c)->summary)
			printf("    %-26s%s\n", (*c)->name, (*c)->summary);
	puts("\nRun 'hbtab COMMAND --help' or 'man hbtab-COMMAND' for a command's options.");
}

static int help_run(struct cli_ctx *x)
{
	const struct cli_command *c;

	if (x->argc < 2) {
		print_main_help();
		return CLI_EXIT_OK;
	}
	c = cli_find_command(x->argv[1]);
	if (!c || !c->summary) {
		cli_usage_error(NULL, "unknown command '%s'", x->argv[1]);
		return CLI_EXIT_USAGE;
	}
	cli_print_help(c);
	return CLI_EXIT_OK;
}

static const struct cli_command cmd_help = {
    .name = "help",
    .summary = "show help for a command",
    .usage = "help [COMMAND]",
    .args = "COMMAND",
    .max_args = 1,
    .flags = CLI_CMD_NOCONFIG,
    .run = help_run,
};

static void print_command_names(void)
{
	const struct cli_command *const *c;

	for (c = cli_commands; *c; c++)
		if ((*c)->summary)
			puts((*c)->name);
}

/*
 * What the completion scripts (completions/) ask:
 * hbtab __complete       -> command names, one per line
 * hbtab __complete CMD   -> CMD's options, global ones included, one per line:
 *                           "--name<TAB>ARG<TAB>choices<TAB>-x<TAB>*" (ARG empty for a flag,
 *                           choices space-separated, "*" when the option may repeat), then the
 *                           words CMD's first argument can be (meta's subcommands, help's
 *                           command names), one per line, without a leading '-'.
 * "help" is the command to ask for the global options alone.
 */
static int complete_run(struct cli_ctx *x)
{
	const struct cli_command *const *s;
	const struct cli_command *one;

	if (x->argc < 2) {
		print_command_names();
		return CLI_EXIT_OK;
	}
	one = cli_find_command(x->argv[1]);
	if (!one || !one->summary)
		return CLI_EXIT_OK;
	cli_print_completion(one);
	if (one == &cmd_help)
		print_command_names();
	for (s = one->subs; s && *s; s++)
		puts((*s)->name);
	return CLI_EXIT_OK;
}

static const struct cli_command cmd_complete = {
    .name = "__complete",
    .usage = "__complete [COMMAND]",
    .max_args = -1,
    .flags = CLI_CMD_NOCONFIG,
    .run = complete_run,
};

/* Commands whose next argument names a table that exists (not create's new one). */
static int takes_existing_table(const struct cli_command *c)
{
	return (c->flags & CLI_CMD_TABLE) && strcmp(c->name, "create");
}

/*
 * hbtab __complete-table -- WORD...: the table names the gateway lists, one per line, when
 * the words typed so far (everything after "hbtab" up to the word being completed) put the
 * cursor where a command takes an existing table: regions, audit, describe, drop, and meta
 * get/set after its subcommand. The gateway is asked only when --rest or --profile is on the
 * line or HBTAB_REST/HBTAB_PROFILE is set (never a default localhost by surprise), with a
 * 2 s timeout, no retries and a 5 s deadline. Silent on any error: a completion never shows
 * one.
 */
static int complete_table_run(struct cli_ctx *x)
{
	const struct cli_command *c, *sub = NULL;
	struct hb_rest *rest = NULL;
	struct hb_error err = {0};
	struct hb_names names;
	char **w;
	int n = x->argc - 1, first, npos, devnull;
	size_t i;

	devnull = open("/dev/null", O_WRONLY);
	if (devnull >= 0) {
		dup2(devnull, STDERR_FILENO);
		close(devnull);
	}
	if (n < 1)
		return CLI_EXIT_OK;
	/* parse_loop reads argv[1..]: a copy with a placeholder for argv[0] */
	w = calloc((size_t)n + 2, sizeof(*w));
	if (!w)
		return CLI_EXIT_OK;
	w[0] = "hbtab";
	memcpy(w + 1, x->argv + 1, (size_t)n * sizeof(*w));
	first = cli_parse_leading_globals(n + 1, w);
	if (first < 1 || first > n || !(c = cli_find_command(w[first])) || !c->summary) {
		free(w);
		return CLI_EXIT_OK;
	}
	npos = cli_parse(n + 1 - first, w + first, c) - 1;
	if (c->subs && npos >= 1) {
		const struct cli_command *const *s;

		for (s = c->subs; *s; s++)
			if (!strcmp((*s)->name, w[first + 1]))
				sub = *s;
		npos--;
	}
	free(w);
	if (npos != 0 || (c->subs ? !sub || !takes_existing_table(sub) : !takes_existing_table(c)))
		return CLI_EXIT_OK;
	if (!cli_g.rest_url && !cli_g.profile && !getenv("HBTAB_REST") && !getenv("HBTAB_PROFILE"))
		return CLI_EXIT_OK;
	if (cli_config_resolve(c->name))
		return CLI_EXIT_OK;
	cli_g.timeout = 2;
	cli_g.retries = 0;
	cli_g.verbose = 0;
	cli_deadline_arm(5);
	hb_names_init(&names);
	if (!cli_rest_open(&rest, &err) && !hb_rest_list_tables(rest, &names, &err))
		for (i = 0; i < names.n; i++)
			puts(names.v[i]);
	hb_names_release(&names);
	hb_rest_free(rest);
	return CLI_EXIT_OK;
}

static const struct cli_command cmd_complete_table = {
    .name = "__complete-table",
    .usage = "__complete-table -- WORD...",
    .max_args = -1,
    .flags = CLI_CMD_NOCONFIG,
    .run = complete_table_run,
};

/* The name of positional argument i (1-based) from the descriptor's args, for messages. */
static void arg_name(const struct cli_command *c, int i, char *out, size_t size)
{
	const char *p = c->args ? c->args : "";
	size_t len;

	while (--i > 0 && *p) {
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	len = strcspn(p, " ");
	snprintf(out, size, "%.*s", (int)(len ? len : 8), len ? p : "ARGUMENT");
}

/* Argument count, table name and system-table refusal: the checks every command shares. */
static int check_args(const struct cli_command *c, struct cli_ctx *x)
{
	char name[64];
	struct hb_tname tn;

	if (x->argc - 1 < c->min_args) {
		arg_name(c, x->argc, name, sizeof(name));
		cli_usage_error(x->cmd->name, "missing %s", name);
		return CLI_EXIT_USAGE;
	}
	if (c->max_args >= 0 && x->argc - 1 > c->max_args) {
		cli_usage_error(x->cmd->name, "unexpected argument '%s'", x->argv[c->max_args + 1]);
		return CLI_EXIT_USAGE;
	}
	if (!(c->flags & CLI_CMD_TABLE) || x->argc < 2)
		return CLI_EXIT_OK;
	x->table = x->argv[1];
	if (cli_check_table(x->cmd->name, x->table))
		return CLI_EXIT_USAGE;
	hb_tname_parse(&tn, x->table, NULL);
	if ((c->flags & CLI_CMD_WRITES) && tn.ns_len == 5 && !memcmp(tn.ns, "hbase", 5)) {
		cli_error("refusing to run '%s%s%s' on system table '%s': the 'hbase' namespace "
		          "holds HBase's system tables",
		          x->cmd->name, c != x->cmd ? " " : "", c != x->cmd ? c->name : "",
		          x->table);
		return CLI_EXIT_REFUSED;
	}
	return CLI_EXIT_OK;
}

/*
 * Every file option of the command (CLI_OPT_INFILE) names something that exists and can be
 * read. Only stat and access: opening a FIFO would count as its reader (a writer waiting on
 * it would then write to nobody), and the command reads it later anyway.
 */
static int check_input_files(const struct cli_command *c)
{
	const struct cli_option *o;
	struct stat st;

	for (o = c->opts; o && o->type != CLI_OPT_END; o++) {
		const char *path;

		if (!(o->flags & CLI_OPT_INFILE) || !(path = *(const char *const *)o->value))
			continue;
		if (!strcmp(path, "-"))
			continue;
		if (stat(path, &st) || access(path, R_OK)) {
			cli_usage_error(c->name, "cannot read --%s '%s': %s", o->long_name, path,
			                strerror(errno));
			return CLI_EXIT_USAGE;
		}
		if (S_ISDIR(st.st_mode)) {
			cli_usage_error(c->name, "cannot read --%s '%s': %s", o->long_name, path,
			                strerror(EISDIR));
			return CLI_EXIT_USAGE;
		}
	}
	return CLI_EXIT_OK;
}

/* Picks the subcommand named by argv[1] and shifts it into argv[0]. */
static const struct cli_command *pick_sub(const struct cli_command *c, struct cli_ctx *x)
{
	const struct cli_command *const *s;
	struct hb_buf names = HB_BUF_INIT;

	for (s = c->subs; *s; s++)
		if (x->argc >= 2 && !strcmp((*s)->name, x->argv[1])) {
			x->argv++;
			x->argc--;
			return *s;
		}
	for (s = c->subs; *s; s++)
		hb_buf_addf(&names, "%s'%s'", s == c->subs ? "" : s[1] ? ", " : " or ", (*s)->name);
	if (x->argc < 2)
		cli_usage_error(c->name, "missing %s", hb_buf_str(&names));
	else
		cli_usage_error(c->name, "unknown %s subcommand '%s' (expected %s)", c->name,
		                x->argv[1], hb_buf_str(&names));
	hb_buf_release(&names);
	return NULL;
}

static int run_command(const struct cli_command *c, int argc, char **argv)
{
	struct cli_ctx x;
	struct hb_error err = {0};
	int st;

	memset(&x, 0, sizeof(x));
	x.cmd = c;
	x.argc = cli_parse(argc, argv, c);
	x.argv = argv;
	if (x.argc < 0)
		return CLI_EXIT_USAGE;
	if (cli_g.help) {
		cli_print_help(c);
		return CLI_EXIT_OK;
	}
	/* Global options may follow the command word: -V there is what it is before it. */
	if (cli_g.version) {
		printf("hbtab %s\n", HB_VERSION);
		return CLI_EXIT_OK;
	}
	if (!(c->flags & CLI_CMD_NOCONFIG) && cli_config_resolve(c->name))
		return CLI_EXIT_USAGE;
	if (!(c->flags & CLI_CMD_NOCONFIG) && cli_deadline_arm(cli_g.deadline)) {
		cli_error("cannot arm the --deadline timer: %s", strerror(errno));
		return CLI_EXIT_USAGE;
	}
	if (c->subs && !(c = pick_sub(c, &x)))
		return CLI_EXIT_USAGE;
	st = check_args(c, &x);
	if (!st)
		st = check_input_files(x.cmd);
	if (!st && c->check)
		st = c->check(&x);
	if (!st && (c->flags & CLI_CMD_HBASE) && !x.offline && cli_rest_open(&x.rest, &err))
		st = cli_fail(&err);
	if (!st)
		st = c->run(&x);
	if (c->release)
		c->release();
	hb_rest_free(x.rest);
	return st;
}

static int run(int argc, char **argv)
{
	const struct cli_command *c;
	int first;

	first = cli_parse_leading_globals(argc, argv);
	if (first < 0)
		return CLI_EXIT_USAGE;
	if (cli_g.version) {
		printf("hbtab %s\n", HB_VERSION);
		return CLI_EXIT_OK;
	}
	if (first >= argc) {
		if (cli_g.help) {
			print_main_help();
			return CLI_EXIT_OK;
		}
		cli_usage_error(NULL, "no command given");
		return CLI_EXIT_USAGE;
	}
	c = cli_find_command(argv[first]);
	if (!c) {
		cli_usage_error(NULL, "unknown command '%s'", argv[first]);
		return CLI_EXIT_USAGE;
	}
	return run_command(c, argc - first, argv + first);
}

/*
 * Opens a file on any of fds 0-2 that is closed, so no file or socket opened later can become
 * standard output or error: /dev/null for 0 and 2, /dev/full for 1 so that a write to the
 * closed standard output still fails (reported as the closed descriptor it was).
 */
static void std_fds_valid(void)
{
	int fd;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) != -1)
			continue;
		got = fd == STDOUT_FILENO ? open("/dev/full", O_WRONLY) : -1;
		if (got < 0)
			got = open("/dev/null", O_RDWR);
		if (got >= 0 && got != fd) { /* a lower fd was closed too and is filled later */
			dup2(got, fd);
			close(got);
		}
		if (fd == STDOUT_FILENO)
			cli_stdout_closed = 1;
	}
}

/* Whether errors go to stdout as JSON too: -o json, HBTAB_OUTPUT=json (configuration may not
 * have been read when the error happened), unless --format prometheus replaced it. */
static int json_errors(void)
{
	const char *o = cli_g.output_str ? cli_g.output_str : getenv("HBTAB_OUTPUT");

	if (cli_g.output == CLI_OUT_PROM) /* --format prometheus: stdout is for the exposition */
		return 0;
	return cli_g.output == CLI_OUT_JSON || (o && !strcmp(o, "json"));
}

/* Under -o json a failure that printed no document prints {"error": msg, "exit": status}. */
static int finish(int st)
{
	struct hb_buf b = HB_BUF_INIT;

	if (st != CLI_EXIT_OK && st != CLI_EXIT_FINDINGS && !cli_stdout_used &&
	    !cli_stdout_failed && json_errors()) {
		const char *msg = cli_first_error();

		if (!hb_buf_adds(&b, "{\"error\": ") && !cli_json_str(&b, msg, strlen(msg)) &&
		    !hb_buf_addf(&b, ", \"exit\": %d}\n", st))
			cli_write_stdout(b.data, b.len);
		hb_buf_release(&b);
	}
	return cli_finish_stdout(st);
}

int main(int argc, char **argv)
{
	std_fds_valid();
	/* SIGINT, SIGTERM and SIGPIPE get a handler, not SIG_IGN, so the hbase shell channel's
	 * children start with the default dispositions (cli/signals.c). A closed pipe ends hbtab
	 * with CLI_EXIT_SIGPIPE whether the signal or the write's EPIPE reports it first. */
	cli_signals_install();
	cli_progress_install();
	return finish(run(argc, argv));
}
