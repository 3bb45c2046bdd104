/* A table's regions joined with hbase:meta's region and table states (Thrift2 as fallback). */
#include "rest/states.h"
#include "core/key.h"
#include "core/region.h"
#include "core/regioninfo.h"
#include "core/tname.h"
#include "core/vec.h"

#include <stdlib.h>
#include <string.h>

int hb_rest_table_regions(struct hb_rest *c, const char *table, int meta, struct hb_regions *rs,
                          int *state, struct hb_error *err)
{
	int rc = meta ? hb_rest_meta_regions(c, hb_tname_bare(table), rs, state, err)
	              : hb_rest_get_regions(c, table, rs, err);

	if (!rc && meta && !rs->n && *state < 0)
		return hb_error_set(err, HB_ENOTFOUND, "table '%s' not found in hbase:meta", table);
	if (rc == HB_ENOTFOUND && !meta)
		return hb_error_set(err, HB_ENOTFOUND, "table '%s' not found", table);
	return rc;
}

/*
 * info:state of the meta rows, joined to the REST regions by name while hbase:meta is scanned
 * (no second region list is held). A name holds its region's start key, so the REST regions
 * of a meta row's name are among those with its start (the list is sorted by start); each
 * meta row's state is noted for every REST region of that name, and the notes are applied
 * only once the whole scan has succeeded. States are a handful of words, kept once each.
 */
#define STATE_WORDS_SEARCHED 32
#define NOTE_NO_STATE        UINT32_MAX /* the region's row was read and has no info:state */
struct state_join {
	struct hb_regions *rs;
	const uint64_t *ids; /* per REST region its id (NULL: match by name) */
	uint32_t *note;      /* per REST region: its state word + 1, NOTE_NO_STATE, or 0 */
	size_t next;         /* the REST region after the last one matched */
	struct hb_names words;
	int unread_open; /* meta was asked only for the rows not OPEN: a region not read is */
};

/* Whether REST region i is the one meta row m names. A REST name is a pure function of the
 * table, start key and id (docs/hbase-wire.md §3): with the ids at hand, the start (already
 * equal) and the id are compared instead of building the name. */
static int same_region(const struct state_join *j, size_t i, const struct hb_region *m)
{
	struct hb_region_view v;
	const struct hb_region *r;

	if (j->ids)
		return j->ids[i] == m->id && m->replica_id == 0;
	r = hb_regions_at(j->rs, i, &v);
	return r->name && r->name_len == m->name_len &&
	       (!m->name_len || !memcmp(r->name, m->name, m->name_len));
}

/* The first REST region whose start is not below start: the one after the last matched
 * when that one qualifies (meta's rows come in the list's order), else by binary search. */
static size_t first_at(const struct hb_regions *rs, size_t hint, const unsigned char *start,
                       size_t len)
{
	if (hint < rs->n) {
		const unsigned char *s, *e, *ps, *pe;
		size_t sl, el, psl, pel;

		hb_regions_bounds(rs, hint, &s, &sl, &e, &el);
		if (hint)
			hb_regions_bounds(rs, hint - 1, &ps, &psl, &pe, &pel);
		if (hb_key_cmp(s, sl, start, len) >= 0 &&
		    (!hint || hb_key_cmp(ps, psl, start, len) < 0))
			return hint;
	}
	return hb_regions_lower_bound(rs, start, len);
}

static int note_state(void *ctx, const struct hb_region *m, struct hb_error *err)
{
	struct state_join *j = ctx;
	size_t i, w = 0;
	int have_word = 0;

	if (!m->name)
		return 0;
	for (i = first_at(j->rs, j->next, m->start, m->start_len); i < j->rs->n; i++) {
		const unsigned char *st, *en;
		size_t sl, el;

		hb_regions_bounds(j->rs, i, &st, &sl, &en, &el);
		if (hb_key_cmp(st, sl, m->start, m->start_len))
			break;
		if (!same_region(j, i, m))
			continue;
		j->next = i + 1;
		if (!m->state) {
			j->note[i] = NOTE_NO_STATE;
			continue;
		}
		for (; !have_word && w < j->words.n && w < STATE_WORDS_SEARCHED; w++)
			if (!strcmp(j->words.v[w], m->state))
				have_word = 1;
		if (!have_word) {
			if (hb_names_push(&j->words, m->state))
				return hb_error_set(err, HB_ENOMEM, "out of memory");
			w = j->words.n;
			have_word = 1;
		}
		j->note[i] = (uint32_t)w;
	}
	return 0;
}

