/* The command-line frame: global settings, option tables, output helpers, the command table. */
#ifndef HB_CLI_H
#define HB_CLI_H

#include "../core/buf.h"
#include "../core/hb.h"

#include <stdio.h>

enum cli_output { CLI_OUT_TEXT, CLI_OUT_JSON };

/* Settings shared by every command. *_set fields record that a flag gave the value. */
struct cli_global {
	const char *rest_url;
	const char *thrift_url;
	const char *profile;
	const char *output_str;
	enum cli_output output;
	const char *timeout_str;
	double timeout; /* seconds */
	const char *retries_str;
	long retries;
	const char *cacert;
	const char *cert;
	const char *key;
	int insecure;
	const char *user;
	int negotiate;
	int quiet;
	int verbose;
	int no_progress;
	const char *color_str;
	int color; /* resolved: 1 use colour */
	int help;
	int version;
	const char *hbase_shell; /* command line for the shell channel */
	const char *config_path; /* the config file that was read, if any */
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

#define CLI_FLAG(s, l, v, h) { CLI_OPT_FLAG, (s), (l), (v), NULL, (h), NULL, 0 }
#define CLI_STRING(s, l, v, a, h) { CLI_OPT_STRING, (s), (l), (v), (a), (h), NULL, 0 }
#define CLI_CHOICE(s, l, v, a, h, c) { CLI_OPT_STRING, (s), (l), (v), (a), (h), (c), 0 }
#define CLI_LIST(s, l, v, a, h) { CLI_OPT_LIST, (s), (l), (v), (a), (h), NULL, 0 }
#define CLI_GROUP(h) { CLI_OPT_GROUP, 0, NULL, NULL, NULL, (h), NULL, 0 }
#define CLI_END { CLI_OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 }

struct cli_strlist {
	const char **items;
	size_t n;
	size_t cap;
};

void cli_strlist_release(struct cli_strlist *l);

/* What a command declares about itself; options are passed to cli_parse by the command. */
struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/*
 * Parses argv (argv[0] is the command name) against the command's option tables plus the
 * global options, compacting positional arguments into argv[1..]. Returns the new argc
 * (>= 1), or a negative value: CLI_PARSE_EXIT when --help / completion output was printed
 * (exit 0), HB_EINVAL after a usage error was printed (exit 2).
 * usage: the synopsis lines, '\n'-separated, without the leading "hbtab ".
 */
#define CLI_PARSE_EXIT (-100)
int cli_parse(int argc, char **argv, const struct cli_option *opts, const char *usage);

/* Parses global options before the command word; returns the index of the command word
 * (argc when there is none) or HB_EINVAL after printing a usage error. */
int cli_parse_leading_globals(int argc, char **argv);
/* Prints the global options' help. */
void cli_print_global_help(void);

/* Prints "hbtab: <msg>" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints a usage error plus "see 'hbtab CMD --help'" and returns HB_EINVAL. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints err's message and returns the exit status for its code. */
int cli_fail(const struct hb_error *err);
/* Maps a command's return code (0 or HB_E*) to an exit status. */
int cli_exit(int rc);
/* Prints a warning "hbtab: warning: ..." unless -q. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints to stderr when -v was given. */
void cli_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses a decimal integer in [min, max]; HB_EINVAL with err naming what. */
int cli_parse_long(const char *s, long min, long max, const char *what, long *out,
		   struct hb_error *err);

/* Writes all of buf to stdout; HB_EINVAL on a write error (message printed once). */
int cli_write_stdout(const void *p, size_t n);
/* Flushes stdout at exit: a write error not yet reported is reported once, and turns a
 * success status into 2. Returns the exit status to use. */
int cli_finish_stdout(int status);
/* Set once a write to stdout failed and was reported. */
extern int cli_stdout_failed;

/* The command table (main.c) for help and completion. */
extern const struct cli_command cli_commands[];
extern const size_t cli_ncommands;
const struct cli_command *cli_find_command(const char *name);

/* Set by main while running "__complete": cli_parse prints the option list and returns. */
extern int cli_complete_mode;

#endif
