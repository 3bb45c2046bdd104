"""hbtab report of a live table against a cluster: the emulator, or real HBase
(HBTAB_BACKEND=real). The seed-001 table's page (createTable(desc, "0000000000000000",
"ffffffffffffffff", 10) over 16-char hex keys: regions 0 and 3-7 hold no key) is rendered by
headless Chromium and its key-space bar shows each region in the audit's colour at the
audit's place; the servers' table names the servers the regions are on, with the writes each
took; the markup passes a strict reading. --plan reshape draws the plan reshape itself makes
for a 10-region hex table holding rows, and refuses a recorded salt design as reshape does."""
import os
import re
import shutil
import tempfile

import backend
import hbtest
from hbtest import unb64
from lib import htmlpage
from lib.reportpage import GREEN, RED, PageChecks

SEED = ["--range-splits", "10", "--start", "0000000000000000", "--end", "ffffffffffffffff"]


class ReportOfACluster(backend.BackendTest, PageChecks):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="hbtab-report-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_seed001_table_page_matches_the_audit_and_the_servers(self):
        t = self.name()
        r = self.hb("splits", *SEED, "--format", "json")
        self.assertOk(r)
        self.be.create(t, families=["cf"], splits=[unb64(k["base64"]) for k in r.json()["splits"]])
        self.be.put(t, [(b"totalPartition", {"cf:N": b"10", "cf:keyspace": b"hex{16}"}),
                        (b"0123456789abcdef", {"cf:q": b"v"}),
                        (b"fedcba9876543210", {"cf:q": b"v"})])
        page = os.path.join(self.dir, "t.html")
        r = self.hb("report", t, "--hotspots", "--window", "0", "--html", page)
        self.assertEqual(r.rc, 1, r)
        audit = self.hb("-o", "json", "audit", t)
        self.assertEqual(audit.rc, 1, audit)
        regions = audit.json()["regions"]
        self.assertEqual([i for i, x in enumerate(regions) if not x["reachable"]],
                         [0, 3, 4, 5, 6, 7])
        text, words = self.sound(page)
        _, seen, _ = self.look(page, regions, 1)
        self.assertEqual(seen, [GREEN if x["reachable"] else RED for x in regions])
        listed = self.hb("-o", "json", "regions", t).json()["regions"]
        table = text[text.index('<table id="server-table">'):]
        table = table[:table.index("</table>")]
        rows = re.findall(r"<tr><td>([^<]+)</td><td class=\"n\">(\d+)</td>", table)
        counts = {}
        for x in listed:
            counts[x["server"]] = counts.get(x["server"], 0) + 1
        self.assertEqual(dict((s, int(n)) for s, n in rows), counts)
        self.assertNotIn("Request load not measured", words)

    def test_plan_reshape_page_lists_reshapes_steps_and_the_target_boundaries(self):
        t = "ns_report:events_user_clicks_20261128_%x" % os.getpid()
        self.assertOk(self.hb("create", t, "--hex-splits", "10", "--family", "cf",
                               "--create-namespace"))
        self.be.put(t, [(b"%08x-click" % (i * (1 << 32) // 32), {b"cf:q": b"v"})
                        for i in range(32)])
        page = os.path.join(self.dir, "reshape.html")
        r = self.hb("report", t, "--plan", "reshape", "--hex-splits", "16", "-o", page)
        self.assertEqual(r.rc, 0, r)
        steps = self.hb("-o", "json", "reshape", t, "--hex-splits", "16").json()["steps"]
        text, words = self.sound(page)
        self.assertIn("10 regions before, 16 after; %d steps" % len(steps), words)
        table = text[text.index('<table id="steps">'):]
        got = re.findall(r'<tr><td class="n">\d+</td><td class="n">(\d+)</td><td>(\w+)</td>'
                         r'.*?<td class="k">([^<]*)</td><td class="k">[^<]*</td></tr>',
                         table[:table.index("</table>")])
        self.assertEqual(got, [(str(s["round"]), s["action"], s.get("split_key") or "")
                               for s in steps])
        want = [unb64(k["base64"]).decode() for k in
                self.hb("-o", "json", "splits", "--hex-splits", "16").json()["splits"]]
        after = text[text.index('<table id="after">'):]
        self.assertEqual(re.findall(r'<tr><td class="n">\d+</td><td class="k">([^<]*)</td>',
                                    after[:after.index("</table>")])[1:], want)
        colours = htmlpage.screenshot(page, page + ".png", height=3000).colours()
        split_px = tuple(round(0.6 * c + 0.4 * 255) for c in htmlpage.rgb("#e76f51"))
        self.assertTrue(any(max(abs(a - b) for a, b in zip(c, split_px)) <= 3
                            for c in colours))
        # a recorded salt design: refused as reshape refuses it, no page
        salted = t + "_salt"
        self.assertOk(self.hb("create", salted, "--salt-splits", "8", "--family", "cf"))
        none = os.path.join(self.dir, "salt.html")
        self.assertFails(self.hb("report", salted, "--plan", "reshape", "--hex-splits", "16",
                                 "-o", none), 5,
                         re.escape("refusing to reshape '%s': it is a salt design" % salted))
        self.assertFalse(os.path.exists(none))


if __name__ == "__main__":
    hbtest.main()
