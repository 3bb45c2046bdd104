/* The Thrift2 channel: one TBinaryProtocol message per HTTP POST to THBaseService in HTTP mode. */
#ifndef HB_REST_THRIFT2_H
#define HB_REST_THRIFT2_H

#include "core/hb.h"
#include "core/key.h"
#include "core/region.h"
#include "core/schema.h"
#include "core/thrift.h"
#include "rest/rest.h"

struct hb_thrift2;

struct hb_thrift2_opts {
	const char *url; /* e.g. http://host:9090/ (the servlet answers on any path) */
	double timeout;  /* seconds per request; createTable may need long */
	long retries;    /* extra attempts for read-only calls on transport faults */
	const char *cacert, *cert, *key;
	int insecure;
	const char *user, *password; /* basic auth (password never traced) */
	const char *password_from;   /* where the password came from, for messages */
	int negotiate;
	size_t max_body; /* reply size cap; 0 = 64 MiB */
	hb_rest_trace_fn trace;
	void *trace_ctx;
};

/* Creates a client. HB_EINVAL for a URL that is not http(s), HB_ENOMEM. */
int hb_thrift2_new(struct hb_thrift2 **out, const struct hb_thrift2_opts *o, struct hb_error *err);
/* Frees the client; NULL is a no-op. */
void hb_thrift2_free(struct hb_thrift2 *c);
/* The next sequence id to use for a call. */
int32_t hb_thrift2_next_seqid(struct hb_thrift2 *c);

/*
 * POSTs one encoded CALL for method and parses the reply into r (which must be initialised
 * and must not outlive reply_body, which holds the bytes r points into). Transport faults:
 * HB_ENET "thrift2 METHOD: cannot POST URL: reason"; a non-200 status or a malformed reply:
 * HB_ESERVER. Thrift-level exceptions are NOT errors here: inspect r->outcome.
 */
int hb_thrift2_call(struct hb_thrift2 *c, const char *method, int32_t seqid, const void *msg,
                    size_t len, int idempotent, struct hb_buf *reply_body,
                    struct hb_thrift_reply *r, struct hb_error *err);

/*
 * createTable(desc, splitKeys). *outcome (may be NULL) receives the reply outcome so callers
 * can tell a TIOError (e.g. the table appeared meanwhile) from other failures. Returns 0 on
 * success; HB_ESERVER "thrift2 createTable: ..." for Thrift exceptions; HB_ENET; HB_EINVAL.
 */
int hb_thrift2_create_table(struct hb_thrift2 *c, const struct hb_schema *s,
                            const struct hb_keys *splits, enum hb_thrift_outcome *outcome,
                            struct hb_error *err);
/* tableExists(table). */
int hb_thrift2_table_exists(struct hb_thrift2 *c, const char *table, int *exists,
                            struct hb_error *err);
/* isTableDisabled(table): the table state is DISABLED. A table neither enabled nor
 * disabled is ENABLING or DISABLING. */
int hb_thrift2_is_table_disabled(struct hb_thrift2 *c, const char *table, int *disabled,
                                 struct hb_error *err);
/* isTableEnabled(table): the table state is ENABLED (docs/hbase-wire.md §8). */
int hb_thrift2_is_table_enabled(struct hb_thrift2 *c, const char *table, int *enabled,
                                struct hb_error *err);
/* isTableAvailable(table): enabled and every region has a server in hbase:meta. */
int hb_thrift2_is_table_available(struct hb_thrift2 *c, const char *table, int *available,
                                  struct hb_error *err);
/*
 * enableTable(table) / disableTable(table) / truncateTable(table, preserveSplits): the
 * server runs HBase's synchronous Admin call, so these return once the master's procedure
 * is done. Not resent after a transport fault that may have reached the server. *outcome and
 * *app_type (either may be NULL) receive the reply's outcome and TApplicationException type
 * (-1 when none): a TIOError is what TableNotEnabledException, TableNotDisabledException and
 * TableNotFoundException become (HB_ESERVER "thrift2 METHOD: TIOError: ..."); UNKNOWN_METHOD
 * (1) is a server without the call (before 2.2). HB_ENET, HB_EINVAL as hb_thrift2_call.
 */
int hb_thrift2_enable_table(struct hb_thrift2 *c, const char *table,
                            enum hb_thrift_outcome *outcome, int32_t *app_type,
                            struct hb_error *err);
int hb_thrift2_disable_table(struct hb_thrift2 *c, const char *table,
                             enum hb_thrift_outcome *outcome, int32_t *app_type,
                             struct hb_error *err);
int hb_thrift2_truncate_table(struct hb_thrift2 *c, const char *table, int preserve_splits,
                              enum hb_thrift_outcome *outcome, int32_t *app_type,
                              struct hb_error *err);
/* getAllRegionLocations(table) appended to an initialised list, sorted by start key. */
int hb_thrift2_region_locations(struct hb_thrift2 *c, const char *table, struct hb_regions *out,
                                struct hb_error *err);
/* getTableDescriptor(table) into an initialised schema. */
int hb_thrift2_table_descriptor(struct hb_thrift2 *c, const char *table, struct hb_schema *out,
                                struct hb_error *err);

#endif
