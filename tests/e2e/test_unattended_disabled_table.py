"""create and rotate say at once that an existing table is DISABLED instead of waiting the
whole --wait."""

import hbtest
from hbtest import EmulatorTest


class DisabledTableIsNotWaitedFor(EmulatorTest):
    """Create/rotate say at once that an existing table is DISABLED instead of waiting
    the whole --wait (an hour here: only the hang guard of run() would end a wait)."""

    def setUp(self):
        super().setUp()
        self.emu.create("d_20260101", [b"80000000"])
        self.emu.control("POST", "/control/disable", {"table": "d_20260101"})

    def test_create_on_a_disabled_table_says_so_without_waiting(self):
        r = self.hb("create", "d_20260101", "--hex-splits", "2", "--wait", "3600")
        self.assertFails(r, 4, r"table 'd_20260101' is DISABLED: .*not waiting")
        self.assertNotIn("regions not online after", r.err)

    def test_rotate_on_a_disabled_table_says_so_without_waiting(self):
        r = self.hb("rotate", "--template", "d_%Y%m%d", "--hex-splits", "2", "--wait", "3600",
                    "--now", "2026-01-01", "--ahead", "0", "--retain", "1")
        self.assertEqual(r.rc, 4, r)
        self.assertRegex(r.err, r"table 'd_20260101' is DISABLED: .*not waiting")


if __name__ == "__main__":
    hbtest.main()
