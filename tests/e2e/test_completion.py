"""Shell completion as an operator meets it: the real bash, zsh and fish load completions/ and
are asked what they offer for a command line (options of a command, values of an option,
files for file options, commands after global options, subcommands)."""
import os
import shutil
import subprocess
import tempfile
import unittest

import hbtest

COMPLETIONS = os.path.join(hbtest.SRC, "completions")
ZSH_DRIVER = os.path.join(hbtest.SRC, "tests", "e2e", "lib", "complete.zsh")

# Seconds after which a shell counts as hung.
HANG_GUARD = 120

# bash as readline calls a completion function: COMP_WORDS split at blanks and at the
# COMP_WORDBREAKS characters '=' and ':', COMP_LINE and COMP_POINT the line up to the cursor.
BASH_DRIVER = r'''
source "$1"
COMP_LINE=$2
COMP_POINT=${#COMP_LINE}
s=${COMP_LINE//=/ = }
s=${s//:/ : }
read -ra COMP_WORDS <<<"$s"
[[ $COMP_LINE == *[[:space:]=:] ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
complete -p hbtab >/dev/null || exit 3
_hbtab
printf '%s\n' "${COMPREPLY[@]}"
'''


def commands():
    return [c for c in hbtest.run(["__complete"]).out.split("\n") if c]


class CompletionCases:
    """What every shell must offer; a subclass says how to ask its shell."""
    shell = None

    @classmethod
    def setUpClass(cls):
        if not shutil.which(cls.shell):
            raise AssertionError("%s is not installed (scripts/dev.sh installs it)" % cls.shell)
        cls.tmp = tempfile.mkdtemp(prefix="hbtab-complete-")
        # "hbtab" on PATH is the binary under test, whatever its build directory is called
        cls.bindir = os.path.join(cls.tmp, "bin")
        os.mkdir(cls.bindir)
        os.symlink(os.path.abspath(hbtest.HBTAB), os.path.join(cls.bindir, "hbtab"))
        # the shell runs here: files that must not be offered where no file is wanted
        cls.cwd = os.path.join(cls.tmp, "cwd")
        os.mkdir(cls.cwd)
        for name in ("splits.txt", "ca.pem", "notes"):
            open(os.path.join(cls.cwd, name), "w").close()
        cls.home = os.path.join(cls.tmp, "home")
        os.mkdir(cls.home)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def env(self):
        return hbtest.clean_env(self.home, {
            "PATH": self.bindir + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
            "HBTAB_ZCOMPDUMP": os.path.join(self.home, "zcompdump")})

    def run_shell(self, argv):
        p = subprocess.run(argv, capture_output=True, text=True, cwd=self.cwd, env=self.env(),
                           timeout=HANG_GUARD)
        self.assertEqual(p.returncode, 0, "%s failed: %s" % (self.shell, p.stderr))
        return p.stdout

    def offers(self, line):
        """The words the shell offers for LINE (the cursor at its end)."""
        raise NotImplementedError

    def names(self, line):
        """Offered words, file paths reduced to their last component."""
        return {os.path.basename(w.rstrip("/")) if "/" in w else w for w in self.offers(line)}

    def test_completion__options_after_create_and_its_table(self):
        got = self.offers("hbtab create user --")
        for opt in ("--hex-splits", "--splits-file", "--via", "--family", "--keyspace",
                    "--no-metadata", "--output", "--rest", "--quiet"):
            self.assertIn(opt, got)
        self.assertNotIn("--source", got)  # regions' and audit's, not create's
        self.assertTrue(all(w.startswith("--") for w in got), got)

    def test_completion__values_for_output_via_and_source(self):
        self.assertEqual(set(self.offers("hbtab -o ")), {"text", "json"})
        self.assertEqual(set(self.offers("hbtab tables --output ")), {"text", "json"})
        self.assertEqual(set(self.offers("hbtab create user --via ")),
                         {"auto", "thrift2", "shell", "rest", "print"})
        self.assertEqual(set(self.offers("hbtab regions user --source ")), {"rest", "meta"})
        self.assertEqual(set(self.offers("hbtab audit user --source m")), {"meta"})
        self.assertEqual(set(self.offers("hbtab splits --hex-splits 4 --format ")),
                         {"lines", "json", "shell", "splits-file"})
        self.assertEqual(set(self.offers("hbtab repair user --via ")), {"auto", "shell", "print"})
        self.assertLessEqual({"--apply", "--empty", "--min-regions", "--split-hot", "--max-steps"},
                             set(self.offers("hbtab repair user --")))

    def test_completion__values_in_the_same_word(self):
        self.assertEqual({w.split("=")[-1] for w in self.offers("hbtab create t --via=th")},
                         {"thrift2"})

    def test_completion__files_for_file_options_only(self):
        self.assertEqual(self.names("hbtab create user --splits-file sp"), {"splits.txt"})
        self.assertEqual(self.names("hbtab --cacert %s/c" % self.cwd), {"ca.pem"})
        self.assertIn("notes", self.names("hbtab simulate --keys-file "))
        self.assertIn("splits.txt", self.names("hbtab audit t --splits-file "))
        # a file to write (PATH) is completed as one to read (FILE) is
        self.assertIn("notes", self.names("hbtab audit t --prom-file "))
        # a count, a URL, a table are not files
        self.assertEqual(self.offers("hbtab create user --hex-splits "), [])
        self.assertEqual(self.offers("hbtab --rest "), [])
        self.assertEqual(self.offers("hbtab describe "), [])

    def test_completion__commands_after_global_options(self):
        everything = set(commands())
        self.assertEqual(set(self.offers("hbtab ")), everything)
        self.assertEqual(set(self.offers("hbtab --rest http://127.0.0.1:8080 -o json ")),
                         everything)
        self.assertEqual(set(self.offers("hbtab -q --timeout 5 --color never cr")), {"create"})

    def test_completion__meta_and_help_subcommands(self):
        self.assertEqual(set(self.offers("hbtab meta ")), {"get", "set"})
        self.assertEqual(set(self.offers("hbtab -o json meta s")), {"set"})
        self.assertEqual(set(self.offers("hbtab help ")), set(commands()))
        # after the subcommand comes a table name: nothing to offer
        self.assertEqual(self.offers("hbtab meta get "), [])
        self.assertIn("--metadata-family", self.offers("hbtab meta get user --"))

    def test_completion__repeatable_option_is_offered_again(self):
        self.assertIn("--family", self.offers("hbtab create t --family a --fam"))


