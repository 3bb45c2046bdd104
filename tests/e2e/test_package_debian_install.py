"""The Debian package as cpack builds it: the binary, man pages and completions, the right
dependencies; dpkg -i installs it into a scratch root, whose hbtab runs and whose man pages
man finds."""
import os
import re
import shutil
import subprocess
import tempfile

import hbtest
from hbtest import OfflineTest


class DebianPackage(OfflineTest):
    """Cpack -G DEB builds a .deb with the binary, man pages and completions and the
    right dependencies; dpkg -i installs it into a scratch root, whose hbtab runs and whose
    man pages man finds."""

    def test_deb_installs_into_a_scratch_root_and_runs(self):
        build = os.path.dirname(hbtest.HBTAB)
        config = os.path.join(build, "CPackConfig.cmake")
        self.assertTrue(os.path.exists(config), "no CPack configuration in " + build)
        work = tempfile.mkdtemp(prefix="hbtab-deb-")
        try:
            out = os.path.join(work, "out")
            p = subprocess.run(["cpack", "-G", "DEB", "-B", out, "--config", config],
                               cwd=build, capture_output=True, text=True, timeout=900)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            debs = [f for f in os.listdir(out) if f.endswith(".deb")]
            self.assertEqual(len(debs), 1, os.listdir(out))
            deb = os.path.join(out, debs[0])
            fields = subprocess.run(["dpkg-deb", "-f", deb, "Package", "Depends"],
                                    capture_output=True, text=True, check=True).stdout
            self.assertIn("Package: hbtab", fields)
            depends = fields.split("Depends:", 1)[1]
            for lib in ("libcurl4", "libcjson1", "libgmp10", "libssl3", "libc6"):
                self.assertIn(lib, depends)
            # A scratch dpkg database that knows the dependencies as this machine has them
            # installed: dpkg -i then checks the Depends line for real, without --force.
            root = os.path.join(work, "root")
            admin = os.path.join(root, "var", "lib", "dpkg")
            for d in ("info", "updates", "triggers"):
                os.makedirs(os.path.join(admin, d))
            names = re.findall(r"(?:^|,)\s*([a-z0-9][a-z0-9+.-]*)", depends.strip())
            status = subprocess.run(["dpkg-query", "-s"] + names, capture_output=True,
                                    text=True, check=True).stdout
            with open(os.path.join(admin, "status"), "w") as f:
                f.write(status.rstrip("\n") + "\n\n")
            open(os.path.join(admin, "available"), "w").close()
            p = subprocess.run(["dpkg", "--root=" + root, "--log=/dev/null", "--force-not-root",
                                "--force-script-chrootless", "-i", deb],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            binary = os.path.join(root, "usr", "bin", "hbtab")
            r = subprocess.run([binary, "--version"], capture_output=True, text=True,
                               env=hbtest.clean_env(work))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertRegex(r.stdout, r"^hbtab \d+\.\d+\.\d+\n$")
            mandir = os.path.join(root, "usr", "share", "man")
            for page in ("hbtab", "hbtab-rotate"):
                m = subprocess.run(["man", "-w", page], capture_output=True, text=True,
                                   env=dict(hbtest.clean_env(work), MANPATH=mandir))
                self.assertEqual(m.returncode, 0, m.stderr)
                self.assertEqual(m.stdout.strip(), os.path.join(mandir, "man1", page + ".1"))
            for f in ("usr/share/bash-completion/completions/hbtab",
                      "usr/share/zsh/vendor-completions/_hbtab",
                      "usr/share/fish/vendor_completions.d/hbtab.fish"):
                self.assertTrue(os.path.exists(os.path.join(root, f)), f)
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    hbtest.main()
