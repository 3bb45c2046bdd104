/* The rotation flow: the listing planned, the tables of the current and the coming periods
 * created (or verified) through the caller's create flow, managed tables past retention
 * retired after a fresh check (a snapshot first when asked). Nothing is printed: each table's
 * line goes to on_line as it is decided and is kept in the result, messages go to say. */
#ifndef HB_REST_ROTATE_FLOW_H
#define HB_REST_ROTATE_FLOW_H

#include "core/buf.h"
#include "core/hb.h"
#include "core/key.h"
#include "core/rotate.h"
#include "core/splitspec.h"
#include "rest/rest.h"
#include "rest/snapshot.h"

#include <stddef.h>

/* One table's line: what happened to it. */
struct hb_rotate_line {
	char *name;
	const char *action; /* "created", "verified", "would create", "differs", "failed",
	                     * "dropped", "would drop", "skipped" */
	long regions, n;    /* -1 = unknown */
	const char *note;   /* or NULL */
	char *snapshot;     /* the snapshot taken before the drop, or NULL */
	char *error;        /* "failed": why (said through fail, not in the text lines), or NULL */
};

/* What the caller's create flow did with one table. */
struct hb_rotate_made {
	int status;  /* 0: created or verified (or, in a dry run, found absent); else the create
	              * flow's own failure, which it has reported */
	int differs; /* the failure is an existing table that differs from the design */
	int created, existed;
	size_t regions, planned;
	char metadata[16]; /* "written", "present", "adopted", "would adopt", ... */
};

/* What a message is. */
enum hb_rotate_say {
	HB_ROTATE_SAY_VERBOSE, /* detail for -v */
	HB_ROTATE_SAY_WARN,    /* a warning (quiet under -q) */
	HB_ROTATE_SAY_NOTICE,  /* a warning said even under -q (cron's mail shows it) */
	HB_ROTATE_SAY_ERROR,   /* an error: the run's status says it too */
};

/* What the flow needs from its caller. */
struct hb_rotate_hooks {
	/* the create flow for one table with keys and the spec text for its metadata row */
	void (*create)(void *ctx, const char *name, const struct hb_keys *keys,
	               const char *spec_text, struct hb_rotate_made *out);
	/* reads what spec s needs from the cluster (N = auto, a table's sample), once a run */
	int (*spec_prepare)(void *ctx, struct hb_splitspec *s, struct hb_error *err);
	/* computes s's split keys into out (empty) */
	int (*spec_compute)(void *ctx, struct hb_keys *out, const struct hb_splitspec *s,
	                    struct hb_error *err);
	/* a step failed and stops the run: rc and err say why (err's message may be empty) */
	void (*fail)(void *ctx, int rc, struct hb_error *err);
	void (*say)(void *ctx, enum hb_rotate_say what, const char *msg);
	void (*on_line)(void *ctx, const struct hb_rotate_line *l); /* may be NULL */
	void *ctx;
};

struct hb_rotate_opts {
	struct hb_rotate_cfg cfg;
	struct hb_splitspec *ss;
	int sample_previous;
	const char *sample_rows;  /* sizes the sample_previous sample (--sample-rows), or NULL */
	int snapshot_before_drop; /* a table is dropped only once a snapshot of it is listed */
	/* tables kept on purpose that match the template without a rotate mark: left alone as
	 * every such table is, but not warned about; known_unmarked_text is more of them
	 * separated by commas or blanks (no table name holds either) */
	const char *const *known_unmarked;
	size_t nknown_unmarked;
	const char *known_unmarked_text;
};

struct hb_rotate_result {
	int listed; /* the tables were listed: the lines are the run's report */
	struct hb_rotate_line *lines;
	size_t nlines, cap;
	size_t pending; /* managed tables past retention left for a later run */
	/* how the run ended: 0; HB_EFINDING (a table that differs from the design);
	 * HB_ESAFETY (drops left pending, or a table past retention whose mark cannot be read);
	 * or the code of the step that stopped it (reported through fail) */
	int rc;
	int create_status; /* the create flow's failure that stopped the run, or 0 */
	double t_list, t_sample, t_create, t_drop;
};

/*
 * Runs one rotation of o through rest (lent) and sh (the shell for snapshots; NULL without
 * snapshot_before_drop) into out (release with hb_rotate_result_release).
 */
void hb_rotate_flow_run(struct hb_rest *rest, const struct hb_shell_channel *sh,
                        const struct hb_rotate_opts *o, const struct hb_rotate_hooks *h,
                        struct hb_rotate_result *out);

/*
 * The same run over plan, already listed (marks not yet read are read through rest): what
 * hb_rotate_flow_run does after the listing. The plan is counted in (dropped, pending).
 */
void hb_rotate_flow_execute(struct hb_rest *rest, const struct hb_shell_channel *sh,
                            const struct hb_rotate_opts *o, const struct hb_rotate_hooks *h,
                            struct hb_rotate_plan *plan, struct hb_rotate_result *out);

void hb_rotate_result_release(struct hb_rotate_result *r);

#endif
