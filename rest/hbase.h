/* Every REST resource hbtab reads or writes (cluster, tables, schema, regions, hbase:meta,
 * scans, rows), in one include for the flows of rest/ and for cli/: each has its own file pair. */
#ifndef HB_REST_HBASE_H
#define HB_REST_HBASE_H

#include "rest/cells.h"
#include "rest/meta.h"
#include "rest/metalist.h"
#include "rest/regions.h"
#include "rest/row.h"
#include "rest/sample.h"
#include "rest/scan.h"
#include "rest/schema.h"
#include "rest/status.h"

#endif
