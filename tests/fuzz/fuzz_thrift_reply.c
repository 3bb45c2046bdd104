/* Thrift2 replies: hb_thrift_reply_parse for the methods hbtab calls (the first byte picks
 * one), then every typed reading of field 0. */
#include "../../core/thrift.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const methods[] = {"getAllRegionLocations", "tableExists",
	                                      "getTableDescriptor", "createTable", "deleteTable"};
	struct hb_thrift_reply r;
	struct hb_regions rs;
	struct hb_schema s;
	struct hb_error err = {0};
	const char *method;
	int rc, b;

	if (!size)
		return 0;
	method = methods[data[0] % HB_ARRAY_LEN(methods)];
	hb_thrift_reply_init(&r);
	hb_regions_init(&rs);
	hb_schema_init(&s);
	rc = hb_thrift_reply_parse(&r, data + 1, size - 1, method, 1, &err);
	if (rc) {
		FUZZ_CHECK((rc == HB_ESERVER || rc == HB_ENOMEM) && err.msg[0]);
		goto done;
	}
	rc = hb_thrift_reply_error(&r, method, &err);
	FUZZ_CHECK(!rc == (r.outcome == HB_TR_VOID || r.outcome == HB_TR_SUCCESS));
	if (rc) {
		FUZZ_CHECK(rc == HB_ESERVER && err.msg[0]);
		goto done;
	}
	if (r.outcome == HB_TR_SUCCESS)
		FUZZ_CHECK(r.success >= data + 1 && r.success + r.success_len <= data + size);
	rc = hb_thrift_reply_bool(&r, &b, &err);
	FUZZ_CHECK(rc ? rc == HB_ESERVER : (b == 0 || b == 1));
	rc = hb_thrift_reply_regions(&r, &rs, &err);
	FUZZ_CHECK(!rc || rc == HB_ESERVER || rc == HB_ENOMEM);
	rc = hb_thrift_reply_table_desc(&r, &s, &err);
	FUZZ_CHECK(!rc || rc == HB_ESERVER || rc == HB_ENOMEM);
done:
	hb_schema_release(&s);
	hb_regions_release(&rs);
	hb_thrift_reply_release(&r);
	return 0;
}
