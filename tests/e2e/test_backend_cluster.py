"""A week of the daily rotate line with a region server stopped and started between days, and
the read-only gateway, against a cluster: the emulator, or real HBase (HBTAB_BACKEND=real).

These change the cluster as a whole (its live servers, the gateway's mode), so the suite runs
them alone (RESOURCE_LOCK in CMakeLists.txt) when the cluster is shared.
"""
import os
import re
import shutil
import tempfile

import backend
import hbtest
from hbtest import unb64


class ClusterWideBehaviour(backend.BackendTest):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hbtab-rot-")

    def tearDown(self):
        self.be.server(2, "start")
        self.be.readonly(False)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def planned(self, n):
        r = self.hb("splits", "--hex-splits", str(n), "--format", "json")
        self.assertOk(r)
        return [unb64(k["base64"]) for k in r.json()["splits"]]

    def managed(self, prefix):
        r = self.hb("tables")
        self.assertOk(r)
        return sorted(t for t in r.out.split() if t.startswith(prefix))

    def week(self, via, days=7):
        prefix = self.name() + "_"
        line = ["rotate", "--template", prefix + "%Y%m%d", "--hex-splits", "auto",
                "--regions-per-server", "2", "--ahead", "2", "--retain", "3", "--yes",
                "--via", via, "--family", "info", "--lock", os.path.join(self.tmp, "lock"),
                "-o", "json"]
        self.be.server(2, "stop")
        n_made = {}
        for day in range(1, days + 1):
            if day == 3:
                self.be.server(2, "start")
            live = self.be.live_servers()
            self.assertEqual(live, 2 if day < 3 else 3)
            r = self.hb(*line, "--now", "2026-11-%02dT00:05Z" % day)
            self.assertOk(r)
            j = r.json()
            actions = {t["name"]: t for t in j["tables"]}
            for name, t in actions.items():
                if t["action"] == "created":
                    self.assertEqual(t["N"], 2 * live, r)
                    n_made[name] = t["N"]
                if t["action"] in ("created", "verified"):
                    self.assertEqual(t["regions"], n_made[name], r)
                    self.assertEqual(self.be.boundaries(name), self.planned(n_made[name]), name)
                    self.assertEqual(self.be.metadata_row(name)["info:rotate"],
                                     prefix + "%Y%m%d")
            if day >= 4:
                gone = prefix + "202611%02d" % (day - 3)
                self.assertEqual(actions[gone]["action"], "dropped", r)
            want = [prefix + "202611%02d" % d for d in range(max(1, day - 2), day + 3)]
            self.assertEqual(self.managed(prefix), want, "day %d" % day)
        # Tables made while a server was down keep their N; later ones have the new N.
        self.assertEqual(n_made[prefix + "20261103"], 4)
        self.assertEqual(n_made[prefix + "20261105"], 6)

    def test_a_week_of_rotate_through_thrift2_with_a_server_down_two_days(self):
        self.week("thrift2")

    def test_four_days_of_rotate_through_the_shell_with_a_server_down_two_days(self):
        # the days that make a table with each N and drop the first one (every table the
        # shell makes is a JVM of its own, seconds to start); thrift2 runs the whole week
        self.week("shell", days=4)

    def test_read_only_gateway_refuses_writes_and_still_answers_reads(self):
        t = self.name()
        self.assertOk(self.hb("create", t, "--hex-splits", "4", "--family", "info"))
        self.be.readonly(True)
        r = self.hb("meta", "set", t, "9", "--force")
        self.assertFails(r, 4, "403.*read-only")
        r = self.hb("drop", t, "--yes")
        self.assertFails(r, 4, "403.*read-only")
        self.assertEqual(self.be.boundaries(t), self.planned(4))
        r = self.hb("audit", t, "-o", "json")
        self.assertOk(r)
        self.assertTrue(r.json()["healthy"], r)
        r = self.hb("meta", "get", t)
        self.assertOk(r)
        self.assertRegex(r.out, r"(?m)^N\t4$")
        self.be.readonly(False)
        self.assertOk(self.hb("meta", "set", t, "9", "--force"))
        self.assertEqual(self.be.metadata_row(t)["info:N"], "9")

    def test_create_through_a_read_only_gateway_makes_the_table_and_the_rerun_writes_its_row(self):
        # Thrift2's DDL is not stopped by read-only mode (no release checks it there); the
        # gateway's refusal of the metadata row is, and hbtab says what stands
        t = self.name("ro")
        self.be.readonly(True)
        try:
            r = self.hb("create", t, "--hex-splits", "4", "--family", "info")
            self.assertFails(r, 4, r"table '%s' was created and its regions verified, but its "
                                   r"metadata row was not written: .*HTTP 403.*; a rerun of "
                                   r"the same create writes it" % re.escape(t))
        finally:
            self.be.readonly(False)
        self.assertEqual(self.be.boundaries(t), self.planned(4))
        self.assertOk(self.hb("create", t, "--hex-splits", "4", "--family", "info"))
        self.assertEqual(self.be.metadata_row(t)["info:N"], "4")


if __name__ == "__main__":
    hbtest.main()
