/* Common definitions for every hbtab layer: error codes, the error record, bug checks. */
#ifndef HB_HB_H
#define HB_HB_H

#include <stddef.h>
#include <stdint.h>

/*
 * Error codes. Functions that can fail return 0 or one of these (negative).
 * cli/ maps them to process exit statuses (cli_exit); the comments name the status.
 */
#define HB_OK          0
#define HB_EFINDING    -1 /* audit findings, verification mismatch: exit 1 */
#define HB_EINVAL      -2 /* usage or bad input (flags, keys, files): exit 2 */
#define HB_ENET        -3 /* network: connect, TLS, timeout: exit 3 */
#define HB_ESERVER     -4 /* server or API error: exit 4 */
#define HB_ESAFETY     -5 /* refused for safety: exit 5 */
#define HB_ENOMEM      -6 /* out of memory: exit 4 */
#define HB_ENOTFOUND   -7 /* a looked-up object does not exist: exit 4 unless handled */
#define HB_ENOLOCATION -8 /* a region has no location yet (REST /T/regions 500): exit 4 */

#define HB_ERRMSG_MAX 1024

struct hb_error {
	int code;
	char msg[HB_ERRMSG_MAX];
};

/* Records code and a printf-style message in err (which may be NULL); returns code. */
int hb_error_set(struct hb_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* HB_ESERVER with "malformed response from WHAT: <detail>": a server's answer that cannot be
 * read (the REST decoders, JSON and protobuf alike). */
int hb_error_malformed(struct hb_error *err, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends "prefix: " to an existing message in err (NULL-safe); returns err->code or code. */
int hb_error_prefix(struct hb_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* When text (a server's error: a Thrift2 TIOError message, a REST gateway's 403 body) holds
 * HBase's AccessDeniedException, writes into out (cap bytes) the plain sentence "permission
 * denied: HBase refused user 'U' the ACTION permission on SCOPE (...)", the user, action and
 * scope read from the AccessController's "Insufficient permissions" text, and returns 1;
 * returns 0 (out untouched) otherwise. */
int hb_error_denied(char *out, size_t cap, const char *text);

/* Aborts with file:line for a broken invariant (a bug, never bad input). */
#define HB_BUG(msg) hb_bug(__FILE__, __LINE__, (msg))
_Noreturn void hb_bug(const char *file, int line, const char *msg);

#define HB_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The plural ending for a count in a message: "%zu region%s", n, HB_PLURAL(n). */
#define HB_PLURAL(n) ((n) == 1 ? "" : "s")

#endif
