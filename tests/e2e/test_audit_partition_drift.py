"""Partition drift as an operator reads it: a partition table (seed design: 8-byte big-endian
partition numbers) whose regions were split or merged afterwards gets one finding per split
or merge, not one for every region after it whose index shifted."""
import struct

import hbtest
from hbtest import EmulatorTest, b64

PART20 = [struct.pack(">q", i) for i in range(1, 20)]


class PartitionDrift(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("p", PART20)
        st, body = self.emu.control("POST", "/control/put", {"table": "p", "rows": [{
            "key": b64("totalPartition"), "cells": [
                {"column": b64("cf:N"), "value": b64("20")},
                {"column": b64("cf:keyspace"), "value": b64("u64<20 byte{8}")},
                {"column": b64("cf:splits"), "value": b64("--partition-splits 20")}]}]})
        self.assertIn(st, (200, 201), body)

    def region_drift(self):
        """The audit's drift findings that name a region: (region, message)."""
        r = self.hb("-o", "json", "audit", "p")
        self.assertIn(r.rc, (0, 1), repr(r))
        return [(f["region"], f["message"]) for f in r.json()["findings"]
                if f["kind"] == "drift" and f["region"] is not None]

    def split(self, partition, inner):
        self.emu.control("POST", "/control/split",
                         {"table": "p", "key": b64(struct.pack(">qq", partition, inner))})

    def merge(self, index):
        st, body = self.emu.control("POST", "/control/merge", {"table": "p", "index": index})
        self.assertEqual(st, 200, body)

    def test_partition_drift__healthy_table_has_none(self):
        self.assertEqual(self.region_drift(), [])

    def test_partition_drift__one_split_is_one_finding(self):
        self.split(3, 5)  # every region after it moves up by one index
        got = self.region_drift()
        self.assertEqual(len(got), 1, got)
        self.assertEqual(got[0][0], 4)
        self.assertIn("starts inside partition 3: it was split there", got[0][1])

    def test_partition_drift__one_merge_is_one_finding(self):
        self.merge(6)  # partitions 6 and 7 in one region; every later index moves down
        got = self.region_drift()
        self.assertEqual(len(got), 1, got)
        self.assertEqual(got[0][0], 6)
        self.assertIn("spans partitions 6..7: they were merged", got[0][1])

    def test_partition_drift__a_split_and_a_merge_are_two_findings(self):
        self.split(2, 1)
        self.merge(12)  # index 12 after the split: partitions 11 and 12
        r = self.hb("-o", "json", "audit", "p")
        self.assertEqual(r.rc, 1, repr(r))
        drift = [f for f in r.json()["findings"] if f["kind"] == "drift"]
        # N (20) still matches the region count: only the two events are reported
        self.assertEqual([f["region"] for f in drift], [3, 12], drift)
        self.assertIn("partitions 11..12", drift[1]["message"])


if __name__ == "__main__":
    hbtest.main()
