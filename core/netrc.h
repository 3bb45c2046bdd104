/*
 * The ~/.netrc format, as libcurl and ftp(1) read it: tokens separated by white space,
 * "machine HOST" or "default" opening an entry, then "login NAME", "password SECRET" and
 * "account X"; "macdef NAME" skips to the next empty line. A token may be double-quoted with
 * backslash escapes (libcurl 7.84 and later).
 */
#ifndef HB_CORE_NETRC_H
#define HB_CORE_NETRC_H

#include "buf.h"

#include <stddef.h>

/*
 * Looks up the entry for host (case-insensitive) whose login is login (any login when login
 * is NULL); a "default" entry matches every host, and only the first matching entry counts,
 * as in libcurl. On a match fills found_login (when not NULL) and password and returns 1;
 * returns 0 when no entry matches or the entry has no password, -1 when out of memory.
 */
int hb_netrc_lookup(const char *text, size_t len, const char *host, const char *login,
                    struct hb_buf *found_login, struct hb_buf *password);

#endif
