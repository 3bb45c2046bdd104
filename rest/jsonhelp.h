/* What the JSON decoders of the REST resources share (rest/jsonhelp.c). */
#ifndef HB_REST_JSONHELP_H
#define HB_REST_JSONHELP_H

#include "core/hb.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <string.h>

/* For a body mapped from its spool file, read up to upto: gives back the pages from *next to
 * upto's page once they are a few MiB, moving *next on (nothing when *next is NULL). */
void hb_rest_drop_behind(const char **next, const char *upto);

/* HB_ESERVER "malformed response from WHAT: ...", with the caller's err and what in scope. */
#define HB_BAD(...) hb_error_malformed(err, what, __VA_ARGS__)

/* The C string s as hb_json_shown gives it, into the array buf. */
#define HB_SHOWN(buf, s) hb_json_shown(buf, sizeof(buf), s, strlen(s))

/*
 * A body mapped from its spool file (hb_rest_resp_body) is read pass by pass from its start to
 * its end; what a pass has left behind is given back in steps (the pages are read again from
 * the file if touched later), so that a body of hundreds of MB never stays resident whole.
 * *next is the first byte not given back yet (page-aligned), NULL for a body in memory.
 */
/* Measured on a million-region /T/regions answer (about 200 MB): 4 MiB steps kept the least
 * of it resident (peak RSS 87 MB); 1 MiB steps kept more (103 MB), and so did 8 MiB (87 MB)
 * and 16 MiB (94 MB). */
#define HB_DROP_STEP ((size_t)4 << 20)

/* For the JSON decoders: server text shown in a message, the text checks, a cJSON document
 * and its members, the drop point of a pass that starts again. */
const char *hb_json_shown(char *buf, size_t cap, const char *s, size_t n);
int hb_json_oom(struct hb_error *err);
const char *hb_json_drop_from(const char *next, const char *p);
int hb_json_check_text(const char *json, size_t len, int allow_nul, const char *what,
                       struct hb_error *err, int mapped);
cJSON *hb_json_parse(const char *json, size_t len, const char *what, struct hb_error *err);
cJSON *hb_json_parse_object(const char *json, size_t len, const char *what, struct hb_error *err);
int hb_json_get_str(const cJSON *obj, const char *key, const char **out, const char *ctx,
                    const char *what, struct hb_error *err);
const cJSON *hb_json_get_array(const cJSON *obj, const char *key, int required, const char *ctx,
                               const char *what, struct hb_error *err, int *rc);

#endif
