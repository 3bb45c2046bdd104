/* THBaseService (Thrift2) DDL messages: their encoding and the bounds-checked decoding of the
 * replies, over the TBinaryProtocol of core/tbinary.c. */
#include "thrift.h"
#include "family.h"
#include "key.h"

#include <stdint.h>
#include <stdio.h> /* snprintf only */
#include <stdlib.h>
#include <string.h>

/* ---- column-family attributes on the wire ---- */

/* The typed attributes' rules are core/family.h's; here only how TColumnFamilyDescriptor
 * carries them: a field id, and for enums the wire value of each name. */
struct cf_enum {
	const char *name;
	int value;
};

static const struct cf_enum bloom_enum[] = {
    {"NONE", 0}, {"ROW", 1}, {"ROWCOL", 2}, {"ROWPREFIX_FIXED_LENGTH", 3}, {NULL, 0}};
/* Compression.Algorithm names. LZMA and BROTLI (HBase 2.5+) have no TCompressionAlgorithm
 * value: they travel in the family's attribute map, which
 * ThriftUtilities.columnFamilyDescriptorFromThrift applies with setValue. */
static const struct cf_enum compression_enum[] = {{"LZO", 0},    {"GZ", 1},  {"NONE", 2},
                                                  {"SNAPPY", 3}, {"LZ4", 4}, {"BZIP2", 5},
                                                  {"ZSTD", 6},   {NULL, 0}};
static const struct cf_enum encoding_enum[] = {{"NONE", 0},      {"PREFIX", 2},       {"DIFF", 3},
                                               {"FAST_DIFF", 4}, {"ROW_INDEX_V1", 7}, {NULL, 0}};
static const struct cf_enum kdc_enum[] = {{"FALSE", 0}, {"TRUE", 1}, {"TTL", 2}, {NULL, 0}};

struct cf_field {
	const char *attr;
	int16_t id;
	const struct cf_enum *values; /* enums only */
};

/* TColumnFamilyDescriptor fields (docs/hbase-wire.md §8.2) in field-id order. */
static const struct cf_field cf_fields[] = {
    {"BLOCKSIZE", 4, NULL},
    {"BLOOMFILTER", 5, bloom_enum},
    {"COMPRESSION", 6, compression_enum},
    {"DATA_BLOCK_ENCODING", 8, encoding_enum},
    {"KEEP_DELETED_CELLS", 9, kdc_enum},
    {"VERSIONS", 10, NULL},
    {"MIN_VERSIONS", 11, NULL},
    {"REPLICATION_SCOPE", 12, NULL},
    {"TTL", 13, NULL},
    {"BLOCKCACHE", 14, NULL},
    {"IN_MEMORY", 20, NULL},
};

/* The wire value of an enum name, or -1 when the enum has none (the name goes in the map). */
static int enum_value(const struct cf_enum *e, const char *name)
{
	for (; e->name; e++)
		if (!strcmp(e->name, name))
			return e->value;
	return -1;
}

/*
 * The field that carries attribute key = value (checked by its rule), or NULL when a travels in the
 * attribute map. *v is the value to send: the number, the boolean or the enum's wire value.
 */
static int cf_field_for(const char *key, const char *value, const char *family,
                        const struct cf_field **out, int32_t *v, struct hb_error *err)
{
	const struct hb_cfattr *rule = hb_cfattr_find(key);
	const char *canon;
	size_t i;
	int rc;

	*out = NULL;
	if (!rule)
		return 0;
	rc = hb_cfattr_value(rule, value, family, v, &canon, err);
	if (rc)
		return rc;
	for (i = 0; i < HB_ARRAY_LEN(cf_fields); i++)
		if (!strcmp(cf_fields[i].attr, rule->name))
			break;
	if (i == HB_ARRAY_LEN(cf_fields))
		return 0;
	if (cf_fields[i].values) {
		int w = enum_value(cf_fields[i].values, canon ? canon : value);

		if (w < 0)
			return 0;
		*v = w;
	}
	*out = &cf_fields[i];
	return 0;
}

/* ---- encoders ---- */

