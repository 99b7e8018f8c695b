#!/usr/bin/env python3
"""Regenerates from the REST description in the official JVM client's form, then checks the
result as regenerate_history.py does. API-NOTES.md ("The descriptions themselves"): the JVM
client's pull script drops the paths marked x-polygon-ignore and the /v1/reference/ paths.
Options', crypto's and forex's trades and quotes are among the first, so the models the flat
files' rows of those markets derive from are not generated: the hand-written flat-file code
given with --also-compile-hand-written must still compile, without those row types.

Usage: jvm_form.py --base-spec <description> <regenerate_history.py arguments without --spec>
"""
import json
import os
import subprocess
import sys


def ignored(item):
    return bool(item.get("x-polygon-ignore")) or any(
        isinstance(op, dict) and op.get("x-polygon-ignore") for op in item.values())


def jvm_form(spec):
    spec["paths"] = {path: item for path, item in spec["paths"].items()
                     if not ignored(item) and not path.startswith("/v1/reference/")}
    return spec


def main():
    args = sys.argv[1:]
    at = args.index("--base-spec")
    with open(args[at + 1], encoding="utf-8") as f:
        spec = jvm_form(json.load(f))
    del args[at:at + 2]
    work = os.path.abspath(args[args.index("--work") + 1])
    os.makedirs(os.path.dirname(work), exist_ok=True)
    written = work + "-spec.json"
    with open(written, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    here = os.path.dirname(os.path.abspath(__file__))
    return subprocess.run([sys.executable, os.path.join(here, "regenerate_history.py"), "--spec", written] + args).returncode


if __name__ == "__main__":
    sys.exit(main())
