/* hbtab audit's own checks: region states, availability, the meta/REST comparison, the report. */
#include "audit.h"
#include "hotkeys.h"
#include "regioninfo.h"

#include <stdlib.h>
#include <string.h>

static int state_is_open(const struct hb_region *r)
{
	return !r->state || !strcmp(r->state, "OPEN");
}

size_t hb_regions_not_open(const struct hb_regions *rs)
{
	size_t i, n = 0;

	for (i = 0; i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at_unnamed(rs, i, &v);

		if (hb_region_is_live(r) && !state_is_open(r))
			n++;
	}
	return n;
}

int hb_audit_states(struct hb_findings *out, const char *table, int table_state,
                    const struct hb_regions *rs)
{
	struct hb_buf m = HB_BUF_INIT;
	size_t i;
	int rc = 0;

	if (table_state == HB_TABLE_DISABLED)
		rc = hb_findings_add(out, HB_FIND_DISABLED, -1,
		                     "table '%s' is disabled: no region is online; REST still "
		                     "shows each region's last server",
		                     table);
	else if (table_state == HB_TABLE_DISABLING || table_state == HB_TABLE_ENABLING ||
	         table_state == HB_TABLE_CHANGING)
		rc = hb_findings_add(out, HB_FIND_DISABLED, -1, "table '%s' is %s, not ENABLED",
		                     table, hb_tablestate_name(table_state));
	/* Every region of a disabled table is closed: the one finding says it all. */
	for (i = 0; !rc && table_state != HB_TABLE_DISABLED && i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at_unnamed(rs, i, &v);

		if (!hb_region_is_live(r) || state_is_open(r))
			continue;
		hb_buf_reset(&m);
		rc = hb_findings_add_region(&m, i, r) || hb_buf_adds(&m, " is ") ||
		     hb_buf_add(&m, r->state, strnlen(r->state, 32)) ||
		     hb_buf_adds(&m, ", not OPEN");
		if (!rc)
			rc = r->server ? hb_buf_addf(&m, " (last server %s)", r->server)
			               : hb_buf_adds(&m, " (no server)");
		if (!rc)
			rc = hb_findings_add_buf(out, HB_FIND_NOT_OPEN, (long)i, &m);
	}
	hb_buf_release(&m);
	return rc ? HB_ENOMEM : 0;
}

int hb_audit_availability(struct hb_findings *out, const char *table,
                          const struct hb_table_avail *av, const struct hb_regions *rs,
                          const char *unknown_tail)
{
	int rc = hb_audit_states(out, table, av->table_state, rs);

	if (!rc && av->available == 0 && av->table_state == HB_TABLE_ENABLED)
		rc = hb_findings_add(out, HB_FIND_NOT_OPEN, -1,
		                     "table '%s' is not available: some regions are not online "
		                     "(Thrift2 isTableAvailable)",
		                     table);
	if (!rc && av->why.code)
		rc = hb_findings_add(out, HB_FIND_STATE_UNKNOWN, -1, "%s%s", av->why.msg,
		                     unknown_tail);
	return rc;
}

void hb_audit_report_init(struct hb_audit_report *r)
{
	memset(r, 0, sizeof(*r));
	hb_regions_init(&r->rs);
	hb_buf_init(&r->ks_canon, 0);
	hb_audit_init(&r->a);
	hb_hotspots_init(&r->hot);
}

void hb_audit_report_release(struct hb_audit_report *r)
{
	free(r->stored_n);
	free(r->stored_splits);
	hb_keyspace_free(r->ks);
	hb_buf_release(&r->ks_canon);
	hb_audit_release(&r->a);
	hb_hotspots_release(&r->hot);
	if (r->hot_keys)
		hb_hot_keys_release(r->hot_keys);
	free(r->hot_keys);
	r->hot_keys = NULL;
	hb_regions_release(&r->rs);
	r->ks = NULL;
	r->stored_n = NULL;
	r->stored_splits = NULL;
}

int hb_compare_begin(struct hb_compare *c, const struct hb_regions *primary)
{
	memset(c, 0, sizeof(*c));
	c->primary = primary;
	hb_regions_init(&c->extra);
	c->seen = calloc(primary->n / 8 + 1, 1);
	return c->seen ? 0 : HB_ENOMEM;
}

