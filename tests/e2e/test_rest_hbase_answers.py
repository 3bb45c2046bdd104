"""End-to-end: hbtab against the emulator where HBase answers otherwise than one might assume
(docs/hbase-wire.md §1, §3, §5, §6.3): the cluster version object, closed regions that keep
their last location, disabled tables, region names without "default:", and regions that have
not opened yet."""
import base64
import re

import hbtest
from hbtest import EmulatorTest

SPLITS = [b"g", b"p"]


class ClusterVersion(EmulatorTest):
    def test_status__reads_the_cluster_version_object(self):
        r = self.hb("status")
        self.assertOk(r)
        self.assertRegex(r.out, r"cluster version\s+2\.5\.8\n")
        r = self.hb("-o", "json", "status")
        self.assertOk(r)
        self.assertEqual(r.json()["cluster_version"], "2.5.8")


class DefaultNamespace(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("t1", SPLITS)

    def test_regions__default_namespace_prints_the_same_names_as_the_bare_table(self):
        for source in ("rest", "meta"):
            with self.subTest(source=source):
                bare = self.hb("-o", "json", "regions", "t1", "--source", source)
                qual = self.hb("-o", "json", "regions", "default:t1", "--source", source)
                self.assertOk(bare)
                self.assertOk(qual)
                names = [x["name"] for x in bare.json()["regions"]]
                self.assertEqual(names, [x["name"] for x in qual.json()["regions"]])
                self.assertTrue(all(n.startswith("t1,") for n in names), names)
        meta = self.hb("-o", "json", "regions", "default:t1", "--source", "meta").json()
        state = {r["encoded"] for t in self.emu.state()["tables"] for r in t["regions"]}
        self.assertEqual({x["encoded"] for x in meta["regions"]}, state)
        self.assertTrue(all(x["name"].endswith("." + x["encoded"] + ".") for x in meta["regions"]))

    def test_regions__default_namespace_text_matches_the_bare_table(self):
        self.assertEqual(self.hb("regions", "default:t1").out, self.hb("regions", "t1").out)


class ClosedRegions(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("t1", SPLITS)

    def disable(self):
        st, body = self.emu.control("POST", "/control/disable", {"table": "t1"})
        self.assertEqual(st, 200, body)

    def test_regions__disabled_table_is_a_finding_from_both_sources(self):
        self.disable()
        for source in ("rest", "meta"):
            with self.subTest(source=source):
                r = self.hb("-o", "json", "regions", "t1", "--source", source)
                self.assertEqual(r.rc, 1, repr(r))
                doc = r.json()
                self.assertEqual(doc["table_state"], "DISABLED")
                self.assertEqual([f["kind"] for f in doc["findings"]], ["disabled"])
                self.assertEqual({x["state"] for x in doc["regions"]}, {"CLOSED"})
                r = self.hb("regions", "t1", "--source", source)
                self.assertEqual(r.rc, 1, repr(r))
                self.assertIn("hbtab: disabled: table 't1' is disabled", r.err)

    def test_audit__disabled_table_is_not_healthy_from_rest_and_meta(self):
        self.disable()
        for source in ("rest", "meta"):
            with self.subTest(source=source):
                r = self.hb("-o", "json", "audit", "t1", "--source", source)
                self.assertEqual(r.rc, 1, repr(r))
                doc = r.json()
                self.assertFalse(doc["healthy"])
                self.assertIn("disabled", [f["kind"] for f in doc["findings"]])
                # a disabled table cannot be read: no metadata row is looked for
                self.assertNotIn("missing_metadata", [f["kind"] for f in doc["findings"]])

    def test_audit__closed_region_is_not_open_from_rest_and_meta(self):
        st, body = self.emu.control("POST", "/control/unassign", {"table": "t1", "index": 1})
        self.assertEqual(st, 200, body)
        for source in ("rest", "meta"):
            with self.subTest(source=source):
                r = self.hb("-o", "json", "audit", "t1", "--source", source)
                self.assertEqual(r.rc, 1, repr(r))
                found = [(f["kind"], f["region"]) for f in r.json()["findings"]
                         if f["kind"] == "not_open"]
                self.assertEqual(found, [("not_open", 1)])

    def test_regions__stopped_server_regions_are_not_open(self):
        self.emu.control("POST", "/control/server", {"index": 1, "state": "stop"})
        r = self.hb("-o", "json", "regions", "t1")
        self.assertEqual(r.rc, 1, repr(r))
        doc = r.json()
        self.assertEqual([(f["kind"], f["region"]) for f in doc["findings"]], [("not_open", 1)])
        self.assertIn("ABNORMALLY_CLOSED", doc["findings"][0]["message"])
        # REST still names the dead server: the state, not the location, tells
        self.assertEqual(doc["regions"][1]["server"], "rs2.emu.local:16020")

    def test_meta_get__on_a_disabled_table_says_it_is_disabled(self):
        self.disable()
        r = self.hb("meta", "get", "t1")
        self.assertFails(r, 4, r"^hbtab: table 't1' is disabled\n$")

    def test_regions__thrift_answers_when_meta_cannot_be_read(self):
        self.disable()
        self.emu.fault(kind="503", method="*", path="^/hbase(:|%3A)meta/", count=-1,
                       retry_after=0)
        r = self.hb("-o", "json", "regions", "t1")
        self.assertEqual(r.rc, 1, repr(r))
        self.assertEqual(r.json()["table_state"], "DISABLED")
        self.assertEqual([f["kind"] for f in r.json()["findings"]], ["disabled"])


class ShortMetaListing(EmulatorTest):
    """A stateless scan that fails part-way can end as a 200 with valid JSON (Jackson closes
    the arrays): the listing must not be read as a table with a hole at its end."""

    def test_regions_and_audit__a_meta_listing_cut_short_is_an_error_not_a_hole(self):
        self.emu.create("t1", SPLITS + [b"w"])
        for cut in (1, 2, 3):
            st, body = self.emu.control("POST", "/control/meta-cut", {"rows": cut})
            self.assertEqual(st, 200, body)
            for cmd in ("regions", "audit"):
                r = self.hb(cmd, "t1", "--source", "meta")
                self.assertFails(r, 4, r"hbase:meta's listing of table 't1' ended early "
                                       r"\(after row 't1,")
                self.assertEqual(r.out, "", r)
        self.emu.control("POST", "/control/meta-cut", {"rows": None})
        r = self.hb("-o", "json", "audit", "t1", "--source", "meta")
        self.assertOk(r)
        self.assertEqual(len(r.json()["regions"]), 4)

    def test_regions_and_audit__a_listing_cut_after_the_last_regions_split_parent_is_an_error(self):
        # A split parent keeps its row (offline, split, its old empty end key) until the
        # janitor removes it, and its daughters sort after it: a listing that ends right
        # after the parent has not reached the table's end.
        self.emu.create("t1", SPLITS)
        st, body = self.emu.control("POST", "/control/split", {
            "table": "t1", "key": base64.b64encode(b"w").decode(), "leave_parent": True})
        self.assertEqual(st, 200, body)
        whole = self.hb("-o", "json", "regions", "t1", "--source", "meta")
        self.assertOk(whole)
        names = [r["name"] for r in whole.json()["regions"]]
        parent = [i for i, r in enumerate(whole.json()["regions"]) if r.get("split")]
        self.assertEqual(len(parent), 1, whole.out)
        # the cut leaves the parent the last row of the listing (meta's order: the parent's
        # older id sorts before the daughter that shares its start key)
        cut = sorted(names).index(names[parent[0]]) + 1
        st, body = self.emu.control("POST", "/control/meta-cut", {"rows": cut})
        self.assertEqual(st, 200, body)
        try:
            for cmd in ("regions", "audit"):
                r = self.hb(cmd, "t1", "--source", "meta")
                self.assertFails(r, 4, r"hbase:meta's listing of table 't1' ended early "
                                       r"\(after row '%s'\)" % re.escape(names[parent[0]]))
                self.assertEqual(r.out, "", r)
        finally:
            self.emu.control("POST", "/control/meta-cut", {"rows": None})

    def test_audit__a_real_hole_at_the_end_is_still_a_hole(self):
        self.emu.create("t1", SPLITS)
        st, body = self.emu.control("POST", "/control/hole", {"table": "t1", "index": 2})
        self.assertEqual(st, 200, body)
        r = self.hb("-o", "json", "audit", "t1", "--source", "meta")
        self.assertEqual(r.rc, 1, repr(r))
        self.assertEqual([f["kind"] for f in r.json()["findings"]], ["bad_last_end"], repr(r))


class NotYetOpen(EmulatorTest):
    def open_delay(self, seconds):
        st, body = self.emu.control("POST", "/control/open-delay", {"seconds": seconds})
        self.assertEqual(st, 200, body)

    def test_regions__a_table_being_created_is_enabling_in_meta(self):
        # CreateTableProcedure writes ENABLING while it assigns the regions (HBase 2.x)
        self.open_delay(3600)
        self.emu.create("t1", SPLITS)
        r = self.hb("-o", "json", "regions", "t1", "--source", "meta")
        self.assertEqual(r.rc, 1, repr(r))
        self.assertEqual(r.json()["table_state"], "ENABLING")
        self.assertEqual({x["state"] for x in r.json()["regions"]}, {"OPENING"})
        self.assertIn("table 't1' is ENABLING, not ENABLED",
                      [f["message"] for f in r.json()["findings"]])

    def test_create__wait_polls_through_500s_until_the_regions_open(self):
        self.open_delay(2)
        r = self.hb("-o", "json", "create", "t1", "--hex-splits",
                    "4", "--wait", "120")
        self.assertOk(r)
        self.assertTrue(r.json()["verified"])
        statuses = [q["status"] for q in self.emu.requests() if q["path"] == "/t1/regions"]
        self.assertIn(500, statuses)
        self.assertEqual(statuses[-1], 200)

    def test_create__wait_running_out_names_the_regions_not_online(self):
        self.open_delay(3600)
        r = self.hb("create", "t1", "--hex-splits", "4",
                    "--wait", "1")
        self.assertFails(r, 4, r"^hbtab: table 't1': regions not online after 1 s ")
        for i, (s, e) in enumerate([("", "40000000"), ("40000000", "80000000"),
                                    ("80000000", "c0000000"), ("c0000000", "")]):
            self.assertIn("region %d ['%s', '%s') OPENING" % (i, s, e), r.err)
        self.assertIn("'hbtab regions t1 --source meta'", r.err)

    def test_create__wait_names_closed_regions_of_an_existing_table(self):
        self.emu.create("t1", [b"40000000", b"80000000", b"c0000000"])
        self.emu.control("POST", "/control/unassign", {"table": "t1", "index": 2})
        r = self.hb("create", "t1", "--hex-splits", "4", "--wait", "1")
        self.assertFails(r, 4, r"regions not online after 1 s: "
                               r"region 2 \['80000000', 'c0000000'\) CLOSED\n")

    def test_regions_and_audit__500_names_the_cause_and_points_to_meta_and_replicas(self):
        self.open_delay(3600)
        self.emu.create("t1", SPLITS)
        for cmd in (["regions", "t1"], ["audit", "t1"]):
            with self.subTest(cmd=cmd[0]):
                r = self.hb(*cmd)
                self.assertFails(r, 4, r"^hbtab: table 't1': regions not online \(GET /t1/regions: "
                                       r"HTTP 500 [^\n]*\); 'hbtab regions t1 --source meta' "
                                       r"shows each region's state \(with region replicas, a "
                                       r"replica not yet open fails this listing too, and "
                                       r"meta's shows the primaries\)\n$")
        r = self.hb("-o", "json", "regions", "t1", "--source", "meta")
        self.assertEqual(r.rc, 1, repr(r))
        self.assertEqual({x["state"] for x in r.json()["regions"]}, {"OPENING"})


if __name__ == "__main__":
    hbtest.main()
