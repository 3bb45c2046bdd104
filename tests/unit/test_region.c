/* The compact region list: every field read back as pushed, shared keys, names rebuilt, states
 * replaced, compaction in place and the (stable) sort. */
#include "core/buf.h"
#include "core/region.h"
#include "core/regioninfo.h"
#include "test.h"

#include <stdint.h>

static uint64_t seed = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	return t_xorshift(&seed);
}

/* A region with owned fields, varied the way servers vary them. */
struct owned {
	unsigned char start[600], end[600], name[1400];
	char encoded[40], server[300], state[20];
	struct hb_region r;
};

static void make(struct owned *o, const char *table, size_t k)
{
	struct hb_region *r = &o->r;
	size_t i, n;
	int form = (int)(rnd() % 6);

	memset(r, 0, sizeof(*r));
	/* keys: empty, short ASCII, binary with NUL and 0xff, or longer than a name holds */
	n = form == 0 ? 0 : form == 5 ? 400 + rnd() % 100 : 1 + rnd() % 12;
	for (i = 0; i < n; i++)
		o->start[i] = (unsigned char)(form == 1 ? 'a' + rnd() % 26 : rnd());
	r->start = o->start;
	r->start_len = n;
	n = rnd() % 4 ? 1 + rnd() % 12 : 0;
	for (i = 0; i < n; i++)
		o->end[i] = (unsigned char)rnd();
	r->end = o->end;
	r->end_len = n;
	r->id = rnd() % 3 ? 1700000000000ull + k : rnd();
	r->replica_id = rnd() % 5 ? 0 : (int)(rnd() % 70000);
	r->offline = (int)(rnd() & 1);
	r->split = (int)(rnd() & 1);
	r->start_code = rnd() % 3 ? (int64_t)rnd() : 0;
	if (rnd() % 4) {
		snprintf(o->server, sizeof(o->server), "rs%u.example:16020", (unsigned)(rnd() % 5));
		r->server = o->server;
	}
	if (rnd() % 3) {
		static const char *const st[] = {"OPEN", "CLOSED", "OPENING", "SPLIT", ""};

		snprintf(o->state, sizeof(o->state), "%s", st[rnd() % 5]);
		r->state = o->state;
	}
	switch (rnd() % 4) {
	case 0: /* unknown */
		break;
	case 1: /* not 32 hex digits (an old-format Jenkins hash) */
		snprintf(o->encoded, sizeof(o->encoded), "%u", (unsigned)rnd());
		r->encoded = o->encoded;
		break;
	default: {
		struct hb_buf b = HB_BUF_INIT;

		hb_buf_adds(&b, table);
		hb_buf_addc(&b, ',');
		hb_buf_add(&b, r->start, r->start_len);
		hb_buf_addf(&b, ",%llu", (unsigned long long)r->id);
		if (r->replica_id > 0)
			hb_buf_addf(&b, "_%04X", (unsigned)r->replica_id);
		CHECK_EQ_INT(hb_region_encoded_name(o->encoded, b.data, b.len, NULL), 0);
		r->encoded = o->encoded;
		hb_buf_addf(&b, ".%s.", o->encoded);
		if (rnd() % 5 == 0)
			b.data[b.len - 2] ^= 1; /* a name that is not the canonical one */
		memcpy(o->name, b.data, b.len);
		r->name = o->name;
		r->name_len = b.len;
		hb_buf_release(&b);
	}
	}
	if (!r->name && rnd() % 2) {
		memcpy(o->name, "odd\0name", 8);
		r->name = o->name;
		r->name_len = 8;
	}
}

static int bytes_eq(const void *a, size_t an, const void *b, size_t bn)
{
	return an == bn && (!an || !memcmp(a, b, an));
}