static int write_tname(struct hb_buf *out, int16_t id, const char *table)
{
	const char *colon = strchr(table, ':');
	const char *ns = "default", *q = table;
	size_t nslen = 7;
	int rc;

	if (colon) {
		ns = table;
		nslen = (size_t)(colon - table);
		q = colon + 1;
	}
	rc = hb_thrift_write_field(out, HB_TT_STRUCT, id);
	if (!rc)
		rc = hb_thrift_write_field(out, HB_TT_STRING, 1);
	if (!rc)
		rc = hb_thrift_write_binary(out, ns, nslen);
	if (!rc)
		rc = hb_thrift_write_field(out, HB_TT_STRING, 2);
	if (!rc)
		rc = hb_thrift_write_binary(out, q, strlen(q));
	return rc ? rc : hb_thrift_write_stop(out);
}

/* A family attribute that a TColumnFamilyDescriptor field carries (else: the map). A value
 * its rule refuses goes nowhere here: write_family reports it. */
static int in_struct(const struct hb_attr *a)
{
	const struct cf_field *cf;
	int32_t v;

	return !cf_field_for(a->key, a->value, "", &cf, &v, NULL) && cf;
}

static int write_attr_map(struct hb_buf *out, int16_t id, const struct hb_attrs *a, int skip_known)
{
	size_t i, n = 0;
	int rc;

	for (i = 0; i < a->n; i++)
		if (!skip_known || !in_struct(&a->v[i]))
			n++;
	if (!n)
		return 0;
	rc = hb_thrift_write_field(out, HB_TT_MAP, id);
	if (!rc)
		rc = hb_thrift_write_map_begin(out, HB_TT_STRING, HB_TT_STRING, (uint32_t)n);
	for (i = 0; !rc && i < a->n; i++) {
		if (skip_known && in_struct(&a->v[i]))
			continue;
		rc = hb_thrift_write_binary(out, a->v[i].key, strlen(a->v[i].key));
		if (!rc)
			rc = hb_thrift_write_binary(out, a->v[i].value, strlen(a->v[i].value));
	}
	return rc;
}

static int write_family(struct hb_buf *out, const struct hb_family *f, struct hb_error *err)
{
	size_t k;
	int rc;

	rc = hb_thrift_write_field(out, HB_TT_STRING, 1);
	if (!rc)
		rc = hb_thrift_write_binary(out, f->name, strlen(f->name));
	if (!rc)
		rc = write_attr_map(out, 2, &f->attrs, 1);
	for (k = 0; !rc && k < HB_ARRAY_LEN(cf_fields); k++) {
		const char *val = hb_attrs_get(&f->attrs, cf_fields[k].attr);
		const struct cf_field *cf;
		int32_t v;

		if (!val)
			continue;
		rc = cf_field_for(cf_fields[k].attr, val, f->name, &cf, &v, err);
		if (rc)
			return rc;
		if (!cf)
			continue; /* sent in the attribute map */
		if (hb_cfattr_find(cf->attr)->kind == HB_CFATTR_BOOL) {
			rc = hb_thrift_write_field(out, HB_TT_BOOL, cf->id);
			if (!rc)
				rc = hb_thrift_write_bool(out, v);
		} else {
			rc = hb_thrift_write_field(out, HB_TT_I32, cf->id);
			if (!rc)
				rc = hb_thrift_write_i32(out, v);
		}
	}
	return rc ? rc : hb_thrift_write_stop(out);
}

static int enc_fail(int rc, struct hb_error *err)
{
	if (rc == HB_EINVAL && err && err->code == HB_EINVAL)
		return rc;
	if (rc == HB_ENOMEM)
		return hb_error_set(err, rc, "out of memory");
	return hb_error_set(err, rc, "thrift message too large");
}

