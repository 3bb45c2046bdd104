/* What hbtab report's page draws: the classes of regions and their colours, the map's
 * geometry, a plan's steps, simulated writes and the page's input. */
#ifndef HB_REPORT_MODEL_H
#define HB_REPORT_MODEL_H

#include "audit.h"
#include "hb.h"
#include "key.h"
#include "region.h"

#include <stddef.h>
#include <stdint.h>

/* What the page says of a region, worst first when several apply. */
enum hb_report_class {
	HB_RC_UNREACHABLE, /* no key of the key space falls in it */
	HB_RC_NOT_OPEN,    /* not open, offline, split parent or without a server */
	HB_RC_DEFECT,      /* another chain finding: hole, overlap, duplicate, bad bounds... */
	HB_RC_HOT,         /* a write hot-spot */
	HB_RC_DRIFT,       /* differs from what the metadata row records */
	HB_RC_OK,          /* reachable, nothing found */
	HB_RC_COUNT
};

/* The colour each class is drawn in ("#rrggbb"), and its name in the legend. */
extern const char *const hb_report_colour[HB_RC_COUNT];
extern const char *const hb_report_class_name[HB_RC_COUNT];

/* The geometry of the key-space map, in CSS pixels: the bar starts HB_REPORT_MAP_X0 from the
 * left edge of its <svg> and is HB_REPORT_MAP_W wide; a region narrower than
 * HB_REPORT_MIN_W (an unreachable region owns no key: width 0) is drawn HB_REPORT_MIN_W wide,
 * centred on its place and kept inside the bar. */
#define HB_REPORT_MAP_X0 40
#define HB_REPORT_MAP_W  1100
#define HB_REPORT_MIN_W  3

/* Regions above this many are drawn as bands of consecutive regions (each flagged region
 * still drawn at its own place, and listed by run). */
#define HB_REPORT_MAX_BANDS 1000

/* One step of a plan where it acts: regions [first, first + n) of the plan's chain. */
struct hb_report_step {
	const char *action;  /* "merge", "split", "report" (static) */
	const char *finding; /* why (static) */
	size_t first, n;
	const unsigned char *key; /* a split's key, else NULL; borrowed */
	size_t key_len;
	const char *command; /* the hbase shell command, or NULL; borrowed */
	size_t round;        /* the round it runs in (reshape: 1, 2, ...), 0 without rounds */
	/* a step of a later round acts on regions that do not exist yet: their bounds (borrowed;
	 * end_len 0 = the table's end) when bounded, [first, first + n) then the regions of the
	 * chain they lie over */
	int bounded;
	size_t takes; /* bounded: how many regions the step takes then */
	const unsigned char *start, *end;
	size_t start_len, end_len;
};

/* A plan drawn as the boundaries before and after it. repair fills it from its plan; any plan
 * that moves boundaries (reshape) fills the same fields. */
struct hb_report_plan {
	const char *kind;                /* "repair", "reshape" */
	const struct hb_regions *before; /* the chain the steps index, sorted (borrowed) */
	struct hb_keys after;            /* the split keys once every step ran, sorted (owned) */
	struct hb_report_step *steps;    /* owned array, borrowed contents */
	size_t nsteps;
	size_t deferred; /* steps left for a later run */
};

/* Simulated writes per region of the audit's list (same indices). */
struct hb_report_sim {
	const uint64_t *writes; /* per region */
	size_t n;
	uint64_t total;
	const char *source; /* what wrote the keys: a generator's name, "keyspace" */
};

struct hb_report_input {
	const char *subject; /* the table's name, or the split specification's words */
	int offline;         /* a planned split set: no table, no server */
	const char *creator; /* "hbtab VERSION" */
	const char *when;    /* when the data was read (ISO-8601), or NULL */
	const struct hb_audit_report *audit; /* regions, results, findings, hot-spots */
	const struct hb_report_plan *plan;   /* or NULL */
	const struct hb_report_sim *sim;     /* or NULL */
	size_t max_bands;                    /* 0: HB_REPORT_MAX_BANDS */
	/* how the reader has request load measured (the command line's option), for the note
	 * when it was not; or NULL */
	const char *measure_load;
};

/* Consecutive regions drawn as one band. */
struct hb_report_band {
	size_t first, n;
	int cls; /* what covers most of it */
	size_t count[HB_RC_COUNT];
};

#endif
