"""Source layout: every C file of the project (cli/, core/, rest/, tests/) is exactly as
clang-format (.clang-format) writes it."""
import os
import shutil
import subprocess
import tempfile
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
        files = c_files()
        # one clang-format for every file (a process each was minutes on a loaded machine):
        # --dry-run names each place that differs as "FILE:LINE:COL: error: ..."
        p = subprocess.run([exe, "--style=file", "--dry-run", "--Werror"] + files,
                           capture_output=True, timeout=600, cwd=hbtest.SRC, text=True)
        bad = sorted({line.split(":", 1)[0] for line in p.stderr.splitlines()
                      if ": error: " in line})
        self.assertEqual(bad, [], "run: clang-format -i " + " ".join(bad))
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_format__a_file_clang_format_would_change_is_named(self):
        # the check itself: one badly laid out file among good ones is found, by name
        exe = shutil.which("clang-format")
        self.assertIsNotNone(exe)
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(os.path.join(hbtest.SRC, ".clang-format"), d)
            with open(os.path.join(d, "good.c"), "w") as f:
                f.write("int x(void)\n{\n\treturn 0;\n}\n")
            with open(os.path.join(d, "bad.c"), "w") as f:
                f.write("int y(void) {  return   1; }\n")
            p = subprocess.run([exe, "--style=file", "--dry-run", "--Werror", "good.c",
                                "bad.c"], capture_output=True, timeout=120, cwd=d, text=True)
        named = {line.split(":", 1)[0] for line in p.stderr.splitlines() if ": error: " in line}
        self.assertEqual(named, {"bad.c"}, p.stderr)
        self.assertNotEqual(p.returncode, 0)

    def test_format__the_walk_finds_the_sources(self):
        files = c_files()
        for rel in ("cli/main.c", "core/split.c", "rest/http.c", "tests/unit/test.h"):
            self.assertIn(rel, files)
        self.assertGreater(len(files), 100)


if __name__ == "__main__":
    unittest.main(verbosity=2)
