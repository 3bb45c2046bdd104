/* hbase:meta values: protobuf RegionInfo and TableState, region names, table-name rules. */
#ifndef HB_REGIONINFO_H
#define HB_REGIONINFO_H

#include "hb.h"
#include "pb.h"

#include <stddef.h>
#include <stdint.h>

/* TableState.State values (docs/hbase-wire.md §6.3). */
#define HB_TABLE_ENABLED   0
#define HB_TABLE_DISABLED  1
#define HB_TABLE_DISABLING 2
#define HB_TABLE_ENABLING  3
/* Not a TableState value: Thrift2 said neither enabled nor disabled (isTableEnabled and
 * isTableDisabled both false), so ENABLING or DISABLING. */
#define HB_TABLE_CHANGING 4

/* A decoded hbase.pb.RegionInfo; byte fields are malloc'ed, NUL-terminated copies. */
struct hb_regioninfo {
	uint64_t region_id;
	unsigned char *ns, *qualifier; /* TableName */
	size_t ns_len, qualifier_len;
	unsigned char *start, *end;
	size_t start_len, end_len;
	int offline, split;
	int replica_id;
	int has_region_id, has_table;
};

void hb_regioninfo_init(struct hb_regioninfo *ri);
void hb_regioninfo_release(struct hb_regioninfo *ri);

/*
 * Decodes an info:regioninfo value: "PBUF" magic then a RegionInfo message. Every length is
 * bounds-checked, unknown fields are skipped, required fields (region_id, table_name) must be
 * present. HB_EINVAL with a message on any malformed input; HB_ENOMEM.
 */
int hb_regioninfo_decode(struct hb_regioninfo *out, const void *p, size_t n, struct hb_error *err);

/* Decodes a raw TableState (no magic) into *state (HB_TABLE_*). HB_EINVAL if malformed. */
int hb_tablestate_decode(int *state, const void *p, size_t n, struct hb_error *err);
/* "ENABLED", "DISABLED", "DISABLING", "ENABLING" or "UNKNOWN". */
const char *hb_tablestate_name(int state);

/* An 8-byte big-endian long (info:serverstartcode); HB_EINVAL when n != 8. */
int hb_be64_decode(int64_t *out, const void *p, size_t n);

/*
 * Splits a meta region row key "table,start,id[_rep].encoded." into views (pointers into
 * row). The table part ends at the first ',', the start key at the last ',' before the id.
 * encoded may be empty for the old format. HB_EINVAL when the row is not a region name.
 */
struct hb_region_name {
	const unsigned char *table, *start, *encoded;
	size_t table_len, start_len, encoded_len;
	uint64_t id;
	int replica_id;
};
int hb_region_name_parse(struct hb_region_name *out, const void *row, size_t n,
                         struct hb_error *err);

/* Writes the 32-char lower-case MD5 hex encoded name of a region name prefix
 * ("table,start,id[_rep]") into out (33 bytes with NUL): 0, or HB_ENOMEM when libcrypto, which
 * does the MD5, cannot be loaded (core/cryptoload.c). */
int hb_region_encoded_name(char out[33], const void *prefix, size_t n, struct hb_error *err);
/* The 32-char lower-case hex form of a 16-byte encoded name (an MD5) into out (with NUL). */
void hb_region_encoded_hex(char out[33], const unsigned char md[16]);

/* hbase-common JenkinsHash.hash(data, initval) as an unsigned 32-bit value. */
uint32_t hb_jenkins_hash(const void *data, size_t n, uint32_t initval);
/* The encoded name of an old-format region name ("hbase:meta,,1"): RegionInfo.encodeRegionName
 * gives String.valueOf(Math.abs(JenkinsHash(name, 0))), e.g. "1588230740". */
void hb_region_encoded_name_old(char out[12], const void *name, size_t n);

#endif
