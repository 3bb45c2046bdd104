/* Design drift: the live regions against the recorded N, key space and partition design. */
#include "drift.h"

#include "keyspace.h"
#include "splitspec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DRIFT_BOUNDARY_MAX 10

/* Parses a positive decimal count; 0 when s is not one. */
static unsigned long long parse_count(const char *s)
{
	unsigned long long v = 0;

	if (!s || !*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (~0ULL - 9) / 10)
			return 0;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	return v;
}

/* The first key of partition k: k as a width-byte big-endian number. */
static void partition_key(unsigned char *out, unsigned long long k, int width)
{
	int b;

	for (b = 0; b < width; b++)
		out[b] = (unsigned char)(k >> (8 * (width - 1 - b)));
}

/* The partition holding key x: the largest k < parts whose first key is <= x. */
static unsigned long long partition_of(const unsigned char *x, size_t len, unsigned long long parts,
                                       int width)
{
	unsigned long long lo = 0, hi = parts - 1;
	unsigned char want[8];

	while (lo < hi) {
		unsigned long long mid = lo + (hi - lo + 1) / 2;

		partition_key(want, mid, width);
		if (hb_key_cmp(want, (size_t)width, x, len) <= 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * One boundary event: the region starts between two boundaries that are where they belong
 * (or the table's ends), as the live table has them against the partition starts. Only
 * partition starts missing: a merge; only extra starts: a split; both: moved boundaries.
 */
struct boundary_event {
	unsigned long long missing, first_missing; /* partition starts no region has */
	size_t extra, first_extra;                 /* region starts inside a partition */
	size_t before;                             /* the live region before the event */
	unsigned long long partition;              /* the partition the event starts in */
};

static int report_event(struct hb_findings *out, struct hb_buf *m, const struct hb_regions *rs,
                        const struct boundary_event *e, int width)
{
	struct hb_region_view v;
	unsigned char want[8];
	int rc;

	partition_key(want, e->first_missing, width);
	if (!e->extra) {
		rc = hb_findings_add_region(m, e->before, hb_regions_at_unnamed(rs, e->before, &v));
		if (!rc)
			rc = hb_buf_addf(m,
			                 " spans partitions %llu..%llu: they were merged (no "
			                 "region starts at partition %llu, ",
			                 e->first_missing - 1, e->first_missing + e->missing - 1,
			                 e->first_missing);
		if (!rc)
			rc = hb_findings_add_key(m, want, (size_t)width);
		if (!rc && e->missing == 2)
			rc = hb_buf_addf(m, ", nor at partition %llu", e->first_missing + 1);
		if (!rc && e->missing > 2)
			rc = hb_buf_addf(m, ", nor at partitions %llu..%llu", e->first_missing + 1,
			                 e->first_missing + e->missing - 1);
		if (!rc)
			rc = hb_buf_addc(m, ')');
		return rc ? rc : hb_findings_add_buf(out, HB_FIND_DRIFT, (long)e->before, m);
	}
	rc = hb_findings_add_region(m, e->first_extra,
	                            hb_regions_at_unnamed(rs, e->first_extra, &v));
	if (!rc && !e->missing)
		rc = hb_buf_addf(m, " starts inside partition %llu: it was split%s", e->partition,
		                 e->extra > 1 ? "" : " there");
	if (!rc && !e->missing && e->extra > 1)
		rc = hb_buf_addf(m, " into %zu regions", e->extra + 1);
	if (!rc && e->missing) {
		rc = hb_buf_addf(m,
		                 " starts where no partition does; partition %llu should start "
		                 "a region at ",
		                 e->first_missing);
		if (!rc)
			rc = hb_findings_add_key(m, want, (size_t)width);
		if (!rc)
			rc = hb_buf_addf(m,
			                 " (boundaries moved: %zu region start%s not at a "
			                 "partition, %llu partition start%s without a region)",
			                 e->extra, e->extra == 1 ? "" : "s", e->missing,
			                 e->missing == 1 ? "" : "s");
	}
	return rc ? rc : hb_findings_add_buf(out, HB_FIND_DRIFT, (long)e->first_extra, m);
}

/*
 * Partition-style tables: the live region starts against the partition starts 1..parts-1.
 * One finding per event (a merge, a split, a moved boundary), however many regions after it
 * are shifted by one; at most DRIFT_BOUNDARY_MAX, then a count.
 */
static int boundary_events(struct hb_findings *out, const struct hb_regions *rs,
                           unsigned long long parts, int width)
{
	struct boundary_event e;
	struct hb_buf m = HB_BUF_INIT;
	unsigned long long k = 1; /* the next partition start to meet */
	unsigned char want[8];
	size_t i, events = 0;
	long last = -1;
	int rc = 0;

	memset(&e, 0, sizeof(e));
	e.before = hb_regions_next_live(rs, 0, &last);
	if (e.before >= rs->n)
		return 0;
	i = hb_regions_next_live(rs, e.before + 1, &last);
	for (;;) {
		struct hb_region_view v;
		const struct hb_region *r = i < rs->n ? hb_regions_at_unnamed(rs, i, &v) : NULL;
		int d = 1; /* a region start past the last partition start is inside it */

		if (!r && k < parts) { /* the last partition starts have no region */
			if (!e.missing)
				e.first_missing = k;
			e.missing += parts - k;
			k = parts;
		}
		if (r && k < parts) {
			partition_key(want, k, width);
			d = hb_key_cmp(want, (size_t)width, r->start, r->start_len);
		}
		if (!r || !d) {
			/* a boundary where it belongs, or the end: the event before it is complete
			 */
			if ((e.missing || e.extra) && events++ < DRIFT_BOUNDARY_MAX)
				rc = report_event(out, &m, rs, &e, width);
			if (rc || !r)
				break;
			memset(&e, 0, sizeof(e));
			e.before = i;
			k++;
			i = hb_regions_next_live(rs, i + 1, &last);
			continue;
		}
		if (d < 0) { /* partition starts before this region's start: none has a region */
			unsigned long long to = partition_of(r->start, r->start_len, parts, width);

			partition_key(want, to, width);
			if (!e.missing)
				e.first_missing = k;
			/* up to the partition holding the start, or the one before when the start
			 * is that partition's own (it is met next round) */
			if (!hb_key_cmp(want, (size_t)width, r->start, r->start_len))
				to--;
			e.missing += to - k + 1;
			k = to + 1;
			continue;
		}
		/* the region starts inside a partition */
		if (!e.extra) {
			e.first_extra = i;
			e.partition = partition_of(r->start, r->start_len, parts, width);
		}
		e.extra++;
		e.before = i;
		i = hb_regions_next_live(rs, i + 1, &last);
	}
	if (!rc && events > DRIFT_BOUNDARY_MAX)
		rc = hb_findings_add(out, HB_FIND_DRIFT, -1, "%zu more partition boundary change%s",
		                     events - DRIFT_BOUNDARY_MAX,
		                     HB_PLURAL(events - DRIFT_BOUNDARY_MAX));
	hb_buf_release(&m);
	return rc;
}

static int canon(struct hb_buf *out, const struct hb_keyspace *ks)
{
	hb_buf_reset(out);
	return hb_keyspace_format(out, ks);
}

/* The stored N against the live region count; *n gets it (0 when absent or invalid). */
static int drift_n(struct hb_findings *out, const struct hb_audit_meta *md, size_t live,
                   unsigned long long *n)
{
	*n = 0;
	if (!md->n)
		return hb_findings_add(out, HB_FIND_MISSING_METADATA, -1,
		                       "the metadata row has no N qualifier");
	if (!(*n = parse_count(md->n)))
		return hb_findings_add(out, HB_FIND_DRIFT, -1,
		                       "the stored N '%.64s' is not a positive integer", md->n);
	if (*n != live)
		return hb_findings_add(out, HB_FIND_DRIFT, -1,
		                       "the stored N is %llu but the table has %zu live region%s "
		                       "(regions were split, merged or lost since N was written)",
		                       *n, live, HB_PLURAL(live));
	return 0;
}

/* The stored key space (one that does not parse is drift) against the given one (which
 * must parse: its error is returned); both parsed into *stored and *given. */
static int drift_keyspace(struct hb_findings *out, const struct hb_audit_meta *md,
                          const char *given_keyspace, struct hb_keyspace **stored,
                          struct hb_keyspace **given, struct hb_error *err)
{
	struct hb_buf c1 = HB_BUF_INIT, c2 = HB_BUF_INIT;
	struct hb_error perr = {0};
	int rc = 0;

	if (md->keyspace && hb_keyspace_parse(stored, md->keyspace, &perr)) {
		if (perr.code == HB_ENOMEM)
			return HB_ENOMEM;
		rc = hb_findings_add(out, HB_FIND_DRIFT, -1,
		                     "the stored key space '%.200s' does not parse: %s",
		                     md->keyspace, perr.msg);
	}
	if (!rc && given_keyspace)
		rc = hb_keyspace_parse(given, given_keyspace, err);
	if (!rc && *stored && *given && !hb_keyspace_same(*stored, *given)) {
		rc = canon(&c1, *stored) || canon(&c2, *given) ? HB_ENOMEM : 0;
		if (!rc)
			rc = hb_findings_add(out, HB_FIND_DRIFT, -1,
			                     "the stored key space '%.200s' differs from the given "
			                     "'%.200s'",
			                     hb_buf_str(&c1), hb_buf_str(&c2));
	}
	hb_buf_release(&c1);
	hb_buf_release(&c2);
	return rc;
}

/* Partition-style tables: boundaries must be the big-endian partition numbers. ks is the
 * given key space, else the stored one (may be NULL); n the stored N (0 = unknown). */
static int drift_partitions(struct hb_findings *out, const struct hb_audit_meta *md,
                            const struct hb_regions *rs, const struct hb_keyspace *ks,
                            unsigned long long n, size_t live)
{
	struct hb_splitspec_design d = {HB_SPLIT_NONE, 0, 1};
	unsigned long long parts = 0;
	int width = 0, rc = 0;

	if (ks && hb_keyspace_partitions(ks, &parts, &width)) {
		if (n && parts != n)
			rc = hb_findings_add(out, HB_FIND_DRIFT, -1,
			                     "the key space has %llu partitions (u%d<%llu) but the "
			                     "stored N is %llu",
			                     parts, 8 * width, parts, n);
	} else if (n && !hb_splitspec_design(md->splits, &d) && d.algo == HB_SPLIT_PARTITION) {
		parts = n;
		width = 8;
	} else if (n && d.algo == HB_SPLIT_SALT) {
		parts = n;
		width = d.salt_width;
	}
	if (rc || !parts || !width)
		return rc;
	/* the stored N already says so when it is the partition count */
	if (parts != live && parts != n)
		rc = hb_findings_add(out, HB_FIND_DRIFT, -1,
		                     "the table is partitioned into %llu partitions but has "
		                     "%zu live region%s",
		                     parts, live, HB_PLURAL(live));
	return rc ? rc : boundary_events(out, rs, parts, width);
}

int hb_audit_drift(struct hb_findings *out, const struct hb_audit_meta *md,
                   const struct hb_regions *rs, const char *given_keyspace, struct hb_error *err)
{
	struct hb_keyspace *stored = NULL, *given = NULL;
	unsigned long long n = 0;
	size_t live = 0, i;
	long last = -1;
	int rc;

	for (i = hb_regions_next_live(rs, 0, &last); i < rs->n;
	     i = hb_regions_next_live(rs, i + 1, &last))
		live++;
	if (!md->present)
		rc = md->require ? hb_findings_add(out, HB_FIND_MISSING_METADATA, -1,
		                                   "the table has no metadata row: N and the key "
		                                   "space are not recorded (hbtab meta set writes "
		                                   "it)")
		                 : 0;
	else
		rc = drift_n(out, md, live, &n);
	if (!rc && md->present)
		rc = drift_keyspace(out, md, given_keyspace, &stored, &given, err);
	if (!rc && md->present)
		rc = drift_partitions(out, md, rs, given ? given : stored, n, live);
	if (rc == HB_ENOMEM)
		hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_keyspace_free(stored);
	hb_keyspace_free(given);
	return rc;
}