/* Copies each noted state onto its REST region (OPEN onto those not read when meta was
 * asked only for the others). */
static int apply_states(struct state_join *j)
{
	size_t i;

	for (i = 0; i < j->rs->n; i++) {
		uint32_t w = j->note[i];
		const char *state = w == NOTE_NO_STATE ? NULL
		                    : w                ? j->words.v[w - 1]
		                    : j->unread_open   ? "OPEN"
		                                       : NULL;

		if (state && hb_regions_set_state(j->rs, i, state))
			return HB_ENOMEM;
	}
	return 0;
}

/* The meta scan joined onto rs (ids: per region its id, or NULL); merr gets why it failed.
 * HB_ENOMEM or the scan's code. */
static int join_meta(struct hb_rest *c, const char *table, struct hb_regions *rs,
                     const uint64_t *ids, int *state, struct hb_error *merr)
{
	struct state_join j;
	struct hb_region_view v;
	const struct hb_region *last = rs->n ? hb_regions_at(rs, rs->n - 1, &v) : NULL;
	int rc;

	/* the list is sorted by start: a whole table's last region ends with the empty key */
	if (last && last->end_len)
		last = NULL;
	j.rs = rs;
	j.ids = ids;
	j.next = 0;
	j.note = calloc(rs->n ? rs->n : 1, sizeof(*j.note));
	hb_names_init(&j.words);
	if (!j.note)
		return HB_ENOMEM;
	/* only the states, and of those only the ones that are not OPEN: the REST list has
	 * every other fact (docs/hbase-wire.md §6.5) */
	rc = hb_rest_meta_states_not_open(c, hb_tname_bare(table), last ? last->name : NULL,
	                                  last ? last->name_len : 0, note_state, &j, state, merr);
	j.unread_open = !rc;
	if (rc == 1 || rc == HB_ESERVER) {
		/* that answer proved nothing, or the gateway refused its filter: every state */
		memset(j.note, 0, (rs->n ? rs->n : 1) * sizeof(*j.note));
		j.next = 0;
		merr->code = 0;
		merr->msg[0] = 0;
		rc = hb_rest_meta_states(c, hb_tname_bare(table), last ? last->name : NULL,
		                         last ? last->name_len : 0, note_state, &j, state, merr);
	}
	if (!rc && apply_states(&j))
		rc = HB_ENOMEM;
	free(j.note);
	hb_names_release(&j.words);
	return rc;
}

/* Thrift2's answers when meta cannot be read: isTableEnabled is false for ENABLING and
 * DISABLING too, so isTableDisabled tells DISABLED from those. terr gets why it failed. */
static void ask_thrift2(const char *table, const struct hb_thrift2_channel *thrift,
                        struct hb_table_avail *av, struct hb_error *terr)
{
	struct hb_thrift2 *t = NULL;
	int yes = 0, off = 0;

	if (!thrift || hb_thrift2_channel_open(thrift, 0, &t, terr) || !t)
		return;
	if (!hb_thrift2_is_table_enabled(t, table, &yes, terr) &&
	    (yes || !hb_thrift2_is_table_disabled(t, table, &off, terr))) {
		av->table_state = yes   ? HB_TABLE_ENABLED
		                  : off ? HB_TABLE_DISABLED
		                        : HB_TABLE_CHANGING;
		if (!hb_thrift2_is_table_available(t, table, &yes, terr))
			av->available = yes;
	}
	hb_thrift2_free(t);
}

/* hb_rest_region_states with the regions' ids (or NULL). */
static int region_states(struct hb_rest *c, const char *table, struct hb_regions *rs,
                         const uint64_t *ids, const struct hb_thrift2_channel *thrift,
                         struct hb_table_avail *av, struct hb_error *err)
{
	struct hb_error merr = {0}, terr = {0};
	int rc;

