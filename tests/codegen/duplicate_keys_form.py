#!/usr/bin/env python3
"""Writes a description with every object's keys given twice: first with null, then with their
value. JSON leaves a repeated key's meaning open; JavaScript's JSON.parse and Python's json
module, which the official clients' generators read descriptions with, keep the last value, so
this is the same description to them.

Usage: duplicate_keys_form.py <description> <output>
"""
import json
import sys


def write(o, out):
    if isinstance(o, dict):
        out.write("{")
        for i, (k, v) in enumerate(o.items()):
            key = json.dumps(k)
            out.write("%s%s: null, %s: " % (", " if i else "", key, key))
            write(v, out)
        out.write("}")
    elif isinstance(o, list):
        out.write("[")
        for i, v in enumerate(o):
            if i:
                out.write(", ")
            write(v, out)
        out.write("]")
    else:
        out.write(json.dumps(o))


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        d = json.load(f)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        write(d, f)
    with open(sys.argv[2], encoding="utf-8") as f:
        assert json.load(f) == d  # the same description, read as Python reads it


if __name__ == "__main__":
    main()
