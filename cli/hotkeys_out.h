/* The hot regions' key prefixes (core/hotkeys.h) in audit --hotspots's text and JSON. */
#ifndef HB_CLI_HOTKEYS_OUT_H
#define HB_CLI_HOTKEYS_OUT_H

#include "../core/buf.h"
#include "../core/hotkeys.h"

/* ,"hot_keys":{...} (null when k is NULL) for the "hotspots" object; ks_canon the audit's key
 * space (used unless k's came from the recorded split specification). HB_ENOMEM. */
int cli_hot_keys_json(struct hb_buf *b, const struct hb_hot_keys *k, const char *ks_canon);
/* The text block: a heading naming the key space and one line per prefix, the first
 * CLI_HOT_KEYS_TEXT of them, then a blank line; nothing when k lists none. HB_ENOMEM. */
#define CLI_HOT_KEYS_TEXT 10
int cli_hot_keys_text(struct hb_buf *b, const struct hb_hot_keys *k, const char *ks_canon);

#endif
