#!/usr/bin/env python3
"""Writes a description with every x-polygon-<name> extension renamed x-massive-<name>, as
Massive has renamed the stream description's (x-massive-order, x-massive-entitlement-...): the
same content under the new company's prefix.

Usage: x_massive_form.py <description> <output>
"""
import json
import sys


def renamed(o):
    if isinstance(o, dict):
        return {("x-massive-" + k[len("x-polygon-"):] if k.startswith("x-polygon-") else k): renamed(v)
                for k, v in o.items()}
    return [renamed(x) for x in o] if isinstance(o, list) else o


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        d = json.load(f)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(renamed(d), f, indent=1)


if __name__ == "__main__":
    main()
