"""The layers of docs/ARCHITECTURE.md hold in the sources: core/ < rest/ < cli/, every #include
points down or sideways, and core/ does not include the libraries that rest/ talks through.
The end-to-end tests have two floors of their own: the test files (tests/e2e/test_*.py) over
the helpers (hbtest.py, backend.py, tests/e2e/lib/); no file imports a test file.
Inside rest/ and core/ the files stand on floors too: a header belongs to the files that define
what it declares, and no chain of includes leads from a file back to itself."""
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


# Folders whose files must stand on floors of their own: no include runs back up inside them.
FLOORED = ("rest", "core")

DECLARED = re.compile(r"^(?![ \t#/*}])[^;{()]*?\b([A-Za-z_]\w*)\s*\(", re.M)


def declared(text):
    """The functions a header declares (its prototypes at file scope)."""
    return {m.group(1) for m in DECLARED.finditer(text)
            if not text[m.start():m.end()].lstrip().startswith(("typedef", "struct", "#"))}


def defines(text, name):
    return re.search(r"^(?![ \t#/*}])[^;{()]*\b%s\s*\([^;{]*?\)\s*\{" % re.escape(name),
                     text, re.M) is not None


def upward_inside(src, folder):
    """Every #include inside folder/ that closes a loop between its files. A .c file is its own
    room; a header belongs to the rooms that define the functions it declares (a header that
    declares none, such as one of types or one that only includes others, is a room itself).
    An include is an arrow from the includer's room to the header's rooms; rooms on floors
    have every arrow pointing down, so an arrow on a loop runs back up."""
    base = os.path.join(src, folder)
    texts = {}
    for path in sorted(glob.glob(os.path.join(base, "*.[ch]"))):
        with open(path, encoding="utf-8") as f:
            texts[os.path.relpath(path, src)] = strip_comments(f.read())
    sources = [p for p in texts if p.endswith(".c")]
    rooms = {}
    for rel, text in texts.items():
        if rel.endswith(".c"):
            rooms[rel] = {rel}
            continue
        names = declared(text)
        owners = {c for c in sources if any(defines(texts[c], n) for n in names)}
        rooms[rel] = owners or {rel}
    arrows = {}
    for rel, text in texts.items():
        for m in INCLUDE.finditer(text):
            if m.group(1) != '"':
                continue
            target = resolve(m.group(2), os.path.join(src, rel), src)
            if target is None:
                continue
            to = os.path.relpath(target, src)
            if to not in texts:
                continue
            no = text.count("\n", 0, m.start()) + 1
            for a in rooms[rel]:
                for b in rooms[to]:
                    if a != b:
                        arrows.setdefault((a, b), "%s:%d: #include \"%s\"" % (rel, no, m.group(2)))
    succ = {}
    for a, b in arrows:
        succ.setdefault(a, set()).add(b)

    def reaches(a, b):
        seen, todo = set(), [a]
        while todo:
            x = todo.pop()
            if x == b:
                return True
            if x not in seen:
                seen.add(x)
                todo.extend(succ.get(x, ()))
        return False

    return sorted("%s: %s depends on %s, which leads back to it" % (where, a, b)
                  for (a, b), where in arrows.items() if reaches(b, a))


class IncludeLayers(unittest.TestCase):
    def test_no_source_file_includes_a_header_of_a_higher_layer(self):
        found = violations(hbtest.SRC)
        self.assertEqual(found, [], "docs/ARCHITECTURE.md: every dependency points down "
                         "(cli/ -> rest/ -> core/):\n" + "\n".join(found))

    def test_no_include_inside_rest_or_core_runs_back_up(self):
        for folder in FLOORED:
            found = upward_inside(hbtest.SRC, folder)
            self.assertEqual(found, [], "docs/ARCHITECTURE.md: inside %s/ every include points "
                             "down as well:\n" % folder + "\n".join(found))

    def test_the_check_refuses_a_loop_inside_a_floored_folder(self):
        # a private header declaring functions of two files ties them both ways, as does a
        # decoder including the header of the requests that call it; a header of types only,
        # an umbrella header and a straight chain of includes are fine
        with tempfile.TemporaryDirectory(prefix="hbtab-floors-") as src:
            os.makedirs(os.path.join(src, "rest"))
            files = {
                "rest/http.h": "int http_get(void);\n",
                "rest/http.c": '#include "rest/http.h"\n#include "rest/priv.h"\nint http_get(void)\n{\n\treturn dec_one();\n}\n'
                               "int http_note(void)\n{\n\treturn 1;\n}\n",
                "rest/priv.h": "int http_note(void);\nint dec_one(void);\n",
                "rest/dec.c": '#include "rest/priv.h"\nint dec_one(void)\n{\n\treturn http_note();\n}\n',
                "rest/types.h": "struct t {\n\tint a;\n};\n",
                "rest/res.h": '#include "rest/types.h"\nint res_get(struct t *x);\n',
                "rest/res.c": '#include "rest/res.h"\n#include "rest/http.h"\n'
                              "int res_get(struct t *x)\n{\n\treturn x->a + http_get();\n}\n",
                "rest/all.h": '#include "rest/res.h"\n#include "rest/http.h"\n',
                "rest/flow.c": '#include "rest/all.h"\nint flow(void)\n{\n\treturn res_get(0);\n}\n',
            }
            for name, text in files.items():
                with open(os.path.join(src, name), "w") as f:
                    f.write(text)
            found = upward_inside(src, "rest")
            self.assertTrue(found, "a loop through rest/priv.h went unseen")
            self.assertTrue(all("priv.h" in line for line in found), "\n".join(found))
            os.remove(os.path.join(src, "rest/priv.h"))
            with open(os.path.join(src, "rest/http.c"), "w") as f:
                f.write('#include "rest/http.h"\nint http_get(void)\n{\n\treturn 0;\n}\n')
            with open(os.path.join(src, "rest/dec.c"), "w") as f:
                f.write('#include "rest/res.h"\nint dec_one(void)\n{\n\treturn 0;\n}\n')
            self.assertEqual(upward_inside(src, "rest"), [])

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
