"""create without surprises: the default family is named, two split algorithms are bad
input, --strict refuses an unreachable design before anything is sent; and every command's
-o json carries the fields the product contract documents, in every mode."""
import os
import shutil
import tempfile

import hbtest
from hbtest import EmulatorTest, OfflineTest

STANDIN = "ruby %s -n" % hbtest.SHELL_STANDIN


def writes(emu):
    return [q for q in emu.requests() if q["method"] != "GET" or q["server"] == "thrift"]


class DefaultFamily(EmulatorTest):
    def test_create__default_family_is_named_in_text_json_and_script(self):
        r = self.hb("create", "t1", "--hex-splits", "2", "--via", "thrift2")
        self.assertOk(r)
        self.assertIn("column family 'cf': the default (--family names others)", r.out)
        r = self.hb("create", "t2", "--hex-splits", "2", "--via", "thrift2", "--family", "d")
        self.assertOk(r)
        self.assertNotIn("default", r.out)
        r = self.hb("-o", "json", "create", "t1", "--hex-splits", "2")
        self.assertEqual((r.json()["families"], r.json()["default_family"]),
                         ([{"name": "cf"}], True))
        r = self.hb("create", "t3", "--hex-splits", "2", "--via", "print")
        self.assertTrue(r.out.startswith("# column family 'cf': the default"), r.out)
        r = self.hb("-o", "json", "create", "t3", "--hex-splits", "2", "--via", "print",
                    "--family", "x")
        self.assertEqual(r.json()["default_family"], False)


class SplitFlags(OfflineTest):
    def test_create__two_split_flags_are_bad_input(self):
        dead = ["--rest", "http://127.0.0.1:9", "--retries", "0"]
        for cmd in (["create", "t1"], ["splits"], ["audit", "--keyspace", "hex{8}"],
                    ["simulate", "--keyspace", "hex{8}"]):
            for pair in (["--hex-splits", "4", "--decimal-splits", "4"],
                         ["--uniform-splits", "4", "--partition-splits", "4"]):
                with self.subTest(cmd=cmd, pair=pair):
                    r = self.hb(*(dead + cmd + pair))
                    self.assertFails(r, 2, "%s and %s cannot be used together"
                                     % (pair[0], pair[2]))


class Strict(EmulatorTest):
    def test_create__strict_refuses_an_unreachable_design_before_anything_is_sent(self):
        r = self.hb("create", "t1", "--hex-splits", "4", "--keyspace", "dec{8}", "--strict",
                    "--via", "thrift2")
        self.assertFails(r, 1, r"refusing to create 't1': 1 of 4 regions")
        self.assertIn("region 3 starting at 'c0000000'", r.err)
        self.assertEqual(r.out, "")
        self.assertEqual(self.emu.requests(), [])
        self.assertNotIn("t1", str(self.emu.state()))
        r = self.hb("-o", "json", "create", "t1", "--hex-splits", "4", "--keyspace", "dec{8}",
                    "--strict")
        doc = r.json()
        self.assertEqual((r.rc, doc["created"], doc["unreachable"], doc["exit"], doc["via"]),
                         (1, False, [3], 1, "none"))
        # also a script is refused, and a spec whose N comes from the cluster sends only reads
        r = self.hb("create", "t1", "--hex-splits", "4", "--keyspace", "dec{8}", "--strict",
                    "--via", "print")
        self.assertFails(r, 1, "refusing to create")
        self.assertEqual(r.out, "")
        r = self.hb("create", "t1", "--hex-splits", "auto", "--regions-per-server", "2",
                    "--keyspace", "dec{8}", "--strict", "--via", "thrift2")
        self.assertFails(r, 1, "refusing to create")
        self.assertEqual(writes(self.emu), [])

    def test_create__strict_creates_a_reachable_design(self):
        r = self.hb("create", "t1", "--decimal-splits", "4", "--keyspace", "dec{8}",
                    "--strict", "--via", "thrift2")
        self.assertOk(r)
        self.assertIn("every region is reachable", r.out)

    def test_create__strict_needs_a_keyspace(self):
        self.assertFails(self.hb("create", "t1", "--hex-splits", "4", "--strict"), 2,
                         "--strict needs --keyspace")
        self.assertEqual(self.emu.requests(), [])


