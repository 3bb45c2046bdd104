/* A pull parser of JSON text (rest/jsonpull.c) and the member values it reads. */
#ifndef HB_REST_JSONPULL_H
#define HB_REST_JSONPULL_H

#include "core/buf.h"
#include "core/hb.h"

#include <stddef.h>
#include <stdint.h>

/* A reader over one JSON text: p at the next byte, end past the last. */
struct hb_jr {
	const char *p, *end;
	int bad;          /* set on any syntax error */
	int strict;       /* a lone surrogate escape is a syntax error (else it reads as U+FFFD) */
	const char *drop; /* a mapped body: see hb_rest_drop_behind (NULL in memory) */
};

/* One member value as seen: kind and, for a string, its decoded text in buf. */
enum { HB_JR_ABSENT, HB_JR_NULL, HB_JR_STRING, HB_JR_NUMBER, HB_JR_OTHER };

struct hb_jr_val {
	int kind;
	struct hb_buf buf; /* HB_JR_STRING: the decoded text, NUL-terminated */
	double num;        /* HB_JR_NUMBER */
};

/* The parser's reads (a value, a string, a number, skipping, the next member or element, a
 * syntax error, the document's opening) and a member value read into hb_jr_val. */
int hb_jr_peek(struct hb_jr *j);
int hb_jr_lit(struct hb_jr *j, const char *lit);
int hb_jr_string(struct hb_jr *j, struct hb_buf *out);
int hb_jr_number(struct hb_jr *j, double *d, long long *ll, int *is_int);
int hb_jr_skip(struct hb_jr *j, int depth);
int hb_jr_next(struct hb_jr *j, int close);
int hb_jr_invalid(struct hb_jr *j, const char *json, const char *what, struct hb_error *err);
int hb_jr_open_object(struct hb_jr *j, const char *json, size_t len, int mapped, const char *what,
                      struct hb_error *err);
int hb_jr_read(struct hb_jr *j, struct hb_jr_val *v);
int hb_jr_b64(const struct hb_jr_val *v, struct hb_buf *out, int *present, const char *ctx,
              const char *key, const char *what, struct hb_error *err);
int hb_jr_i64(const struct hb_jr_val *v, int64_t *out, const char *ctx, const char *key,
              const char *what, struct hb_error *err);
void hb_jr_val_reset(struct hb_jr_val *v);

#endif
