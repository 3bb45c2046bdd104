"""reshape's outcomes on the emulator: --max-steps stopping a run, N changed by someone else
while the table was reshaped (nothing recorded, exit 5), a table without a metadata row,
a table in transition refused, round 1's script in the JSON document. test_backend_reshape
shows the moves themselves on real HBase."""
import os
import shutil
import sys
import tempfile
import urllib.parse

import hbtest
from hbtest import EmulatorTest, b64, unb64

ROWS = 64

# A shell that, on its first call, changes the table's N as another run would (hbtab meta
# set --force), then runs the real shell.
META_CHANGER = r"""
import os, subprocess, sys
path = os.environ["RESHAPE_CALLS"]
n = int(open(path).read() or "0") + 1 if os.path.exists(path) else 1
open(path, "w").write(str(n))
if n == 1:
    subprocess.run([os.environ["HBTAB_BIN"], "--rest", os.environ["RESHAPE_REST"], "meta",
                    "set", os.environ["RESHAPE_TABLE"], "12", "--force"], check=True)
os.execvp(sys.argv[1], sys.argv[1:])
"""


class ReshapeOutcomes(EmulatorTest):
    shell = "ruby %s -n" % hbtest.SHELL_STANDIN

    def table(self, name, n=10, metadata=True):
        if metadata:
            self.assertOk(self.hb("create", name, "--hex-splits", str(n), "--family", "cf",
                                   "--create-namespace"))
        else:
            r = self.hb("splits", "--hex-splits", str(n), "-o", "json")
            self.emu.create(name, [unb64(k["base64"]) for k in r.json()["splits"]],
                            families=("cf",))
        st, body = self.emu.control("POST", "/control/put", {"table": name, "rows": [
            {"key": b64(b"%08x-click" % (i * (1 << 32) // ROWS)),
             "cells": [{"column": b64("cf:q"), "value": b64("v")}]} for i in range(ROWS)]})
        self.assertEqual(st, 200, body)
        return name

    def boundaries(self, table):
        st, body = self.emu.rest_get("/%s/regions" % urllib.parse.quote(table, safe=""))
        self.assertEqual(st, 200, body)
        return sorted(unb64(r.get("startKey", "")) for r in body["Region"])[1:]

    def planned(self, n):
        r = self.hb("splits", "--hex-splits", str(n), "-o", "json")
        return [unb64(k["base64"]) for k in r.json()["splits"]]

    def reshape(self, table, *extra, shell=None, env=None):
        e = {"HBEMU_CONTROL": self.emu.control_url}
        e.update(env or {})
        return self.hb("reshape", table, *extra, "-o", "json", "--hbase-shell",
                       shell or self.shell, env=e)

    def n_of(self, table):
        r = self.hb("meta", "get", table, "-o", "json")
        self.assertOk(r)
        return r.json()

    def test_max_steps_stops_the_run_and_a_rerun_finishes_it(self):
        t = self.table("ns_reshape:events_user_clicks_20261128_capped")
        r = self.reshape(t, "--hex-splits", "16", "--apply", "--max-steps", "3")
        self.assertEqual(r.rc, 1, r)
        j = r.json()
        self.assertEqual((j["capped"], j["steps_done"], j["verified"], j["metadata"]),
                         (True, 3, False, None), r)
        self.assertIn("stopped after --max-steps 3", r.err)
        self.assertEqual(str(self.n_of(t)["N"]), "10")
        self.assertEqual(len(self.boundaries(t)), 9 + 3)
        r = self.reshape(t, "--hex-splits", "16", "--apply")
        self.assertOk(r)
        self.assertEqual(self.boundaries(t), self.planned(16))
        self.assertEqual(str(self.n_of(t)["N"]), "16")

    def test_n_changed_meanwhile_is_not_overwritten(self):
        t = self.table("ns_reshape:events_user_clicks_20261128_raced")
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d, True)
        script = os.path.join(d, "changer.py")
        with open(script, "w") as f:
            f.write(META_CHANGER)
        r = self.reshape(t, "--hex-splits", "16", "--apply",
                         shell="%s %s %s" % (sys.executable, script, self.shell),
                         env={"RESHAPE_CALLS": os.path.join(d, "calls"),
                              "RESHAPE_REST": self.emu.rest, "RESHAPE_TABLE": t,
                              "HBTAB_BIN": hbtest.HBTAB})
        self.assertFails(r, 5, "N of table '%s' changed in metadata row" % t)
        # the boundaries moved, the other run's N stays
        self.assertEqual(self.boundaries(t), self.planned(16))
        self.assertEqual(str(self.n_of(t)["N"]), "12")

    def test_a_table_without_metadata_row_gets_one(self):
        t = self.table("events_user_clicks_20261128_bare", n=4, metadata=False)
        r = self.reshape(t, "--hex-splits", "6")
        self.assertEqual(r.rc, 1, r)
        self.assertIsNone(r.json()["recorded_n"])
        r = self.reshape(t, "--hex-splits", "6", "--apply")
        self.assertOk(r)
        self.assertEqual(r.json()["metadata"], "recorded")
        m = self.n_of(t)
        self.assertEqual((str(m["N"]), m["splits"]), ("6", "--hex-splits 6"))
        # again: nothing to move, the row already says so and is not written
        self.emu.clear_requests()
        r = self.reshape(t, "--hex-splits", "6", "--apply")
        self.assertOk(r)
        self.assertEqual((r.json()["matches"], r.json()["metadata"]), (True, "present"))
        self.assertEqual([q for q in self.emu.requests() if q.get("method") == "PUT"], [])

    def test_salt_boundaries_without_a_metadata_row_are_refused(self):
        t = "events_user_clicks_20261128_salted"
        self.emu.create(t, [bytes([i]) for i in range(1, 8)], families=("cf",))
        r = self.hb("reshape", t, "--hex-splits", "4")
        self.assertFails(r, 5, "its boundaries are those of a salt design of 8 buckets "
                               r"\(--salt-splits 8\), which no metadata row records")

    def test_a_table_in_transition_is_refused(self):
        t = self.table("ns_reshape:events_user_clicks_20261128_moving", n=4)
        st, body = self.emu.control("POST", "/control/unassign", {"table": t, "index": 1})
        self.assertEqual(st, 200, body)
        before = self.boundaries(t)
        r = self.reshape(t, "--hex-splits", "6", "--apply")
        self.assertFails(r, 5, "refusing to change table")
        self.assertEqual(self.boundaries(t), before)

    def test_script_of_round_1_in_the_json_document(self):
        t = self.table("ns_reshape:events_user_clicks_20261128_script", n=4)
        r = self.reshape(t, "--hex-splits", "6", "--via", "print")
        self.assertEqual(r.rc, 1, r)
        j = r.json()
        cmds = [s["command"] for s in j["steps"] if s["round"] == 1]
        self.assertTrue(cmds)
        self.assertEqual([ln for ln in j["script"].splitlines() if not ln.startswith("#")],
                         cmds + ["exit"])
        self.assertFails(self.hb("reshape", t, "--hex-splits", "6", "--via", "print",
                                 "--apply"), 2, "leave out --apply")


if __name__ == "__main__":
    hbtest.main()