int hb_thrift_encode_create_table(struct hb_buf *out, int32_t seqid, const struct hb_schema *s,
                                  const struct hb_keys *splits, struct hb_error *err)
{
	size_t i;
	int rc;

	if (err)
		err->code = 0;
	rc = hb_thrift_write_msg_begin(out, "createTable", HB_TMSG_CALL, seqid);
	/* 1: TTableDescriptor desc */
	if (!rc)
		rc = hb_thrift_write_field(out, HB_TT_STRUCT, 1);
	if (!rc)
		rc = write_tname(out, 1, s->table);
	if (!rc)
		rc = hb_thrift_write_field(out, HB_TT_LIST, 2);
	if (!rc)
		rc = hb_thrift_write_list_begin(out, HB_TT_STRUCT, (uint32_t)s->nfamilies);
	for (i = 0; !rc && i < s->nfamilies; i++)
		rc = write_family(out, &s->families[i], err);
	if (!rc)
		rc = write_attr_map(out, 3, &s->attrs, 0);
	if (!rc)
		rc = hb_thrift_write_stop(out);
	/* 2: list<binary> splitKeys */
	if (!rc && splits && splits->n) {
		rc = hb_thrift_write_field(out, HB_TT_LIST, 2);
		if (!rc)
			rc = hb_thrift_write_list_begin(out, HB_TT_STRING, (uint32_t)splits->n);
		for (i = 0; !rc && i < splits->n; i++) {
			size_t kl;
			const unsigned char *k = hb_keys_at(splits, i, &kl);

			rc = hb_thrift_write_binary(out, k, kl);
		}
	}
	if (!rc)
		rc = hb_thrift_write_stop(out);
	return rc ? enc_fail(rc, err) : 0;
}

int hb_thrift_encode_table_call(struct hb_buf *out, const char *method, int32_t seqid,
                                const char *table, struct hb_error *err)
{
	int rc = hb_thrift_write_msg_begin(out, method, HB_TMSG_CALL, seqid);

	if (!rc)
		rc = write_tname(out, 1, table);
	if (!rc)
		rc = hb_thrift_write_stop(out);
	return rc ? enc_fail(rc, err) : 0;
}

int hb_thrift_encode_truncate_table(struct hb_buf *out, int32_t seqid, const char *table,
                                    int preserve_splits, struct hb_error *err)
{
	int rc = hb_thrift_write_msg_begin(out, "truncateTable", HB_TMSG_CALL, seqid);

	if (!rc)
		rc = write_tname(out, 1, table);
	if (!rc)
		rc = hb_thrift_write_field(out, HB_TT_BOOL, 2);
	if (!rc)
		rc = hb_thrift_write_bool(out, preserve_splits);
	if (!rc)
		rc = hb_thrift_write_stop(out);
	return rc ? enc_fail(rc, err) : 0;
}

int hb_thrift_encode_region_locations(struct hb_buf *out, int32_t seqid, const char *table,
                                      struct hb_error *err)
{
	int rc = hb_thrift_write_msg_begin(out, "getAllRegionLocations", HB_TMSG_CALL, seqid);

	if (!rc)
		rc = hb_thrift_write_field(out, HB_TT_STRING, 1);
	if (!rc)
		rc = hb_thrift_write_binary(out, table, strlen(table));
	if (!rc)
		rc = hb_thrift_write_stop(out);
	return rc ? enc_fail(rc, err) : 0;
}

/* ---- decoders ---- */

static int wrong_type(const char *what, int got, int want, struct hb_error *err)
{
	return hb_error_set(err, HB_ESERVER, "malformed thrift reply: %s has type %d, expected %d",
	                    what, got, want);
}

static char *dup_span(const unsigned char *p, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		if (n)
			memcpy(s, p, n);
		s[n] = 0;
	}
	return s;
}

/* Copies binary bytes into a C string; NUL bytes would truncate it, so they are refused. */
static int span_cstr(char **out, const unsigned char *p, size_t n, const char *what,
                     struct hb_error *err)
{
	if (memchr(p, 0, n))
		return hb_error_set(err, HB_ESERVER, "malformed thrift reply: NUL byte in %s",
		                    what);
	*out = dup_span(p, n);
	return *out ? 0 : hb_error_set(err, HB_ENOMEM, "out of memory");
}

/* Reads a struct with optional `1: string message` and (TIOError) `2: bool canRetry`. */
static int read_exception(struct hb_thrift_rd *r, struct hb_thrift_reply *out, int app,
                          struct hb_error *err)
{
	int t, b;
	int16_t id;
	const unsigned char *p;
	size_t n;

