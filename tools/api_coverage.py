#!/usr/bin/env python3
"""The API coverage table: every function the public ACL headers declare, with
its status, as acl/API_COVERAGE.md.

Inputs: the headers acl/include/acl/*.h (with the parts acl_rt.h includes,
acl/include/acl/rt/*.h) and the status list acl/api_status.txt
(`<function> <status>` a line; '#' starts a comment).

  python3 tools/api_coverage.py            # rewrite acl/API_COVERAGE.md
  python3 tools/api_coverage.py --check [--library bazel-bin/acl/libascendcl.so ...]

A header's functions live in libascendcl.so unless OTHER_LIBRARIES names
another library (the TDT headers: libacl_tdt_channel.so, libacl_tdt_queue.so).

--check rewrites nothing and fails (exit 1) when a declared function has no
status or a status names no declared function, a status is not one of the
allowed forms, the table differs from what this script writes, or (with
--library, once per library) a declared function is not exported by its
library (nm -D). It also checks that the not-yet-implemented functions, and
only those, are defined in their library's stub file (acl/api/unsupported_api.cc
for libascendcl.so, STUB_FILES for the others), and that no `implemented`
function has a doc comment (the comment directly above its declaration) that
calls it not implemented or planned.

--repo ROOT adds one more check: no file git tracks under ROOT (every file
under it when git cannot list them; binary files skipped) cites an issue
number ("issue N", "issue #N", "issues N and M", N a number): users cannot see the
tracker, so code and docs cite DESIGN.md sections instead.
"""

import argparse
import os
import re
import subprocess
import sys

STATUSES = ("implemented",)
# "pending: DESIGN.md §8" (the section that plans the function) or
# "not supported: <why the simulator cannot>".
PENDING = "pending: "
NOT_SUPPORTED = "not supported: "
PREFIXES = (PENDING, NOT_SUPPORTED)

# Headers whose functions another library defines (header -> library), and
# the stub file of each such library (relative to the checkout; None: none).
OTHER_LIBRARIES = {
    "acl_tdt.h": "libacl_tdt_channel.so",
    "acl_tdt_queue.h": "libacl_tdt_queue.so",
    "acl_prof.h": "libmsprofiler.so",
    "acl_dump.h": "libascend_dump.so",
}
STUB_FILES = {
    "libacl_tdt_channel.so": None,
    "libacl_tdt_queue.so": "acl/tdt/queue_unsupported.cc",
    "libmsprofiler.so": None,
    "libascend_dump.so": None,
}
MAIN_LIBRARY = "libascendcl.so"


def library_of(header):
    return OTHER_LIBRARIES.get(header, MAIN_LIBRARY)


# A doc comment that says its function is not there yet.
NOT_IMPLEMENTED = re.compile(
    r"not\s+(?:yet\s+)?implemented|\bunimplemented\b|\bplanned\b"
    r"|not\s+provided\s+yet|\bstub(?:bed)?\b|\bTODO\b",
    re.I,
)

# An issue number: "issue N", "Issue #N", "(issue N)", "issues N and M",
# "issue-N", N a number.
ISSUE_NUMBER = re.compile(r"\b[Ii]ssues?[ -]?#?[0-9]+")

# A declaration: ACL_FUNC_VISIBILITY (MSVP_PROF_API in acl_prof.h,
# ACL_DUMP_API in acl_dump.h), the return type, the name, '('.
DECLARATION = re.compile(
    r"\b(?:ACL_FUNC_VISIBILITY|MSVP_PROF_API|ACL_DUMP_API)\b([^;(]*?)\b(\w+)\s*\("
)

# Headers whose functions a library other than libascendcl.so defines
# (DESIGN.md §5.23, §5.24); --check takes one --library per library.


# A definition in the stub file: starts a line, return type, name, '('.
STUB = re.compile(r"^[A-Za-z_][\w \t*]*?\b(acl\w+)\(", re.M)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


# A header's include of one of its parts (acl_rt.h's acl/rt/*.h), which
# are declared where the include stands and listed under the header.
PART_INCLUDE = re.compile(r'^#include "acl/(rt/[\w.]+\.h)"[ \t]*$', re.M)


def header_text(header_dir, name):
    """The text of header `name` with the parts it includes in place."""
    with open(os.path.join(header_dir, name), encoding="utf-8") as f:
        text = f.read()

    def part(match):
        return header_text(header_dir, match.group(1))

    return PART_INCLUDE.sub(part, text)