	av->table_state = -1;
	av->available = -1;
	av->why.code = 0;
	av->why.msg[0] = 0;
	rc = join_meta(c, table, rs, ids, &av->table_state, &merr);
	if (!rc)
		return 0;
	if (rc == HB_ENOMEM)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	ask_thrift2(table, thrift, av, &terr);
	if (av->table_state < 0)
		hb_error_set(
		    &av->why, HB_EFINDING,
		    "cannot learn whether table '%s' is enabled and its regions open: %s; %s",
		    table, merr.msg, terr.msg);
	return 0;
}

int hb_rest_region_states(struct hb_rest *c, const char *table, struct hb_regions *rs,
                          const struct hb_thrift2_channel *thrift, struct hb_table_avail *av,
                          struct hb_error *err)
{
	return region_states(c, table, rs, NULL, thrift, av, err);
}

/*
 * The REST regions as they are read, each region's id noted while the start keys rise (the
 * list then needs no sort: /T/regions comes in meta's order, and only a daughter sharing its
 * split parent's start breaks it). ids is dropped when they do not.
 */
struct id_list {
	struct hb_regions *rs;
	size_t n0; /* regions in the list before this listing */
	uint64_t *ids;
	size_t cap;
	struct hb_buf prev; /* the previous region's start */
};

