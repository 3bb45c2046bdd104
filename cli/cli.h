/* The command-line frame: global settings, option tables, output helpers, the command table. */
#ifndef HB_CLI_H
#define HB_CLI_H

#include "../core/buf.h"
#include "../core/hb.h"

#include <stdint.h>
#include <stdio.h>

/* CLI_OUT_PROM: a command's --format prometheus (cli/prom.h) replaces its text or JSON. */
enum cli_output { CLI_OUT_TEXT, CLI_OUT_JSON, CLI_OUT_PROM };

/* Settings shared by every command. *_set fields record that a flag gave the value. */
struct cli_global {
	const char *rest_url;
	const char *thrift_url;
	const char *profile;
	const char *output_str;
	/* -o given a file name where the command takes one (CLI_CMD_OUTPUT_FILE), not a format */
	const char *output_file;
	enum cli_output output;
	const char *timeout_str;
	double timeout; /* seconds */
	const char *retries_str;
	long retries;
	const char *deadline_str;
	double deadline; /* seconds for the whole run, 0 = none */
	const char *cacert;
	const char *cert;
	const char *key;
	int insecure;
	const char *user;
	int negotiate;
	int quiet;
	int verbose;
	int no_progress;
	int compressed;
	const char *color_str;
	int color; /* resolved: 1 use colour */
	int help;
	int version;
	const char *hbase_shell;    /* command line for the shell channel */
	const char *known_unmarked; /* rotate: tables kept on purpose without a rotate mark,
	                             * separated by commas or blanks (profile, variable) */
	const char *config_path;    /* the config file that was read, if any */
};

extern struct cli_global cli_g;

enum cli_opt_type {
	CLI_OPT_END = 0,
	CLI_OPT_FLAG,   /* int *: set to 1 */
	CLI_OPT_STRING, /* const char **: last one wins */
	CLI_OPT_LIST,   /* struct cli_strlist *: repeatable */
	CLI_OPT_GROUP,  /* a heading in --help; no value */
};

#define CLI_OPT_HIDDEN 1
/* The value names a file the command reads ('-' = standard input): main checks that it exists
 * and is readable before anything is sent, so a typo is bad input (exit 2), not a failure
 * half-way through. */
#define CLI_OPT_INFILE 2
/* The choices are what completion offers, not all the option accepts ("partition" of
 * "partition:N"): they are not enforced. */
#define CLI_OPT_SUGGEST 4
/* Completion offers the tz database's zone names ($TZDIR or /usr/share/zoneinfo). */
#define CLI_OPT_ZONE 8

struct cli_option {
	enum cli_opt_type type;
	char short_name;
	const char *long_name;
	void *value;
	const char *argname; /* for STRING/LIST */
	const char *help;
	const char *choices; /* space-separated values offered by completion, or NULL */
	int flags;
};

#define CLI_FLAG(s, l, v, h)                                                                       \
	{                                                                                          \
		CLI_OPT_FLAG, (s), (l), (v), NULL, (h), NULL, 0                                    \
	}
#define CLI_STRING(s, l, v, a, h)                                                                  \
	{                                                                                          \
		CLI_OPT_STRING, (s), (l), (v), (a), (h), NULL, 0                                   \
	}
#define CLI_CHOICE(s, l, v, a, h, c)                                                               \
	{                                                                                          \
		CLI_OPT_STRING, (s), (l), (v), (a), (h), (c), 0                                    \
	}
#define CLI_SUGGEST(s, l, v, a, h, c)                                                              \
	{                                                                                          \
		CLI_OPT_STRING, (s), (l), (v), (a), (h), (c), CLI_OPT_SUGGEST                      \
	}
#define CLI_INFILE(s, l, v, h)                                                                     \
	{                                                                                          \
		CLI_OPT_STRING, (s), (l), (v), "FILE", (h), NULL, CLI_OPT_INFILE                   \
	}
#define CLI_LIST(s, l, v, a, h)                                                                    \
	{                                                                                          \
		CLI_OPT_LIST, (s), (l), (v), (a), (h), NULL, 0                                     \
	}
#define CLI_GROUP(h)                                                                               \
	{                                                                                          \
		CLI_OPT_GROUP, 0, NULL, NULL, NULL, (h), NULL, 0                                   \
	}
#define CLI_END                                                                                    \
	{                                                                                          \
		CLI_OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0                                    \
	}

struct cli_strlist {
	const char **items;
	size_t n;
	size_t cap;
};

void cli_strlist_release(struct cli_strlist *l);

struct hb_rest;
struct cli_command;

/* What main hands a command once the prologue is done. */
struct cli_ctx {
	const struct cli_command *cmd;
	int argc; /* positional arguments, argv[0] = the command's name (of a subcommand: its own)
	           */
	char **argv;
	const char *table;    /* argv[1] of a CLI_CMD_TABLE command, already checked; or NULL */
	struct hb_rest *rest; /* opened by main for CLI_CMD_HBASE unless check set offline */
	int offline;          /* set by a command's check: no connection needed this time */
};

/* Flags of a command. */
#define CLI_CMD_HBASE       0x01u /* talks to HBase: main opens the REST client before run */
#define CLI_CMD_TABLE       0x02u /* argv[1], when given, is a table name, checked before any request */
#define CLI_CMD_WRITES      0x04u /* changes the cluster: system tables (hbase:*) refused, exit 5 */
#define CLI_CMD_NOCONFIG    0x08u /* reads no configuration (help, completion) */
#define CLI_CMD_OUTPUT_FILE 0x10u /* -o also takes a file name: cli_g.output_file */

