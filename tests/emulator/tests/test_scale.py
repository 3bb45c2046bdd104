"""Scale: a 100,000-region table is created, listed by /T/regions and scanned in full from
hbase:meta with a stateful scanner at batch 1000. The times are printed; the bounds are only
generous guards against a hang (the machine may be shared), not speed targets."""
import base64
import http.client
import json
import sys
import time
import unittest

from emu_harness import EmuTestCase, b64

N = 100000
HANG_GUARD = 300  # seconds per step


class Scale(EmuTestCase):
    def test_100k_regions_create_regions_listing_and_meta_scan_are_fast(self):
        splits = [b"%08d" % i for i in range(1, N)]
        t0 = time.time()
        self.emu.create("big", splits, families=[{"name": "cf"}])
        t_create = time.time() - t0
        self.assertLess(t_create, HANG_GUARD)

        conn = http.client.HTTPConnection("127.0.0.1", self.emu.rest_port, timeout=60)
        t0 = time.time()
        conn.request("GET", "/big/regions", headers={"Accept": "application/json"})
        r = conn.getresponse()
        body = r.read()
        t_regions = time.time() - t0
        self.assertEqual(r.status, 200)
        regs = json.loads(body)["Region"]
        self.assertEqual(len(regs), N)
        self.assertLess(t_regions, HANG_GUARD)

        t0 = time.time()
        conn.request("POST", "/hbase:meta/scanner",
                     body=json.dumps({"startRow": b64(b"big,,"), "endRow": b64(b"big ,,"),
                                      "batch": 1000, "maxVersions": 1}),
                     headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        r.read()
        self.assertEqual(r.status, 201)
        path = r.getheader("Location").split(str(self.emu.rest_port), 1)[1]
        rows = 0
        cells = 0
        last = None
        calls = 0
        while True:
            conn.request("GET", path, headers={"Accept": "application/json"})
            r = conn.getresponse()
            b = r.read()
            calls += 1
            if r.status == 204:
                break
            self.assertEqual(r.status, 200)
            for row in json.loads(b)["Row"]:
                if row["key"] != last:
                    rows += 1
                    last = row["key"]
                cells += len(row["Cell"])
        t_scan = time.time() - t0
        conn.close()
        self.assertEqual(rows, N)
        self.assertEqual(cells, N * 6)
        self.assertLess(t_scan, HANG_GUARD)
        sys.stderr.write("\n[scale] create %.2fs, /regions %.2fs, meta scan %.2fs (%d GETs)\n"
                         % (t_create, t_regions, t_scan, calls))


if __name__ == "__main__":
    unittest.main()
