#!/usr/bin/env python3
"""Lists every method, constructor and lambda-free initializer longer than a limit in main code.

Usage: scripts/long-methods.py [LIMIT] [ROOT]   (defaults: 60, the repository root)

Prints one line per method over LIMIT lines, longest first: file:Class.method:lines. A method's
length runs from the line of its name to the line of its closing brace. Test code (src/test) and
generated code (target) are skipped. Exits 1 when any method is over the limit.
"""

import os
import re
import sys

CONTROL = {"if", "for", "while", "switch", "catch", "synchronized", "try", "do", "else", "finally"}
TYPE_HEADER = re.compile(r"\b(class|interface|enum|record)\s+(\w+)")
METHOD_HEADER = re.compile(
    r"(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:throws\s+[\w.,\s<>]+)?$", re.S
)


def strip(source):
    """Blanks comments, strings, text blocks and char literals, keeping every newline."""
    out = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
        elif source.startswith('"""', i):
            j = source.find('"""', i + 3)
            while j > 0 and source[j - 1] == "\\":
                j = source.find('"""', j + 1)
            j = n if j < 0 else j + 3
            out.append('""' + re.sub(r"[^\n]", " ", source[i + 2 : j - 2]) + '""')
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def methods(path):
    """Yields (qualified name, lines) for every method-like block of one Java file."""
    text = strip(open(path, encoding="utf-8").read())
    stack = []  # entries: (kind, name, start line)
    header_start = 0
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == ";":
            header_start = i + 1
        elif c == "{":
            raw = text[header_start:i]
            header = re.sub(r"@[\w.]+(\([^()]*\))?", " ", raw).strip()
            kind, name = block(header, stack)
            stack.append((kind, name, line - raw[name_offset(raw, name) :].count("\n")))
            header_start = i + 1
        elif c == "}":
            if stack:
                kind, name, start = stack.pop()
                if kind == "method":
                    owner = ".".join(s[1] for s in stack if s[0] == "type")
                    yield owner + "." + name, line - start + 1
            header_start = i + 1


def name_offset(raw, name):
    """Where the block's name stands in its header (the last mention), else where the header starts."""
    hits = [m.start() for m in re.finditer(r"\b" + re.escape(name) + r"\b", raw)] if name else []
    return hits[-1] if hits else len(raw) - len(raw.lstrip())


def block(header, stack):
    """Classifies the block a brace opens: a type body, a method body or anything else."""
    in_type = not stack or stack[-1][0] == "type"
    if "->" in header or header.endswith("=") or header.endswith(","):
        return "other", ""
    type_match = TYPE_HEADER.search(header)
    if type_match and "(" not in header.split(type_match.group(0))[0]:
        return "type", type_match.group(2)
    if re.search(r"\bnew\s+[\w.<>, ]+\([^;]*\)\s*$", header, re.S):
        return "type", "<anonymous>"
    if in_type:
        method = METHOD_HEADER.search(header)
        if method and method.group(1) not in CONTROL:
            return "method", method.group(1)
        words = header.split()
        if words and re.fullmatch(r"\w+", words[-1]) and words[-1] not in CONTROL:
            # A compact record constructor, or an enum constant's body.
            return ("method", words[-1]) if len(words) > 1 else ("type", words[-1])
        if header in ("", "static"):
            return "method", "<init-block>"
    return "other", ""


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..")
    found = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in ("target", ".git", "node_modules")]
        parts = directory.replace(os.sep, "/")
        if "/src/main/" not in parts + "/":
            continue
        for f in files:
            if f.endswith(".java"):
                path = os.path.join(directory, f)
                for name, lines in methods(path):
                    if lines > limit:
                        found.append((lines, os.path.relpath(path, root), name))
    for lines, path, name in sorted(found, key=lambda x: (-x[0], x[1])):
        print(f"{path}:{name}:{lines}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