class Bash(CompletionCases, unittest.TestCase):
    shell = "bash"

    def offers(self, line):
        out = self.run_shell(["bash", "--norc", "--noprofile", "-c", BASH_DRIVER, "bash",
                              os.path.join(COMPLETIONS, "hbtab.bash"), line])
        return [w for w in out.split("\n") if w]


class Zsh(CompletionCases, unittest.TestCase):
    shell = "zsh"

    def offers(self, line):
        out = self.run_shell(["zsh", "-f", ZSH_DRIVER, COMPLETIONS, self.bindir, line])
        return [w for w in out.split("\n") if w]


class Fish(CompletionCases, unittest.TestCase):
    shell = "fish"

    def offers(self, line):
        script = "source %s; complete -C %s" % (
            fish_quote(os.path.join(COMPLETIONS, "hbtab.fish")), fish_quote(line))
        out = self.run_shell(["fish", "--no-config", "-c", script])
        return [w.split("\t")[0] for w in out.split("\n") if w]


def fish_quote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


class Scripts(unittest.TestCase):
    def test_completion__scripts_parse(self):
        for argv in (["bash", "-n", os.path.join(COMPLETIONS, "hbtab.bash")],
                     ["zsh", "-n", os.path.join(COMPLETIONS, "_hbtab")],
                     ["fish", "-n", os.path.join(COMPLETIONS, "hbtab.fish")]):
            p = subprocess.run(argv, capture_output=True, text=True, timeout=HANG_GUARD)
            self.assertEqual(p.returncode, 0, "%s: %s" % (argv, p.stderr))

    def test_completion__complete_lists_options_values_and_subcommands(self):
        lines = hbtest.run(["__complete", "create"]).out.split("\n")
        self.assertIn("--via\tCHANNEL\tauto thrift2 shell rest print\t\t", lines)
        self.assertIn("--output\tFORMAT\ttext json\t-o\t", lines)
        self.assertIn("--family\tNAME[:ATTR=VAL,...]\t\t\t*", lines)
        self.assertIn("--splits-file\tFILE\t\t\t", lines)
        meta = hbtest.run(["__complete", "meta"]).out.split("\n")
        self.assertEqual([w for w in meta if w and not w.startswith("-")], ["get", "set"])



class CompletesValuesAndTables:
    """Completion offers --tz zone names, --generator and --policy values, and the
    table names of the gateway for commands that take an existing table (asked only when
    --rest or a profile is set), in bash, zsh and fish."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.emu = hbtest.Emulator(1)
        for t in ("users", "events"):
            cls.emu.create(t)

    @classmethod
    def tearDownClass(cls):
        cls.emu.stop()
        super().tearDownClass()

    def test_values_of_tz_generator_and_policy(self):
        tz = set(self.offers("hbtab rotate --tz Europe/Be"))
        self.assertIn("Europe/Berlin", tz)
        self.assertTrue(all(z.startswith("Europe/Be") for z in tz), tz)
        self.assertIn("UTC", self.offers("hbtab rotate --tz U"))
        gens = set(self.offers("hbtab simulate --hex-splits 4 --generator "))
        self.assertTrue({"md5", "partition", "sequential", "hex8", "salt", "roundrobin",
                         "transaction", "statistics"} <= gens, gens)
        self.assertIn("statistics", self.offers("hbtab splits --sampled-splits 2 --generator st"))
        pols = set(self.offers("hbtab simulate --hex-splits 4 --generator md5 --policy "))
        self.assertTrue({"stepping", "increasing", "constant", "disabled"} <= pols, pols)

    def test_table_names_come_from_the_gateway_named_on_the_line(self):
        rest = self.emu.rest
        self.assertEqual(set(self.offers("hbtab --rest %s regions " % rest)), {"users", "events"})
        self.assertEqual(set(self.offers("hbtab audit --rest %s u" % rest)), {"users"})
        self.assertEqual(set(self.offers("hbtab --rest %s meta get " % rest)),
                         {"users", "events"})
        self.assertEqual(set(self.offers("hbtab --rest %s drop e" % rest)), {"events"})
        # a new table's name, a second argument: nothing to offer
        self.assertEqual(self.offers("hbtab --rest %s create " % rest), [])
        self.assertEqual(self.offers("hbtab --rest %s meta set users " % rest), [])
        # without --rest or a profile no gateway is asked
        self.emu.clear_requests()
        self.assertEqual(self.offers("hbtab describe "), [])
        self.assertEqual(self.emu.requests(), [])


def _shell_case(base):
    cls = type("Completes" + base.__name__, (CompletesValuesAndTables, base), {})
    for name in dir(CompletionCases):
        if name.startswith("test_"):
            setattr(cls, name, None)  # the shells' other cases run in Bash, Zsh and Fish
    return cls


CompletesBash = _shell_case(Bash)
CompletesZsh = _shell_case(Zsh)
CompletesFish = _shell_case(Fish)


if __name__ == "__main__":
    hbtest.main()