	for (;;) {
		if (hb_thrift_read_field(r, &t, &id, err))
			return HB_ESERVER;
		if (t == HB_TT_STOP)
			return 0;
		if (id == 1 && t == HB_TT_STRING) {
			if (hb_thrift_read_binary(r, &p, &n, err))
				return HB_ESERVER;
			free(out->message);
			out->message = dup_span(p, n);
			if (!out->message)
				return hb_error_set(err, HB_ENOMEM, "out of memory");
		} else if (id == 2 && !app && t == HB_TT_BOOL) {
			if (hb_thrift_read_bool(r, &b, err))
				return HB_ESERVER;
			out->can_retry = b;
		} else if (id == 2 && app && t == HB_TT_I32) {
			if (hb_thrift_read_i32(r, &out->app_type, err))
				return HB_ESERVER;
		} else if (hb_thrift_skip(r, t, err)) {
			return HB_ESERVER;
		}
	}
}

void hb_thrift_reply_init(struct hb_thrift_reply *r)
{
	memset(r, 0, sizeof(*r));
	r->can_retry = -1;
	r->app_type = -1;
}

void hb_thrift_reply_release(struct hb_thrift_reply *r)
{
	free(r->message);
	hb_thrift_reply_init(r);
}

int hb_thrift_reply_parse(struct hb_thrift_reply *out, const void *p, size_t n, const char *method,
                          int32_t seqid, struct hb_error *err)
{
	struct hb_thrift_rd r;
	const unsigned char *name;
	size_t name_len;
	int type = 0, t;
	int32_t sid = 0;
	int16_t id;

	hb_thrift_reply_release(out);
	hb_thrift_rd_init(&r, p, n);
	if (n == 0)
		return hb_error_set(err, HB_ESERVER, "malformed thrift reply: empty body");
	if (hb_thrift_read_msg_begin(&r, &name, &name_len, &type, &sid, err))
		return HB_ESERVER;
	if (type == HB_TMSG_EXCEPTION) {
		out->outcome = HB_TR_APP_EXCEPTION;
		return read_exception(&r, out, 1, err);
	}
	if (type != HB_TMSG_REPLY)
		return hb_error_set(err, HB_ESERVER,
		                    "malformed thrift reply: message type %d, expected REPLY",
		                    type);
	if (name_len != strlen(method) || memcmp(name, method, name_len))
		return hb_error_set(
		    err, HB_ESERVER, "malformed thrift reply: answers method '%.*s', expected '%s'",
		    (int)(name_len > 64 ? 64 : name_len), (const char *)name, method);
	if (sid != seqid)
		return hb_error_set(err, HB_ESERVER,
		                    "malformed thrift reply: sequence id %ld, expected %ld",
		                    (long)sid, (long)seqid);
	out->outcome = HB_TR_VOID;
	for (;;) {
		size_t start;

		if (hb_thrift_read_field(&r, &t, &id, err))
			return HB_ESERVER;
		if (t == HB_TT_STOP)
			break;
		start = r.pos;
		if (id == 0) {
			if (hb_thrift_skip(&r, t, err))
				return HB_ESERVER;
			out->outcome = HB_TR_SUCCESS;
			out->success_type = t;
			out->success = r.p + start;
			out->success_len = r.pos - start;
		} else if ((id == 1 || id == 2) && t == HB_TT_STRUCT) {
			out->outcome = id == 1 ? HB_TR_IOERROR : HB_TR_ILLEGAL_ARG;
			int rc = read_exception(&r, out, 0, err);

			if (rc)
				return rc;
		} else if (hb_thrift_skip(&r, t, err)) {
			return HB_ESERVER;
		}
	}
	return 0;
}

const char *hb_thrift_app_type_name(int32_t type)
{
	static const char *const names[] = {
	    "UNKNOWN",           "UNKNOWN_METHOD",   "INVALID_MESSAGE_TYPE",   "WRONG_METHOD_NAME",
	    "BAD_SEQUENCE_ID",   "MISSING_RESULT",   "INTERNAL_ERROR",         "PROTOCOL_ERROR",
	    "INVALID_TRANSFORM", "INVALID_PROTOCOL", "UNSUPPORTED_CLIENT_TYPE"};

	if (type < 0 || (size_t)type >= HB_ARRAY_LEN(names))
		return "UNKNOWN";
	return names[type];
}

