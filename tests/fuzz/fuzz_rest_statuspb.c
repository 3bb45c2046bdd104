/* /status/cluster's protobuf body (core/restpb_status.h: StorageClusterStatus): every input ends in
 * nodes, dead names and 0, or in HB_ESERVER with a message; every view lies inside the input,
 * names hold no NUL, and a whole read ends at the input's end. The same input read as it
 * arrives (hb_statuspb_stream), in pieces of a size its first byte sets, fails when the whole
 * read fails and otherwise hands on the same nodes, regions, dead names and summary. */
#include "../../core/restpb_status.h"
#include "fuzz.h"

#include <string.h>

static int inside(const uint8_t *data, size_t size, const unsigned char *p, size_t n)
{
	return (n == 0) || (p >= data && n <= size && p <= data + size - n);
}

/* What is handed on, as a running sum: each node once (the stream says a node when its name
 * comes, again if it comes again, and at its end), its regions, the dead names. */
struct sum {
	size_t sum, last;
};

static int sum_node(void *ctx, const struct hb_statuspb_node *n, struct hb_error *err)
{
	struct sum *s = ctx;

	(void)err;
	if (s->last != n->index + 1)
		s->sum = s->sum * 31 + n->index * 3 + 1;
	s->last = n->index + 1;
	return 0;
}

static int sum_region(void *ctx, const struct hb_statuspb_node *n,
                      const struct hb_statuspb_region *r, struct hb_error *err)
{
	struct sum *s = ctx;

	(void)err;
	s->sum = s->sum * 31 + n->index * 5 + r->name_len + (size_t)r->write_requests;
	return 0;
}

static int sum_dead(void *ctx, const unsigned char *name, size_t len, struct hb_error *err)
{
	struct sum *s = ctx;

	(void)name;
	(void)err;
	s->sum = s->sum * 31 + len + 11;
	return 0;
}

static int streamed(const uint8_t *data, size_t size, struct sum *sum, int64_t *regions)
{
	struct hb_statuspb_fns fns = {sum_node, sum_region, sum_dead, sum};
	struct hb_statuspb_stream ss;
	struct hb_error err = {0};
	size_t piece = size ? 1 + data[0] % 61 : 1, at;
	int rc = 0;

	sum->sum = sum->last = 0;
	hb_statuspb_stream_init(&ss, "GET /status/cluster", &fns);
	for (at = 0; !rc && at < size; at += piece)
		rc = hb_statuspb_stream_push(&ss, data + at, at + piece > size ? size - at : piece,
		                             &err);
	if (!rc)
		rc = hb_statuspb_stream_end(&ss, &err);
	FUZZ_CHECK(!rc || err.msg[0]);
	*regions = ss.regions;
	hb_statuspb_stream_release(&ss);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sum ssum, wsum = {0, 0};
	int64_t sregions;
	int src = streamed(data, size, &ssum, &sregions);
	struct hb_statuspb_reader rd;
	struct hb_statuspb_node node;
	struct hb_error err = {0};
	const unsigned char *dead;
	size_t dead_len;
	int rc;

	hb_statuspb_reader_init(&rd, data, size, "GET /status/cluster");
	while ((rc = hb_statuspb_next(&rd, &node, &dead, &dead_len, &err)) > 0) {
		struct hb_statuspb_region reg;

		if (rc == HB_STATUSPB_DEAD) {
			FUZZ_CHECK(inside(data, size, dead, dead_len));
			FUZZ_CHECK(!memchr(dead, 0, dead_len));
			sum_dead(&wsum, dead, dead_len, &err);
			continue;
		}
		FUZZ_CHECK(rc == HB_STATUSPB_NODE);
		FUZZ_CHECK(inside(data, size, node.name, node.name_len));
		FUZZ_CHECK(!memchr(node.name, 0, node.name_len));
		/* the stream says a node when its name comes and again at its end */
		sum_node(&wsum, &node, &err);
		while ((rc = hb_statuspb_next_region(&rd, &reg, &err)) == 1) {
			FUZZ_CHECK(inside(data, size, reg.name, reg.name_len));
			FUZZ_CHECK(hb_statuspb_at(&rd) <= data + size);
			sum_region(&wsum, &node, &reg, &err);
		}
		if (rc)
			break;
	}
	FUZZ_CHECK(rc == 0 || (rc == HB_ESERVER && err.msg[0]));
	FUZZ_CHECK(rc || rd.pos == size);
	FUZZ_CHECK(!src == !rc);
	FUZZ_CHECK(rc || (sregions == rd.regions && ssum.sum == wsum.sum));
	return 0;
}