def declared_functions(header_dir):
    """[(name, header file name)] in header order, headers sorted by name."""
    found = []
    for name in sorted(os.listdir(header_dir)):
        if not name.endswith(".h"):
            continue
        text = strip_comments(header_text(header_dir, name))
        # Macro definitions may mention ACL_FUNC_VISIBILITY; skip them.
        text = "\n".join(
            line for line in text.split("\n") if not line.lstrip().startswith("#")
        )
        for match in DECLARATION.finditer(text):
            found.append((match.group(2), name))
    return found


# A declaration at the start of a line, in the raw header text.
LINE_DECLARATION = re.compile(
    r"^[ \t]*(?:ACL_FUNC_VISIBILITY|MSVP_PROF_API)\b[^;(]*?\b(\w+)\s*\(", re.M
)


def doc_comments(header_dir):
    """{function: the comment directly above its declaration ('' if none)}."""
    docs = {}
    for name in sorted(os.listdir(header_dir)):
        if not name.endswith(".h"):
            continue
        text = header_text(header_dir, name)
        for match in LINE_DECLARATION.finditer(text):
            before = text[: match.start()].rstrip()
            comment = ""
            if before.endswith("*/"):
                start = before.rfind("/*")
                if start >= 0:
                    comment = before[start:]
            else:  # a run of // lines
                lines = before.split("\n")
                run = []
                while lines and lines[-1].lstrip().startswith("//"):
                    run.insert(0, lines.pop())
                comment = "\n".join(run)
            docs[match.group(1)] = comment
    return docs


