"""Source layout: every C file of the project (cli/, core/, rest/, tests/) is exactly as
clang-format (.clang-format) writes it."""
import os
import shutil
import subprocess
import unittest

import hbtest

DIRS = ["cli", "core", "rest", "tests"]


def c_files():
    """The C sources and headers under DIRS, found by walking the tree (not a list kept by hand)."""
    out = []
    for d in DIRS:
        for root, dirs, files in os.walk(os.path.join(hbtest.SRC, d)):
            dirs[:] = [x for x in dirs if not x.startswith(".") and x != "emulator"]
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(root, f), hbtest.SRC))
    return sorted(out)


class Format(unittest.TestCase):
    def test_format__every_c_file_matches_clang_format(self):
        exe = shutil.which("clang-format")
        self.assertIsNotNone(exe, "clang-format is not installed (scripts/dev.sh installs it)")
        bad = []
        files = c_files()
        for rel in files:
            path = os.path.join(hbtest.SRC, rel)
            with open(path, "rb") as f:
                want = f.read()
            p = subprocess.run([exe, "--style=file", path], capture_output=True, timeout=120,
                               cwd=hbtest.SRC)
            self.assertEqual(p.returncode, 0, p.stderr)
            if p.stdout != want:
                bad.append(rel)
        self.assertEqual(bad, [], "run: clang-format -i " + " ".join(bad))

    def test_format__the_walk_finds_the_sources(self):
        files = c_files()
        for rel in ("cli/main.c", "core/split.c", "rest/http.c", "tests/unit/test.h"):
            self.assertIn(rel, files)
        self.assertGreater(len(files), 100)


if __name__ == "__main__":
    unittest.main(verbosity=2)
