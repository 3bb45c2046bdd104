/* Region-chain integrity: holes, overlaps, duplicates and bad ends of a table's live regions. */
#ifndef HB_CHAIN_H
#define HB_CHAIN_H

#include "findings.h"
#include "region.h"

#include <stdint.h>

/*
 * Region-chain integrity over sorted rs: offline regions and split parents (reported as
 * such) and replicas are left out of the chain; the live chain must start and end unbounded
 * with no hole, overlap or duplicate. from_meta: flags regions without a server. REST lists
 * a replica as a second entry with the same bounds and id; such entries are not duplicates.
 */
int hb_audit_chain(struct hb_findings *out, const struct hb_regions *rs, int from_meta);

struct hb_chain_stream {
	int from_meta;
	long prev, cover;
	uint64_t pid;
	struct hb_buf ps, pe, cs, ce, m;
};

void hb_chain_stream_init(struct hb_chain_stream *s, int from_meta);
int hb_chain_stream_next(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                         const struct hb_region *r);
/* The table-wide end of the chain: no live region, or a last region with an end key. */
int hb_chain_stream_end(struct hb_chain_stream *s, struct hb_findings *out);
void hb_chain_stream_release(struct hb_chain_stream *s);

#endif
