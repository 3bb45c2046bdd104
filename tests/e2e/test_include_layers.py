"""The layers of docs/ARCHITECTURE.md hold in the sources: core/ < rest/ < cli/, every #include
points down or sideways, and core/ does not include the libraries that rest/ talks through.
The end-to-end tests have two floors of their own: the test files (tests/e2e/test_*.py) over
the helpers (hbtest.py, backend.py, tests/e2e/lib/); no file imports a test file."""
import ast
import glob
import os
import re
import tempfile
import unittest

import hbtest

# Lowest first: a file may include headers of its own layer and of the layers below it.
LAYERS = ("core", "rest", "cli")

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)

# Headers of the libraries each layer links: rest/ talks to HBase through libcurl and cJSON,
# core/ stays pure computation.
NOT_IN_CORE = re.compile(r"^(curl/|cjson/|cJSON\.h$)")


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def layer_of(path, src):
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(src))
    top = rel.split(os.sep, 1)[0]
    return top if top in LAYERS else None


def resolve(name, includer, src):
    """Where a quoted #include lands: beside the including file first, then under the
    source root (the one include directory the build gives every target)."""
    for base in (os.path.dirname(includer), src):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(path):
            return path
    return None


def violations(src):
    """Every #include of cli/, rest/ and core/ that points up a layer, names no file of the
    tree, or (in core/) names a library rest/ talks through."""
    found = []
    for layer in LAYERS:
        for path in sorted(glob.glob(os.path.join(src, layer, "*.[ch]"))):
            with open(path, encoding="utf-8") as f:
                text = strip_comments(f.read())
            rel = os.path.relpath(path, src)
            for m in INCLUDE.finditer(text):
                no = text.count("\n", 0, m.start()) + 1
                kind, name = m.group(1), m.group(2)
                where = "%s:%d: #include %s%s%s" % (rel, no, kind, name,
                                                    '"' if kind == '"' else ">")
                if kind == "<":
                    if layer == "core" and NOT_IN_CORE.search(name):
                        found.append(where + ": core/ does no I/O; this library belongs to rest/")
                    continue
                target = resolve(name, path, src)
                if target is None:
                    found.append(where + ": names no file in the source tree")
                    continue
                to = layer_of(target, src)
                if to is not None and LAYERS.index(to) > LAYERS.index(layer):
                    found.append("%s: %s/ includes a header of %s/, a higher layer"
                                 % (where, layer, to))
    return found


def imports_of_test_files(e2e):
    """Every import of a test file (test_*.py) in tests/e2e's Python files and its lib/: a
    test file is run, never imported; what two files share lives in lib/."""
    found = []
    paths = glob.glob(os.path.join(e2e, "*.py")) + glob.glob(os.path.join(e2e, "lib", "*.py"))
    for path in sorted(paths):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        rel = os.path.relpath(path, e2e)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module] + [node.module + "." + a.name for a in node.names]
            else:
                continue
            for name in names:
                if any(part.startswith("test_") for part in name.split(".")):
                    found.append("%s:%d: imports %s, a test file: what test files share "
                                 "belongs in tests/e2e/lib/" % (rel, node.lineno, name))
                    break
    return found


class IncludeLayers(unittest.TestCase):
    def test_no_source_file_includes_a_header_of_a_higher_layer(self):
        found = violations(hbtest.SRC)
        self.assertEqual(found, [], "docs/ARCHITECTURE.md: every dependency points down "
                         "(cli/ -> rest/ -> core/):\n" + "\n".join(found))

    def test_the_check_sees_every_layer_and_its_includes(self):
        # the scan must find the three folders and their includes, or it proves nothing
        for layer in LAYERS:
            files = glob.glob(os.path.join(hbtest.SRC, layer, "*.[ch]"))
            self.assertTrue(files, "no sources in " + layer)
        self.assertEqual(layer_of(os.path.join(hbtest.SRC, "rest", "rest.h"), hbtest.SRC),
                         "rest")

    def test_the_check_refuses_upward_includes_in_each_style(self):
        # a scratch tree with one file per way of pointing up, and the ways that are allowed
        with tempfile.TemporaryDirectory(prefix="hbtab-layers-") as src:
            for layer in LAYERS:
                os.makedirs(os.path.join(src, layer))
            files = {
                "core/key.h": "#pragma once\n",
                "rest/rest.h": '#include "core/key.h"\n',
                "cli/out.h": '#include "../rest/rest.h"\n#include "../core/key.h"\n',
                "core/up_root.c": '#include "rest/rest.h"\n',
                "core/up_relative.c": '#include "../cli/out.h"\n',
                "rest/up_cli.c": '#include "cli/out.h"\n#include "rest.h"\n',
                "core/curl.c": "#include <curl/curl.h>\n#include <stdio.h>\n",
                "core/missing.c": '#include "nothere.h"\n',
                "core/commented.c": '/* #include "rest/rest.h" */\n#include "key.h"\n',
            }
            for name, text in files.items():
                with open(os.path.join(src, name), "w") as f:
                    f.write(text)
            found = violations(src)
            where = sorted(line.split(": ", 1)[0] for line in found)
            self.assertEqual(where, ["core/curl.c:1", "core/missing.c:1", "core/up_relative.c:1",
                                     "core/up_root.c:1", "rest/up_cli.c:1"], "\n".join(found))



class TestFilesImportNoTestFile(unittest.TestCase):
    def test_no_test_file_imports_another_test_file(self):
        found = imports_of_test_files(os.path.join(hbtest.SRC, "tests", "e2e"))
        self.assertEqual(found, [], "docs/ARCHITECTURE.md, Tests:\n" + "\n".join(found))

    def test_the_check_refuses_each_way_of_importing_a_test_file(self):
        with tempfile.TemporaryDirectory(prefix="hbtab-e2e-") as e2e:
            os.makedirs(os.path.join(e2e, "lib"))
            files = {
                "hbtest.py": "import os\n",
                "test_a.py": "import hbtest\nfrom lib import rows\nfrom lib.rows import put_rows\n",
                "test_b.py": "import test_a\n",
                "test_c.py": "from test_a import X\n",
                "test_d.py": "def f():\n    import os, test_a as a\n",
                "test_e.py": "from lib import test_helpers\n",
                "lib/rows.py": "from test_a import put_rows\n",
                "lib/test_notes.txt": "import test_a\n",
            }
            for name, text in files.items():
                with open(os.path.join(e2e, name), "w") as f:
                    f.write(text)
            found = imports_of_test_files(e2e)
            where = sorted(line.split(": ", 1)[0] for line in found)
            self.assertEqual(where, ["lib/rows.py:1", "test_b.py:1", "test_c.py:1",
                                     "test_d.py:2", "test_e.py:1"], "\n".join(found))


if __name__ == "__main__":
    unittest.main()
