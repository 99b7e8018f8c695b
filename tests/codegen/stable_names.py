#!/usr/bin/env python3
"""Nothing hand-written names a generated operation, model or enumeration that a regeneration
may remove: every such name in the hand-written tree (C++ calls `client.stocks().trades(`,
`massive::trade`, the command-line tool's `stocks trades` in tests, samples, docs and scripts)
must be in the surface of every description given (the committed one and earlier real ones,
and with --jvm-form-of the official JVM client's form of one; with --core-stream-form, the
committed stream description with only the markets' own channels, as an older one may be, no
business, launchpad or indices channel), each generated with the committed map into a scratch
directory. Stream events count as types. Exempt: code between `#if __has_include(...)` or `#ifdef
MASSIVE_FILES_HAS_*` and its `#endif` (it compiles only where the generated headers have what it
names), the regeneration tests (tests/codegen/) and quoted change-report lines in docs (they say
what changed).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from jvm_form import jvm_form

SCANNED = (".cpp", ".hpp", ".md", ".sh", ".cmake", ".txt", ".py")


def surface(codegen, spec, stream_spec, map_path, generated, scratch):
    out = os.path.join(scratch, "generated")
    subprocess.run(["cp", "-r", generated, out], check=True)
    run = subprocess.run([codegen, "--spec", spec, "--stream-spec", stream_spec, "--map", map_path, "--out", out],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("FAIL: the generator refused %s:\n%s" % (spec, run.stderr))
    ops, types = set(), set()
    with open(os.path.join(out, "surface.txt"), encoding="utf-8") as f:
        for line in f:
            c = line.rstrip("\n").split("\t")
            if c[0] == "op":
                ops.add(tuple(c[1].split(".", 1)))
            elif c[0] in ("model", "enum", "event"):
                types.add(c[1])
    subprocess.run(["rm", "-rf", out], check=True)
    return ops, types


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--codegen", required=True)
    p.add_argument("--stream-spec", required=True)
    p.add_argument("--map", required=True)
    p.add_argument("--generated", required=True)
    p.add_argument("--spec", action="append", required=True, help="the committed description first")
    p.add_argument("--root", required=True, help="the repository")
    p.add_argument("--jvm-form-of", help="a description whose JVM client's form (jvm_form.py) is one more")
    p.add_argument("--core-stream-form", action="store_true",
                   help="one more: the committed REST description with the stream description's markets' own "
                        "channels only")
    a = p.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        if a.jvm_form_of:
            with open(a.jvm_form_of, encoding="utf-8") as f:
                form = jvm_form(json.load(f))
            a.spec.append(os.path.join(scratch, "jvm-form.json"))
            with open(a.spec[-1], "w", encoding="utf-8") as f:
                json.dump(form, f)
        surfaces = [surface(a.codegen, s, a.stream_spec, a.map, a.generated, scratch) for s in a.spec]
        if a.core_stream_form:
            with open(a.stream_spec, encoding="utf-8") as f:
                stream = json.load(f)
            stream["paths"] = {k: v for k, v in stream["paths"].items()
                               if not k.startswith(("/business/", "/launchpad/", "/indices/"))}
            core = os.path.join(scratch, "core-stream.json")
            with open(core, "w", encoding="utf-8") as f:
                json.dump(stream, f)
            surfaces.append(surface(a.codegen, a.spec[0], core, a.map, a.generated, scratch))
    current_ops, current_types = surfaces[0]
    stable_ops = set.intersection(*[s[0] for s in surfaces])
    stable_types = set.intersection(*[s[1] for s in surfaces])
    groups = sorted({g for g, _ in current_ops})
    group_re = "|".join(groups)
    call = re.compile(r"\.(%s)\(\)\.([a-z_0-9]+)\(" % group_re)
    cli = re.compile(r'"(%s)",\s*"([a-z_0-9]+)"|massive (%s) ([a-z_0-9]+)' % (group_re, group_re))
    qualified = re.compile(r"massive::([a-z_0-9]+)")
    # A method-like name quoted alone ("trades_dev" among completions: two words, or a version),
    # where no description-stable operation of any group has that name.
    quoted = re.compile(r'"([a-z]+_[a-z_0-9]+|[a-z_]+[0-9][a-z_0-9]*)"')
    unstable_names = {op for _, op in current_ops - stable_ops} - {op for _, op in stable_ops}

    guarded = re.compile(r"^#if(def MASSIVE_FILES_HAS_\w+| __has_include\(.*\))$.*?^#endif$", re.M | re.S)
    report_line = re.compile(r"^- (removed |renamed |`client\.|GET |parameter |model |field |codegen/)")
    problems = []
    for top in ("sdk", "cli", "mock", "tests", "samples", "bench", "docs", "scripts", "README.md"):
        path = os.path.join(a.root, top)
        files = [path] if os.path.isfile(path) else [
            os.path.join(b, n) for b, _, ns in os.walk(path) for n in ns if n.endswith(SCANNED)]
        for file in sorted(files):
            # The regeneration tests name what a regeneration changes, by design.
            if os.path.relpath(file, a.root).startswith(os.path.join("tests", "codegen")):
                continue
            with open(file, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if file.endswith(".md"):
                # Quoted change-report lines say what changed; they call nothing.
                text = "\n".join(l for l in text.split("\n") if not report_line.match(l))
            # What only compiles where the generated headers have it names it by design.
            text = guarded.sub("", text)
            rel = os.path.relpath(file, a.root)
            for m in call.finditer(text):
                if (m.group(1), m.group(2)) in current_ops and (m.group(1), m.group(2)) not in stable_ops:
                    problems.append("%s: %s().%s() is not in every description" % (rel, m.group(1), m.group(2)))
            for m in cli.finditer(text):
                if text[:m.start()].endswith("find_operation("):
                    continue  # the operation table's lookup, which finds nothing where it is absent
                g, op = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
                if (g, op) in current_ops and (g, op) not in stable_ops:
                    problems.append("%s: the command `%s %s` is not in every description" % (rel, g, op))
            for m in quoted.finditer(text):
                if m.group(1) in unstable_names:
                    problems.append('%s: "%s" names a method not in every description' % (rel, m.group(1)))
            for m in qualified.finditer(text):
                if m.group(1) in current_types and m.group(1) not in stable_types:
                    problems.append("%s: massive::%s is not in every description" % (rel, m.group(1)))
    if problems:
        print("FAIL: hand-written code names what a regeneration may remove (use the operation table, or an "
              "operation every description has):\n  " + "\n  ".join(sorted(set(problems))), file=sys.stderr)
        sys.exit(1)
    print("%d operations and %d types are in all %d descriptions; the hand-written tree names no other" %
          (len(stable_ops), len(stable_types), len(surfaces)))


if __name__ == "__main__":
    main()