static int str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_region(const struct hb_region *a, const struct hb_region *b)
{
	return bytes_eq(a->start, a->start_len, b->start, b->start_len) &&
	       bytes_eq(a->end, a->end_len, b->end, b->end_len) && !a->name == !b->name &&
	       (!a->name || bytes_eq(a->name, a->name_len, b->name, b->name_len)) &&
	       str_eq(a->encoded, b->encoded) && str_eq(a->server, b->server) &&
	       str_eq(a->state, b->state) && a->id == b->id && a->start_code == b->start_code &&
	       a->replica_id == b->replica_id && !a->offline == !b->offline &&
	       !a->split == !b->split;
}

static void test_region__every_field_reads_back_as_pushed(void)
{
	enum { N = 3000 };
	static struct owned o[N];
	struct hb_regions rs;
	size_t i, bad = 0;

	hb_regions_init(&rs);
	for (i = 0; i < N; i++) {
		make(&o[i], i % 7 ? "ns:tbl" : "t", i);
		CHECK_EQ_INT(hb_regions_push(&rs, &o[i].r), 0);
	}
	CHECK_EQ_INT(rs.n, N);
	for (i = 0; i < N; i++) {
		struct hb_region_view v;

		if (!same_region(hb_regions_at(&rs, i, &v), &o[i].r))
			bad++;
	}
	CHECK_EQ_INT(bad, 0);
	/* strings read in place are NUL-terminated, like the decoders' */
	for (i = 0; i < N; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at(&rs, i, &v);

		CHECK(r->start[r->start_len] == 0 && r->end[r->end_len] == 0);
		if (r->name && r->name[r->name_len] != 0)
			bad++;
	}
	CHECK_EQ_INT(bad, 0);
	hb_regions_release(&rs);
	CHECK_EQ_INT(rs.n, 0);
}

/* A read without names gives every other field as a full read does. */
static void test_region__a_read_without_names_keeps_the_other_fields(void)
{
	enum { N = 1000 };
	static struct owned o[N];
	struct hb_regions rs;
	size_t i, bad = 0;

	hb_regions_init(&rs);
	for (i = 0; i < N; i++) {
		make(&o[i], "ns:tbl", i);
		CHECK_EQ_INT(hb_regions_push(&rs, &o[i].r), 0);
	}
	for (i = 0; i < N; i++) {
		struct hb_region_view v, w;
		const struct hb_region *full = hb_regions_at(&rs, i, &v);
		struct hb_region r = *hb_regions_at_unnamed(&rs, i, &w);

		if (r.name || r.name_len || r.encoded || r.name_canonical)
			bad++;
		r.name = full->name;
		r.name_len = full->name_len;
		r.encoded = full->encoded;
		if (!same_region(&r, &o[i].r))
			bad++;
	}
	CHECK_EQ_INT(bad, 0);
	hb_regions_release(&rs);
}

/* A chain shares each bound between the region it ends and the one it starts, and a
 * canonical name is not stored: the arena holds each key about once. */
