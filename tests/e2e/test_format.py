"""Source layout: the files listed here are exactly as clang-format (.clang-format) writes them.

The list grows as files are formatted; a file is added once it has been run through
clang-format, so the check never asks for changes nobody made."""
import os
import shutil
import subprocess
import unittest

import hbtest

FORMATTED = [
    "cli/commands.h", "cli/diag.c", "cli/main.c",
    "cli/cmd_describe.c", "cli/cmd_drop.c", "cli/cmd_regions.c", "cli/cmd_status.c",
    "cli/cmd_tables.c", "cli/signals.c",
    "core/bounds.c", "core/bounds.h", "core/clock.c", "core/clock.h", "core/diff.c",
    "core/diff.h", "core/family.c", "core/family.h", "core/interrupt.c", "core/interrupt.h",
    "core/metarow.c", "core/metarow.h", "core/vec.c", "core/vec.h",
    "rest/metarow.c", "rest/metarow.h", "rest/rest_priv.h",
    "tests/unit/test_bounds.c", "tests/unit/test_schema.c", "tests/unit/test_shared.c",
    "tests/unit/test_url.c",
]


class Format(unittest.TestCase):
    def test_format__listed_files_match_clang_format(self):
        exe = shutil.which("clang-format")
        self.assertIsNotNone(exe, "clang-format is not installed (scripts/dev.sh installs it)")
        bad = []
        for rel in FORMATTED:
            path = os.path.join(hbtest.SRC, rel)
            with open(path, "rb") as f:
                want = f.read()
            p = subprocess.run([exe, "--style=file", path], capture_output=True, timeout=120,
                               cwd=hbtest.SRC)
            self.assertEqual(p.returncode, 0, p.stderr)
            if p.stdout != want:
                bad.append(rel)
        self.assertEqual(bad, [], "run: clang-format -i " + " ".join(bad))

    def test_format__every_listed_file_exists(self):
        for rel in FORMATTED:
            self.assertTrue(os.path.isfile(os.path.join(hbtest.SRC, rel)), rel)


if __name__ == "__main__":
    unittest.main(verbosity=2)