void hb_compare_release(struct hb_compare *c)
{
	free(c->seen);
	hb_regions_release(&c->extra);
	memset(c, 0, sizeof(*c));
}

int hb_compare_add(struct hb_compare *c, const struct hb_region *r)
{
	const struct hb_regions *p = c->primary;
	size_t lo = 0, hi = p->n;
	struct hb_region b;

	if (!hb_region_is_live(r))
		return 0;
	/* the first primary region whose bounds are not below r's */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const unsigned char *s, *e;
		size_t sl, el;

		hb_regions_bounds(p, mid, &s, &sl, &e, &el);
		if (hb_region_bounds_cmp(s, sl, e, el, r->start, r->start_len, r->end, r->end_len) <
		    0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->n; lo++) {
		struct hb_region_view v;
		const struct hb_region *q = hb_regions_at_unnamed(p, lo, &v);

		if (hb_region_bounds_cmp(q->start, q->start_len, q->end, q->end_len, r->start,
		                         r->start_len, r->end, r->end_len))
			break;
		if (hb_region_is_live(q)) {
			c->seen[lo / 8] |= (unsigned char)(1u << (lo % 8));
			return 0;
		}
	}
	memset(&b, 0, sizeof(b));
	b.start = r->start;
	b.start_len = r->start_len;
	b.end = r->end;
	b.end_len = r->end_len;
	return hb_regions_push(&c->extra, &b);
}

int hb_compare_end(struct hb_compare *c, struct hb_findings *out, const char *primary_name,
                   const char *other_name)
{
	const struct hb_regions *p = c->primary;
	struct hb_buf m = HB_BUF_INIT;
	long last = -1;
	size_t i;
	int rc = 0;

	/* A group of live regions with the same bounds was seen through its first one. */
	for (i = hb_regions_next_live(p, 0, &last); !rc && i < p->n;
	     i = hb_regions_next_live(p, i + 1, &last)) {
		struct hb_region_view v;

		if (c->seen[i / 8] & (1u << (i % 8)))
			continue;
		rc = hb_findings_add_region(&m, i, hb_regions_at_unnamed(p, i, &v));
		if (!rc)
			rc = hb_buf_addf(&m, " is in %s but not in %s", primary_name, other_name);
		if (!rc)
			rc = hb_findings_add_buf(out, HB_FIND_META_REST_MISMATCH, (long)i, &m);
	}
	hb_regions_sort(&c->extra);
	last = -1;
	for (i = hb_regions_next_live(&c->extra, 0, &last); !rc && i < c->extra.n;
	     i = hb_regions_next_live(&c->extra, i + 1, &last)) {
		const unsigned char *s, *e;
		size_t sl, el;

		hb_regions_bounds(&c->extra, i, &s, &sl, &e, &el);
		rc = hb_buf_adds(&m, "region [");
		if (!rc)
			rc = hb_findings_add_key(&m, s, sl);
		if (!rc)
			rc = hb_buf_adds(&m, ", ");
		if (!rc)
			rc = hb_findings_add_key(&m, e, el);
		if (!rc)
			rc = hb_buf_addf(&m, ") is in %s but not in %s", other_name, primary_name);
		if (!rc)
			rc = hb_findings_add_buf(out, HB_FIND_META_REST_MISMATCH, -1, &m);
	}
	hb_buf_release(&m);
	return rc ? HB_ENOMEM : 0;
}

int hb_audit_compare(struct hb_findings *out, const struct hb_regions *primary,
                     const char *primary_name, const struct hb_regions *other,
                     const char *other_name)
{
	struct hb_compare c;
	size_t i;
	int rc = hb_compare_begin(&c, primary);

	for (i = 0; !rc && i < other->n; i++) {
		struct hb_region_view v;

		rc = hb_compare_add(&c, hb_regions_at_unnamed(other, i, &v));
	}
	if (!rc)
		rc = hb_compare_end(&c, out, primary_name, other_name);
	hb_compare_release(&c);
	return rc;
}
