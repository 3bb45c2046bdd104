/* JSON string literals as hbtab writes them (command output, the DDL's JSON plan). */
#ifndef HB_JSONSTR_H
#define HB_JSONSTR_H

#include "buf.h"
#include "hb.h"

/*
 * Appends s (n bytes) as a JSON string literal: '"' and '\\' escaped, C0 controls, DEL and
 * C1 controls (U+0080..U+009F) as \u00xx, valid UTF-8 kept as it is, any other byte as
 * \ufffd, so the document is valid JSON and safe on a terminal whatever s holds. HB_ENOMEM.
 */
int hb_json_str(struct hb_buf *out, const char *s, size_t n);
/* hb_json_str of the C string s. */
int hb_json_strz(struct hb_buf *out, const char *s);

#endif
