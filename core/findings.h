/* Audit findings: the kinds, the list, and how their messages quote keys and regions. */
#ifndef HB_FINDINGS_H
#define HB_FINDINGS_H

#include "buf.h"
#include "hb.h"
#include "key.h"
#include "region.h"

#include <stddef.h>

/* Finding kinds (the exact strings of the JSON contract). */
#define HB_FIND_UNREACHABLE        "unreachable"
#define HB_FIND_HOLE               "hole"
#define HB_FIND_OVERLAP            "overlap"
#define HB_FIND_DUPLICATE          "duplicate"
#define HB_FIND_OFFLINE            "offline"
#define HB_FIND_SPLIT_PARENT       "split_parent"
#define HB_FIND_NO_SERVER          "no_server"
#define HB_FIND_DRIFT              "drift"
#define HB_FIND_HOTSPOT            "hotspot"
#define HB_FIND_META_REST_MISMATCH "meta_rest_mismatch"
#define HB_FIND_BAD_FIRST_START    "bad_first_start"
#define HB_FIND_BAD_LAST_END       "bad_last_end"
#define HB_FIND_MISSING_METADATA   "missing_metadata"
#define HB_FIND_PLACEMENT          "placement"
#define HB_FIND_DISABLED           "disabled"
#define HB_FIND_NOT_OPEN           "not_open"
#define HB_FIND_STATE_UNKNOWN      "state_unknown"

struct hb_finding {
	const char *kind; /* one of HB_FIND_* (static) */
	long region;      /* index into the audited region list, or -1 */
	char *message;    /* owned; keys in toStringBinary form */
};

struct hb_findings {
	struct hb_finding *v;
	size_t n, cap;
};

void hb_findings_init(struct hb_findings *f);
void hb_findings_release(struct hb_findings *f);
/* Appends a finding with a printf-style message. HB_ENOMEM. */
int hb_findings_add(struct hb_findings *f, const char *kind, long region, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Appends a finding whose message is the len bytes at msg (copied). HB_ENOMEM. */
int hb_findings_add_text(struct hb_findings *f, const char *kind, long region, const char *msg,
                         size_t len);
/* Stable sort: findings with a region first (by region), then the table-wide ones. */
void hb_findings_sort(struct hb_findings *f);

/* A region is live (part of the chain HBase serves) unless offline, a split parent or a
 * replica (replica_id > 0). */
int hb_region_is_live(const struct hb_region *r);

/* The keys and regions in findings' messages, and the region lists the analyses walk. */

/* Bytes of a key quoted in a message before "...". */
#define HB_FINDINGS_KEY_SHOW_MAX 48

/* Appends 'key' in toStringBinary form, shortened for messages (escaped: with a backslash
 * before each '"' and '\\', see hb_reach_stream). HB_ENOMEM. */
int hb_findings_add_key_as(struct hb_buf *b, const unsigned char *k, size_t n, int escaped);
/* hb_findings_add_key_as, not escaped. */
int hb_findings_add_key(struct hb_buf *b, const unsigned char *k, size_t n);
/* Appends "region I ['start', 'end')". HB_ENOMEM. */
int hb_findings_add_region(struct hb_buf *b, size_t i, const struct hb_region *r);
/* Adds the message built in b as a finding and empties b. HB_ENOMEM. */
int hb_findings_add_buf(struct hb_findings *f, const char *kind, long region, struct hb_buf *b);

/* Compares two end keys where empty means +infinity. */
int hb_region_end_cmp(const unsigned char *a, size_t alen, const unsigned char *b, size_t blen);
/* Orders regions by (start, end), an empty end last. */
int hb_region_bounds_cmp(const unsigned char *as, size_t asl, const unsigned char *ae, size_t ael,
                         const unsigned char *bs, size_t bsl, const unsigned char *be, size_t bel);
/* Next live index of rs at or after i whose bounds differ from the previous live one (*last,
 * -1 at first; updated), or rs->n. */
size_t hb_regions_next_live(const struct hb_regions *rs, size_t i, long *last);

#endif