def issue_mentions(root):
    """[problem] for every line of a tracked text file citing an issue."""
    try:
        files = subprocess.run(
            ["git", "-C", root, "ls-files", "-z"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split("\0")
    except (OSError, subprocess.CalledProcessError):
        files = []
        for top, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("bazel-")]
            for name in names:
                files.append(os.path.relpath(os.path.join(top, name), root))
    problems = []
    for rel in sorted(f for f in files if f):
        path = os.path.join(root, rel)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        if b"\0" in data[:8000]:
            continue  # binary
        text = data.decode("utf-8", errors="replace")
        for number, line in enumerate(text.split("\n"), 1):
            match = ISSUE_NUMBER.search(line)
            if match:
                problems.append(
                    f"{rel}:{number}: cites '{match.group(0)}'; users cannot see "
                    "the issue tracker: cite a DESIGN.md section or drop it"
                )
    return problems


def read_status(path):
    """({function: status}, [problems])."""
    status, problems = {}, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, _, value = line.partition(" ")
            value = value.strip()
            where = f"{path}:{number}"
            if name in status:
                problems.append(f"{where}: {name} listed twice")
            elif value not in STATUSES and not any(
                value.startswith(p) and len(value) > len(p) for p in PREFIXES
            ):
                problems.append(f"{where}: {name}: unknown status '{value}'")
            status[name] = value
    return status, problems


def render(functions, status):
    counts = {}
    for name, _ in functions:
        key = status.get(name, "?")
        for prefix in PREFIXES:
            if key.startswith(prefix):
                key = prefix.rstrip(": ")
        counts[key] = counts.get(key, 0) + 1
    lines = [
        "# ACL API coverage",
        "",
        "Generated by `python3 tools/api_coverage.py` from the headers in",
        "`acl/include/acl/` and the status list `acl/api_status.txt`; do not edit",
        "by hand. `bazel test //acl:api_coverage_test` fails when this table, the",
        "headers, the status list and the symbols of `libascendcl.so` disagree.",
        "",
        "Every function that is not `implemented` returns",
        "`ACL_ERROR_RT_FEATURE_NOT_SUPPORT` (207000), or NULL / 0 where it returns",
        "a handle or a number, logs one line naming itself and changes nothing",
        "(the TDT libraries answer their family's `ACL_ERROR_FEATURE_UNSUPPORTED`,",
        "200006, as CANN's do).",
        "",
        "Functions live in `libascendcl.so`, except those of "
        + ", ".join(
            f"`{h}` (`{lib}`)" for h, lib in sorted(OTHER_LIBRARIES.items())
        )
        + ".",
        "",
        f"{len(functions)} functions declared:",
        "",
        "| status | functions |",
        "| --- | ---: |",
    ]
    order = list(STATUSES) + [p.rstrip(": ") for p in PREFIXES]
    for key in sorted(counts, key=lambda k: order.index(k) if k in order else 99):
        lines.append(f"| {key} | {counts[key]} |")
    lines += ["", "| function | header | status |", "| --- | --- | --- |"]
    for name, header in sorted(functions):
        lines.append(f"| `{name}` | `{header}` | {status.get(name, '?')} |")
    return "\n".join(lines) + "\n"


def exported_symbols(library):
    out = subprocess.run(
        ["nm", "-D", "--defined-only", library],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    symbols = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRVW":
            symbols.add(parts[2])
    return symbols


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument(
        "--library",
        action="append",
        default=[],
        help="a library to check the exports of (libascendcl.so and the "
        "OTHER_LIBRARIES; repeat the option)",
    )
    parser.add_argument(
        "--repo", help="source tree whose tracked files must cite no issue"
    )
    parser.add_argument("--headers", default=os.path.join(root, "acl/include/acl"))
    parser.add_argument("--status", default=os.path.join(root, "acl/api_status.txt"))
    parser.add_argument("--table", default=os.path.join(root, "acl/API_COVERAGE.md"))
    parser.add_argument(
        "--stubs", default=os.path.join(root, "acl/api/unsupported_api.cc")
    )
    args = parser.parse_args()

    functions = declared_functions(args.headers)
    status, problems = read_status(args.status)
    names = [name for name, _ in functions]
    seen = set()
    for name, header in functions:
        if name in seen:
            problems.append(f"{name} is declared twice")
        seen.add(name)
        if name not in status:
            problems.append(f"{name} ({header}) has no status in {args.status}")
    for name in sorted(set(status) - set(names)):
        problems.append(f"{name} has a status but no header declares it")
    table = render(functions, status)
    stub_files = {MAIN_LIBRARY: args.stubs}
    for library, rel in STUB_FILES.items():
        stub_files[library] = os.path.join(root, rel) if rel else None
    stubs = {}
    for library, path in stub_files.items():
        stubs[library] = set()
        if path:
            with open(path, encoding="utf-8") as f:
                stubs[library] = set(STUB.findall(strip_comments(f.read())))
    for name, header in functions:
        library = library_of(header)
        stub_file = stub_files.get(library) or f"a stub file of {library}"
        implemented = status.get(name) == "implemented"
        if implemented and name in stubs.get(library, ()):
            problems.append(f"{name} is 'implemented' but stubbed in {stub_file}")
        if not implemented and name in status and name not in stubs.get(library, ()):
            problems.append(f"{name} is '{status[name]}' but not in {stub_file}")

    docs = doc_comments(args.headers)
    for name in names:
        match = NOT_IMPLEMENTED.search(docs.get(name, ""))
        if status.get(name) == "implemented" and match:
            problems.append(
                f"{name} is 'implemented' but its doc comment says "
                f"'{match.group(0)}': write what it does"
            )

    if not args.check:
        if problems:
            print("\n".join(problems), file=sys.stderr)
            return 1
        with open(args.table, "w", encoding="utf-8") as f:
            f.write(table)
        print(f"wrote {args.table}: {len(functions)} functions")
        return 0

    try:
        with open(args.table, encoding="utf-8") as f:
            if f.read() != table:
                problems.append(
                    f"{args.table} is stale: run python3 tools/api_coverage.py"
                )
    except FileNotFoundError:
        problems.append(f"{args.table} is missing: run python3 tools/api_coverage.py")
    if args.library:
        given = {os.path.basename(path): path for path in args.library}
        symbols = {lib: exported_symbols(path) for lib, path in given.items()}
        for name, header in functions:
            library = library_of(header)
            if library not in symbols:
                problems.append(f"{name}: no --library for {library}")
            elif name not in symbols[library]:
                problems.append(
                    f"{name} is declared but not exported by {given[library]}"
                )
    if args.repo:
        problems += issue_mentions(args.repo)
    if problems:
        print("FAIL:\n  " + "\n  ".join(problems))
        return 1
    print(
        f"PASS: {len(functions)} declared functions, all with a status, "
        + ("all exported, " if args.library else "")
        + "doc comments current, table up to date"
        + (", no issue numbers" if args.repo else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
