/* The cluster's resources: /version/rest, /version/cluster, /status/cluster. */
#ifndef HB_REST_STATUS_H
#define HB_REST_STATUS_H

#include "core/key.h"
#include "rest/rest.h"

#include <stddef.h>
#include <stdint.h>

/* GET /version/rest: every field is a malloc'ed string or NULL when the server left it out. */
struct hb_rest_version {
	char *rest, *jvm, *os, *server, *jersey;
};

/* Per-region load from /status/cluster (counters are 0 when the server did not send them). */
struct hb_region_load {
	unsigned char *name; /* full region name bytes (decoded from base64) */
	size_t name_len;
	int64_t read_requests, write_requests, cp_requests;
	int64_t stores, storefiles, storefile_size_mb, memstore_size_mb;
};

struct hb_node;
/* Called with each region load of a /status/cluster read and the node listing it (whose
 * fields are set, its regions not kept); a non-zero return stops the read with it. */
typedef int (*hb_region_load_fn)(void *ctx, const struct hb_node *node,
                                 const struct hb_region_load *l, struct hb_error *err);

/* A live region server with its regions. */
struct hb_node {
	char *name; /* "host:port" */
	int64_t start_code, requests;
	int64_t heap_mb, max_heap_mb;
	struct hb_region_load *regions;
	size_t nregions;
};

/* GET /status/cluster. dead[] holds "host,port,startcode" strings. */
struct hb_cluster_status {
	int64_t regions, requests;
	double average_load;
	struct hb_node *live;
	size_t nlive;
	char **dead;
	size_t ndead;
	/* node names of an answer that was cut and asked for again, kept while the status lives
	 * (a load callback may hold them) */
	char **stale;
	size_t nstale;
};

void hb_rest_version_release(struct hb_rest_version *v);
void hb_cluster_status_release(struct hb_cluster_status *s);

/* GET /version/rest. */
int hb_rest_get_version(struct hb_rest *c, struct hb_rest_version *out, struct hb_error *err);
/* GET /version/cluster: *out is a malloc'ed version string such as "2.5.8". */
int hb_rest_get_cluster_version(struct hb_rest *c, char **out, struct hb_error *err);
/* GET /status/cluster; release *out with hb_cluster_status_release. */
int hb_rest_get_status(struct hb_rest *c, struct hb_cluster_status *out, struct hb_error *err);
/* The same without the regions' loads (every node's regions empty): the live and dead nodes
 * at no memory cost per region. */
/* ... and with each region's load handed to fn as it is read (no region kept). An answer cut
 * part-way and asked for again hands its loads again from the first: fn keeps the last load
 * it is given for a region (node names it was given stay valid until *out is released). */
int hb_rest_get_status_each(struct hb_rest *c, struct hb_cluster_status *out, hb_region_load_fn fn,
                            void *ctx, struct hb_error *err);
int hb_rest_get_status_nodes(struct hb_rest *c, struct hb_cluster_status *out,
                             struct hb_error *err);

/* JSON decoders (pure; exposed for tests): see rest/jsonhelp.h for what and the messages. */
int hb_rest_decode_version(const char *json, size_t len, const char *what,
                           struct hb_rest_version *out, struct hb_error *err);
/* A bare JSON string ("2.5.8"); a plain-text body is accepted too. */
int hb_rest_decode_cluster_version(const char *json, size_t len, const char *what, char **out,
                                   struct hb_error *err);
int hb_rest_decode_status(const char *json, size_t len, const char *what,
                          struct hb_cluster_status *out, struct hb_error *err);

/* hb_rest_decode_status handing each region's load to fn (its name valid during the call
 * only) when fn is given; without want_regions the nodes' regions are checked, not kept;
 * mapped as for hb_rest_decode_table_regions_each (rest/regions.h), or not. */
int hb_rest_decode_status_each(const char *json, size_t len, const char *what,
                               struct hb_cluster_status *out, int want_regions, int mapped,
                               hb_region_load_fn fn, void *ctx, struct hb_error *err);

#endif
