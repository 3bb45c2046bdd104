/* The channels a flow may use, handed down as values: the Thrift2 server (its client
 * settings, or why there is none) and the DDL channel that makes a table. */
#ifndef HB_REST_CHANNEL_H
#define HB_REST_CHANNEL_H

#include "core/hb.h"
#include "core/key.h"
#include "core/schema.h"
#include "rest/rest.h"
#include "rest/tell.h"
#include "rest/thrift2.h"

/* A Thrift2 server as a value: a client is made from opts where a flow needs one (no request
 * is sent before), so a run that never asks it never reaches it. */
struct hb_thrift2_channel {
	const struct hb_thrift2_opts *opts; /* NULL: there is none, and why says why */
	struct hb_error why;
	const struct hb_tell *tell; /* hears that a password goes over plain http */
};

/* A client from ch with extra seconds on its timeout. No server: ch->why's code and message.
 * Codes of hb_thrift2_new. */
int hb_thrift2_channel_open(const struct hb_thrift2_channel *ch, double extra,
                            struct hb_thrift2 **out, struct hb_error *err);

/* The channel that makes a table. NONE: none can make a pre-split table here (an existing
 * one is still verified). */
enum hb_ddl_via { HB_DDL_VIA_THRIFT2, HB_DDL_VIA_SHELL, HB_DDL_VIA_REST, HB_DDL_VIA_NONE };

struct hb_ddl_channel {
	enum hb_ddl_via via;
	const struct hb_thrift2_channel *thrift; /* HB_DDL_VIA_THRIFT2's server */
	const char *shell;                       /* HB_DDL_VIA_SHELL's command line */
	double timeout;                          /* seconds; the DDL gets timeout + the wait */
};

/*
 * Makes table s with splits through ch (not NONE); rest is used by the REST channel, which
 * must only be called on a table known to be absent. wait adds to the channel's timeout;
 * tell hears the shell's -v lines. On failure err says why and *race (HB_DDL_RACE_*) what a
 * table existing afterwards means.
 */
int hb_ddl_create(const struct hb_ddl_channel *ch, struct hb_rest *rest, const struct hb_schema *s,
                  const struct hb_keys *splits, double wait, const struct hb_tell *tell, int *race,
                  struct hb_error *err);

#endif
