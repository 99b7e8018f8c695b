#!/usr/bin/env python3
"""Writes a stream description in another form an older or newer version may take: each
channel's message described as the frame it comes in (an array of events), and no channel's
`ev` given (no enumeration, no example): the channels' prefixes say them. The status schema,
which no channel names, keeps its ev.

Usage: stream_frame_form.py <stream description> <output>
"""
import json
import sys


def without_ev_values(node):
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict) and isinstance(props.get("ev"), dict):
            props["ev"] = {"type": "string", "description": props["ev"].get("description", "")}
        for value in node.values():
            without_ev_values(value)
    elif isinstance(node, list):
        for value in node:
            without_ev_values(value)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        d = json.load(f)
    for item in d["paths"].values():
        media = item["get"]["responses"]["200"]["content"]["application/json"]
        media.pop("example", None)
        media["schema"] = {"type": "array", "items": media["schema"]}
    for name, schema in d["components"]["schemas"].items():
        if name != "Event":
            without_ev_values(schema)
    without_ev_values(d["paths"])
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(d, f, indent=1)


if __name__ == "__main__":
    main()
