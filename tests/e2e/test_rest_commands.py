"""End-to-end: status, tables, describe, regions, meta get/set and drop against the emulator."""
import os
import re
import shutil
import tempfile
import urllib.request

import hbtest
from hbtest import EmulatorTest, OfflineTest, b64, run, tsb


class ReadCommands(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.splits = [b"\x00\xff", b"a,b", b"m"]
        self.emu.create("t1", self.splits, families=("cf", "d"), attrs={"MAX_FILESIZE": "1073741824"})
        req = urllib.request.Request(self.emu.rest + "/namespaces/ns1", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=30).close()
        self.emu.create("ns1:t2", [])

    def test_status__text_and_json_report_servers_and_versions(self):
        r = self.hb("status")
        self.assertOk(r)
        self.assertIn("cluster version\t", r.out)
        self.assertIn("live servers\t3\n", r.out)
        r = self.hb("-o", "json", "status")
        self.assertOk(r)
        doc = r.json()
        self.assertEqual(doc["rest_version"], "0.0.3")
        self.assertEqual(len(doc["live"]), 3)
        self.assertEqual(doc["dead"], [])
        self.assertTrue(doc["cluster_version"])
        self.assertEqual(doc["regions"], sum(n["regions"] for n in doc["live"]))

    def test_status__dead_server_is_listed(self):
        self.emu.control("POST", "/control/server", {"index": 1, "state": "stop"})
        doc = self.hb("-o", "json", "status").json()
        self.assertEqual(len(doc["dead"]), 1)
        self.assertEqual(len(doc["live"]), 2)

    def test_tables__sorted_names_text_and_json(self):
        r = self.hb("tables")
        self.assertOk(r)
        self.assertEqual(r.out, "ns1:t2\nt1\n")
        self.assertEqual(self.hb("-o", "json", "tables").json(), {"tables": ["ns1:t2", "t1"]})

    def test_describe__families_and_table_attributes(self):
        r = self.hb("describe", "t1")
        self.assertOk(r)
        lines = r.out.splitlines()
        self.assertIn("(table)\tMAX_FILESIZE\t1073741824", lines)
        self.assertIn("cf\tVERSIONS\t1", lines)
        self.assertTrue(any(l.startswith("d\t") for l in lines))
        doc = self.hb("-o", "json", "describe", "t1").json()
        self.assertEqual(doc["table"], "t1")
        self.assertEqual([f["name"] for f in doc["families"]], ["cf", "d"])
        self.assertEqual(doc["attributes"]["MAX_FILESIZE"], "1073741824")

    def test_describe__missing_table_exits_4(self):
        self.assertFails(self.hb("describe", "nope"), 4, "table 'nope' not found")

    def test_invalid_table_name__exits_2_before_any_request(self):
        self.emu.clear_requests()
        for name in ("bad name", "-x", "a:b:c", "zookeeper", ".t"):
            for cmd in (["describe", name], ["regions", name], ["meta", "get", name],
                        ["drop", name, "--yes"]):
                self.assertFails(self.hb(*cmd), 2)
        self.assertEqual(self.emu.requests(), [])

    def expected_bounds(self):
        keys = [b""] + self.splits + [b""]
        return [(tsb(keys[i]), tsb(keys[i + 1])) for i in range(len(keys) - 1)]

    def test_regions__rest_json_shape_and_key_order(self):
        r = self.hb("-o", "json", "regions", "t1")
        self.assertOk(r)
        doc = r.json()
        self.assertEqual(doc["table"], "t1")
        self.assertEqual(doc["source"], "rest")
        self.assertEqual([(x["start"], x["end"]) for x in doc["regions"]], self.expected_bounds())
        for x in doc["regions"]:
            self.assertTrue(x["name"].startswith("t1," + x["start"] + ","), x)
            self.assertRegex(x["server"], r"^[^:]+:\d+$")

    def test_regions__text_is_tab_separated_when_piped(self):
        r = self.hb("regions", "t1")
        self.assertOk(r)
        rows = [l.split("\t") for l in r.out.splitlines()]
        self.assertEqual([(x[0], x[1]) for x in rows], self.expected_bounds())
        self.assertTrue(all(len(x) == 4 for x in rows))
        r = self.hb("regions", "t1", "--source", "meta")
        self.assertOk(r)
        rows = [l.split("\t") for l in r.out.splitlines()]
        self.assertTrue(all(len(x) == 8 for x in rows))
        self.assertEqual({x[7] for x in rows}, {"-"})

    def test_regions__large_answers_are_read_through_an_unlinked_file_under_tmpdir(self):
        with tempfile.TemporaryDirectory(prefix="hbtab-tmpdir-") as d:
            for source in ("rest", "meta"):
                r = self.hb("regions", "t1", "--source", source, env={"TMPDIR": d})
                self.assertOk(r)
                self.assertEqual(len(r.out.splitlines()), 4)
                self.assertEqual(os.listdir(d), [])  # nothing left behind
                # a TMPDIR that is gone (a cron job's leftover) falls back to /tmp
                gone = os.path.join(d, "missing")
                r = self.hb("regions", "t1", "--source", source, env={"TMPDIR": gone})
                self.assertOk(r)
                self.assertEqual(len(r.out.splitlines()), 4)

    def test_regions__rest_and_meta_agree_on_a_healthy_table(self):
        rest = self.hb("-o", "json", "regions", "t1").json()["regions"]
        meta = self.hb("-o", "json", "regions", "t1", "--source", "meta").json()
        self.assertEqual(meta["source"], "meta")
        self.assertEqual(meta["table_state"], "ENABLED")
        key = lambda x: (x["start"], x["end"], x["name"], x["server"], x["id"])
        self.assertEqual([key(x) for x in rest], [key(x) for x in meta["regions"]])
        for x in meta["regions"]:
            self.assertFalse(x["offline"])
            self.assertFalse(x["split"])
            self.assertEqual(x["state"], "OPEN")
            self.assertTrue(x["name"].endswith("." + x["encoded"] + "."))

    def test_regions__meta_shows_offline_and_split_parents_rest_hides(self):
        self.emu.control("POST", "/control/offline", {"table": "t1", "index": 0})
        st, body = self.emu.control("POST", "/control/split",
                                    {"table": "t1", "key": b64("q"), "leave_parent": True})
        self.assertEqual(st, 200, body)
        rest = self.hb("-o", "json", "regions", "t1").json()["regions"]
        meta = self.hb("-o", "json", "regions", "t1", "--source", "meta").json()["regions"]
        offline = [x for x in meta if x["offline"] and not x["split"]]
        parents = [x for x in meta if x["split"]]
        self.assertEqual(len(offline), 1)
        self.assertEqual(offline[0]["start"], "")
        self.assertEqual(len(parents), 1)
        self.assertTrue(parents[0]["offline"])
        self.assertEqual((parents[0]["start"], parents[0]["end"]), ("m", ""))
        rest_names = {x["name"] for x in rest}
        self.assertNotIn(offline[0]["name"], rest_names)
        self.assertNotIn(parents[0]["name"], rest_names)
        self.assertEqual(len(meta), len(rest) + 2)
        r = self.hb("regions", "t1", "--source", "meta")
        self.assertIn("\toffline,split\n", r.out)
        self.assertIn("\toffline\n", r.out)

    def test_regions__meta_listing_is_one_stateless_scan_of_the_info_family(self):
        # 2500 regions and a split parent: one GET /hbase:meta/*, no scanner, and the same
        # regions as /T/regions
        self.emu.create("big", [b"k%05d" % i for i in range(1, 2500)])
        self.emu.control("POST", "/control/split", {"table": "big", "key": b64("k00001x"),
                                                    "leave_parent": True})
        self.emu.clear_requests()
        meta = self.hb("-o", "json", "regions", "big", "--source", "meta").json()["regions"]
        reqs = self.emu.requests()
        self.assertEqual([q for q in reqs if "/scanner" in q["path"]], [])
        scans = [q for q in reqs if q["path"].startswith("/hbase%3Ameta/*?")]
        self.assertEqual(len(scans), 1, reqs)
        self.assertIn("startrow=big&endrow=big%20%2C%2C", scans[0]["path"])
        self.assertNotIn("table", scans[0]["path"].split("?", 1)[1])
        rest = self.hb("-o", "json", "regions", "big").json()["regions"]
        key = lambda x: (x["start"], x["end"], x["name"], x["server"])
        live = [x for x in meta if not x["split"]]
        self.assertEqual([key(x) for x in live], [key(x) for x in rest])
        self.assertEqual(len(meta), len(rest) + 1)
        self.assertEqual(len({x["name"] for x in meta}), len(meta))
        self.assertTrue(all(x["state"] and x["encoded"] for x in live))

    def test_meta_get__binary_row_split_across_scanner_responses_is_merged(self):
        # a row key that cannot travel in a URL is read with a scanner; 2500 cells before N
        # span three 1000-cell responses, and the fragments are merged into one row
        cells = [{"column": b64(b"cf:A%04d" % i), "value": b64(b"x")} for i in range(2500)]
        cells.append({"column": b64(b"cf:N"), "value": b64(b"7")})
        self.emu.control("POST", "/control/put", {"table": "t1", "rows": [
            {"key": b64(b"\xffmeta"), "cells": cells}]})
        self.emu.clear_requests()
        r = self.hb("meta", "get", "t1", "--metadata-row", "\\xFFmeta")
        self.assertOk(r)
        self.assertEqual(r.out, "N\t7\n")
        gets = [q for q in self.emu.requests() if q["method"] == "GET" and "/scanner/" in q["path"]]
        self.assertGreaterEqual(len([q for q in gets if q["status"] == 200]), 3)

    def test_regions__missing_table_exits_4_for_both_sources(self):
        self.assertFails(self.hb("regions", "nope"), 4, "table 'nope' not found")
        self.assertFails(self.hb("regions", "nope", "--source", "meta"), 4, "not found")

    def test_regions__namespace_table(self):
        doc = self.hb("-o", "json", "regions", "ns1:t2", "--source", "meta").json()
        self.assertEqual(len(doc["regions"]), 1)
        self.assertTrue(doc["regions"][0]["name"].startswith("ns1:t2,,"))

    def test_regions__bad_source_is_usage_error(self):
        self.assertFails(self.hb("regions", "t1", "--source", "thrift"), 2)


class MetaRow(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"5"], families=("cf", "x"))

    def test_meta_get__no_row_exits_1(self):
        self.assertFails(self.hb("meta", "get", "t1"), 1, "no metadata row 'totalPartition'")

    def test_meta_set_then_get__round_trip_text_and_json(self):
        r = self.hb("meta", "set", "t1", "8")
        self.assertOk(r)
        self.assertEqual(self.hb("meta", "get", "t1").out, "N\t8\n")
        doc = self.hb("-o", "json", "meta", "get", "t1").json()
        self.assertEqual(doc, {"table": "t1", "family": "cf", "row": "totalPartition", "N": 8,
                               "keyspace": None, "splits": None, "created": None, "creator": None,
                               "rotate": None})

    def test_meta_set__same_n_is_noop_different_needs_force(self):
        self.assertOk(self.hb("meta", "set", "t1", "8"))
        self.emu.clear_requests()
        r = self.hb("-o", "json", "meta", "set", "t1", "8")
        self.assertOk(r)
        self.assertEqual(r.json()["changed"], False)
        self.assertFalse([q for q in self.emu.requests() if q["method"] == "PUT"])
        self.assertFails(self.hb("meta", "set", "t1", "9"), 5, "already stores N=8")
        r = self.hb("-o", "json", "meta", "set", "t1", "9", "--force")
        self.assertOk(r)
        self.assertEqual(r.json(), {"table": "t1", "N": 9, "previous": "8", "changed": True})
        puts = [q for q in self.emu.requests() if q["method"] == "PUT"]
        self.assertTrue(puts and "check=put" in puts[-1]["path"], puts)
        self.assertEqual(self.hb("-o", "json", "meta", "get", "t1").json()["N"], 9)

    def test_meta__reads_fields_written_by_others_with_binary_row(self):
        row = b"\x00meta/\xff"
        self.emu.control("POST", "/control/put", {"table": "t1", "rows": [{"key": b64(row), "cells": [
            {"column": b64("x:N"), "value": b64("16")},
            {"column": b64("x:keyspace"), "value": b64("hex{8} byte{8}")},
            {"column": b64("x:creator"), "value": b64("hbtab 0.1.0")}]}]})
        r = self.hb("-o", "json", "meta", "get", "t1", "--metadata-family", "x",
                    "--metadata-row", tsb(row))
        self.assertOk(r)
        doc = r.json()
        self.assertEqual((doc["N"], doc["keyspace"], doc["creator"], doc["row"]),
                         (16, "hex{8} byte{8}", "hbtab 0.1.0", tsb(row)))
        # binary keys never in the URL path
        for q in self.emu.requests():
            self.assertNotIn("%FF", q["path"].upper().replace("%25", ""), q)

    def test_meta_set__bad_n_is_usage_error(self):
        for n in ("0", "-1", "x", "99999999999"):
            self.assertFails(self.hb("meta", "set", "t1", n), 2)

    def test_meta__missing_table_exits_4(self):
        self.assertFails(self.hb("meta", "get", "nope"), 4, "not found")