static void test_region__a_chain_keeps_each_key_once(void)
{
	struct hb_regions rs;
	struct hb_buf name = HB_BUF_INIT;
	char keys[1001][9], enc[33];
	size_t i;

	hb_regions_init(&rs);
	for (i = 0; i <= 1000; i++)
		snprintf(keys[i], sizeof(keys[i]), "%08zx", i * 4096);
	for (i = 0; i <= 1000; i++) {
		struct hb_region r;

		memset(&r, 0, sizeof(r));
		r.start = (unsigned char *)(i ? keys[i - 1] : "");
		r.start_len = i ? 8 : 0;
		r.end = (unsigned char *)(i < 1000 ? keys[i] : "");
		r.end_len = i < 1000 ? 8 : 0;
		r.id = 1700000000000ull;
		hb_buf_reset(&name);
		hb_buf_addf(&name, "bench,%.*s,%llu", (int)r.start_len, (const char *)r.start,
		            (unsigned long long)r.id);
		CHECK_EQ_INT(hb_region_encoded_name(enc, name.data, name.len, NULL), 0);
		hb_buf_addf(&name, ".%s.", enc);
		r.name = (unsigned char *)name.data;
		r.name_len = name.len;
		r.encoded = enc;
		r.server = "rs1:16020";
		r.state = "OPEN";
		CHECK_EQ_INT(hb_regions_push(&rs, &r), 0);
	}
	/* 1000 keys of 8 bytes with a length byte and a NUL, the table prefix and the empty key */
	CHECK(rs.arena_len <= 1000 * 10 + 16);
	CHECK_EQ_INT(rs.locs.n, 1);
	CHECK_EQ_INT(rs.states.n, 1);
	{
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at(&rs, 5, &v);

		hb_buf_reset(&name);
		hb_buf_addf(&name, "bench,%s,1700000000000", keys[4]);
		CHECK_EQ_INT(hb_region_encoded_name(enc, name.data, name.len, NULL), 0);
		hb_buf_addf(&name, ".%s.", enc);
		CHECK(bytes_eq(r->name, r->name_len, name.data, name.len));
		CHECK_EQ_STR(r->encoded, enc);
		CHECK_EQ_STR(r->server, "rs1:16020");
	}
	hb_buf_release(&name);
	hb_regions_release(&rs);
}

/* The canonical name of a region of table t into b (its encoded name into enc). */
static void canonical_name(struct hb_buf *b, const char *t, const struct hb_region *r, char *enc)
{
	hb_buf_reset(b);
	hb_buf_addf(b, "%s,", t);
	hb_buf_add(b, r->start, r->start_len);
	hb_buf_addf(b, ",%llu", (unsigned long long)r->id);
	if (r->replica_id > 0)
		hb_buf_addf(b, "_%04X", (unsigned)r->replica_id);
	CHECK_EQ_INT(hb_region_encoded_name(enc, b->data, b->len, NULL), 0);
	hb_buf_addf(b, ".%s.", enc);
}

/* Pushes r into rs and checks that it reads back with the name given. */
static int pushed_reads_back(struct hb_regions *rs, const struct hb_region *r)
{
	struct hb_region_view v;
	const struct hb_region *got;

	if (hb_regions_push(rs, r))
		return 0;
	got = hb_regions_at(rs, rs->n - 1, &v);
	return bytes_eq(got->name, got->name_len, r->name, r->name_len) &&
	       str_eq(got->encoded, r->encoded);
}

/* A producer's word that a name is canonical keeps it as compactly as a name compared byte
 * for byte, reads back the same, and a view passes the word on; a name that cannot be the
 * canonical one (another table, a replica part missing, an odd encoded name) is kept as given
 * whatever the word says. */
