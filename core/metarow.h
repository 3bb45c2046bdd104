/*
 * The metadata row: one row (default "totalPartition") in one family of a table (default its
 * first) whose qualifiers record how the table was designed. Written by create, read by meta,
 * audit and rotate; the names and the form of N live here.
 */
#ifndef HB_CORE_METAROW_H
#define HB_CORE_METAROW_H

#include <stddef.h>

#define HB_METAROW_ROW "totalPartition"

/* Qualifiers. */
#define HB_METAROW_N        "N"        /* the number of regions, decimal ASCII */
#define HB_METAROW_KEYSPACE "keyspace" /* canonical key-space SPEC, or empty */
#define HB_METAROW_SPLITS   "splits"   /* the split specification as hbtab flags */
#define HB_METAROW_CREATED  "created"  /* ISO-8601 UTC time of creation */
#define HB_METAROW_CREATOR  "creator"  /* "hbtab VERSION" */
#define HB_METAROW_ROTATE   "rotate"   /* the rotate template managing the table */

/* The largest N: HBase's region count is an int. */
#define HB_METAROW_MAX_N 2147483647L

/* Parses a stored N (n bytes, decimal digits only, 1..HB_METAROW_MAX_N); -1 if it is not one. */
int hb_metarow_parse_n(const void *p, size_t n, long *out);

#endif
