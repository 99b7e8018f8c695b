#!/usr/bin/env python3
"""Regenerates generated/ from another real description with the committed map, as a user's
unattended job would, and checks what a user relies on:

- the generator exits 0 with no edit of the map (additive changes need none);
- the change report (CHANGES.md) names every operation whose route the description lacks as
  removed or renamed, and every route it adds as added: the routes are read from the
  description itself, not from the generator;
- the strings given with --expect are in the report, those given with --absent are not, and
  the lines given with --surface are in the surface it wrote (a parameter's type, say);
- with --compile, every generated source of a group, a model or an operation table that
  changed, or that includes a header that changed, compiles (-fsyntax-only, with the flags the
  build gave the same kind of source, from compile_commands.json; those the build unity-builds
  as one file): only what changed, so that the check stays cheap.
"""
import argparse
import filecmp
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.parse


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def follow(spec, ref):
    """What a local $ref (a URI fragment holding a JSON pointer) points at, or None."""
    at = spec
    for token in urllib.parse.unquote(ref[2:]).split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        at = at.get(token) if isinstance(at, dict) else None
    return at


def described_routes(spec_path):
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    routes = set()
    for path, item in spec["paths"].items():
        if path.startswith("x-"):
            continue  # an extension of the paths object, not a route
        if not path.startswith("/"):
            path = "/" + path  # the generator adds the slash OpenAPI requires (with a warning)
        if isinstance(item, dict) and str(item.get("$ref", "")).startswith("#/"):
            item = follow(spec, item["$ref"])  # a path item may be a $ref to another
        if not isinstance(item, dict) or not isinstance(item.get("get"), dict):
            continue
        get = item["get"]
        draft = any(x.get(k) for x in (item, get) for k in ("x-polygon-draft", "x-massive-draft"))
        if not draft:
            routes.add("GET " + path)
    return routes


def surface_operations(path):
    """call -> route, from a surface.txt."""
    ops = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            columns = line.rstrip("\n").split("\t")
            if columns[0] == "op":
                group, method = columns[1].split(".", 1)
                ops["`client.%s().%s()`" % (group, method)] = columns[2]
    return ops


def changed_sources(old_root, new_root):
    """The group, model and operation-table sources to compile: changed or new, or including a
    changed header."""
    changed_headers = set()
    for base, _, files in os.walk(os.path.join(new_root, "include")):
        for name in files:
            new = os.path.join(base, name)
            rel = os.path.relpath(new, os.path.join(new_root, "include"))
            old = os.path.join(old_root, "include", rel)
            if not os.path.exists(old) or not filecmp.cmp(old, new, shallow=False):
                changed_headers.add(rel)
    out = []
    for folder in ("src/groups", "src/models", "src/operations"):
        for name in sorted(os.listdir(os.path.join(new_root, folder))):
            if not name.endswith(".cpp") or name == "model_table.cpp":
                continue
            new = os.path.join(new_root, folder, name)
            old = os.path.join(old_root, folder, name)
            with open(new, encoding="utf-8") as f:
                includes = set(re.findall(r'#include "([^"]+)"', f.read()))
            if not os.path.exists(old) or not filecmp.cmp(old, new, shallow=False) or includes & changed_headers:
                out.append(os.path.join(folder, name))
    return out


def build_flags(entry, old_root, new_root):
    """An entry's compiler command without its output, dependency and source arguments, the
    committed generated/ replaced by new_root."""
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MT", "-MF"):
            skip = True
            continue
        if a in ("-MD", "-c") or a.endswith("ccache") or a == entry["file"]:
            continue
        out.append(a.replace(old_root + "/", new_root + "/"))
    return out