class Drop(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"m"])

    def test_drop__refuses_without_yes(self):
        self.assertFails(self.hb("drop", "t1"), 5, "without --yes")
        self.assertEqual(self.emu.requests(), [])
        self.assertIn("t1", self.hb("tables").out.split())

    def test_drop__deletes_and_second_drop_is_not_found(self):
        r = self.hb("-o", "json", "drop", "t1", "--yes")
        self.assertOk(r)
        self.assertEqual(r.json(), {"table": "t1", "dropped": True, "existed": True,
                                    "dry_run": False})
        self.assertEqual(self.hb("tables").out, "")
        self.assertFails(self.hb("drop", "t1", "--yes"), 4, "table 't1' not found")

    def test_drop__refuses_system_tables(self):
        self.assertFails(self.hb("drop", "hbase:meta", "--yes"), 5)

    def test_drop__read_only_gateway_gives_clear_403(self):
        self.emu.control("POST", "/control/readonly", {"on": True})
        self.assertFails(self.hb("drop", "t1", "--yes"), 4, "403.*read-only")


class ConfigPrecedence(EmulatorTest):
    """flag > HBTAB_* environment > config file profile > [default]."""

    def setUp(self):
        super().setUp()
        self.home = tempfile.mkdtemp(prefix="hbtab-home-")
        self.addCleanup(shutil.rmtree, self.home, True)
        os.makedirs(os.path.join(self.home, ".config", "hbtab"))
        self.emu.create("t1", [])

    def write_config(self, text):
        with open(os.path.join(self.home, ".config", "hbtab", "config"), "w") as f:
            f.write(text)

    def raw(self, *args, env=None):
        return run(["--no-progress"] + list(args), env=env, home=self.home)

    def test_config__file_default_and_profile_give_the_rest_url(self):
        self.write_config("[default]\nrest = %s\n\n[profile other]\nrest = http://127.0.0.1:9\n"
                          % self.emu.rest)
        self.assertEqual(self.raw("tables").out, "t1\n")
        self.assertFails(self.raw("--profile", "other", "--retries", "0", "tables"), 3)

    def test_config__env_beats_file_and_flag_beats_env(self):
        self.write_config("[default]\nrest = http://127.0.0.1:9\noutput = json\n")
        r = self.raw("tables", env={"HBTAB_REST": self.emu.rest})
        self.assertOk(r)
        self.assertEqual(r.json(), {"tables": ["t1"]})
        r = self.raw("tables", env={"HBTAB_REST": self.emu.rest, "HBTAB_OUTPUT": "text"})
        self.assertEqual(r.out, "t1\n")
        r = self.raw("-o", "text", "--rest", self.emu.rest, "tables",
                     env={"HBTAB_REST": "http://127.0.0.1:9", "HBTAB_OUTPUT": "json"})
        self.assertOk(r)
        self.assertEqual(r.out, "t1\n")

    def test_config__password_in_file_is_refused(self):
        self.write_config("[default]\nrest = %s\npassword = x\n" % self.emu.rest)
        self.assertFails(self.raw("tables"), 2, "passwords are not read from the config file")

    def test_config__credentials_in_url_are_refused(self):
        r = self.raw("--rest", "http://u:secret@127.0.0.1:9", "tables")
        self.assertFails(r, 2)
        self.assertNotIn("secret", r.err)


class Offline(OfflineTest):
    def test_help__synopsis_matches_man_pages(self):
        for cmd in ("status", "tables", "describe", "regions", "meta", "drop"):
            r = self.hb(cmd, "--help")
            self.assertOk(r)
            usage = [l.split("hbtab ", 1)[1] for l in r.out.splitlines()
                     if l.startswith(("usage: hbtab ", "   or: hbtab "))]
            with open(os.path.join(hbtest.SRC, "man", "hbtab-%s.1" % cmd)) as f:
                man = f.read()
            syn = man.split(".SH SYNOPSIS\n.nf\n", 1)[1].split("\n.fi", 1)[0]
            syn = [l.replace("\\-", "-")[len("hbtab "):] for l in syn.splitlines()]
            self.assertEqual(usage, syn)


if __name__ == "__main__":
    hbtest.main()
