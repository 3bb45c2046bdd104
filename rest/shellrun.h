/* The shell channel's process runner: temp files, argv splitting, spawn without /bin/sh. */
#ifndef HB_REST_SHELLRUN_H
#define HB_REST_SHELLRUN_H

#include "core/buf.h"
#include "core/hb.h"

#include <stddef.h>

/* Output kept per stream (the head; the rest is counted and dropped). */
#define HB_SHELL_MAX_OUTPUT (256 * 1024)

/* A NULL-terminated argv built from a command string. */
struct hb_argv {
	char **v;
	size_t n;
};

/*
 * Splits cmd into words: blanks separate; '...' is literal; "..." allows \" and \\; a
 * backslash outside quotes escapes the next character. No expansion of any kind.
 * HB_EINVAL for an unterminated quote or an empty command.
 */
int hb_argv_split(struct hb_argv *out, const char *cmd, struct hb_error *err);
/* Appends a copy of s. HB_ENOMEM. */
int hb_argv_push(struct hb_argv *a, const char *s);
void hb_argv_release(struct hb_argv *a);

/* 1 when name (argv[0]) is executable: a path with '/' as given, otherwise found on PATH. */
int hb_shell_command_found(const char *name);

/*
 * Creates a file with mkstemps from tmpl (e.g. "/tmp/hbtab-XXXXXX.rb", modified in place),
 * mode 0600, holding data. HB_EINVAL (message names the path) on failure; nothing is left
 * behind on failure. The file is registered with core/interrupt.h, so a signal removes it;
 * remove it with hb_shell_remove_temp.
 */
int hb_shell_write_temp(char *tmpl, size_t suffix_len, const void *data, size_t len,
                        struct hb_error *err);

/* Removes a file made by hb_shell_write_temp (and forgets it for the signal handler). */
void hb_shell_remove_temp(const char *path);

struct hb_shell_result {
	int exited;             /* 1 when the process exited normally */
	int status;             /* its exit status */
	int signal;             /* the signal that ended it, or 0 */
	int timed_out;          /* 1 when it was killed after the timeout */
	struct hb_buf out, err; /* captured, each at most HB_SHELL_MAX_OUTPUT bytes */
	size_t dropped;         /* bytes not kept */
	double seconds;         /* wall time */
};

void hb_shell_result_init(struct hb_shell_result *r);
void hb_shell_result_release(struct hb_shell_result *r);

/*
 * Runs argv (argv[0] looked up on PATH with posix_spawnp, never through /bin/sh) in its own
 * process group, and its own session where the C library can (no controlling terminal: a
 * shell that probes the terminal cannot be stopped by it), with stdin from /dev/null,
 * capturing stdout and stderr. After timeout seconds
 * the group gets SIGTERM, then SIGKILL 3 s later. The group is registered with
 * core/interrupt.h while the child runs, so a signal to hbtab ends it too. Returns 0 once the
 * process has ended (whatever its status: inspect res); HB_EINVAL when it could not be started (not
 * found, not executable), HB_ENOMEM.
 */
int hb_shell_run(const struct hb_argv *argv, double timeout, struct hb_shell_result *res,
                 struct hb_error *err);

/*
 * Writes script to a new 0600 file "hbtab-NAME-XXXXXX.rb" in hb_temp_dir() and runs the
 * shell command line command (split by hb_argv_split, the file's path appended) on it with
 * hb_shell_run; the file is removed afterwards. Returns as hb_shell_run; HB_EINVAL also for a
 * command that cannot be split or a file that cannot be written.
 */
int hb_shell_run_script(const char *command, const char *name, const void *script, size_t len,
                        double timeout, struct hb_shell_result *res, struct hb_error *err);

/* How a finished run of the shell ended, in the order it is judged: the shell's exit status
 * is only a hint (some releases exit 1 after a clean run, others 0 after an error). */
enum hb_shell_end {
	HB_SHELL_CLEAN = 0, /* no ERROR line, not killed, exit status 0 */
	HB_SHELL_ERROR,     /* an ERROR line (hb_shell_error_line): the command failed */
	HB_SHELL_TIMED_OUT, /* killed after its timeout (some shells never exit) */
	HB_SHELL_FAILED,    /* no ERROR line, but a non-zero exit status or a signal */
};

/*
 * Judges res. Unless it is clean, err gets "shell WHAT failed (Class, exit 1): message"
 * (HB_ESERVER), "shell WHAT timed out after N s and was killed ..." (HB_ENET) or "shell WHAT
 * failed (exit N): last line" (HB_ESERVER); what names the command ("create 't1'").
 */
enum hb_shell_end hb_shell_judge(const struct hb_shell_result *res, const char *what,
                                 double timeout, struct hb_error *err);

/*
 * Copies the first line of the captured output (stderr first, then stdout) that reports an
 * error into out (truncated, control bytes replaced): one that starts with "ERROR:" (older
 * shells) or "ERROR <Class>: " (2.4.0+, Shell.exception_handler), leading blanks or a failed
 * command's "Took N seconds" (padded or not) before it allowed; one that names a Java
 * exception ("Exception:"); or JRuby's own "Class: message" heading the frames of an
 * exception nothing rescued (2.0-2.3 with -n, which load the script unguarded). Returns 1 when
 * one was found, else 0.
 */
int hb_shell_error_line(const struct hb_shell_result *r, char *out, size_t cap);
/* Splits such a line into the exception class (*cls, *cls_len; NULL when the line has none)
 * and the message (*msg, a suffix of line without leading blanks). */
void hb_shell_error_parts(const char *line, const char **cls, size_t *cls_len, const char **msg);

/* Copies the last line of the captured output (stderr, else stdout) that is not noise (the
 * JVM's, log4j's and a terminal probe's chatter, stack frames, empty prompts, times) into
 * out. */
int hb_shell_last_line(const struct hb_shell_result *r, char *out, size_t cap);

#endif
