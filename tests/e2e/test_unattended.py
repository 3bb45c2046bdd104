"""Unattended (cron-style) runs never report success they have not earned: unknown state,
refusals before DDL, leaked scanners, idempotent reruns, dry runs that predict, rotation that
keeps its promise, and plain messages for missing namespaces."""
import os
import subprocess
import tempfile

import hbtest
from hbtest import b64, unb64


class MetadataRowDotSegments(hbtest.EmulatorTest):
    def test_metadata_row_named_dot_or_dotdot_is_written_and_read_back_as_itself(self):
        # libcurl removes dot segments from a URL path: a row GET of '.' or '..' would read
        # another resource, so such rows go through a scanner like other unsafe keys.
        for row in (".", ".."):
            self.emu.reset()
            r = self.hb("create", "mr", "--hex-splits", "2", "--metadata-row", row, "-q")
            self.assertOk(r)
            self.assertEqual(r.out, "")
            self.assertEqual(self.emu.metadata_row("mr", row=row)["cf:N"], "2")
            g = self.hb("meta", "get", "mr", "--metadata-row", row, "-o", "json")
            self.assertOk(g)
            self.assertEqual(g.json()["N"], 2)
            s = self.hb("meta", "set", "mr", "7", "--force", "--metadata-row", row, "-q")
            self.assertOk(s)
            g = self.hb("meta", "get", "mr", "--metadata-row", row, "-o", "json")
            self.assertOk(g)
            self.assertEqual(g.json()["N"], 7)
            self.emu.clear_requests()
            self.hb("meta", "get", "mr", "--metadata-row", row)
            paths = [q["path"] for q in self.emu.requests() if q["method"] == "GET"]
            self.assertFalse([p for p in paths if p.split("?")[0] in ("/mr/cf", "/cf", "/mr", "/")],
                             paths)


if __name__ == "__main__":
    hbtest.main()
