"""hbtab report: one self-contained HTML page, looked at as a person would. The page is rendered
by headless Chromium and its screenshot read back: the seed-001 split set's (and table's)
unreachable regions appear on the key-space bar in their colour exactly where the audit puts
them, a healthy table's bar holds no flagged colour; the markup passes a strict reading
(html.parser: every element closed in order, no script, nothing fetched); keys and names are
escaped; 100,000 regions are drawn as bands without losing one flagged region; --plan repair
draws the boundaries before and after."""
import json
import os
import re
import shutil
import tempfile

import hbtest
from hbtest import EmulatorTest, OfflineTest, b64, run, unb64
from lib import htmlpage
from lib.reportpage import FLAGGED, GREEN, RED, PageChecks, map_geometry

SEED = ["--range-splits", "10", "--start", "0000000000000000", "--end", "ffffffffffffffff"]
TABLE = "ns_events:user_clicks_20261128"
HEX10 = [b"%08x" % (i * (2 ** 32 // 10)) for i in range(1, 10)]


class OfflineReport(OfflineTest, PageChecks):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="hbtab-report-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_report__seed001_unreachable_regions_are_red_where_the_audit_puts_them(self):
        page = os.path.join(self.dir, "seed001.html")
        r = self.hb("report", *SEED, "--keyspace", "hex{16}", "--html", page)
        self.assertEqual(r.rc, 1, r)  # findings, as audit
        self.assertEqual(r.out, "wrote %s: 10 regions, 6 findings\n" % page)
        audit = self.hb("-o", "json", "audit", *SEED, "--keyspace", "hex{16}").json()
        regions = audit["regions"]
        self.assertEqual([i for i, x in enumerate(regions) if not x["reachable"]],
                         [0, 3, 4, 5, 6, 7])
        text, words = self.sound(page)
        _, seen, _ = self.look(page, regions, 1)
        want = [GREEN if x["reachable"] else RED for x in regions]
        self.assertEqual(seen, want)
        # every figure also as text: each region's bounds and verdict in the table
        for x in regions:
            self.assertIn(x["start"] or "(table start)", words)
        self.assertIn("r3-7", words)
        # the regions, the runs and the findings
        self.assertEqual(text.count("<td>unreachable</td>"), 6 + 2 + 6)

    def test_report__a_split_set_page_stands_alone_and_escapes_keys(self):
        keys = os.path.join(self.dir, "keys")
        with open(keys, "w") as f:
            f.write('"q\'</td>\na<b&c\n\\xFF\\x00\n')
        page = os.path.join(self.dir, "keys.html")
        r = self.hb("report", "--splits-file", keys, "--keyspace", "print{1,8}", "--html", page)
        self.assertIn(r.rc, (0, 1), r)
        text, words = self.sound(page)
        self.assertIn('a<b&c', words)
        self.assertIn('"q\'</td>', words)
        self.assertIn("\\xFF\\x00", words)
        self.assertNotIn("<b&c", text)
        for fetch in ("http://", "https://", "<script", "@import", "url("):
            self.assertNotIn(fetch, text)

    def test_report__simulated_writes_against_the_even_share(self):
        page = os.path.join(self.dir, "sim.html")
        r = self.hb("report", "--hex-splits", "8", "--keyspace", "hex{8} byte{8}",
                    "--simulate", "--generator", "sequential", "--count", "10000",
                    "--html", page)
        self.assertEqual(r.rc, 0, r)
        text, words = self.sound(page)
        self.assertIn('<svg id="writes"', text)
        self.assertIn("10000 writes (sequential) over 8 regions", words)
        rows = re.findall(r"<tr><td>r(\d+)</td><td class=\"n\">(\d+)</td>", text)
        self.assertEqual(len(rows), 8)
        self.assertEqual(sum(int(w) for _, w in rows), 10000)

    def test_report__100000_regions_are_bands_that_keep_every_flagged_region(self):
        page = os.path.join(self.dir, "big.html")
        spec = ["--range-splits", "100000", "--start", "0000000000000000", "--end",
                "ffffffffffffffff"]
        r = self.hb("report", *spec, "--keyspace", "hex{16}", "--html", page)
        self.assertEqual(r.rc, 1, r)
        self.assertLess(os.path.getsize(page), 3 * 1024 * 1024)
        text, _ = self.sound(page)
        audit = self.hb("-o", "json", "audit", *spec, "--keyspace", "hex{16}").json()
        runs, i, reach = [], 0, [x["reachable"] for x in audit["regions"]]
        while i < len(reach):
            if reach[i]:
                i += 1
                continue
            j = i
            while j + 1 < len(reach) and not reach[j + 1]:
                j += 1
            runs.append("r%d" % i if i == j else "r%d-%d" % (i, j))
            i = j + 1
        table = text[text.index('<table id="flagged">'):]
        table = table[:table.index("</table>")]
        self.assertEqual(re.findall(r"<tr><td>unreachable</td><td>(r[\d-]+)</td>", table), runs)
        # drawn at their places: runs whose 3 px spans touch share one rectangle, which
        # names its first and last region and how many runs it holds
        drawn = re.findall(r'<rect class="flag"[^>]*><title>r(\d+)(?:-(\d+))?: unreachable'
                           r'(?:, (\d+) runs)?</title>', text)
        self.assertEqual(sum(int(n or 1) for _, _, n in drawn), len(runs))
        spans = [(int(a), int(b or a)) for a, b, _ in drawn]
        for run_ in runs:
            first, last = (int(v) for v in (run_[1:].split("-") * 2)[:2])
            self.assertTrue(any(a <= first and last <= b for a, b in spans), run_)
        self.assertLess(text.count("<tr>"), 1000 * 2 + len(runs) + 2100)

    def test_report__100000_alternating_regions_stay_a_few_mib(self):
        # every third region owns no key: 33,333 runs, each still listed
        keys = os.path.join(self.dir, "keys")
        with open(keys, "w") as f:
            for i in range(1, 33334):
                f.write("%06d\n%06d\\x00\n%06d\\x01\n" % (i * 20, i * 20, i * 20))
        page = os.path.join(self.dir, "alt.html")
        r = self.hb("report", "--splits-file", keys, "--keyspace", "dec{6}", "--html", page)
        self.assertEqual(r.rc, 1, r)
        self.assertLess(os.path.getsize(page), 3 * 1024 * 1024)
        text, _ = self.sound(page)
        listed = text[text.index('<pre id="flagged-list"'):]
        listed = listed[:listed.index("</pre>")]
        self.assertEqual(len(re.findall(r"^unreachable r\d+ \[", listed, re.M)), 33333)
        self.assertTrue("\nunreachable r2 [000020\\x00, 000020\\x01)\n" in listed, listed[:300])

    def test_report__page_to_standard_output(self):
        r = self.hb("report", "--hex-splits", "4", "--keyspace", "hex{8}", "--html", "-")
        self.assertEqual(r.rc, 0, r)
        self.assertTrue(r.out.startswith("<!DOCTYPE html>"), r.out[:100])
        self.assertEqual(htmlpage.check_page(r.out)[0], [])

    def test_report__o_names_the_page_file_as_the_contract_spells_it(self):
        page = os.path.join(self.dir, "o-page.html")
        r = self.hb("report", *SEED, "--keyspace", "hex{16}", "-o", page)
        self.assertEqual(r.rc, 1, r)  # the seed-001 design has unreachable regions
        self.assertEqual(r.out, "wrote %s: 10 regions, 6 findings\n" % page)
        self.assertEqual(htmlpage.check_page(open(page).read())[0], [])
        page2 = os.path.join(self.dir, "o-page2.html")
        r = self.hb("report", *SEED, "--keyspace", "hex{16}", "--output=" + page2)
        self.assertEqual(r.rc, 1, r)
        self.assertTrue(os.path.exists(page2))
        # -o json with --html: the format of the line, as for every command
        r = self.hb("report", *SEED, "--keyspace", "hex{16}", "-o", "json", "--html", page)
        self.assertEqual(json.loads(r.out)["file"], page)
        self.assertFails(self.hb("report", *SEED, "--keyspace", "hex{16}", "-o", page,
                                 "--html", page2), 2, r"given twice")
        # other commands still take only a format
        self.assertFails(self.hb("splits", *SEED, "-o", page), 2,
                         r"invalid value .* for --output")

    def test_report__usage_errors(self):
        self.assertFails(self.hb("report", *SEED, "--keyspace", "hex{16}"), 2,
                         r"missing -o FILE.html")
        self.assertFails(self.hb("report", *SEED, "--html", os.path.join(self.dir, "x.html")),
                         2, r"needs --keyspace")
        self.assertFails(self.hb("report", *SEED, "--keyspace", "hex{16}", "--html", self.dir),
                         2, r"not a file name")
        self.assertFails(self.hb("report", *SEED, "--keyspace", "hex{", "--html", "-"), 2,
                         r"--keyspace 'hex\{'")
        self.assertFails(self.hb("report", TABLE, "--plan", "reshape", "--html", "-"), 2,
                         r"--plan reshape needs a split specification")
        self.assertFails(self.hb("report", TABLE, "--plan", "repair", *SEED, "--html", "-"), 2,
                         r"--plan repair takes no split specification")
        self.assertFails(self.hb("report", TABLE, "--plan", "grow", "--html", "-"), 2,
                         r"expected repair or reshape")
        # a design whose row keys carry N is refused as reshape refuses it
        r = self.hb("report", TABLE, "--plan", "reshape", "--salt-splits", "16", "--html", "-")
        self.assertFails(r, 5, r"refusing to plan a reshape .* salt design's its row keys "
                               r"carry the bucket")
        r = self.hb("report", TABLE, "--plan", "reshape", "--hex-splits", "16", "--keyspace",
                    "u8<16 hex{8}", "--html", "-")
        self.assertFails(r, 5, r"starts with a partition number")
        self.assertFails(self.hb("report", TABLE, *SEED, "--html", "-"), 2,
                         r"either TABLE or a split specification")
        self.assertFails(self.hb("report", *SEED, "--keyspace", "hex{16}", "--hotspots",
                                 "--html", "-"), 2, r"need a TABLE")
        self.assertFails(self.hb("report", TABLE, "--html", "-", "--simulate"), 2,
                         r"go with a split set")
        self.assertFails(self.hb("report", *SEED, "--keyspace", "hex{16}", "--servers", "3",
                                 "--html", "-"), 2, r"--servers goes with N = auto or --simulate")
        self.assertEqual(os.listdir(self.dir), [])


class TableReport(EmulatorTest, PageChecks):
    servers = 3

    def setUp(self):
        super().setUp()
        self.dir = tempfile.mkdtemp(prefix="hbtab-report-")
        self.emu.control("POST", "/control/reset")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def create(self, table, keys, n, keyspace, rows=()):
        self.emu.create(table, keys)
        cells = [{"column": b64("cf:N"), "value": b64(str(n))},
                 {"column": b64("cf:keyspace"), "value": b64(keyspace)}]
        body = [{"key": b64("totalPartition"), "cells": cells}]
        body += [{"key": b64(k), "cells": [{"column": b64("cf:q"), "value": b64("v")}]}
                 for k in rows]
        st, resp = self.emu.control("POST", "/control/put", {"table": table, "rows": body})
        self.assertIn(st, (200, 201), resp)

    def seed001(self, table, rows=()):
        keys = [hbtest.unb64(k["base64"]) for k in run(
            ["-o", "json", "splits", *SEED, "--format", "json"]).json()["splits"]]
        self.create(table, keys, 10, "hex{16}", rows)

    def test_report__seed001_table_page_shows_the_audit_servers_and_colours(self):
        t = "events_user_clicks_20261128"
        self.seed001(t)
        page = os.path.join(self.dir, "t.html")
        r = self.hb("report", t, "--html", page)
        self.assertEqual(r.rc, 1, r)
        audit = self.hb("-o", "json", "audit", t).json()
        text, words = self.sound(page)
        _, seen, _ = self.look(page, audit["regions"], 1)
        self.assertEqual(seen, [GREEN if x["reachable"] else RED for x in audit["regions"]])
        servers = {x["server"] for x in self.hb("-o", "json", "regions", t).json()["regions"]}
        self.assertEqual(len(servers), 3)
        table = text[text.index('<table id="server-table">'):]
        for s in servers:
            self.assertIn("<tr><td>%s</td>" % s, table)
        self.assertIn("Request load not measured", words)

    def test_report__a_table_that_does_not_exist_writes_no_page(self):
        page = os.path.join(self.dir, "none.html")
        self.assertFails(self.hb("report", "events_user_gone_20261128", "--html", page), 4,
                         r"events_user_gone_20261128")
        self.assertEqual(os.listdir(self.dir), [])

    def test_report__healthy_table_has_no_flagged_colour_on_its_bar(self):
        t = "events_user_views_20261128"
        self.create(t, HEX10, 10, "hex{8}")
        page = os.path.join(self.dir, "ok.html")
        r = self.hb("report", t, "--html", page, "-o", "json")
        self.assertEqual(r.rc, 0, r)
        self.assertEqual(r.json(), {"file": page, "bytes": os.path.getsize(page),
                                    "regions": 10, "findings": 0})
        text, words = self.sound(page)
        audit = self.hb("-o", "json", "audit", t).json()
        img, seen, y = self.look(page, audit["regions"], 0)
        self.assertEqual(seen, [GREEN] * 10)
        x0, width, _, _, _ = map_geometry(text)
        bar = {img.pixel(x, y) for x in range(16 + x0, 16 + x0 + width)}
        self.assertEqual(bar & FLAGGED, set())
        self.assertIn("None: every region is reachable", words)

    def test_report__hot_region_is_orange_and_servers_show_their_writes(self):
        t = "events_user_writes_20261128"
        self.create(t, HEX10, 10, "hex{8} *")
        body = [{"key": b64(b"f%07d" % i), "cells": [{"column": b64("cf:q"), "value": b64("v")}]}
                for i in range(600)]
        st, resp = self.emu.control("POST", "/control/put", {"table": t, "rows": body})
        self.assertIn(st, (200, 201), resp)
        page = os.path.join(self.dir, "hot.html")
        r = self.hb("report", t, "--hotspots", "--window", "0", "--html", page)
        self.assertEqual(r.rc, 1, r)
        audit = self.hb("-o", "json", "audit", t, "--hotspots", "--window", "0").json()
        self.assertIn(("hotspot", 9), [(f["kind"], f["region"]) for f in audit["findings"]])
        text, words = self.sound(page)
        _, seen, _ = self.look(page, audit["regions"], 0)
        self.assertEqual(seen, [GREEN] * 9 + [htmlpage.rgb("#f28c28")])
        rows = re.findall(r"<tr><td>([^<]+)</td><td class=\"n\">\d+</td><td class=\"n\">[^<]+"
                          r"</td><td class=\"n\">(\d+)</td>", text)
        self.assertEqual(sum(int(w) for _, w in rows), audit["hotspots"]["total_writes"])

    def test_report__plan_repair_draws_boundaries_before_and_after(self):
        t = "events_user_merges_20261128"
        self.seed001(t, rows=[b"0123456789abcdef", b"fedcba9876543210"])
        page = os.path.join(self.dir, "plan.html")
        r = self.hb("report", t, "--plan", "repair", "--html", page)
        self.assertEqual(r.rc, 1, r)
        plan = self.hb("-o", "json", "repair", t)
        steps = [s for s in plan.json()["steps"]]
        text, words = self.sound(page)
        self.assertIn('<svg id="plan"', text)
        self.assertIn("Plan: repair", words)
        rows = re.findall(r"<tr><td class=\"n\">(\d+)</td><td>(merge|split|report)</td>", text)
        self.assertEqual(len(rows), len(steps))
        self.assertGreater(len(rows), 0)
        for s in steps:
            if s.get("command"):
                self.assertIn(s["command"], words)
        after = text[text.index('<table id="after">'):]
        n_after = after[:after.index("</table>")].count("<tr>") - 1
        merged = sum(len(s["regions"]) - 1 for s in steps if s.get("action") == "merge")
        self.assertEqual(n_after, 10 - merged)

    def steps_rows(self, text):
        table = text[text.index('<table id="steps">'):]
        table = table[:table.index("</table>")]
        return re.findall(r'<tr><td class="n">\d+</td><td class="n">(\d+)</td>'
                          r'<td>(merge|split|report)</td><td>([^<]*)</td><td>[^<]*</td>'
                          r'<td class="k">([^<]*)</td><td class="k">([^<]*)</td>'
                          r'<td class="k">([^<]*)</td><td class="k">([^<]*)</td></tr>', table)

    def test_report__plan_reshape_draws_every_round_and_the_target_boundaries(self):
        t = "ns_events:user_clicks_reshape_20261128"
        self.assertOk(self.hb("create", t, "--hex-splits", "10", "--family", "cf",
                               "--create-namespace"))
        rows = [{"key": b64(b"%08x-click" % (i * (1 << 32) // 64)),
                 "cells": [{"column": b64("cf:q"), "value": b64("v")}]} for i in range(64)]
        st, resp = self.emu.control("POST", "/control/put", {"table": t, "rows": rows})
        self.assertIn(st, (200, 201), resp)
        for n in (16, 6):
            page = os.path.join(self.dir, "reshape%d.html" % n)
            r = self.hb("report", t, "--plan", "reshape", "--hex-splits", str(n), "-o", page)
            self.assertEqual(r.rc, 0, r)
            plan = self.hb("-o", "json", "reshape", t, "--hex-splits", str(n))
            self.assertEqual(plan.rc, 1, plan)
            steps = plan.json()["steps"]
            text, words = self.sound(page)
            self.assertIn("Plan: reshape", words)
            self.assertIn("10 regions before, %d after; %d steps" % (n, len(steps)), words)
            got = self.steps_rows(text)
            self.assertEqual([(int(g[0]), g[1], g[2], g[5], g[6]) for g in got],
                             [(s["round"], s["action"], s["finding"], s.get("split_key") or "",
                               (s["command"] or "").replace("'", "&#39;")
                               .replace('"', "&quot;")) for s in steps])
            self.assertGreater(max(s["round"] for s in steps), 1)
            for g, s in zip(got, steps):
                if s["round"] > 1:  # a later round names its regions by their bounds
                    bounds = [re.sub(r"^\(table (start|end)\)$", "", x) for x in g[3:5]]
                    self.assertEqual(bounds, [s["start"], s["end"]])
            want = [unb64(k["base64"]).decode() for k in
                    self.hb("-o", "json", "splits", "--hex-splits", str(n)).json()["splits"]]
            after = text[text.index('<table id="after">'):]
            after = re.findall(r'<tr><td class="n">\d+</td><td class="k">([^<]*)</td>',
                               after[:after.index("</table>")])
            self.assertEqual(after[1:], want)
            # the screenshot: the plan's strip shows splits (red) and, to 6, merges (green)
            img = htmlpage.screenshot(page, page + ".png", height=3000)  # the plan is below
            colours = img.colours()
            self.assertGreater(len(colours), 20)
            split_px = tuple(round(0.6 * c + 0.4 * 255) for c in htmlpage.rgb("#e76f51"))
            merge_px = tuple(round(0.6 * c + 0.4 * 255) for c in htmlpage.rgb("#2a9d8f"))

            def near(c):
                return any(max(abs(a - b) for a, b in zip(c, x)) <= 3 for x in colours)
            self.assertTrue(near(split_px), n)
            if any(s["action"] == "merge" for s in steps):
                self.assertTrue(near(merge_px), n)


if __name__ == "__main__":
    hbtest.main()
