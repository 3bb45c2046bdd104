/* Between the HTTP client (http.c) and the REST resources (hbase.c): not for other callers. */
#ifndef HB_REST_REST_PRIV_H
#define HB_REST_REST_PRIV_H

#include "rest/rest.h"

#include <stddef.h>

/* Passes scan progress to the callback set with hb_rest_set_progress, if any. */
void hb_rest_report_progress(struct hb_rest *c, size_t done, size_t total);
/* How many times a broken scan may be reopened (the --retries budget). */
long hb_rest_retry_budget(const struct hb_rest *c);

#endif