static int push_noting_id(void *ctx, const struct hb_region *r, struct hb_error *err)
{
	struct id_list *l = ctx;
	size_t sl = r->start ? r->start_len : 0;

	if (l->ids && l->rs->n && hb_key_cmp(l->prev.data, l->prev.len, r->start, sl) >= 0) {
		free(l->ids);
		l->ids = NULL;
	}
	if (hb_regions_push(l->rs, r) || (l->ids && HB_VEC_GROW(l->ids, l->cap, l->rs->n, 1024)))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (l->ids) {
		l->ids[l->rs->n - 1] = r->id;
		hb_buf_reset(&l->prev);
		if (sl && hb_buf_add(&l->prev, r->start, sl))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	return 0;
}

/* An answer read again from its start: the list as it was before it. */
static int restart_noting_id(void *ctx)
{
	struct id_list *l = ctx;

	hb_regions_truncate(l->rs, l->n0);
	hb_buf_reset(&l->prev);
	if (!l->n0 && !l->ids) {
		l->cap = 0;
		l->ids = malloc(sizeof(*l->ids));
	}
	return !l->n0 && !l->ids ? HB_ENOMEM : 0;
}

/* hb_rest_table_regions from REST with the ids noted (*ids NULL when the list had to be
 * sorted; freed by the caller). */
static int rest_regions(struct hb_rest *c, const char *table, struct hb_regions *rs, uint64_t **ids,
                        struct hb_error *err)
{
	struct id_list l;
	size_t n0 = rs->n;
	int rc;

	l.rs = rs;
	l.n0 = n0;
	l.cap = 0;
	l.ids = n0 ? NULL : malloc(sizeof(*l.ids)); /* a list started empty only */
	hb_buf_init(&l.prev, 0);
	rc = hb_rest_regions_stream(c, table, push_noting_id, restart_noting_id, &l, err);
	hb_buf_release(&l.prev);
	if (rc) {
		hb_regions_truncate(rs, n0);
		free(l.ids);
		l.ids = NULL;
		if (rc == HB_ENOTFOUND)
			hb_error_set(err, HB_ENOTFOUND, "table '%s' not found", table);
	} else if (!l.ids) {
		hb_regions_sort(rs);
	}
	*ids = l.ids;
	return rc;
}

/*
 * /T/regions made from hbase:meta's rows (2.6.1 RegionsResource.get over
 * HRegionLocator.getAllRegionLocations, docs/hbase-wire.md §6.7): the rows of regions that
 * are neither offline nor split (MetaTableAccessor.DefaultVisitorBase), each with the
 * host:port of info:server and its info:state, as the REST listing joined with meta's states
 * has them. A region with no server (RegionsResource answers 500 for it) or whose name is
 * not of the form REST rebuilds makes the listing one REST must give (odd).
 */
struct rest_view {
	struct hb_regions *rs;
	size_t n0;
	int odd;
};

static int restart_rest_view(void *ctx)
{
	struct rest_view *v = ctx;

	hb_regions_truncate(v->rs, v->n0);
	v->odd = 0;
	return 0;
}

static int push_rest_view(void *ctx, const struct hb_region *m, struct hb_error *err)
{
	struct rest_view *v = ctx;
	struct hb_region r = *m;

	if (m->offline || m->split || v->odd)
		return 0;
	if (!m->server || !m->encoded || m->replica_id > 0 || m->name_len < 34 ||
	    m->name[m->name_len - 1] != '.' || m->name[m->name_len - 34] != '.') {
		v->odd = 1;
		return 0;
	}
	r.start_code = 0;
	r.offline = 0;
	r.split = 0;
	return hb_regions_push(v->rs, &r) ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

/* The AUTO source's meta reading: 0 with rs filled, HB_ENOMEM, or any other code with rs as
 * it was and why saying why REST must be asked instead. */
static int rest_view_from_meta(struct hb_rest *c, const char *table, struct hb_regions *rs,
                               int *state, struct hb_error *why)
{
	struct rest_view v;
	int rc;

	if (!strncmp(table, "hbase:", 6))
		return hb_error_set(why, HB_EINVAL,
		                    "a system table's names are as REST sends them");
	v.rs = rs;
	v.n0 = rs->n;
	v.odd = 0;
	rc = hb_rest_meta_scan_restart(c, hb_tname_bare(table), push_rest_view, restart_rest_view,
	                               &v, state, why);
	if (!rc && (v.odd || rs->n == v.n0))
		rc = hb_error_set(why, HB_ENOLOCATION,
		                  "a region has no server or an old-style name in hbase:meta, or "
		                  "none is listed");
	if (rc)
		hb_regions_truncate(rs, v.n0);
	else
		hb_regions_sort(rs);
	return rc;
}

int hb_rest_regions_avail(struct hb_rest *c, const char *table, int meta,
                          const struct hb_thrift2_channel *thrift, struct hb_regions *rs,
                          struct hb_table_avail *av, struct hb_error *err)
{
	uint64_t *ids = NULL;
	int rc;

	av->table_state = -1;
	av->available = -1;
	av->why.code = 0;
	av->why.msg[0] = 0;
	av->meta_why.code = 0;
	av->meta_why.msg[0] = 0;
	av->read_meta = meta != HB_SOURCE_REST;
	if (meta == HB_SOURCE_META)
		return hb_rest_table_regions(c, table, meta, rs, &av->table_state, err);
	if (meta == HB_SOURCE_AUTO) {
		rc = rest_view_from_meta(c, table, rs, &av->table_state, &av->meta_why);
		if (rc == HB_ENOMEM)
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		if (!rc)
			return 0;
		/* No answer in time (or no connection): /T/regions is built from the same
		 * hbase:meta by the same gateway, and would cost the timeout and its retries
		 * again; the run ends with what the meta read met. */
		if (rc == HB_ENET) {
			if (err)
				*err = av->meta_why;
			return hb_error_prefix(err, HB_ENET, "reading table '%s' in hbase:meta",
			                       table);
		}
		/* REST gives what meta did not: its own answer, error and all */
		av->read_meta = 0;
		av->table_state = -1;
	}
	rc = rest_regions(c, table, rs, &ids, err);
	/* REST shows a closed region's last server: learn what is really online. */
	if (!rc)
		rc = region_states(c, table, rs, ids, thrift, av, err);
	free(ids);
	return rc;
}

int hb_rest_regions_checked(struct hb_rest *c, const char *table, int meta,
                            const struct hb_thrift2_channel *thrift, struct hb_regions *rs,
                            struct hb_table_avail *av, struct hb_findings *f, struct hb_error *err)
{
	int rc = hb_rest_regions_avail(c, table, meta, thrift, rs, av, err);

	/* unknown state is never health: REST lists a disabled table's regions as if online */
	if (!rc && hb_audit_availability(f, table, av, rs, ""))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	return rc;
}

int hb_rest_explain_disabled(struct hb_rest *c, const char *table, struct hb_error *err)
{
	struct hb_error e2 = {0};
	int state = -1;

	if ((err->code != HB_ESERVER && err->code != HB_EFINDING) ||
	    hb_rest_table_state(c, table, &state, &e2) ||
	    (state != HB_TABLE_DISABLED && state != HB_TABLE_DISABLING))
		return 0;
	hb_error_set(err, HB_ESERVER, "table '%s' is disabled", table);
	return 1;
}