static void test_region__a_canonical_name_hint_reads_back_the_same(void)
{
	enum { N = 500 };
	struct hb_regions plain, hinted, copy;
	struct hb_buf name = HB_BUF_INIT;
	unsigned char key[40];
	char enc[33];
	size_t i, k, bad = 0;

	hb_regions_init(&plain);
	hb_regions_init(&hinted);
	hb_regions_init(&copy);
	for (i = 0; i < N; i++) {
		struct hb_region r;

		memset(&r, 0, sizeof(r));
		r.start_len = i ? 1 + rnd() % sizeof(key) : 0;
		for (k = 0; k < r.start_len; k++)
			key[k] = (unsigned char)rnd();
		r.start = key;
		r.id = rnd() % 2 ? rnd() : 1700000000000ull + i;
		r.replica_id = rnd() % 3 ? 0 : (int)(rnd() % 0x7fffffff);
		canonical_name(&name, "ns:tbl", &r, enc);
		r.name = (unsigned char *)name.data;
		r.name_len = name.len;
		r.encoded = enc;
		if (!pushed_reads_back(&plain, &r))
			bad++;
		r.name_canonical = 1;
		if (!pushed_reads_back(&hinted, &r))
			bad++;
	}
	CHECK_EQ_INT(bad, 0);
	CHECK_EQ_INT(hinted.arena_len, plain.arena_len);
	for (i = 0; i < N; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at(&hinted, i, &v);

		CHECK(r->name_canonical);
		CHECK_EQ_INT(hb_regions_push(&copy, r), 0);
	}
	CHECK_EQ_INT(copy.arena_len, hinted.arena_len);
	/* names that are not canonical, each with the word */
	{
		struct hb_region r;
		size_t before = hinted.arena_len;

		memset(&r, 0, sizeof(r));
		r.start = (unsigned char *)"k";
		r.start_len = 1;
		r.id = 1700000000000ull;
		r.name_canonical = 1;
		canonical_name(&name, "other", &r, enc);
		r.name = (unsigned char *)name.data;
		r.name_len = name.len;
		r.encoded = enc;
		CHECK(pushed_reads_back(&hinted, &r)); /* another table */
		r.replica_id = 2;
		CHECK(pushed_reads_back(&hinted, &r)); /* no _0002 part */
		canonical_name(&name, "ns:tbl", &r, enc);
		r.name = (unsigned char *)name.data;
		r.name_len = name.len;
		r.encoded = "12345";
		CHECK(pushed_reads_back(&hinted, &r)); /* not 32 hex digits */
		CHECK(hinted.arena_len > before + 3 * 40);
	}
	hb_buf_release(&name);
	hb_regions_release(&plain);
	hb_regions_release(&hinted);
	hb_regions_release(&copy);
}

/* Names around the length a view rebuilds in place: shorter ones are rebuilt, longer ones
 * stored, and each reads back whole. */
static void test_region__names_at_the_inline_limit_read_back(void)
{
	struct hb_regions rs;
	struct hb_buf name = HB_BUF_INIT;
	unsigned char key[HB_REGION_NAME_INLINE];
	char enc[33];
	size_t len, bad = 0, prefix = strlen("t,") + strlen(",1700000000000") + 34;

	memset(key, 'k', sizeof(key));
	hb_regions_init(&rs);
	for (len = HB_REGION_NAME_INLINE - prefix - 3; len <= HB_REGION_NAME_INLINE - prefix + 3;
	     len++) {
		struct hb_region r;
		struct hb_region_view v;
		const struct hb_region *got;

		memset(&r, 0, sizeof(r));
		r.start = key;
		r.start_len = len;
		r.id = 1700000000000ull;
		hb_buf_reset(&name);
		hb_buf_adds(&name, "t,");
		hb_buf_add(&name, key, len);
		hb_buf_adds(&name, ",1700000000000");
		CHECK_EQ_INT(hb_region_encoded_name(enc, name.data, name.len, NULL), 0);
		hb_buf_addf(&name, ".%s.", enc);
		r.name = (unsigned char *)name.data;
		r.name_len = name.len;
		r.encoded = enc;
		CHECK_EQ_INT(hb_regions_push(&rs, &r), 0);
		got = hb_regions_at(&rs, rs.n - 1, &v);
		if (!bytes_eq(got->name, got->name_len, name.data, name.len) ||
		    got->name[got->name_len] != 0)
			bad++;
	}
	CHECK_EQ_INT(bad, 0);
	hb_buf_release(&name);
	hb_regions_release(&rs);
}

