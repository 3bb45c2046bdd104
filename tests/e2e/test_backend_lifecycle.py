"""enable, disable and truncate against a cluster: the emulator, or real HBase
(HBTAB_BACKEND=real), through Thrift2 and through the hbase shell.

The table's state is read by the test itself with Thrift2 isTableEnabled / isTableDisabled
(Apache Thrift's Python runtime), its boundaries from the gateway's own /T/regions and its rows
with REST row GETs: none of it through hbtab.
"""
import sys
import urllib.parse

import backend
import hbtest

sys.path.insert(0, hbtest.GEN_DIR)
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import THttpClient  # noqa: E402
from hbase import THBaseService  # noqa: E402
from hbase.ttypes import TTableName  # noqa: E402

SPLITS = [b"\x00\x01", b"a'b c", b"m", b"\xff\xfe"]
ROWS = [b"a", b"b", b"n", b"z"]


class Lifecycle(backend.BackendTest):
    def state(self, table):
        """ENABLED, DISABLED or CHANGING, as the Thrift2 server says."""
        t = THttpClient.THttpClient(self.be.thrift)
        c = THBaseService.Client(TBinaryProtocol.TBinaryProtocol(t))
        ns, q = table.split(":", 1) if ":" in table else ("default", table)
        tn = TTableName(ns=ns.encode(), qualifier=q.encode())
        try:
            if c.isTableEnabled(tn):
                return "ENABLED"
            return "DISABLED" if c.isTableDisabled(tn) else "CHANGING"
        finally:
            t.close()

    def row_present(self, table, key):
        st, _ = self.be.rest_get("/%s/%s" % (urllib.parse.quote(table, safe=""),
                                             urllib.parse.quote(key, safe="")))
        self.assertIn(st, (200, 404))
        return st == 200

    def table_with_rows(self):
        t = self.name()
        self.be.create(t, families=["cf"], splits=SPLITS)
        self.be.put(t, [(k, {b"cf:q": b"v" + k}) for k in ROWS])
        self.assertTrue(all(self.row_present(t, k.decode()) for k in ROWS))
        return t

    def run_json(self, *args):
        r = self.hb(*args, "-o", "json")
        self.assertOk(r)
        return r.json()

    def round_trip(self, via):
        t = self.table_with_rows()
        j = self.run_json("disable", t, "--yes", "--via", via)
        self.assertEqual((j["table"], j["action"], j["changed"], j["before"], j["state"],
                          j["via"]), (t, "disable", True, "ENABLED", "DISABLED", via), j)
        self.assertEqual(self.state(t), "DISABLED")
        self.assertFalse(self.row_present(t, "a"), "a disabled table serves no row")
        # a second disable changes nothing and says so
        j = self.run_json("disable", t, "--yes", "--via", via)
        self.assertEqual((j["changed"], j["state"], j["via"]), (False, "DISABLED", "none"), j)
        r = self.hb("disable", t, "--yes", "--via", via)
        self.assertOk(r)
        self.assertIn("already disabled; nothing changed", r.out)
        j = self.run_json("enable", t, "--via", via)
        self.assertEqual((j["action"], j["changed"], j["before"], j["state"], j["via"]),
                         ("enable", True, "DISABLED", "ENABLED", via), j)
        self.assertEqual(self.state(t), "ENABLED")
        self.assertTrue(all(self.row_present(t, k.decode()) for k in ROWS))
        self.assertEqual(self.be.boundaries(t), SPLITS)
        r = self.hb("enable", t, "--via", via)
        self.assertOk(r)
        self.assertIn("already enabled; nothing changed", r.out)
        # -q: a success that changed something prints nothing
        r = self.hb("disable", t, "--yes", "--via", via, "-q")
        self.assertOk(r)
        self.assertEqual((r.out, r.err), ("", ""))
        r = self.hb("enable", t, "--via", via, "-q")
        self.assertOk(r)
        self.assertEqual((r.out, r.err), ("", ""))
        self.assertEqual(self.state(t), "ENABLED")

    def test_round_trip_through_thrift2_disable_then_enable(self):
        self.round_trip("thrift2")

    def test_round_trip_through_the_shell_disable_then_enable(self):
        self.round_trip("shell")

    def truncate(self, via, disabled_first=False):
        t = self.table_with_rows()
        # hbtab's metadata row is kept aside and written back
        self.be.put(t, [(b"totalPartition", {b"cf:N": b"5", b"cf:keyspace": b"hex{8}"})])
        if disabled_first:
            self.be.disable(t)
        j = self.run_json("truncate", t, "--yes", "--via", via)
        self.assertEqual((j["table"], j["action"], j["changed"], j["state"], j["via"],
                          j["regions"], j["verified"], j["metadata_restored"]),
                         (t, "truncate", True, "ENABLED", via, len(SPLITS) + 1, True, True), j)
        self.assertEqual(self.be.metadata_row(t), {"cf:N": "5", "cf:keyspace": "hex{8}"})
        self.assertEqual(j["before"], "DISABLED" if disabled_first else "ENABLED")
        self.assertEqual(self.be.boundaries(t), SPLITS)
        self.assertEqual(self.state(t), "ENABLED")
        self.assertFalse(any(self.row_present(t, k.decode()) for k in ROWS))
        # the table takes writes again, in its old regions
        self.be.put(t, [(b"n", {b"cf:q": b"again"})])
        self.assertTrue(self.row_present(t, "n"))
        return t

    def test_truncate_through_thrift2_keeps_every_boundary_and_empties_the_rows(self):
        t = self.truncate("thrift2")
        # a rerun empties the table again and keeps the same split points
        r = self.hb("truncate", t, "--yes")
        self.assertOk(r)
        self.assertIn("truncated %s: %d regions, every boundary kept (verified); metadata row "
                      "written back" % (t, len(SPLITS) + 1), r.out)
        self.assertFalse(self.row_present(t, "n"))
        self.assertEqual(self.be.boundaries(t), SPLITS)

    def test_truncate_through_the_shell_keeps_every_boundary_and_empties_the_rows(self):
        self.truncate("shell")

    def test_truncate_of_a_disabled_table_leaves_it_enabled(self):
        self.truncate("thrift2", disabled_first=True)

    def test_disable_and_truncate_refuse_without_yes_and_send_nothing(self):
        t = self.table_with_rows()
        r = self.hb("disable", t)
        self.assertFails(r, 5, "without --yes")
        r = self.hb("truncate", t, "-o", "json")
        self.assertFails(r, 5, "without --yes")
        self.assertEqual(r.json()["exit"], 5, r)
        self.assertEqual(self.state(t), "ENABLED")
        self.assertTrue(all(self.row_present(t, k.decode()) for k in ROWS))

    def test_a_missing_table_is_not_found(self):
        t = self.name()
        for args in (["truncate", t, "--yes"], ["disable", t, "--yes"], ["enable", t],
                     ["truncate", t, "--yes", "--via", "shell"]):
            r = self.hb(*args)
            self.assertFails(r, 4, "table '%s' not found" % t)
        r = self.hb("truncate", t, "--yes", "-o", "json")
        self.assertFails(r, 4)
        self.assertEqual(r.json(), {"error": "table '%s' not found" % t, "exit": 4})
        self.assertIsNone(self.be.boundaries(t))

    def test_system_tables_are_refused_before_anything_is_sent(self):
        for args in (["truncate", "hbase:meta", "--yes"], ["disable", "hbase:namespace", "--yes"],
                     ["enable", "hbase:meta"]):
            r = self.hb(*args)
            self.assertFails(r, 5, "system table")


if __name__ == "__main__":
    hbtest.main()
