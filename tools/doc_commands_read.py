"""The commands of README.md and docs/*.md as written, for tools/doc_commands.py:
which lines of which blocks are commands, their continuations and standard
input, and the usage synopses, checked against the binary's --help."""

import os
import re
import shlex
import subprocess

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.dirname(HERE)

# The first word of a line that is a command (after any NAME=VALUE
# prefixes; `$T`, a variable holding a binary, counts); a line that is
# only assignments is a command too.
COMMAND_WORDS = {
    "tama", "cargo", "nice", "parallel", "python3", "git", "/usr/bin/time", "sbatch",
    "mkdir", "cat", "grep", "seq", "for", "while", "printf", "cd", "(cd", "valgrind",
    "exec", "rustup",
}
COMMAND_PREFIXES = ("tools/", "tests/", "./", "$")


class Command:
    def __init__(self, path, line, text, stdin):
        self.path, self.line, self.text, self.stdin = path, line, text, stdin

    def where(self):
        return f"{self.path}:{self.line}"


def is_command_line(line):
    s = line.strip()
    if not s or s.startswith("#"):
        return False
    m = re.match(r"^((?:[A-Za-z_][A-Za-z0-9_]*=(?:\$\([^)]*\)|\S*)\s*)*)(\S*)", s)
    assignments, word = m.group(1), m.group(2)
    if assignments and not word:
        return True
    return word in COMMAND_WORDS or word.startswith(COMMAND_PREFIXES)


def incomplete(text):
    """True when bash would ask for more lines (open quote, loop, pipe)."""
    if text.rstrip().endswith("\\"):
        return True
    r = subprocess.run(["bash", "-n", "-c", text], capture_output=True, text=True)
    return "unexpected end of file" in r.stderr


def blocks(path):
    """(first line number, lines, console?) of each command block."""
    lines = open(path).read().split("\n")
    out, i = [], 0
    while i < len(lines):
        fence = re.match(r"^( {0,3})```\s*(\w*)", lines[i])
        if fence:
            indent, lang = len(fence.group(1)), fence.group(2)
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            if lang in ("sh", "bash", "console", "shell"):
                out.append((i + 2, [x[indent:] for x in lines[i + 1:j]], lang == "console"))
            i = j + 1
            continue
        prev_blank = i == 0 or not lines[i - 1].strip()
        if prev_blank and lines[i].startswith("    ") and lines[i].strip():
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            out.append((i + 1, [x[4:] for x in lines[i:j]], False))
            i = j
            continue
        i += 1
    return out


def extract(path):
    rel = os.path.relpath(path, REPO)
    commands = []
    for first, lines, console in blocks(path):
        i = 0
        while i < len(lines):
            line = lines[i]
            if console:
                if not line.startswith("$ "):
                    i += 1
                    continue
                line = line[2:]
            if not is_command_line(line):
                i += 1
                continue
            start, text = i, line
            while incomplete(text) and i + 1 < len(lines):
                i += 1
                text += "\n" + lines[i]
            i += 1
            stdin = []
            if re.search(r"\btama (uci|hub)\s*$", text):
                while i < len(lines) and lines[i].strip() and not is_command_line(lines[i]):
                    stdin.append(lines[i].strip())
                    i += 1
            commands.append(Command(rel, first + start, text, stdin))
    return commands


def words(text):
    """The shell words of `text` without its comments (None if it does not split)."""
    try:
        return shlex.split(text, comments=True)
    except ValueError:
        return None


def is_synopsis(text):
    w = words(text)
    if w is None or w[:1] in (["for"], ["while"]):
        return False
    bare = re.sub(r"'[^']*'|\"[^\"]*\"", "", re.sub(r"#.*", "", text))
    return (any(x.startswith("[") or x == "..."
                or re.fullmatch(r"[A-Z][A-Z0-9_]*(\.\.\.)?", x) for x in w)
            or re.search(r"\w\|[\w-]", bare) is not None
            or re.search(r"\|\s*--", bare) is not None)


def check_synopsis(cmd, tama, lab):
    """Every --flag of a `tama ...` synopsis in the command's --help (a lab-only
    flag in the lab binary's, when the line says lab). Returns (status, detail)."""
    w = words(cmd.text)
    if w and w[0] == "$T":  # the docs' variable for the binary under test
        w[0] = "tama"
    if not w or w[0] != "tama":
        return "skipped", "a usage synopsis of another program: not run"
    path = []
    for x in w[1:]:
        if x.startswith("[") and "|" in x and not path:
            path.append(x.strip("[]"))
            break
        if x.startswith("-") or x.startswith("[") or x.isupper() or x == "...":
            break
        path.append(x)
    alternatives = [[]]
    if path and "|" in path[-1]:
        alternatives = [[a] for a in path[-1].split("|")]
        path = path[:-1]

    def help_of(binary):
        text = ""
        for alt in alternatives:
            r = subprocess.run([binary] + path + alt + ["--help"], capture_output=True,
                               text=True, timeout=20)
            text += r.stdout + r.stderr
        return text

    main_help = help_of(tama)
    lab_help = help_of(lab) if lab else ""
    flags = set()
    for x in w[1:]:
        for part in x.strip("[]").split("|"):
            m = re.match(r"^(--?[a-z][\w-]*)", part)
            if m:
                flags.add(m.group(1))
    missing, lab_only = [], []
    for f in sorted(flags):
        if re.search(re.escape(f) + r"\b", main_help):
            continue
        if "lab" in cmd.text and re.search(re.escape(f) + r"\b", lab_help):
            lab_only.append(f)
            continue
        missing.append(f)
    name = " ".join(["tama"] + path + (["|".join(a[0] for a in alternatives)]
                                       if alternatives != [[]] else []))
    if missing:
        return "failed", f"not in `{name} --help`: {' '.join(missing)}"
    extra = f" ({' '.join(lab_only)} in the lab binary's)" if lab_only else ""
    return "checked", f"{len(flags)} flags found in `{name} --help`{extra}"



def one_line(text):
    return re.sub(r"\s*\\\n\s*", " ", text).replace("\n", " ; ")
