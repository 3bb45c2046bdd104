"""repair --split-hot and a split restriction (hbase.regionserver.region.split_restriction.*):
HBase's master cuts a split point given by a user to a prefix of it, from the table's values
or, when they set none, from its own configuration, which hbtab cannot read. The emulator's
/control/master-config stands in for the master's hbase-site.xml; test_backend_repair shows
the table value on the real cluster.
"""
import urllib.parse

import hbtest
from hbtest import EmulatorTest, b64, unb64

RESTRICTION = "hbase.regionserver.region.split_restriction."
HEX4 = [b"40000000", b"80000000", b"c0000000"]


class SplitRestriction(EmulatorTest):
    def seeded(self, table, rows, attrs=None):
        self.emu.create(table, HEX4, families=("info",), attrs=attrs)
        for _ in range(20):
            st, body = self.emu.control("POST", "/control/put", {"table": table, "rows": [
                {"key": b64(k), "cells": [{"column": b64("info:q"), "value": b64("v")}]}
                for k in rows]})
            self.assertEqual(st, 200, body)

    def boundaries(self, table):
        st, body = self.emu.rest_get("/%s/regions" % urllib.parse.quote(table, safe=""))
        self.assertEqual(st, 200, body)
        return sorted(unb64(r.get("startKey", "")) for r in body["Region"])[1:]

    def repair(self, table, *extra):
        return self.hb("repair", table, "--split-hot", "--window", "0", *extra, "-o", "json",
                       "--hbase-shell", "ruby %s -n" % hbtest.SHELL_STANDIN,
                       env={"HBEMU_CONTROL": self.emu.control_url})

    def hot_entries(self, table):
        def seen():
            r = self.repair(table)
            return r.rc == 1 and any(s["finding"].startswith("hotspot")
                                     for s in r.json()["steps"])
        hbtest.wait_for(seen, "the writes to show in /status/cluster")
        r = self.repair(table)
        return r, [s for s in r.json()["steps"] if s["finding"].startswith("hotspot")]

    def test_a_split_the_masters_restriction_moves_is_accepted_inside_the_region(self):
        t = "events_device_clicks_20261128"
        st, body = self.emu.control("POST", "/control/master-config", {"settings": {
            RESTRICTION + "type": "KeyPrefix", RESTRICTION + "prefix_length": "2"}})
        self.assertEqual(st, 200, body)
        written = [b"m%c%d" % (c, i) for c in b"ab" for i in range(1, 10)]
        self.seeded(t, written)
        r, hot = self.hot_entries(t)
        # the schema sets no restriction: hbtab plans the sampled key itself
        self.assertEqual([(s["action"], s["split_key"]) for s in hot], [("split", "mb1")], r)
        r = self.repair(t, "--apply")
        self.assertOk(r)
        self.assertEqual(r.json()["steps_done"], 1, r)
        self.assertIn("HBase split the region at 'mb', not at 'mb1'", r.err, r)
        self.assertIn("hbase.regionserver.region.split_restriction.type", r.err, r)
        self.assertEqual(self.boundaries(t), HEX4 + [b"mb"])

    def test_a_restricted_key_equal_to_the_regions_start_is_not_planned(self):
        t = "events_device_views_20261128"
        written = [b"c0000000%c%d" % (c, i) for c in b"ab" for i in range(1, 10)]
        self.seeded(t, written, attrs={RESTRICTION + "type": "KeyPrefix",
                                       RESTRICTION + "prefix_length": "8"})
        r, hot = self.hot_entries(t)
        self.assertEqual([(s["finding"], s["action"]) for s in hot],
                         [("hotspot_no_split_key", "report")], r)
        self.assertIn("cuts the sampled key 'c0000000b1' to 'c0000000'", hot[0]["message"], r)
        self.assertIn("KeyPrefix, prefix_length 8", hot[0]["message"], r)
        r = self.repair(t, "--apply")
        self.assertEqual(r.json()["steps_done"], 0, r)
        self.assertEqual(self.boundaries(t), HEX4)

    def test_a_delimited_prefix_restriction_is_planned_as_hbase_cuts_it(self):
        t = "events_device_sessions_20261128"
        written = [b"m%c_%d" % (c, i) for c in b"abc" for i in range(1, 7)]
        self.seeded(t, written, attrs={RESTRICTION + "type": "DelimitedKeyPrefix",
                                       RESTRICTION + "delimiter": "_"})
        r, hot = self.hot_entries(t)
        self.assertEqual([(s["action"], s["split_key"]) for s in hot], [("split", "mb")], r)
        r = self.repair(t, "--apply")
        self.assertOk(r)
        self.assertNotIn("not at", r.err, r)
        self.assertEqual(self.boundaries(t), HEX4 + [b"mb"])


if __name__ == "__main__":
    hbtest.main()