int hb_thrift_reply_error(const struct hb_thrift_reply *r, const char *method, struct hb_error *err)
{
	const char *msg = r->message && r->message[0] ? r->message : "(no message)";
	/* HBase's Thrift2 handler puts the Java stack trace after the message's first line */
	int len = (int)strcspn(msg, "\r\n");
	char denied[400];

	switch (r->outcome) {
	case HB_TR_VOID:
	case HB_TR_SUCCESS:
		return 0;
	case HB_TR_IOERROR:
		if (hb_error_denied(denied, sizeof(denied), msg))
			return hb_error_set(err, HB_ESERVER, "thrift2 %s: %s", method, denied);
		return hb_error_set(err, HB_ESERVER, "thrift2 %s: server error (TIOError%s): %.*s",
		                    method,
		                    r->can_retry == 1   ? ", retryable"
		                    : r->can_retry == 0 ? ", not retryable"
		                                        : "",
		                    len, msg);
	case HB_TR_ILLEGAL_ARG:
		return hb_error_set(err, HB_ESERVER, "thrift2 %s: illegal argument: %.*s", method,
		                    len, msg);
	case HB_TR_APP_EXCEPTION:
		if (r->app_type == 1)
			return hb_error_set(
			    err, HB_ESERVER,
			    "thrift2 %s: the server does not know this method (%s); "
			    "Thrift2 DDL needs HBase 2.2 or later (1.7.1 or later on 1.x)",
			    method, msg);
		return hb_error_set(err, HB_ESERVER, "thrift2 %s: %s: %s", method,
		                    hb_thrift_app_type_name(r->app_type), msg);
	}
	return hb_error_set(err, HB_ESERVER, "thrift2 %s: unexpected reply", method);
}

/* A reader over a successful reply's result value, which must be of type want (what names it).
 * On a failure rd is an empty reader, so it is defined on every path. */
static int result_reader(const struct hb_thrift_reply *r, int want, const char *what,
                         struct hb_thrift_rd *rd, struct hb_error *err)
{
	hb_thrift_rd_init(rd, NULL, 0);
	if (r->outcome != HB_TR_SUCCESS)
		return hb_error_set(err, HB_ESERVER, "malformed thrift reply: no result value");
	if (r->success_type != want)
		return wrong_type(what, r->success_type, want, err);
	hb_thrift_rd_init(rd, r->success, r->success_len);
	return 0;
}

int hb_thrift_reply_bool(const struct hb_thrift_reply *r, int *out, struct hb_error *err)
{
	struct hb_thrift_rd rd;
	int rc = result_reader(r, HB_TT_BOOL, "the result", &rd, err);

	return rc ? rc : hb_thrift_read_bool(&rd, out, err);
}

static int read_server(struct hb_thrift_rd *r, struct hb_region *reg, struct hb_error *err)
{
	const unsigned char *p = NULL;
	size_t n = 0;
	int32_t port = -1;
	int t, rc;
	int16_t id;

	for (;;) {
		if (hb_thrift_read_field(r, &t, &id, err))
			return HB_ESERVER;
		if (t == HB_TT_STOP)
			break;
		if (id == 1 && t == HB_TT_STRING)
			rc = hb_thrift_read_binary(r, &p, &n, err);
		else if (id == 2 && t == HB_TT_I32)
			rc = hb_thrift_read_i32(r, &port, err);
		else if (id == 3 && t == HB_TT_I64)
			rc = hb_thrift_read_i64(r, &reg->start_code, err);
		else
			rc = hb_thrift_skip(r, t, err);
		if (rc)
			return rc;
	}
	if (p) {
		struct hb_buf b = HB_BUF_INIT;

		if (memchr(p, 0, n))
			return hb_error_set(err, HB_ESERVER,
			                    "malformed thrift reply: NUL byte in a host name");
		rc = hb_buf_add(&b, p, n);
		if (!rc && port >= 0)
			rc = hb_buf_addf(&b, ":%ld", (long)port);
		if (rc) {
			hb_buf_release(&b);
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		}
		free(reg->server);
		reg->server = hb_buf_detach(&b, NULL);
	}
	return 0;
}