/*
 * A command as main runs it: parse (options anywhere, positionals compacted) → --help or
 * completion → configuration → argument count, table name, system-table refusal → check →
 * connect → run → release. check, run and release return/print nothing of the prologue.
 */
struct cli_command {
	const char *name;
	const char *summary; /* one line for 'hbtab --help'; NULL = not listed */
	const char *usage;   /* synopsis lines, '\n'-separated, without the leading "hbtab " */
	const struct cli_option *opts; /* the command's own options (globals are added) */
	const char *args;              /* the positional arguments' names, e.g. "TABLE N" */
	int min_args, max_args;        /* how many positionals after the name; max -1 = no limit */
	unsigned flags;                /* CLI_CMD_* */
	/* Offline checks of arguments and options after the generic ones; may set x->offline.
	 * Returns an exit status (CLI_EXIT_OK to go on). Optional. */
	int (*check)(struct cli_ctx *x);
	/* The command itself; returns its exit status. */
	int (*run)(struct cli_ctx *x);
	/* Frees what check and run kept. Optional. */
	void (*release)(void);
	/* Subcommands chosen by the first positional (meta get|set), NULL-terminated; the
	 * parent's options are parsed for them. */
	const struct cli_command *const *subs;
};

/*
 * Parses argv (argv[0] is the command name) against cmd's option table plus the global
 * options, compacting positional arguments into argv[1..]. Reads no configuration.
 * Returns the new argc (>= 1), or HB_EINVAL after a usage error was printed.
 */
int cli_parse(int argc, char **argv, const struct cli_command *cmd);
/* Prints cmd's usage and options (with the global options) to stdout. */
void cli_print_help(const struct cli_command *cmd);
/* Prints cmd's options for the completion scripts (see main.c). */
void cli_print_completion(const struct cli_command *cmd);

/* Parses global options before the command word; returns the index of the command word
 * (argc when there is none) or HB_EINVAL after printing a usage error. */
int cli_parse_leading_globals(int argc, char **argv);
/* Prints the global options' help. */
void cli_print_global_help(void);

/* Prints "hbtab: <msg>" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints a usage error plus "see 'hbtab CMD --help'" and returns HB_EINVAL. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* cli_usage_error that returns the exit status, CLI_EXIT_USAGE. */
int cli_usage_exit(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints err's message and returns the exit status for its code. */
int cli_fail(const struct hb_error *err);
/* Maps a command's return code (0 or HB_E*) to an exit status. */
int cli_exit(int rc);
/* A command's epilogue: for rc (0 or HB_E*) != 0, err's message printed ("out of memory" for
 * an HB_ENOMEM without one; none when err is empty, as after a failed write to stdout, which
 * was reported) and its exit status; for 0, CLI_EXIT_FINDINGS when findings > 0, else OK. */
int cli_status(int rc, struct hb_error *err, size_t findings);
/* Prints a warning "hbtab: warning: ..." unless -q. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints a warning "hbtab: warning: ..." even under -q: something was left behind that the
 * operator must act on (cron mails every line). */
void cli_warn_always(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints to stderr when -v was given. */
void cli_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses a decimal integer in [min, max]; HB_EINVAL with err naming what. */
int cli_parse_long(const char *s, long min, long max, const char *what, long *out,
                   struct hb_error *err);
/* Parses a decimal Java long (a seed, a time in ms); HB_EINVAL with err naming what. */
int cli_parse_i64(const char *s, const char *what, int64_t *out, struct hb_error *err);

/* Writes all of buf to stdout; HB_EINVAL on a write error (message printed once, none for
 * a closed pipe). */
int cli_write_stdout(const void *p, size_t n);
/* Flushes stdout at exit. Any failure to write stdout (closed pipe, full disk, closed fd)
 * makes the status CLI_EXIT_OUTPUT, whatever the command returned. */
int cli_finish_stdout(int status);

/* Installs the SIGINT/SIGTERM/SIGPIPE handlers (cli/signals.c); signals ignored at start
 * stay ignored. */
void cli_signals_install(void);
/* The whole run's deadline (--deadline, default CLI_DEFAULT_DEADLINE): once seconds have
 * passed, SIGALRM stops hbtab as SIGINT would (the open scanner deleted, temporary files and
 * child processes removed, locks released by the exit) with exit status 4 and a message.
 * 0 arms nothing. Returns 0 or -1 (setitimer failed). */
int cli_deadline_arm(double seconds);
#define CLI_DEFAULT_DEADLINE 3600.0
/* Retries of an idempotent request (--retries): with the back-off of rest/http.c (0.5 s
 * doubling to 5 s, half of it jittered) 8 retries wait at least 13.75 s in all, so a
 * gateway restart of about 10 s is ridden out; a cron run has nobody to rerun it. */
#define CLI_DEFAULT_RETRIES 8
/* Set once a write to stdout failed and was reported. */
extern int cli_stdout_failed;
/* Set when standard output was a closed descriptor at start (main.c). */
extern int cli_stdout_closed;
/* Set once cli_write_stdout wrote something. */
extern int cli_stdout_used;
/* The first error message printed by cli_error or cli_usage_error ("" if none). */
const char *cli_first_error(void);

/* The command table (main.c) for help and completion, NULL-terminated. */
extern const struct cli_command *const cli_commands[];
const struct cli_command *cli_find_command(const char *name);

#endif
