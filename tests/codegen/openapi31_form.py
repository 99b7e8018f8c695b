#!/usr/bin/env python3
"""Writes a REST description in OpenAPI 3.1's forms of nullable members: the same content, with
every scalar type a list with "null" (`"type": ["number", "null"]`, 3.0's `nullable` dropped)
but every second scalar property's, which is a choice of it or null instead (`anyOf: [{"type":
"number"}, {"type": "null"}]`), as is every object or $ref'd property and every enumerated
parameter's schema, and every such array element a `oneOf` of it or null; and every `example` as
3.1 prefers it: a schema's as a list (`"examples": [...]`), a parameter's or a media type's as a
map of Example objects; and a stream event's one `ev` value as `const`.

Usage: openapi31_form.py <OpenAPI 3.0 description> <output>
"""
import json
import sys

SCALARS = ("string", "number", "integer", "boolean")


def object_or_ref(schema):
    return isinstance(schema, dict) and (set(schema) == {"$ref"} or "properties" in schema)


def nullable(o):
    if isinstance(o, list):
        return [nullable(x) for x in o]
    if not isinstance(o, dict):
        return o
    out = {k: nullable(v) for k, v in o.items()}
    if "example" in out:
        example = out.pop("example")
        # A parameter (it has "in") or a media type (its schema under "schema") names them.
        named = "in" in out or isinstance(out.get("schema"), dict)
        out["examples"] = {"first": {"value": example}} if named else [example]
    # A parameter of listed values may be null as a choice, anyOf [its schema, null].
    if "in" in out and isinstance(out.get("schema"), dict) and "enum" in out["schema"]:
        out["schema"] = {"anyOf": [out["schema"], {"type": "null"}]}
    # A parameter object has "in" and its type under "schema"; its own keys stay.
    if "in" not in out and out.get("type") in SCALARS:
        out["type"] = [out["type"], "null"]
        out.pop("nullable", None)
    props = out.get("properties")
    # A stream event's one ev value as JSON Schema's const.
    if isinstance(props, dict) and isinstance(props.get("ev"), dict) and len(props["ev"].get("enum", [])) == 1:
        props["ev"]["const"] = props["ev"].pop("enum")[0]
    if isinstance(props, dict):
        for index, (key, value) in enumerate(props.items()):
            if isinstance(value, dict) and index % 2 == 1 and isinstance(value.get("type"), list):
                value = dict(value, type=value["type"][0])
                props[key] = {"anyOf": [value, {"type": "null"}]}
            elif object_or_ref(value):
                props[key] = {"anyOf": [value, {"type": "null"}]}
    items = out.get("items")
    if object_or_ref(items):
        out["items"] = {"oneOf": [items, {"type": "null"}]}
    return out


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        d = json.load(f)
    d = nullable(d)
    d["openapi"] = "3.1.0"
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(d, f, indent=1)


if __name__ == "__main__":
    main()