static int set_span(unsigned char **dst, size_t *dlen, const unsigned char *p, size_t n,
                    struct hb_error *err)
{
	unsigned char *c = malloc(n ? n : 1);

	if (!c)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (n)
		memcpy(c, p, n);
	free(*dst);
	*dst = c;
	*dlen = n;
	return 0;
}

static int read_region_info(struct hb_thrift_rd *r, struct hb_region *reg, struct hb_error *err)
{
	const unsigned char *p;
	size_t n;
	int t, rc, b = 0;
	int16_t id;
	int64_t v64 = 0;
	int32_t v32 = 0;

	for (;;) {
		if (hb_thrift_read_field(r, &t, &id, err))
			return HB_ESERVER;
		if (t == HB_TT_STOP)
			return 0;
		if (id == 1 && t == HB_TT_I64) {
			rc = hb_thrift_read_i64(r, &v64, err);
			reg->id = (uint64_t)v64;
		} else if ((id == 3 || id == 4) && t == HB_TT_STRING) {
			rc = hb_thrift_read_binary(r, &p, &n, err);
			if (!rc)
				rc = id == 3 ? set_span(&reg->start, &reg->start_len, p, n, err)
				             : set_span(&reg->end, &reg->end_len, p, n, err);
		} else if ((id == 5 || id == 6) && t == HB_TT_BOOL) {
			rc = hb_thrift_read_bool(r, &b, err);
			if (id == 5)
				reg->offline = b;
			else
				reg->split = b;
		} else if (id == 7 && t == HB_TT_I32) {
			rc = hb_thrift_read_i32(r, &v32, err);
			reg->replica_id = v32;
		} else {
			rc = hb_thrift_skip(r, t, err);
		}
		if (rc)
			return rc;
	}
}

int hb_thrift_reply_regions(const struct hb_thrift_reply *r, struct hb_regions *out,
                            struct hb_error *err)
{
	struct hb_thrift_rd rd;
	uint32_t count, i;
	int et, t, rc = 0;
	int16_t id;

	rc = result_reader(r, HB_TT_LIST, "the region list", &rd, err);
	if (rc)
		return rc;
	if (hb_thrift_read_list_begin(&rd, &et, &count, err))
		return HB_ESERVER;
	if (et != HB_TT_STRUCT)
		return wrong_type("a region location", et, HB_TT_STRUCT, err);
	for (i = 0; i < count && !rc; i++) {
		struct hb_region reg;

		memset(&reg, 0, sizeof(reg));
		for (;;) {
			rc = hb_thrift_read_field(&rd, &t, &id, err);
			if (rc || t == HB_TT_STOP)
				break;
			if (id == 1 && t == HB_TT_STRUCT)
				rc = read_server(&rd, &reg, err);
			else if (id == 2 && t == HB_TT_STRUCT)
				rc = read_region_info(&rd, &reg, err);
			else
				rc = hb_thrift_skip(&rd, t, err);
			if (rc)
				break;
		}
		if (!rc && hb_regions_push(out, &reg))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		hb_region_release(&reg);
	}
	return rc;
}

static const char *enum_name(const struct cf_enum *e, int32_t v)
{
	for (; e->name; e++)
		if (e->value == v)
			return e->name;
	return NULL;
}

static int read_string_map(struct hb_thrift_rd *r, struct hb_attrs *a, struct hb_error *err)
{
	uint32_t c, i;
	int kt, vt, rc;

	if (hb_thrift_read_map_begin(r, &kt, &vt, &c, err))
		return HB_ESERVER;
	if (kt != HB_TT_STRING || vt != HB_TT_STRING) {
		for (i = 0; i < c; i++)
			if (hb_thrift_skip(r, kt, err) || hb_thrift_skip(r, vt, err))
				return HB_ESERVER;
		return 0;
	}
	for (i = 0; i < c; i++) {
		const unsigned char *kp, *vp;
		size_t kn, vn;
		char *k = NULL, *v = NULL;

		if (hb_thrift_read_binary(r, &kp, &kn, err) ||
		    hb_thrift_read_binary(r, &vp, &vn, err))
			return HB_ESERVER;
		rc = span_cstr(&k, kp, kn, "an attribute name", err);
		if (!rc)
			rc = span_cstr(&v, vp, vn, "an attribute value", err);
		if (!rc && hb_attrs_set(a, k, v))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		free(k);
		free(v);
		if (rc)
			return rc;
	}
	return 0;
}

