/* /status/cluster's protobuf body (core/restpb.h: StorageClusterStatus): every input ends in
 * nodes, dead names and 0, or in HB_ESERVER with a message; every view lies inside the input,
 * names hold no NUL, and a whole read ends at the input's end. */
#include "../../core/restpb.h"
#include "fuzz.h"

#include <string.h>

static int inside(const uint8_t *data, size_t size, const unsigned char *p, size_t n)
{
	return (n == 0) || (p >= data && n <= size && p <= data + size - n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
			continue;
		}
		FUZZ_CHECK(rc == HB_STATUSPB_NODE);
		FUZZ_CHECK(inside(data, size, node.name, node.name_len));
		FUZZ_CHECK(!memchr(node.name, 0, node.name_len));
		while ((rc = hb_statuspb_next_region(&rd, &reg, &err)) == 1) {
			FUZZ_CHECK(inside(data, size, reg.name, reg.name_len));
			FUZZ_CHECK(hb_statuspb_at(&rd) <= data + size);
		}
		if (rc)
			break;
	}
	FUZZ_CHECK(rc == 0 || (rc == HB_ESERVER && err.msg[0]));
	FUZZ_CHECK(rc || rd.pos == size);
	return 0;
}
