/* What the REST resource files share: one GET, the media types asked for, the answer checked. */
#ifndef HB_REST_RESOURCE_H
#define HB_REST_RESOURCE_H

#include "core/buf.h"
#include "core/hb.h"
#include "rest/rest.h"

#include <stddef.h>

#define HB_JSON_TYPE "application/json"

/* Decodes a fetched 200's body (hb_rest_resp_body; mapped from its spool file when r->map is
 * set) into out; what names the request ("GET PATH") in messages. */
typedef int (*hb_rest_body_decoder)(void *out, const struct hb_rest_resp *r, const char *what,
                                    struct hb_error *err);

/* For the resource files: the path of a table's resource, a header shown in a message, the GET
 * of a JSON or protobuf answer and its decoding, the media types, bytes a URL carries unchanged. */
int hb_rest_table_path(struct hb_buf *path, const char *table, const char *suffix,
                       struct hb_error *err);
const char *hb_rest_shown_header(struct hb_buf *b, const char *s);
int hb_rest_expect_json(const char *method, const char *path, const struct hb_rest_resp *r,
                        struct hb_error *err);
int hb_rest_get_json(struct hb_rest *c, const char *path, struct hb_rest_resp *r, char *what,
                     size_t what_cap, struct hb_error *err);
int hb_rest_get_protobuf(struct hb_rest *c, const char *path, struct hb_rest_resp *r, char *what,
                         size_t what_cap, struct hb_error *err);
int hb_rest_get_decoded(struct hb_rest *c, const char *path, const char *accept, int spool,
                        hb_rest_body_decoder decode, void *out, long *status, struct hb_error *err);
int hb_rest_is_type(const char *ct, const char *type);
int hb_rest_is_protobuf(const char *ct);
int hb_rest_pb_refused(const struct hb_rest_resp *r);
int hb_rest_url_safe(const void *p, size_t n);

#endif
