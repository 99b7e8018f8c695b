#!/usr/bin/env python3
"""Writes a description (REST or stream) in Swagger 2.0's form: the same content, with each
response's schema and example on the response (no `content`; examples by media type),
parameters typed in place (no `schema`, unless it is a $ref), and the schemas under
`definitions`.

Usage: swagger2_form.py <OpenAPI 3 description> <output>
"""
import json
import sys


def refs(o):
    if isinstance(o, dict):
        return {k: (v.replace("#/components/schemas/", "#/definitions/") if k == "$ref" and isinstance(v, str)
                    else refs(v)) for k, v in o.items()}
    return [refs(x) for x in o] if isinstance(o, list) else o


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        d = json.load(f)
    for item in d["paths"].values():
        for op in item.values():
            if not isinstance(op, dict):
                continue
            for response in op.get("responses", {}).values():
                media = response.pop("content", {}).get("application/json")
                if media and "schema" in media:
                    response["schema"] = media["schema"]
                if media and "example" in media:
                    response["examples"] = {"application/json": media["example"]}
            for p in op.get("parameters", []):
                if "schema" in p and "$ref" not in p["schema"]:
                    for key, value in p.pop("schema").items():
                        p.setdefault(key, value)  # the parameter's own description stays
    d = refs(d)
    d["definitions"] = d.get("components", {}).pop("schemas", {})
    d["swagger"] = "2.0"
    d.pop("openapi", None)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(d, f, indent=1)


if __name__ == "__main__":
    main()