static int is_bool(const struct cf_field *cf)
{
	return hb_cfattr_find(cf->attr)->kind == HB_CFATTR_BOOL;
}

static int read_family(struct hb_thrift_rd *r, struct hb_schema *s, struct hb_error *err)
{
	struct hb_attrs attrs;
	struct hb_family *f;
	char *name = NULL;
	int t, rc = 0;
	int16_t id;
	size_t k;

	hb_attrs_init(&attrs);
	for (;;) {
		const struct cf_field *cf = NULL;
		const unsigned char *p;
		size_t n;

		rc = hb_thrift_read_field(r, &t, &id, err);
		if (rc || t == HB_TT_STOP)
			break;
		for (k = 0; k < HB_ARRAY_LEN(cf_fields); k++)
			if (cf_fields[k].id == id)
				cf = &cf_fields[k];
		if (id == 1 && t == HB_TT_STRING) {
			rc = hb_thrift_read_binary(r, &p, &n, err);
			if (!rc) {
				free(name);
				name = NULL;
				rc = span_cstr(&name, p, n, "a family name", err);
			}
		} else if (id == 2 && t == HB_TT_MAP) {
			rc = read_string_map(r, &attrs, err);
		} else if (cf && t == (is_bool(cf) ? HB_TT_BOOL : HB_TT_I32)) {
			int32_t v = 0;
			int b = 0;
			char num[16];
			const char *text = num;

			if (is_bool(cf)) {
				rc = hb_thrift_read_bool(r, &b, err);
				text = b ? "true" : "false";
			} else {
				rc = hb_thrift_read_i32(r, &v, err);
				if (cf->values)
					text = enum_name(cf->values, v);
				if (!text)
					text = num;
				snprintf(num, sizeof(num), "%ld", (long)v);
			}
			/* The map holds the descriptor's own values; the enum fields are lossy
			 * (compressionAlgorithmFromHBase reports LZMA and BROTLI as NONE), so a
			 * value from the map wins. */
			if (!rc && !hb_attrs_get(&attrs, cf->attr) &&
			    hb_attrs_set(&attrs, cf->attr, text))
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		} else {
			rc = hb_thrift_skip(r, t, err);
		}
		if (rc)
			break;
	}
	if (!rc && !name)
		rc = hb_error_set(err, HB_ESERVER, "malformed thrift reply: family without a name");
	if (!rc && hb_schema_add_family(s, name, &f))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc) {
		f->attrs = attrs;
		hb_attrs_init(&attrs);
	}
	hb_attrs_release(&attrs);
	free(name);
	return rc;
}

/* Reads TTableName into s->table ("q" for the default namespace). */
static int read_tname(struct hb_thrift_rd *r, struct hb_schema *s, struct hb_error *err)
{
	const unsigned char *ns = NULL, *q = NULL, *p;
	size_t nsl = 0, ql = 0, n;
	struct hb_buf b = HB_BUF_INIT;
	int t, rc;
	int16_t id;

	for (;;) {
		if (hb_thrift_read_field(r, &t, &id, err))
			return HB_ESERVER;
		if (t == HB_TT_STOP)
			break;
		if ((id == 1 || id == 2) && t == HB_TT_STRING) {
			if (hb_thrift_read_binary(r, &p, &n, err))
				return HB_ESERVER;
			if (id == 1) {
				ns = p;
				nsl = n;
			} else {
				q = p;
				ql = n;
			}
		} else if (hb_thrift_skip(r, t, err)) {
			return HB_ESERVER;
		}
	}
	if (!q)
		return hb_error_set(err, HB_ESERVER,
		                    "malformed thrift reply: table name without "
		                    "a qualifier");
	rc = 0;
	if (ns && nsl && !(nsl == 7 && !memcmp(ns, "default", 7))) {
		rc = hb_buf_add(&b, ns, nsl);
		if (!rc)
			rc = hb_buf_addc(&b, ':');
	}
	if (!rc)
		rc = hb_buf_add(&b, q, ql);
	if (!rc && memchr(b.data, 0, b.len))
		rc = hb_error_set(err, HB_ESERVER, "malformed thrift reply: NUL in a table name");
	else if (!rc && hb_schema_set_table(s, hb_buf_str(&b)))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	else if (rc)
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_buf_release(&b);
	return rc;
}

