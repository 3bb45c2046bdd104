/* The media types of the REST gateway's protobuf bodies; each body's decoder has its own file:
 * core/restpb_regions.h (TableInfo), core/restpb_cells.h (CellSet), core/restpb_status.h
 * (StorageClusterStatus). */
#ifndef HB_RESTPB_H
#define HB_RESTPB_H

/* The media type hbtab asks for and the two HBase answers with (docs/hbase-wire.md §3.1). */
#define HB_PROTOBUF_TYPE      "application/x-protobuf"
#define HB_PROTOBUF_TYPE_IETF "application/protobuf"

/* The longest rest a body read as it arrives keeps waiting for a field to be whole; past it the
 * field is read as it is, to say why it is malformed (no field HBase writes comes near). */
#define HB_RESTPB_PENDING_MAX (1 << 20)

#endif
