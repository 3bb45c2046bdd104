/* Between the HTTP client (http.c) and the REST resources (hbase.c): not for other callers. */
#ifndef HB_REST_REST_PRIV_H
#define HB_REST_REST_PRIV_H

#include "rest/hbase.h"
#include "rest/rest.h"

#include <stddef.h>

/* Passes scan progress to the callback set with hb_rest_set_progress, if any. */
void hb_rest_report_progress(struct hb_rest *c, size_t done, size_t total);
/* How many times a broken scan may be reopened (the --retries budget). */
long hb_rest_retry_budget(const struct hb_rest *c);

/* The decoders of rest/hbase.h for a body mapped from its spool file (hb_rest_resp_body with
 * spool set): the same results, with the pages read given back as the parser moves on. */
int hb_rest_decode_table_regions_mapped(const char *json, size_t len, const char *what,
                                        const char *table, struct hb_regions *out,
                                        struct hb_error *err);
int hb_rest_decode_cellset_mapped(const char *json, size_t len, const char *what,
                                  int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                                  void *ctx, struct hb_error *err);
/* ... and /status/cluster; without want_regions the nodes' regions are checked, not kept. */
int hb_rest_decode_status_mapped(const char *json, size_t len, const char *what,
                                 struct hb_cluster_status *out, int want_regions,
                                 struct hb_error *err);

#endif