static int read_table_desc(struct hb_thrift_rd *r, struct hb_schema *s, struct hb_error *err)
{
	uint32_t c, i;
	int t, et, rc = 0;
	int16_t id;

	for (;;) {
		rc = hb_thrift_read_field(r, &t, &id, err);
		if (rc || t == HB_TT_STOP)
			break;
		if (id == 1 && t == HB_TT_STRUCT) {
			rc = read_tname(r, s, err);
		} else if (id == 2 && t == HB_TT_LIST) {
			rc = hb_thrift_read_list_begin(r, &et, &c, err);
			if (!rc && et != HB_TT_STRUCT) {
				rc = wrong_type("a family", et, HB_TT_STRUCT, err);
				break;
			}
			for (i = 0; !rc && i < c; i++)
				rc = read_family(r, s, err);
		} else if (id == 3 && t == HB_TT_MAP) {
			rc = read_string_map(r, &s->attrs, err);
		} else {
			rc = hb_thrift_skip(r, t, err);
		}
		if (rc)
			break;
	}
	if (!rc && !s->table)
		rc = hb_error_set(err, HB_ESERVER,
		                  "malformed thrift reply: descriptor without a "
		                  "table name");
	return rc;
}

int hb_thrift_reply_table_desc(const struct hb_thrift_reply *r, struct hb_schema *out,
                               struct hb_error *err)
{
	struct hb_thrift_rd rd;
	int rc = result_reader(r, HB_TT_STRUCT, "the descriptor", &rd, err);

	return rc ? rc : read_table_desc(&rd, out, err);
}

int hb_thrift_decode_create_table_call(struct hb_schema *s, struct hb_keys *splits, const void *p,
                                       size_t n, struct hb_error *err)
{
	struct hb_thrift_rd r;
	const unsigned char *name, *k;
	size_t name_len, kl;
	int type = 0, t, et, rc = 0;
	int32_t sid = 0;
	int16_t id;
	uint32_t c, i;

	hb_thrift_rd_init(&r, p, n);
	if (hb_thrift_read_msg_begin(&r, &name, &name_len, &type, &sid, err))
		return HB_ESERVER;
	if (type != HB_TMSG_CALL || name_len != 11 || memcmp(name, "createTable", 11))
		return hb_error_set(err, HB_ESERVER, "not a createTable call");
	for (;;) {
		rc = hb_thrift_read_field(&r, &t, &id, err);
		if (rc || t == HB_TT_STOP)
			break;
		if (id == 1 && t == HB_TT_STRUCT) {
			rc = read_table_desc(&r, s, err);
		} else if (id == 2 && t == HB_TT_LIST) {
			rc = hb_thrift_read_list_begin(&r, &et, &c, err);
			if (!rc && et != HB_TT_STRING)
				rc = wrong_type("a split key", et, HB_TT_STRING, err);
			for (i = 0; !rc && i < c; i++) {
				rc = hb_thrift_read_binary(&r, &k, &kl, err);
				if (!rc && hb_keys_push(splits, k, kl))
					rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			}
		} else {
			rc = hb_thrift_skip(&r, t, err);
		}
		if (rc)
			break;
	}
	if (!rc && r.pos != r.len)
		rc = hb_error_set(err, HB_ESERVER, "%zu trailing bytes after the call",
		                  r.len - r.pos);
	if (!rc && !s->table) /* createTable's desc is required (hbase.thrift) */
		rc = hb_error_set(err, HB_ESERVER, "createTable call without a table descriptor");
	return rc;
}
