/* Where a flow in rest/ sends what the operator should read: rest never prints, the caller
 * decides how (cli: "hbtab: warning: ..." on stderr, the -v lines only with -v). */
#ifndef HB_REST_TELL_H
#define HB_REST_TELL_H

struct hb_tell {
	void (*warn)(void *ctx, const char *msg);    /* something the operator must hear */
	void (*verbose)(void *ctx, const char *msg); /* detail for -v */
	void *ctx;
};

/* printf-style into t->warn / t->verbose; t or either function may be NULL (then nothing). */
void hb_tell_warn(const struct hb_tell *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void hb_tell_verbose(const struct hb_tell *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
