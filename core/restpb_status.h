/* /status/cluster as protobuf: StorageClusterStatus (core/restpb_status.c). */
#ifndef HB_RESTPB_STATUS_H
#define HB_RESTPB_STATUS_H

#include "buf.h"
#include "hb.h"
#include "restpb.h"

#include <stddef.h>
#include <stdint.h>

/* A live node of a StorageClusterStatus: name ("host:port", no NUL) is a view into the body.
 * index counts the live nodes before it. */
struct hb_statuspb_node {
	const unsigned char *name;
	size_t name_len;
	int64_t start_code, requests, heap_mb, max_heap_mb;
	size_t index;
};

/* One Region of a node: the region name (bytes) is a view into the body. */
struct hb_statuspb_region {
	const unsigned char *name;
	size_t name_len;
	int64_t stores, storefiles, storefile_size_mb, memstore_size_mb;
	int64_t read_requests, write_requests;
};

/*
 * A cursor over a StorageClusterStatus message (GET /status/cluster as protobuf,
 * docs/hbase-wire.md §1.1): live nodes and dead node names in body order, each node's
 * regions read with hb_statuspb_next_region. The summary (regions, requests, averageLoad)
 * is in the reader once hb_statuspb_next has returned 0. pos is how far the body has been
 * read, for callers that give back the pages behind it.
 */
struct hb_statuspb_reader {
	const unsigned char *p;
	size_t n, pos;
	const char *what;
	const unsigned char *node; /* the current node message and how far its regions are read */
	size_t node_len, node_pos;
	size_t nodes, dead, node_regions; /* read so far */
	int64_t regions, requests;
	double average_load;
};

#define HB_STATUSPB_NODE 1
#define HB_STATUSPB_DEAD 2

/* Starts a reader over the n bytes at p (not copied: they must outlive the reader). */
void hb_statuspb_reader_init(struct hb_statuspb_reader *r, const void *p, size_t n,
                             const char *what);

/*
 * Reads the next live node into *node (HB_STATUSPB_NODE; its regions follow through
 * hb_statuspb_next_region) or dead node name into *dead, *dead_len (HB_STATUSPB_DEAD; no
 * NUL inside); 0 at the end of the message, HB_ESERVER ("malformed response from WHAT: ...").
 */
int hb_statuspb_next(struct hb_statuspb_reader *r, struct hb_statuspb_node *node,
                     const unsigned char **dead, size_t *dead_len, struct hb_error *err);

/* Reads the current node's next region: 1 for a region, 0 at the node's end, HB_ESERVER. */
int hb_statuspb_next_region(struct hb_statuspb_reader *r, struct hb_statuspb_region *out,
                            struct hb_error *err);

/* Where the reader has got to in the body (for giving back the pages behind it). */
const unsigned char *hb_statuspb_at(const struct hb_statuspb_reader *r);

/*
 * A StorageClusterStatus read as it arrives, in pieces of any size. A Node can hold every
 * region of a server, so it is not waited for whole: its fields are read one by one and each
 * Region is handed on as soon as its bytes are all there, with the node as read so far.
 * Regions that come before the node's name (protobuf-java writes the name first, but the
 * format allows any order) are held until the name comes, then handed on in order. node is
 * called when a node's name is read (again if it is read again) and at the node's end with
 * its last fields: a node's index tells a new node from one seen before. A body that is
 * malformed fails where a reader over the whole body fails (HB_ESERVER), though regions of a
 * node may have been handed on before an error later in that node.
 */
struct hb_statuspb_fns {
	int (*node)(void *ctx, const struct hb_statuspb_node *n, struct hb_error *err);
	int (*region)(void *ctx, const struct hb_statuspb_node *n,
	              const struct hb_statuspb_region *r, struct hb_error *err);
	int (*dead)(void *ctx, const unsigned char *name, size_t len, struct hb_error *err);
	void *ctx;
};
struct hb_statuspb_stream {
	const char *what;
	const struct hb_statuspb_fns *fns;
	struct hb_buf pend; /* the bytes after the last whole field */
	size_t seen;        /* bytes of the body before pend */
	size_t nodes, dead; /* live nodes begun (the current one included), dead names */
	int64_t regions, requests;
	double average_load;
	/* the Node being read */
	int in_node, has_name;
	size_t node_left, node_at, node_regions;
	struct hb_statuspb_node node; /* its name points into name */
	struct hb_buf name, held;     /* held: regions before the name, each behind its length */
};

void hb_statuspb_stream_init(struct hb_statuspb_stream *s, const char *what,
                             const struct hb_statuspb_fns *fns);
void hb_statuspb_stream_release(struct hb_statuspb_stream *s);
/* Forgets every byte pushed so far (an answer that starts again). */
void hb_statuspb_stream_reset(struct hb_statuspb_stream *s);
/* The next n bytes: a callback's non-zero return, HB_ESERVER, HB_ENOMEM. */
int hb_statuspb_stream_push(struct hb_statuspb_stream *s, const void *p, size_t n,
                            struct hb_error *err);
/* After the last byte: a body that ends inside a field or a node is malformed. The summary
 * (regions, requests, averageLoad) is in s once this returned 0. */
int hb_statuspb_stream_end(struct hb_statuspb_stream *s, struct hb_error *err);

#endif
