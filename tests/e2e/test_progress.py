"""The progress indicator: drawn on a terminal's stderr only, cleared before the results."""
import hbtest


class Progress(hbtest.EmulatorTest):
    def setUp(self):
        super().setUp()
        # Enough meta rows for several scanner batches, so progress is reported mid-way.
        self.emu.create("big", [b"%06d" % i for i in range(1, 4000)])

    def run_with_tty_stderr(self, *args):
        return hbtest.TtyStderr(["--rest", self.emu.rest] + list(args)).finish()

    def test_progress__meta_listing_draws_and_clears_progress_on_a_terminal(self):
        rc, out, err = self.run_with_tty_stderr("regions", "big", "--source", "meta")
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(out.splitlines()), 4000)
        self.assertRegex(err, rb"\rreading: \d+")
        self.assertTrue(err.endswith(b"\r\x1b[K"), err[-40:])
        self.assertNotIn(b"reading", out)

    def test_progress__no_progress_flag_keeps_the_terminal_quiet(self):
        rc, out, err = self.run_with_tty_stderr("--no-progress", "regions", "big", "--source", "meta")
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, b"")

    def test_progress__nothing_is_drawn_when_stderr_is_not_a_terminal(self):
        r = self.hb("regions", "big", "--source", "meta")
        self.assertOk(r)
        self.assertEqual(r.err, "")


if __name__ == "__main__":
    hbtest.main()