class JsonFields(EmulatorTest):
    """The fields PRODUCT's JSON section documents, checked in each mode of each command."""

    def setUp(self):
        super().setUp()
        self.tmp = tempfile.mkdtemp(prefix="hbtab-json-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def doc(self, *args, rc=0, env=None):
        r = self.hb("-o", "json", *args, env=env)
        self.assertEqual(r.rc, rc, repr(r))
        return r.json()

    def assertFields(self, doc, fields, where):
        missing = [f for f in fields if f not in doc]
        self.assertEqual(missing, [], "%s lacks %s: %s" % (where, missing, doc))

    def assertRegionList(self, regions, fields, where):
        self.assertTrue(regions, where)
        for reg in regions:
            self.assertFields(reg, fields, where)

    def test_json__create_has_its_fields_in_every_mode(self):
        create = ("table", "created", "verified", "regions", "via")
        cases = [
            ("print", ["t0", "--hex-splits", "4", "--via", "print"], 0, False, "print"),
            ("thrift2", ["t1", "--hex-splits", "4", "--via", "thrift2"], 0, True, "thrift2"),
            ("auto picks thrift2", ["t2", "--hex-splits", "4"], 0, True, "thrift2"),
            ("rest, one region", ["t3", "--hex-splits", "1", "--via", "rest"], 0, True, "rest"),
            ("existing, verified", ["t1", "--hex-splits", "4"], 0, False, "none"),
            ("existing, different", ["t1", "--hex-splits", "8"], 5, False, "none"),
        ]
        for name, args, rc, created, via in cases:
            with self.subTest(mode=name):
                d = self.doc("create", *args, rc=rc)
                self.assertFields(d, create, name)
                self.assertEqual((d["created"], d["via"]), (created, via))
                if rc:
                    self.assertFields(d, ("error", "exit"), name)
                    self.assertEqual(d["exit"], rc)
        r = hbtest.run(["--rest", self.emu.rest, "--no-progress", "--hbase-shell", STANDIN,
                        "-o", "json", "create", "t4", "--hex-splits", "4", "--via", "shell"],
                       env={"HBEMU_CONTROL": self.emu.control_url})
        self.assertEqual(r.rc, 0, repr(r))
        self.assertFields(r.json(), create, "shell")
        self.assertEqual(r.json()["via"], "shell")

    def test_json__regions_audit_and_splits_have_their_fields(self):
        self.emu.create("t1", [b"4", b"8"])
        for src in ("rest", "meta"):
            with self.subTest(regions=src):
                d = self.doc("regions", "t1", "--source", src)
                self.assertFields(d, ("table", "source", "regions"), "regions " + src)
                self.assertEqual(d["source"], src)
                self.assertRegionList(d["regions"], ("start", "end", "name", "server"), src)
        finding = ("kind", "region", "message")
        for name, args, rc in (("table", ["t1", "--keyspace", "dec{4}"], 0),
                               ("meta", ["t1", "--source", "meta", "--keyspace", "[0-3]{4}"], 1),
                               ("hotspots", ["t1", "--hotspots", "--window", "0"], 0),
                               ("split set", ["--hex-splits", "4", "--keyspace", "dec{4}"], 1)):
            with self.subTest(audit=name):
                d = self.doc("audit", *args, rc=rc)
                self.assertFields(d, ("healthy", "regions", "findings"), "audit " + name)
                self.assertRegionList(d["regions"], ("index", "start", "end", "reachable"), name)
                for f in d["findings"]:
                    self.assertFields(f, finding, name)
                self.assertEqual(d["healthy"], not d["findings"])
        d = self.doc("splits", "--hex-splits", "4", "--format", "json")
        self.assertRegionList(d["splits"], ("key", "base64"), "splits")
        self.assertIn("splits", self.doc("splits", "--hex-splits", "4"))

    def test_json__simulate_rotate_and_status_have_their_fields(self):
        self.emu.create("t1", [b"4", b"8"])
        keys = os.path.join(self.tmp, "keys")
        with open(keys, "w") as f:
            f.write("".join("%08d\n" % (i * 7919) for i in range(200)))
        sim = ("count", "skew", "regions", "servers")
        for name, args in (("generator", ["--hex-splits", "4", "--generator", "md5",
                                          "--count", "1000"]),
                           ("keys file", ["--decimal-splits", "4", "--keys-file", keys]),
                           ("key space", ["--hex-splits", "4", "--keyspace", "hex{8}"]),
                           ("table", ["--table", "t1", "--keyspace", "dec{4}"]),
                           ("policy", ["--hex-splits", "2", "--generator", "md5", "--count",
                                       "2000", "--policy", "stepping"])):
            with self.subTest(simulate=name):
                d = self.doc("simulate", *args)
                self.assertFields(d, sim, "simulate " + name)
                self.assertRegionList(d["regions"], ("index", "start", "end", "writes",
                                                     "share"), name)
        rot = ["rotate", "--template", "r_%Y%m%d", "--hex-splits", "2", "--via", "thrift2",
               "--now", "2026-01-10T00:00:00Z", "--tz", "UTC"]
        for name, extra in (("dry run", ["--dry-run"]), ("run", ["--yes"])):
            with self.subTest(rotate=name):
                d = self.doc(*(rot + extra))
                self.assertFields(d, ("now", "tables", "pending_drops"), "rotate " + name)
                self.assertRegionList(d["tables"], ("name", "action", "regions", "N"), name)
        d = self.doc("status")
        self.assertIsInstance(d.get("cluster_version"), str)


if __name__ == "__main__":
    hbtest.main()