def compile_command(commands, old_root, new_root, rel):
    """The build's flags for `rel` under new_root, its directory, and whether the build
    unity-builds it: the committed file's own flags where the build compiles it alone (an
    operation table, the mock's catalog), else those of the generated decoder libraries (the
    unity batches of massive::shared_models: every group and model library compiles with the
    same)."""
    own = os.path.join(old_root, rel)
    entry = next((e for e in commands if os.path.realpath(e["file"]) == own), None)
    if entry is None and rel.startswith("src/operations/"):
        # A new group's operation table: alone, with another table's flags, as the build
        # compiles every table (their file-local names repeat from one to the next).
        table = next((e for e in commands if "/generated/src/operations/" in e["file"]), None)
        if table is not None:
            return (build_flags(table, old_root, new_root) + ["-fsyntax-only", os.path.join(new_root, rel)],
                    table["directory"], False)
    if entry is None:
        entry = next((e for e in commands if "/massive_shared_models.dir/" in e["file"]), None)
    if entry is None:
        fail("compile_commands.json has no source of massive::shared_models to copy the flags of")
    return (build_flags(entry, old_root, new_root) + ["-fsyntax-only", os.path.join(new_root, rel)],
            entry["directory"], entry["file"] != own)


def hand_written_command(commands, old_root, new_root, rel):
    """The build's flags for a hand-written source of the repository (`rel` from its root) that
    includes generated headers, with new_root's headers in place of the committed ones; its own
    entry's, or those of the unity batch that includes it."""
    source = os.path.join(os.path.dirname(old_root), rel)

    def includes_source(unity):
        with open(unity, encoding="utf-8") as f:
            return '"%s"' % source in f.read()

    entry = next((e for e in commands if os.path.realpath(e["file"]) == source), None) or next(
        (e for e in commands if "/Unity/" in e["file"] and os.path.exists(e["file"]) and includes_source(e["file"])),
        None)
    if entry is None:
        fail("compile_commands.json compiles no %s" % rel)
    return build_flags(entry, old_root, new_root) + ["-fsyntax-only", source], entry["directory"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--codegen", required=True)
    p.add_argument("--spec", required=True)
    p.add_argument("--stream-spec", required=True)
    p.add_argument("--map", required=True)
    p.add_argument("--generated", required=True, help="the committed generated/")
    p.add_argument("--baseline-generated",
                   help="what the description the expectations were written for generates with the same map "
                        "(tests/codegen/baseline.cmake): what changed is read against it (default: the "
                        "committed generated/, which moves with every sync)")
    p.add_argument("--work", required=True)
    p.add_argument("--expect", action="append", default=[])
    p.add_argument("--absent", action="append", default=[], help="a text the report must not hold")
    p.add_argument("--surface", action="append", default=[],
                   help="a line the written surface.txt must hold, its tab-separated columns given with spaces")
    p.add_argument("--compile-commands")
    p.add_argument("--also-compile", action="append", default=[],
                   help="a generated source to compile besides the changed groups and models")
    p.add_argument("--also-compile-hand-written", action="append", default=[],
                   help="a source of the repository (from its root) that includes generated headers")
    a = p.parse_args()

    old_root = os.path.realpath(a.generated)
    work = os.path.realpath(a.work)
    new_root = os.path.join(work, "generated")
    shutil.rmtree(work, ignore_errors=True)
    with open(a.map, encoding="utf-8") as f:
        map_before = f.read()

    # What the regeneration replaces: the committed generated/, or the baseline's (the change
    # report compares the surface it finds in the output directory with the one it writes).
    before_root = os.path.realpath(a.baseline_generated) if a.baseline_generated else old_root
    shutil.copytree(before_root, new_root)

    started = time.monotonic()
    run = subprocess.run([a.codegen, "--spec", a.spec, "--stream-spec", a.stream_spec, "--map", a.map,
                          "--out", new_root], capture_output=True, text=True)
    elapsed = time.monotonic() - started
    if run.returncode != 0:
        fail("the generator exited %d:\n%s" % (run.returncode, run.stderr))
    print("generator: exit 0 in %.2f s; %s" % (elapsed, run.stdout.strip().splitlines()[-1]))
    with open(a.map, encoding="utf-8") as f:
        if f.read() != map_before:
            fail("the generator changed the map without --prune")

    with open(os.path.join(new_root, "CHANGES.md"), encoding="utf-8") as f:
        report = f.read()
    routes = described_routes(a.spec)
    before = surface_operations(os.path.join(before_root, "surface.txt"))
    missing = []
    for call, route in sorted(before.items()):
        # Removed, renamed, or the same call now on another route.
        said = ("removed " + call, "renamed " + call, call + " now calls `")
        if route not in routes and not any(s in report for s in said):
            missing.append("%s (%s) is gone but the report does not say so" % (call, route))
    known = set(before.values())
    for route in sorted(routes - known):
        # Listed as added, or as not generated with its reason.
        added = [line for line in report.splitlines()
                 if line.startswith("- ") and (("(`%s`)" % route) in line or line.startswith("- %s (" % route) or
                                               ("now calls `%s`" % route) in line)]
        if not added:
            missing.append("%s is new but the report does not list it" % route)
    for text in a.expect:
        if text not in report:
            missing.append("the report lacks: " + text)
    for text in a.absent:
        if text in report:
            missing.append("the report holds: " + text)
    if a.surface:
        with open(os.path.join(new_root, "surface.txt"), encoding="utf-8") as f:
            surface = set(line.rstrip("\n").replace("\t", " ") for line in f)
        missing += ["surface.txt lacks: " + line for line in a.surface if line not in surface]
    if missing:
        fail("\n  ".join(["the change report is wrong:"] + missing) + "\n--- CHANGES.md ---\n" + report)
    print("report: %d routes gone, %d new, every one named" %
          (len([r for r in known if r not in routes]), len(routes - known)))

    if a.compile_commands:
        with open(a.compile_commands, encoding="utf-8") as f:
            commands = json.load(f)
        sources = changed_sources(before_root, new_root)
        sources += [rel for rel in a.also_compile if rel not in sources]
        if not sources:
            fail("no changed group or model source to compile")
        started = time.monotonic()
        # The groups' and models' sources are compiled together, as one file that includes
        # each, as the library unity-builds them: parsing the shared headers once instead of
        # once per source was most of this check's time (36 sources: 76 s one by one). The
        # sources the build compiles alone (the operation tables: not one of them could share a
        # file with another) stay alone.
        batches = {}
        for rel in sources:
            args, directory, unity = compile_command(commands, old_root, new_root, rel)
            batches.setdefault((tuple(args[:-1]), directory, rel if not unity else ""), []).append(rel)
        for n, ((flags, directory, _), members) in enumerate(sorted(batches.items())):
            target = os.path.join(new_root, members[0])
            if len(members) > 1:
                target = os.path.join(work, "batch_%d.cpp" % n)
                with open(target, "w", encoding="utf-8") as f:
                    f.writelines('#include "%s"\n' % os.path.join(new_root, rel) for rel in members)
            result = subprocess.run(list(flags) + [target], cwd=directory, capture_output=True, text=True)
            if result.returncode != 0:
                fail("%s do not compile:\n%s" % (" ".join(members), result.stderr[-4000:]))
        # Hand-written library code that names generated models' members (the flat files' rows)
        # must compile against whatever the description made of them.
        for rel in a.also_compile_hand_written:
            args, directory = hand_written_command(commands, old_root, new_root, rel)
            result = subprocess.run(args, cwd=directory, capture_output=True, text=True)
            if result.returncode != 0:
                fail("%s does not compile against the new generated headers:\n%s" % (rel, result.stderr[-4000:]))
        print("compiled %d changed sources (%d compiler runs) and %d hand-written in %.1f s: %s" %
              (len(sources), len(batches), len(a.also_compile_hand_written), time.monotonic() - started,
               " ".join(sources + a.also_compile_hand_written)))


if __name__ == "__main__":
    main()
