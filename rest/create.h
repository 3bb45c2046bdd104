/* The create flow: check absence, make the table through a channel, wait until every region is
 * online, verify it byte for byte, record the metadata row, check reachability. */
#ifndef HB_REST_CREATE_H
#define HB_REST_CREATE_H

#include "core/buf.h"
#include "core/diff.h"
#include "core/hb.h"
#include "core/key.h"
#include "core/keyspace.h"
#include "core/region.h"
#include "core/schema.h"
#include "rest/channel.h"
#include "rest/rest.h"
#include "rest/states.h"
#include "rest/tell.h"

#include <stddef.h>

/* The phases timed (VALIDATE is the caller's, before the flow). */
enum hb_create_phase {
	HB_CREATE_VALIDATE,
	HB_CREATE_ABSENT,
	HB_CREATE_DDL,
	HB_CREATE_WAIT,
	HB_CREATE_VERIFY,
	HB_CREATE_METADATA,
	HB_CREATE_REACH,
	HB_CREATE_NPHASES
};

/* "validate", "absent", "ddl", "wait", "verify", "metadata", "reach". */
const char *hb_create_phase_name(enum hb_create_phase p);

struct hb_create;

/* What the flow needs from its caller: the channels as values, and where it says what it
 * does (ctx is passed back to progress). */
struct hb_create_hooks {
	/* makes the table (only one found absent); HB_DDL_VIA_NONE: the flow fails with
	 * c->no_channel set */
	struct hb_ddl_channel ddl;
	/* asked for the table's state when hbase:meta cannot be read; may be NULL */
	const struct hb_thrift2_channel *thrift;
	/* Progress while waiting (may be NULL): regions online of total; done clears it. */
	void (*progress)(void *ctx, const char *what, size_t n, size_t total);
	void (*progress_done)(void *ctx);
	struct hb_tell tell;
	void *ctx;
};

/* One table to create: the plan (filled by the caller), then what happened. */
struct hb_create {
	const char *table;
	struct hb_schema schema;
	struct hb_keys splits;   /* sorted, verified as createTable would */
	struct hb_buf spec_text; /* the split spec as hbtab flags */
	struct hb_keyspace *ks;  /* --keyspace, or NULL */
	struct hb_buf ks_canon;  /* its canonical SPEC */
	const char *via;         /* the channel's name, for messages */
	const char *meta_family; /* the metadata row's family */
	struct hb_buf meta_row;  /* ... and its row key */
	const char *rotate;      /* recorded as <family>:rotate, or NULL */
	double wait;             /* seconds for every region to be online */
	int no_metadata;         /* write no metadata row */
	int dry_run;             /* read only: an absent table is only reported */
	int adopt;               /* a verified unmarked table gets the rotate mark */
	int create_namespace;    /* create a missing namespace first */
	int from_table_sample;   /* the splits are a sample of a live table */
	/* results */
	int created, existed, verified, families_ok;
	int ns_created; /* the namespace was missing and created */
	int no_channel; /* the table was absent and no channel can make it */
	int mismatch;   /* the failure is a difference from the plan: diff shows it */
	size_t regions;
	const char *metadata; /* "none", "skipped", "written", "present", "adopted", "would ..." */
	struct hb_diff diff;
	size_t *unreachable; /* regions no key of ks reaches (indexes), nunreachable of them */
	size_t nunreachable;
	int reach_checked;
	int table_state; /* what the last wait poll learned (HB_TABLE_*), -1 unknown */
	double t[HB_CREATE_NPHASES];
	double t0; /* when the current phase began */
};

/* An empty plan for table (lent, not copied); diff keeps at most diff_max lines. */
void hb_create_init(struct hb_create *c, const char *table, size_t diff_max);
void hb_create_release(struct hb_create *c);

/* Adds the time since the last phase ended to phase p. */
void hb_create_phase_end(struct hb_create *c, enum hb_create_phase p);

/* Which planned regions no key of c->ks can reach (once: a second call keeps the answer).
 * HB_ENOMEM, or the key space's own errors. */
int hb_create_reach(struct hb_create *c, struct hb_error *err);

/*
 * Runs the flow on c through rest (never a DDL on a table that exists). 0 when the table is
 * verified (or, in a dry run, found absent); c->nunreachable then tells findings. On failure
 * err says why (c->mismatch when the table differs from the plan: HB_ESAFETY for an existing
 * table, HB_EFINDING for a new one) and c's results tell how far it came.
 */
int hb_create_run(struct hb_create *c, struct hb_rest *rest, const struct hb_create_hooks *h,
                  struct hb_error *err);

#endif
