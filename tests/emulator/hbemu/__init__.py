"""hbemu: an HBase 2.x emulator (REST, hbase:meta, Thrift2-over-HTTP) used as a
test fixture for hbtab."""
