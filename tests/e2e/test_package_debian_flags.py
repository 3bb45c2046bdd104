"""A packager's build: hbtab built the way Debian builds packages (CMAKE_BUILD_TYPE=None with
dpkg-buildflags' CFLAGS, CPPFLAGS and LDFLAGS, every hardening feature on) compiles without a
warning, the flags reach every compile and the link, the binary carries the hardening, and
cpack's .deb of it installs into a scratch root and runs (README.md, "Install")."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import hbtest

# what Debian's hardening=+all gives a C program (dpkg-buildflags(1), "Hardening")
COMPILE_FLAGS = ("-D_FORTIFY_SOURCE=2", "-fstack-protector-strong", "-Wformat",
                 "-Werror=format-security", "-O2")
LINK_FLAGS = ("-Wl,-z,relro", "-Wl,-z,now")


def tool(name):
    path = shutil.which(name)
    if path is None:
        raise AssertionError("%s is not installed (scripts/dev.sh installs it)" % name)
    return path


def buildflags():
    env = dict(os.environ, DEB_BUILD_MAINT_OPTIONS="hardening=+all")
    env.pop("DEB_CFLAGS_APPEND", None)
    get = lambda what: subprocess.run([tool("dpkg-buildflags"), "--get", what], env=env,
                                      capture_output=True, text=True, check=True).stdout.strip()
    return {w: get(w) for w in ("CFLAGS", "CPPFLAGS", "LDFLAGS")}


def install_into_scratch_root(deb, root):
    """dpkg -i into an empty root whose dpkg database knows the .deb's dependencies as this
    machine has them: the Depends line is checked for real, without --force."""
    fields = subprocess.run(["dpkg-deb", "-f", deb, "Depends"], capture_output=True, text=True,
                            check=True).stdout
    names = re.findall(r"(?:^|[,|])\s*([a-z0-9][a-z0-9+.-]*)", fields.strip())
    status = subprocess.run(["dpkg-query", "-s"] + names, capture_output=True, text=True).stdout
    admin = os.path.join(root, "var", "lib", "dpkg")
    for d in ("info", "updates", "triggers"):
        os.makedirs(os.path.join(admin, d))
    with open(os.path.join(admin, "status"), "w") as f:
        f.write(status.rstrip("\n") + "\n\n")
    open(os.path.join(admin, "available"), "w").close()
    return subprocess.run(["dpkg", "--root=" + root, "--log=/dev/null", "--force-not-root",
                           "--force-script-chrootless", "-i", deb],
                          capture_output=True, text=True, timeout=300)


# The sanitizer tree's pass would build the same package again: the build under test does not
# depend on the tree the suite runs in.
@unittest.skipIf(hbtest.SANITIZED, "built and checked once, by the normal tree's pass")
class DebianFlagsBuild(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="hbtab-debflags-")
        cls.build = os.path.join(cls.work, "build")
        flags = buildflags()
        # CMake reads CFLAGS and LDFLAGS from the environment but not CPPFLAGS: a packager
        # (and debhelper's cmake support) puts CPPFLAGS into CFLAGS.
        env = dict(hbtest.clean_env(cls.work), CFLAGS=flags["CFLAGS"] + " " + flags["CPPFLAGS"],
                   LDFLAGS=flags["LDFLAGS"])
        cls.flags = flags
        conf = subprocess.run([tool("cmake"), "-S", hbtest.SRC, "-B", cls.build,
                               "-DCMAKE_BUILD_TYPE=None", "-DHBTAB_TESTS=OFF",
                               "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
                              env=env, capture_output=True, text=True, timeout=300)
        cls.configure = conf
        cls.make = None
        if conf.returncode == 0:
            cls.make = subprocess.run([tool("cmake"), "--build", cls.build, "-j",
                                       str(min(os.cpu_count() or 1, 2))],
                                      env=env, capture_output=True, text=True, timeout=1200)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def built(self):
        self.assertEqual(self.configure.returncode, 0,
                         self.configure.stdout + self.configure.stderr)
        self.assertEqual(self.make.returncode, 0, self.make.stdout + self.make.stderr)
        return os.path.join(self.build, "hbtab")

    def test_the_build_with_debian_flags_has_no_warning(self):
        self.built()
        lines = (self.make.stdout + self.make.stderr).splitlines()
        warnings = [l for l in lines if re.search(r"\bwarning:", l)]
        self.assertEqual(warnings, [], "\n".join(lines))

    def test_dpkg_buildflags_reach_every_compile_and_the_link(self):
        self.built()
        for f in COMPILE_FLAGS:
            self.assertIn(f, self.flags["CFLAGS"] + " " + self.flags["CPPFLAGS"])
        for f in LINK_FLAGS:
            self.assertIn(f, self.flags["LDFLAGS"])
        with open(os.path.join(self.build, "compile_commands.json")) as f:
            commands = json.load(f)
        self.assertTrue(any(c["file"].endswith("cli/main.c") for c in commands))
        for c in commands:
            for flag in COMPILE_FLAGS:
                self.assertIn(" " + flag + " ", " " + c["command"] + " ", c["file"])
        link = os.path.join(self.build, "CMakeFiles", "hbtab.dir", "link.txt")
        with open(link) as f:
            text = f.read()
        for flag in LINK_FLAGS:
            self.assertIn(flag, text)

    def test_the_binary_carries_the_hardening(self):
        binary = self.built()
        readelf = tool("readelf")
        dynamic = subprocess.run([readelf, "-d", "-W", binary], capture_output=True, text=True,
                                 check=True).stdout
        self.assertRegex(dynamic, r"\(FLAGS\)\s+BIND_NOW|\(FLAGS_1\)\s+Flags:.*\bNOW\b")
        segments = subprocess.run([readelf, "-l", "-W", binary], capture_output=True,
                                  text=True, check=True).stdout
        self.assertIn("GNU_RELRO", segments)
        symbols = subprocess.run([readelf, "--dyn-syms", "-W", binary], capture_output=True,
                                 text=True, check=True).stdout
        self.assertIn("__stack_chk_fail", symbols)
        # _FORTIFY_SOURCE turned some calls into their checked twins
        self.assertRegex(symbols, r"\b__\w+_chk\b")

    def test_its_deb_installs_and_runs(self):
        self.built()
        out = os.path.join(self.work, "out")
        p = subprocess.run([tool("cpack"), "-G", "DEB", "-B", out, "--config",
                            os.path.join(self.build, "CPackConfig.cmake")],
                           cwd=self.build, capture_output=True, text=True, timeout=900)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        debs = [f for f in os.listdir(out) if f.endswith(".deb")]
        self.assertEqual(len(debs), 1, os.listdir(out))
        root = os.path.join(self.work, "root")
        p = install_into_scratch_root(os.path.join(out, debs[0]), root)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        r = subprocess.run([os.path.join(root, "usr", "bin", "hbtab"), "--version"],
                           capture_output=True, text=True, env=hbtest.clean_env(self.work))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"^hbtab \d+\.\d+\.\d+\n$")
        # the systemd units name the packaged binary (written at install time, not /usr/local)
        for unit in ("hbtab-rotate@.service", "hbtab-audit@.service"):
            with open(os.path.join(root, "usr", "lib", "systemd", "system", unit)) as f:
                self.assertIn("\nExecStart=/usr/bin/hbtab ", f.read(), unit)
        self.assertTrue(os.path.isfile(os.path.join(root, "usr", "share", "hbtab",
                                                    "hbtab.rules.yml")))
        for unit in ("hbtab-rotate@.timer", "hbtab-audit@.timer"):
            self.assertTrue(os.path.isfile(os.path.join(root, "usr", "lib", "systemd", "system",
                                                        unit)), unit)


if __name__ == "__main__":
    unittest.main()
