/* Output helpers: aligned text tables (tab-separated when piped) and JSON printing. */
#ifndef HB_CLI_OUTPUT_H
#define HB_CLI_OUTPUT_H

#include "../core/buf.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/*
 * A text table built column by column. On a terminal it is printed with a header line and
 * columns padded with two spaces; when stdout is not a terminal it is printed as plain
 * tab-separated lines without a header (stable for scripts: one row per line, fields in the
 * documented column order, tabs and newlines inside fields shown as \t and \n). No byte a
 * terminal would act on is printed raw: other C0 controls (ESC, NUL), DEL, C1 controls and bytes
 * of invalid UTF-8 are shown as toStringBinary's \xHH.
 */
struct cli_table {
	size_t ncols;
	const char **headers; /* borrowed */
	char **cells;         /* owned, row-major */
	size_t ncells, cap;
	size_t *width;
	int stream; /* cells go straight to stdout as tab-separated rows (cli_table_stream) */
};

/* Prepares a table with ncols columns named by headers (borrowed; must outlive the table). */
int cli_table_init(struct cli_table *t, size_t ncols, const char *const *headers);
void cli_table_release(struct cli_table *t);
/* Appends the next cell (copied; NULL prints as "-"), filling rows left to right. HB_ENOMEM. */
int cli_table_add(struct cli_table *t, const char *s);
/* Appends a printf-formatted cell. */
int cli_table_addf(struct cli_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints the table to stdout (see above). force_tsv = 1 prints tab-separated anyway. */
int cli_table_print(const struct cli_table *t, int force_tsv);
/* When stdout is not a terminal (the table would print tab-separated), cells added from now
 * on are written to stdout at once instead of being kept (cli_table_print then adds nothing):
 * the same bytes, without holding a listing of any length. For a table whose rows are all
 * known to print (nothing else goes to stdout until cli_table_print). */
void cli_table_stream(struct cli_table *t);

/* Prints a cJSON document to stdout followed by a newline (indented on a terminal,
 * compact otherwise) and frees nothing. Always valid UTF-8: invalid bytes in strings become
 * U+FFFD, DEL and C1 controls \u00XX escapes. HB_ENOMEM / HB_EINVAL (write error). */
int cli_json_print(const cJSON *root);
/* Appends s (n bytes, UTF-8 or not: invalid bytes become U+FFFD) as a JSON string literal;
 * all controls (C0, DEL, C1) are escaped. */
int cli_json_str(struct hb_buf *out, const char *s, size_t n);
/* cli_json_str of the C string s, or null for NULL. */
int cli_json_strz(struct hb_buf *out, const char *s);
/* The shortest decimal text that reads back as v exactly (0.0996575, not
 * 0.099657499999999996), written into out (at least CLI_NUM_MAX bytes), which it returns;
 * "null" for an infinity or NaN, which JSON cannot hold. */
#define CLI_NUM_MAX 32
const char *cli_num(char *out, double v);
/* cli_num into a buffer that lives until the end of the enclosing block. */
#define CLI_NUM(v) cli_num((char[CLI_NUM_MAX]){0}, (v))
/* cJSON helpers that tolerate NULL and report allocation failure through a NULL return. */
cJSON *cli_json_add_str(cJSON *obj, const char *key, const char *s); /* NULL s → null */
/* Adds a key as its toStringBinary string. */
cJSON *cli_json_add_tsb(cJSON *obj, const char *key, const void *k, size_t n);

/* Appends key k (n bytes) as the JSON string of its toStringBinary form (tmp is not used and
 * may be NULL). */
int cli_json_tsb(struct hb_buf *out, const void *k, size_t n, struct hb_buf *tmp);
/* For documents streamed in pieces: writes b to stdout and empties it once it holds 64 KiB,
 * or when force and b is not empty. 0 or the error of cli_write_stdout. */
int cli_stream_flush(struct hb_buf *b, int force);

/* Findings as every command writes them (core/audit.h). One finding as a JSON object
 * {"kind","region" (null for -1),"message"}, preceded by a comma unless first; msg is len
 * bytes, already the body of a JSON string when escaped. HB_ENOMEM. */
struct hb_findings;
int cli_json_finding(struct hb_buf *b, int first, const char *kind, long region, const char *msg,
                     size_t len, int escaped);
/* Appends "findings":[...] with every finding of f in order. HB_ENOMEM. */
int cli_json_findings(struct hb_buf *b, const struct hb_findings *f);
/* Appends the text line "KIND: MESSAGE" (the kind in red when colour is on). HB_ENOMEM. */
int cli_text_finding(struct hb_buf *b, const char *kind, const char *msg, size_t len);

/* Whether stdout is a terminal (cached). */
int cli_stdout_tty(void);

/* SGR sequences for cli_color. */
#define CLI_RED   "\033[31m"
#define CLI_GREEN "\033[32m"
#define CLI_RESET "\033[0m"
/* sgr when colour is on (--color, NO_COLOR; resolved with the configuration), else "". */
const char *cli_color(const char *sgr);

#endif
