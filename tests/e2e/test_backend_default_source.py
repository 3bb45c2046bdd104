"""`regions T` and `audit T` without --source: the listing /T/regions gives, made from
hbase:meta where the caller may read it (one scan instead of the gateway's location cache),
from /T/regions where it may not; the same output either way, byte for byte, but for the
added JSON field "read_from" that names the one read (and a -v line). Against the emulator and
real HBase (HBTAB_BACKEND=real): a table with a closed (unassigned) region, a disabled table,
on the emulator a split parent kept in meta and an offline region, on real HBase a table with
region replicas, a split parent and a closed region. A gateway that does not answer the meta
read in time ends the run with that: /T/regions, built from the same meta by the same gateway,
is not asked to wait as long again."""
import json
import re
import sys

import backend
import hbtest
from lib.forward import ForwardingProxy


def without_read_from(out):
    doc = json.loads(out)
    doc.pop("read_from", None)
    return doc


class DefaultSource(backend.BackendTest):
    def made(self, table, *spec):
        r = self.hb("create", table, *(spec or ("--hex-splits", "8")), "--family", "info")
        self.assertOk(r)

    def same_either_way(self, table, read_from="meta"):
        """Each command's default output against its --source rest output."""
        for cmd in ("regions", "audit"):
            with self.subTest(cmd=cmd):
                got = self.hb(cmd, table)
                want = self.hb(cmd, table, "--source", "rest")
                self.assertEqual((got.rc, got.out, got.err), (want.rc, want.out, want.err))
                got = self.hb("-o", "json", cmd, table)
                want = self.hb("-o", "json", cmd, table, "--source", "rest")
                self.assertEqual((got.rc, got.err), (want.rc, want.err))
                if want.out:
                    self.assertEqual(without_read_from(got.out), without_read_from(want.out))
                    if read_from is not None:
                        self.assertEqual(json.loads(got.out)["read_from"], read_from)
                    self.assertEqual(json.loads(want.out)["read_from"], "rest")
                    self.assertEqual(json.loads(got.out)["source"], "rest")
                if read_from is None:  # either; said the same way in JSON and -v
                    read_from = json.loads(got.out)["read_from"]
                    print("\n%s %s: read from %s" % (cmd, table, read_from), file=sys.stderr)
                v = self.hb("-v", cmd, table)
                self.assertIn("regions of table '%s' read from %s" % (
                    table, "hbase:meta" if read_from == "meta" else "REST /T/regions"), v.err)
        return got

    def test_healthy_table__read_from_meta_same_output(self):
        t = "default_source:" + self.name("_events_user_clicks")[-60:]
        r = self.hb("create", t, "--hex-splits", "8", "--family", "info", "--create-namespace")
        self.assertOk(r)
        self.same_either_way(t)

    def test_closed_region__same_output(self):
        t = self.name("_closed")
        self.made(t)
        self.be.unassign(t, 3)
        self.same_either_way(t)

    def test_disabled_table__same_output(self):
        t = self.name("_disabled")
        self.made(t)
        self.be.disable(t)
        try:
            self.same_either_way(t)
        finally:
            self.be.enable(t)

    def test_split_parent_and_offline_region__same_output(self):
        if self.be.kind != "emulator":
            self.skipTest("the emulator keeps a split parent and an offline region at will")
        t = self.name("_split")
        self.made(t)
        st, body = self.be.emu.control("POST", "/control/split", {
            "table": t, "key": hbtest.b64(b"3"), "leave_parent": True})
        self.assertEqual(st, 200, body)
        st, body = self.be.emu.control("POST", "/control/offline", {"table": t, "index": 6})
        self.assertEqual(st, 200, body)
        self.same_either_way(t)

    def test_meta_not_readable__rest_read_same_output(self):
        if self.be.kind != "emulator":
            self.skipTest("a 403 on hbase:meta is played by the emulator here")
        t = self.name("_no_meta_read")
        self.made(t)
        want = self.hb("-o", "json", "regions", t)
        self.assertOk(want)
        # the full listing of the table's meta rows is refused (AccessDeniedException: 403);
        # REST's listing and its join of the states that are not OPEN are answered
        self.be.emu.fault(kind="403", method="GET", path=r"^/hbase%3Ameta/.*column=info%3Aserver&",
                          count=-1)
        try:
            got = self.same_either_way(t, read_from="rest")
        finally:
            self.be.emu.clear_faults()
        self.assertEqual(json.loads(got.out)["read_from"], "rest")

    def via(self, proxy, *args):
        """hbtab with the gateway behind proxy."""
        rest = self.be.rest
        self.be.rest = proxy.url
        try:
            return self.hb(*args)
        finally:
            self.be.rest = rest

    def test_meta_read_timed_out__ends_without_asking_rest(self):
        t = self.name("_meta_slow")
        self.made(t)
        gateway = self.be.rest  # via() points be.rest at the proxy while hbtab runs
        proxy = ForwardingProxy(lambda: gateway)
        try:
            # every meta scan answered only after hbtab has given up on it
            proxy.fault("GET", r"^/hbase%3Ameta/", "late", count=-1)
            for cmd in ("regions", "audit"):
                with self.subTest(cmd=cmd):
                    r = self.via(proxy, "--timeout", "1", "--retries", "1", cmd, t)
                    self.assertFails(r, 3, r"^hbtab: reading table '%s' in hbase:meta: " %
                                     re.escape(t))
            self.assertEqual([p for m, p, a in proxy.seen if "/regions" in p], [])
        finally:
            proxy.stop()

    def test_meta_listing_longer_than_timeout_but_never_silent__read_whole(self):
        if self.be.kind != "emulator":
            self.skipTest("the emulator drips an answer byte by byte")
        t = self.name("_meta_drip")
        self.made(t)
        want = self.hb("-o", "json", "regions", t, "--source", "meta")
        self.assertOk(want)
        # the listing's scan answered a byte every 2 ms: seconds in all, past --timeout 1,
        # but never silent for as long (a million regions' scans stream for minutes)
        self.be.emu.fault(kind="drip", seconds=0.002, method="GET",
                          path=r"^/hbase%3Ameta/.*column=info%3Aserver&", count=1)
        try:
            got = self.hb("--timeout", "1", "--retries", "0", "-o", "json", "regions", t,
                          "--source", "meta")
        finally:
            self.be.emu.clear_faults()
        self.assertOk(got)
        self.assertEqual(got.out, want.out)

    def test_replicas_split_parent_and_closed_region__same_output(self):
        if self.be.kind != "real":
            self.skipTest("real HBase's own region replicas, split and close")
        t = "default_source:" + self.name("_replicated_clicks")[-60:]
        self.be.control("create", {"table": t, "families": ["info"], "replicas": 2,
                                   "splits": [hbtest.b64(k) for k in (b"4", b"8", b"c")]})
        # [4, 8) split at 6: the parent stays in hbase:meta, offline and split, until the
        # CatalogJanitor's next run; the first region's primary closed
        self.be.control("split", {"table": t, "key": hbtest.b64(b"6")})
        self.be.unassign(t, 0)
        got = self.same_either_way(t, read_from=None)
        # hbase:meta's own listing: the same open primaries' boundaries, the parent besides
        meta = json.loads(self.hb("-o", "json", "regions", t, "--source", "meta").out)
        starts = sorted({r["start"] for r in meta["regions"]})
        self.assertEqual(starts, ["", "4", "6", "8", "c"])
        print("\n--source meta: %s" % sorted(
            (r["start"], r["end"], r["replica_id"], r["offline"], r["split"])
            for r in meta["regions"]), file=sys.stderr)
        # a row's replicas are columns of the primary's row: the listing shows primaries
        self.assertEqual([r["replica_id"] for r in meta["regions"]], [0] * len(meta["regions"]))
        # the parent, unless the CatalogJanitor (every 5 minutes) removed it meanwhile
        parents = [r for r in meta["regions"] if r["split"]]
        self.assertIn([(r["start"], r["end"], r["offline"]) for r in parents],
                      ([], [("4", "8", True)]))
        self.assertEqual(sorted({r["start"] for r in json.loads(got.out)["regions"]}),
                         ["", "4", "6", "8", "c"])


if __name__ == "__main__":
    hbtest.main()
