"""SIGINT and SIGTERM erase the progress line on the terminal before the interruption
message."""
import signal

import hbtest
from hbtest import EmulatorTest


class SignalsEraseProgress(EmulatorTest):
    """SIGINT/SIGTERM erase the progress line before the interruption message."""

    def interrupt_while_drawing(self, sig, args, pattern):
        t = hbtest.TtyStderr(["--rest", self.emu.rest] + args)
        t.wait_for_err(pattern)
        t.p.send_signal(sig)
        return t.finish()

    def test_sigint_during_a_simulation_erases_the_progress_line_first(self):
        rc, out, err = self.interrupt_while_drawing(
            signal.SIGINT, ["simulate", "--hex-splits", "16", "--generator", "md5",
                            "--count", "1000000000000"], rb"\rsimulating: \d+")
        self.assertEqual(rc, 130, err)
        self.assertIn(b"\r\x1b[Khbtab: interrupted (SIGINT)", err)

    def test_sigterm_during_a_region_wait_erases_the_progress_line_first(self):
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        rc, out, err = self.interrupt_while_drawing(
            signal.SIGTERM, ["--thrift", self.emu.thrift, "create", "t1", "--hex-splits", "4",
                             "--via", "thrift2", "--wait", "3600"], rb"\rregions online: 0/4")
        self.assertEqual(rc, 143, err)
        self.assertIn(b"\r\x1b[Khbtab: terminated (SIGTERM)", err)


if __name__ == "__main__":
    hbtest.main()
