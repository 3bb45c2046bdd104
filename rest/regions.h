/* A table's regions as the REST gateway lists them (GET /T/regions). */
#ifndef HB_REST_REGIONS_H
#define HB_REST_REGIONS_H

#include "core/key.h"
#include "rest/rest.h"

#include <stddef.h>

/* Called with each region of a listing (r and its strings valid during the call only); a
 * non-zero return stops the listing with it. */
typedef int (*hb_region_fn)(void *ctx, const struct hb_region *r, struct hb_error *err);

/* GET /T/regions into an initialised list, sorted by start key. HB_ENOTFOUND when absent;
 * HB_ENOLOCATION for HTTP 500 (a region that never opened has no location). */
int hb_rest_get_regions(struct hb_rest *c, const char *table, struct hb_regions *out,
                        struct hb_error *err);
/* GET /T/regions handing each region to fn in the server's order, nothing kept (errors as
 * hb_rest_get_regions; regions before an error have been handed over). */
int hb_rest_regions_scan(struct hb_rest *c, const char *table, hb_region_fn fn, void *ctx,
                         struct hb_error *err);
/* Forgets every region handed on so far (a cut answer is read again from its start). */
typedef int (*hb_region_restart_fn)(void *ctx);
/* hb_rest_regions_scan decoding a protobuf answer as it arrives, with no copy of the body
 * kept: restart(ctx) is called before the first region of each attempt's answer. */
int hb_rest_regions_stream(struct hb_rest *c, const char *table, hb_region_fn fn,
                           hb_region_restart_fn restart, void *ctx, struct hb_error *err);

/* JSON decoders (pure; exposed for tests): see rest/jsonhelp.h for what and the messages. */
/* Appends the regions of a /T/regions body to out (not sorted); a refused body appends none. */
int hb_rest_decode_regions(const char *json, size_t len, const char *what, struct hb_regions *out,
                           struct hb_error *err);
/* hb_rest_decode_regions that also requires the body's top-level "name" to be table (a
 * "default:" prefix on either side aside); a body naming another table is HB_ESERVER. */
int hb_rest_decode_table_regions(const char *json, size_t len, const char *what, const char *table,
                                 struct hb_regions *out, struct hb_error *err);

/* hb_rest_decode_table_regions handing each region to fn (its strings valid during the call
 * only; a non-zero return stops the decoding with it) instead of keeping it; regions before
 * an error have been handed over. mapped: the body is mapped from its spool file
 * (hb_rest_resp_body with spool set) and the pages read are given back as the parser moves
 * on. */
int hb_rest_decode_table_regions_each(const char *json, size_t len, const char *what,
                                      const char *table, int mapped, hb_region_fn fn, void *ctx,
                                      struct hb_error *err);

/* A list being filled, and where it started. */
struct hb_region_list {
	struct hb_regions *rs;
	size_t n0;
};

/* Regions handed into a list (ctx: a struct hb_regions, or a struct hb_region_list that
 * forgets what a restart takes back), for rest/meta.c and rest/metalist.c. */
int hb_rest_region_push(void *ctx, const struct hb_region *r, struct hb_error *err);
int hb_region_list_push(void *ctx, const struct hb_region *r, struct hb_error *err);
int hb_region_list_restart(void *ctx);

#endif
