"""Defaults an unattended (cron) run relies on: the default retries ride out a gateway
restart, and an unusable TMPDIR or XDG_RUNTIME_DIR falls back to /tmp."""

import hbtest
from hbtest import EmulatorTest


class CronFriendlyDefaults(EmulatorTest):
    """The default retries ride out a gateway restart for idempotent requests, and an
    unusable TMPDIR or XDG_RUNTIME_DIR falls back to /tmp."""

    DEFAULTS = {"HBTAB_RETRIES": None}  # hbtab's own default, not the suite's quick one

    def setUp(self):
        super().setUp()
        self.emu.create("t", [b"m"])

    def test_default_retries_ride_out_eight_503_answers(self):
        # event-driven: the gateway answers 503 to the first 8 requests, then works again
        self.emu.fault(server="rest", method="GET", path=r"^/t/regions", kind="503", count=8)
        r = self.hb("regions", "t", "--source", "rest", env=self.DEFAULTS)
        self.assertOk(r)
        self.assertEqual(len([q for q in self.emu.requests() if q["path"] == "/t/regions"]), 9)

    def test_default_retries_ride_out_a_refused_port(self):
        # 6 s closed: the default back-off waits at least 13.75 s before it gives up
        self.emu.fault(server="rest", kind="refuse", seconds=6)
        r = self.hb("regions", "t", env=self.DEFAULTS)
        self.assertOk(r)
        self.assertIn("t,m,", r.out)

    def test_an_unusable_tmpdir_falls_back_to_tmp(self):
        for d in ("/nonexistent-hbtab-dir", "/dev/null"):
            r = self.hb("regions", "t", env={"TMPDIR": d})
            self.assertOk(r)
            r = self.hb("regions", "t", "--source", "meta", env={"TMPDIR": d})
            self.assertOk(r)

    def test_an_unusable_xdg_runtime_dir_falls_back_to_tmp(self):
        r = self.hb("rotate", "--template", "x_%Y%m%d", "--hex-splits", "2", "--now",
                    "2026-11-01", "--ahead", "0", "--retain", "1",
                    env={"XDG_RUNTIME_DIR": "/nonexistent-hbtab-dir"})
        self.assertOk(r)
        self.assertIsNotNone(self.emu.table("x_20261101"))


if __name__ == "__main__":
    hbtest.main()
