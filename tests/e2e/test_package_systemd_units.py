"""The systemd timer units (dist/systemd) as `cmake --install` installs them: systemd's own
checker (systemd-analyze verify, which needs no running systemd) accepts each service and
timer with a profile as the instance name and prints nothing; the timers make up a missed run
(Persistent=true), spread their start (RandomizedDelaySec) and start a oneshot service (which
never runs twice at once under its timer); the services call the installed binary with the
instance as --profile and write the textfile collector's file."""
import configparser
import os
import shutil
import subprocess
import tempfile
import unittest

import hbtest

UNITS = ("hbtab-rotate@.service", "hbtab-rotate@.timer", "hbtab-audit@.service",
         "hbtab-audit@.timer")


def tool(name):
    path = shutil.which(name)
    if path is None:
        raise AssertionError("%s is not installed (scripts/dev.sh installs it)" % name)
    return path


def build_dir():
    return os.path.dirname(hbtest.HBTAB)


def unit_sections(path):
    """A unit file as {section: {key: [values]}} (keys may repeat)."""
    out, sec = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                sec = out.setdefault(line.strip("[]"), {})
                continue
            k, v = line.split("=", 1)
            sec.setdefault(k, []).append(v)
    return out


class InstalledUnits(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.prefix = tempfile.mkdtemp(prefix="hbtab-install-")
        p = subprocess.run([tool("cmake"), "--install", build_dir(), "--prefix", cls.prefix],
                           capture_output=True, text=True, timeout=300)
        cls.install = p
        cls.unitdir = os.path.join(cls.prefix, "lib", "systemd", "system")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.prefix, ignore_errors=True)

    def setUp(self):
        self.assertEqual(self.install.returncode, 0, self.install.stdout + self.install.stderr)

    def unit(self, name):
        return unit_sections(os.path.join(self.unitdir, name))

    def verify(self, *instances):
        env = dict(os.environ, SYSTEMD_UNIT_PATH=self.unitdir + ":")
        return subprocess.run([tool("systemd-analyze"), "verify", "--man=no"] +
                              [os.path.join(self.unitdir, i) for i in instances],
                              capture_output=True, text=True, env=env, timeout=120)

    def test_every_unit_is_installed(self):
        self.assertEqual(sorted(os.listdir(self.unitdir)), sorted(UNITS))

    def test_systemd_analyze_verify_accepts_the_instances_without_a_word(self):
        p = self.verify("hbtab-rotate@events.service", "hbtab-rotate@events.timer",
                        "hbtab-audit@events.service", "hbtab-audit@events.timer")
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "", ""))

    def test_systemd_analyze_verify_does_report_a_broken_unit(self):
        # the check above means something: a wrong value and an unknown key are reported
        bad = os.path.join(self.unitdir, "hbtab-broken@.timer")
        with open(os.path.join(self.unitdir, "hbtab-rotate@.timer")) as f:
            text = f.read().replace("\nPersistent=true", "\nPersistent=maybe\nBogus=1")
        with open(bad, "w") as f:
            f.write(text)
        try:
            p = self.verify("hbtab-broken@events.timer")
        finally:
            os.unlink(bad)
        self.assertIn("Failed to parse boolean value, ignoring: maybe", p.stderr)
        self.assertIn("Bogus", p.stderr)

    def test_timers_make_up_missed_runs_and_spread_their_start(self):
        for name in ("hbtab-rotate@.timer", "hbtab-audit@.timer"):
            t = self.unit(name)["Timer"]
            self.assertEqual(t["Persistent"], ["true"], name)
            self.assertTrue(t["RandomizedDelaySec"][0], name)
            self.assertTrue(t["OnCalendar"][0], name)
            self.assertEqual(self.unit(name)["Install"]["WantedBy"], ["timers.target"])

    def test_services_are_oneshot_runs_of_the_installed_binary_for_the_instance_profile(self):
        for name, cmd, var in (("hbtab-rotate@.service", "rotate", "$ROTATE_ARGS"),
                               ("hbtab-audit@.service", "audit", "$AUDIT_ARGS")):
            s = self.unit(name)["Service"]
            self.assertEqual(s["Type"], ["oneshot"])
            argv = s["ExecStart"][0].split()
            self.assertEqual(argv[0], os.path.join(self.prefix, "bin", "hbtab"))
            self.assertTrue(os.access(argv[0], os.X_OK))
            i = argv.index("--profile")
            self.assertEqual(argv[i + 1], "%i")
            self.assertEqual(argv[argv.index(cmd) + 1], var)
            self.assertRegex(argv[argv.index("--prom-file") + 1],
                             r"^/var/lib/prometheus/node-exporter/hbtab_%s_%%i\.prom$" % cmd)
            self.assertEqual(s["EnvironmentFile"], ["/etc/hbtab/%s-%%i.env" % cmd])

    def test_the_service_command_line_is_one_hbtab_accepts(self):
        # the ExecStart words, with the instance and an environment file's words put in,
        # pass hbtab's own parse: --help after them shows the command's help
        s = self.unit("hbtab-rotate@.service")["Service"]
        argv = [w.replace("%i", "events") for w in s["ExecStart"][0].split()]
        i = argv.index("$ROTATE_ARGS")
        argv[i:i + 1] = ["--template", "events_%Y%m%d", "--hex-splits", "4", "--help"]
        p = subprocess.run(argv, capture_output=True, text=True,
                           env=hbtest.clean_env(self.prefix), timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("rotate", p.stdout)


if __name__ == "__main__":
    hbtest.main()