static void test_region__states_change_and_lists_compact_in_place(void)
{
	struct hb_regions rs;
	struct hb_region_view v;
	static const char *const starts[] = {"", "b", "c", "d"};
	size_t i;

	hb_regions_init(&rs);
	for (i = 0; i < 4; i++) {
		struct hb_region r;

		memset(&r, 0, sizeof(r));
		r.start = (unsigned char *)starts[i];
		r.start_len = strlen(starts[i]);
		r.end = (unsigned char *)(i < 3 ? starts[i + 1] : "");
		r.end_len = i < 3 ? 1 : 0;
		r.id = i;
		r.state = "OPENING";
		CHECK_EQ_INT(hb_regions_push(&rs, &r), 0);
	}
	CHECK_EQ_INT(hb_regions_set_state(&rs, 1, "OPEN"), 0);
	CHECK_EQ_INT(hb_regions_set_state(&rs, 2, NULL), 0);
	CHECK_EQ_STR(hb_regions_at(&rs, 1, &v)->state, "OPEN");
	CHECK(hb_regions_at(&rs, 2, &v)->state == NULL);
	CHECK_EQ_STR(hb_regions_at(&rs, 3, &v)->state, "OPENING");
	hb_regions_move(&rs, 1, 3);
	hb_regions_truncate(&rs, 2);
	CHECK_EQ_INT(rs.n, 2);
	CHECK_EQ_INT(hb_regions_at(&rs, 1, &v)->id, 3);
	CHECK_EQ_INT(hb_regions_at(&rs, 1, &v)->start[0], 'd');
	hb_regions_release(&rs);
}

static int cmp_bounds_id(const struct hb_region *a, const struct hb_region *b)
{
	size_t n = a->start_len < b->start_len ? a->start_len : b->start_len;
	int c = n ? memcmp(a->start, b->start, n) : 0;

	if (c || a->start_len != b->start_len)
		return c ? c : a->start_len < b->start_len ? -1 : 1;
	if (!a->end_len != !b->end_len)
		return a->end_len ? -1 : 1;
	n = a->end_len < b->end_len ? a->end_len : b->end_len;
	c = n ? memcmp(a->end, b->end, n) : 0;
	if (c || a->end_len != b->end_len)
		return c ? c : a->end_len < b->end_len ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Sorted by start, end (empty last) and id; equal regions keep their order (the REST
 * listing's replica entries). */
static void test_region__sort_orders_bounds_then_id_and_is_stable(void)
{
	enum { N = 2000 };
	struct hb_regions rs;
	size_t i, bad = 0;

	hb_regions_init(&rs);
	for (i = 0; i < N; i++) {
		unsigned char s[2] = {(unsigned char)(rnd() % 4), (unsigned char)(rnd() % 3)};
		unsigned char e[1] = {(unsigned char)(rnd() % 3)};
		char server[32];
		struct hb_region r;

		memset(&r, 0, sizeof(r));
		r.start = s;
		r.start_len = rnd() % 2 + 1;
		r.end = e;
		r.end_len = rnd() % 2;
		r.id = rnd() % 3;
		snprintf(server, sizeof(server), "rs:%zu", i); /* the push order */
		r.server = server;
		CHECK_EQ_INT(hb_regions_push(&rs, &r), 0);
	}
	hb_regions_sort(&rs);
	CHECK_EQ_INT(rs.n, N);
	for (i = 1; i < N; i++) {
		struct hb_region_view a, b;
		const struct hb_region *x = hb_regions_at(&rs, i - 1, &a);
		const struct hb_region *y = hb_regions_at(&rs, i, &b);
		int c = cmp_bounds_id(x, y);

		if (c > 0 || (!c && atoi(x->server + 3) > atoi(y->server + 3)))
			bad++;
	}
	CHECK_EQ_INT(bad, 0);
	hb_regions_release(&rs);
}

int main(void)
{
	RUN(test_region__every_field_reads_back_as_pushed);
	RUN(test_region__a_read_without_names_keeps_the_other_fields);
	RUN(test_region__a_chain_keeps_each_key_once);
	RUN(test_region__a_canonical_name_hint_reads_back_the_same);
	RUN(test_region__names_at_the_inline_limit_read_back);
	RUN(test_region__states_change_and_lists_compact_in_place);
	RUN(test_region__sort_orders_bounds_then_id_and_is_stable);
	return TEST_DONE();
}
