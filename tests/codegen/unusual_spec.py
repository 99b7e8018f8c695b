#!/usr/bin/env python3
"""Regenerates from the committed description plus operations written with what OpenAPI allows
and the committed description does not use yet, then checks the result as regenerate_history.py
checks a real older description (exit 0, every new route in the report, the changed sources
compile) and that each construct got its documented treatment:

- members named like C++ keywords or like the names generated code uses unqualified (std,
  timestamp_ms, required, filter, the decoders' none), starting with a digit, with '-', '.',
  ' ', non-ASCII letters or nothing at all, two keys differing by case; enumerations of such
  values;
- nullable, 3.1 type lists (one type and null: that type), oneOf/anyOf (of one schema, or
  one and null: that schema), allOf over a $ref, $ref'd and recursive schemas (a
  node holding its children, two schemas holding each other: models, with the reference that
  closes the loop kept as JSON, and a warning), maps of scalars, models and
  anything, empty schemas, arrays of arrays and arrays without items, five levels of nesting,
  every integer, number and string format, integers beyond 64 bits; a $ref into another
  operation (a JSON pointer with ~1 and %XX escapes); path items that are $refs; a path
  without its leading '/' and an x- extension among the paths; a path parameter the path has no
  place for, a query parameter declared twice; rows of only a nameless property, rows of 300
  integers; keys and a first segment so long that names made of them would not fit a file name;
  three fields of the trades' model (which the flat files' hand-written row schemas read by
  name) retyped as no file column holds,
  and a property named "" beside its curated fields; query parameters named "" and named by an
  object on a route the map types parameters of; a route skipped for its rows that has
  underlying bars, before one whose bars differ;
- parameters in the path with '-', in the query with '[', '.', '-' and keyword names, a list
  and a boolean with a comparator (no filter compares them: one parameter each; mutated seeds
  9602 and 10327), in
  headers and cookies (not sent), $ref'd, without a schema, at the path item's level; an
  operation without operationId or with another's; media types with parameters
  (`application/json; charset=utf-8`), a `2XX` response; a CSV-only and a POST-only route;
- a new first segment with '-' and '.' (a new group), rows and an enumeration whose default
  names are a group's class and an operation's parameters (groups and methods named like what
  the SDK names are codegen_defaults'), path parameters named `class` and `b` (render()'s
  builder), two query parameters differing by case, a deepObject, an enumeration of 300 values
  and one whose values collide as identifiers, enumerations of integers (negative ones too),
  booleans, numbers, repeated values, no value, null among the values or alone, and mixed
  types;
- texts that would end a comment (`*/`), continue its line (a final backslash, `??/`) or break
  a string literal (quotes, backslashes, control characters) in every place docs are made from.

The stream description gets the same treatment: channels with keyword and non-identifier keys,
a recursive and a oneOf key, prefixes named market and topic, a media type with parameters, an
`ev` with a quote, a backslash and `??/`, a description ending in a backslash, a channel of a
market the SDK lacks (skipped, and said), an event of no key but its `ev`, a channel whose `ev`
is another's (skipped, and said), curated channels written without their leading '/' or with a
trailing one, an x- key among the channels, and no status schema (the map row makes
the status event).

Usage: unusual_spec.py --base-spec <committed description> <regenerate_history.py arguments
without --spec>; both descriptions are written under --work, and --stream-spec names the
committed stream description the unusual one is made from.
"""
import json
import os
import subprocess
import sys

from regenerate_history import follow


def operation(opid, params, schema, extra=None):
    op = {"summary": str(opid), "description": "Unusual construct %s." % opid, "parameters": params,
          "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": schema}}}},
          "tags": ["default"]}
    if opid is not None:
        op["operationId"] = opid
    op.update(extra or {})
    return {"get": op}


def paged(items):
    return {"type": "object", "properties": {"status": {"type": "string"}, "request_id": {"type": "string"},
                                             "next_url": {"type": "string"},
                                             "results": {"type": "array", "items": items}}}


def resolve(spec, schema):
    """A schema with its $refs (into this document) followed."""
    while "$ref" in schema:
        schema = follow(spec, schema["$ref"])
    return schema


def unusual(spec):
    schemas = spec["components"]["schemas"]
    keywords = ["class", "delete", "new", "default", "operator", "namespace", "template", "int", "float",
                "bool", "true", "register", "union", "and", "or", "not", "this", "return", "auto", "xor"]
    props = {k: {"type": "string"} for k in keywords}
    # Types the generated code names unqualified, and the decoders' `none`: as members they would
    # change what those names mean in the struct (std, massive and owned, before ::, would not).
    props.update({k: {"type": "integer"} for k in ["std", "massive", "timestamp_ms", "timestamp_ns", "timestamp_us",
                                                   "json_value", "decimal", "date_or_ms", "none", "required",
                                                   "filter", "owned"]})
    props.update({
        "1d": {"type": "number"}, "pre-market": {"type": "number"}, "a.b": {"type": "integer"},
        "with space": {"type": "string"}, "Price": {"type": "number"}, "price": {"type": "number"},
        "": {"type": "string"}, "\u00fcn\u00ef": {"type": "string"}, "_x": {"type": "string"},
        "nullable_n": {"type": "number", "nullable": True}, "types31": {"type": ["string", "null"]},
        "types31_n": {"type": ["null", "integer"]}, "types31_two": {"type": ["string", "integer"]},
        "one": {"oneOf": [{"type": "string"}, {"type": "number"}]},
        "one_of_one": {"oneOf": [{"$ref": "#/components/schemas/UnusualBase"}]},
        "any_or_null": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        "any": {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
                          {"type": "object", "properties": {"b": {"type": "integer"}}}]},
        "all": {"allOf": [{"$ref": "#/components/schemas/UnusualBase"},
                          {"type": "object", "properties": {"extra": {"type": "string"}}}]},
        "ref": {"$ref": "#/components/schemas/UnusualBase"},
        "tree": {"$ref": "#/components/schemas/UnusualNode"},
        "pair": {"$ref": "#/components/schemas/UnusualPairA"},
        "map_s": {"type": "object", "additionalProperties": {"type": "string"}},
        "map_o": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/UnusualBase"}},
        "map_any": {"type": "object", "additionalProperties": True},
        "empty": {}, "no_type": {"description": "no type"}, "const_s": {"const": "fixed"},
        "enum_odd": {"type": "string", "enum": ["1min", "a-b", "", "UPPER", "upper", "\u00fc", "class", "x y"]},
        "enum_int": {"type": "integer", "enum": [1, 2, 3]},
        "i32": {"type": "integer", "format": "int32"}, "i64": {"type": "integer", "format": "int64"},
        "dbl": {"type": "number", "format": "double"}, "flt": {"type": "number", "format": "float"},
        "dt": {"type": "string", "format": "date-time"}, "d": {"type": "string", "format": "date"},
        "uuid": {"type": "string", "format": "uuid"}, "odd_format": {"type": "integer", "format": "unix-ms-ish"},
        "dec": {"type": "number", "format": "decimal"}, "flag": {"type": "boolean"},
        "arr_arr": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
        "arr_bare": {"type": "array"},
        "deep": {"type": "object", "properties": {"l1": {"type": "array", "items": {"type": "object", "properties": {
            "l2": {"type": "object", "properties": {"l3": {"type": "array", "items": {"type": "object", "properties": {
                "l4": {"type": "string"}}}}}}}}}}},
    })
    schemas["UnusualBase"] = {"type": "object", "properties": {"id": {"type": "string"}, "n": {"type": "integer"}},
                              "required": ["id"]}
    schemas["UnusualNode"] = {"type": "object", "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/components/schemas/UnusualNode"}}}}
    schemas["UnusualPairA"] = {"type": "object", "properties": {
        "name": {"type": "string"}, "b": {"$ref": "#/components/schemas/UnusualPairB"}}}
    schemas["UnusualPairB"] = {"type": "object", "properties": {
        "n": {"type": "integer"}, "a": {"$ref": "#/components/schemas/UnusualPairA"}}}
    schemas["UnusualRow"] = {"type": "object", "properties": props, "required": ["class", "price"]}
    base = {"$ref": "#/components/schemas/UnusualBase"}
    params = [
        {"in": "path", "name": "stock-ticker", "required": True, "schema": {"type": "string"}},
        {"in": "query", "name": "class", "schema": {"type": "string"}},
        {"in": "query", "name": "filter[ticker]", "schema": {"type": "string"}},
        {"in": "query", "name": "from", "schema": {"type": "string", "format": "date"}},
        {"in": "query", "name": "a.b.c", "schema": {"type": "integer"}},
        {"in": "query", "name": "x-odd", "schema": {"type": "boolean"}, "required": True},
        {"in": "query", "name": "kinds", "schema": {"type": "array", "items": {"type": "string", "enum": ["a", "b-c", "1"]}}},
        {"in": "query", "name": "ts.gte", "schema": {"type": "string"}},
        {"in": "query", "name": "ts.any_of", "schema": {"type": "string"}},
        {"in": "query", "name": "listed", "schema": {"type": "array", "items": {"type": "string"}}},
        {"in": "query", "name": "listed.any_of", "schema": {"type": "array", "items": {"type": "string"}}},
        {"in": "query", "name": "flag", "schema": {"type": "boolean"}},
        {"in": "query", "name": "flag.any_of", "schema": {"type": "boolean"}},
        {"in": "query", "name": "order", "schema": {"type": "string", "enum": ["asc", "desc", "ASC"]}},
        {"in": "query", "name": "limit", "schema": {"type": "integer", "maximum": 1000, "default": 10}},
        # Integers beyond 64 bits (which simdjson's DOM refuses the whole document for).
        {"in": "query", "name": "big", "schema": {"type": "integer", "maximum": 18446744073709551616,
                                                  "example": -99999999999999999999, "default": 123456789012345678901234567890}},
        {"in": "header", "name": "X-Trace", "schema": {"type": "string"}},
        {"in": "cookie", "name": "session", "schema": {"type": "string"}},
        {"$ref": "#/components/parameters/" + next(iter(spec["components"]["parameters"]))},
        {"in": "query", "name": "no_schema"},
        {"in": "query", "name": "filter", "schema": {"type": "integer"}},
        {"in": "query", "name": "required", "schema": {"type": "string"}},
        {"in": "query", "name": "date_or_ms", "schema": {"type": "string"}},
    ]
    paths = spec["paths"]
    paths["/v9/unusual/{stock-ticker}"] = operation("GetUnusualRows", params, paged({"$ref": "#/components/schemas/UnusualRow"}))
    paths["/v9/unusual-no-id/rows/"] = operation(None, [], paged(base))
    paths["/v9/unusual-same-id"] = operation("GetRelatedCompanies", [], paged(base))
    paths["/v9/unusual-scalars"] = operation("GetUnusualScalars", [], paged({"type": "string"}))
    paths["/v9/unusual-one-of"] = operation("GetUnusualOneOf", [], paged({"oneOf": [base, {"$ref": "#/components/schemas/UnusualNode"}]}))
    paths["/v9/unusual-object"] = operation("GetUnusualObject", [], {"type": "object", "properties": {"status": {"type": "string"}, "results": base}})
    paths["/v9/unusual-deprecated"] = operation("GetUnusualDeprecated", [], paged(base), {"deprecated": True, "x-unknown": {"a": 1}})
    paths["/v9/unusual-charset"] = operation("GetUnusualCharset", [], None)
    paths["/v9/unusual-charset"]["get"]["responses"]["200"]["content"] = {
        "application/json; charset=utf-8": {"schema": paged(base)}}
    paths["/v9/unusual-2xx"] = operation("GetUnusual2xx", [], paged(base))
    paths["/v9/unusual-2xx"]["get"]["responses"] = {"2XX": paths["/v9/unusual-2xx"]["get"]["responses"]["200"],
                                                    "default": {"description": "an error"}}
    paths["/v9/unusual-csv"] = {"get": {"operationId": "GetUnusualCsv", "responses": {"200": {
        "description": "csv", "content": {"text/csv": {"schema": {"type": "string"}}}}}}}
    paths["/v9/unusual-post"] = {"post": {"operationId": "PostUnusual", "responses": {"200": {"description": "x"}}}}
    # A $ref into another operation (a JSON pointer with ~1 for '/'; %7B%7D for the braces, as a
    # URI fragment may write them): the same rows as that operation, so its model.
    paths["/v9/unusual-pointer"] = operation("GetUnusualPointer", [], {"$ref": (
        "#/paths/~1v3~1trades~1%7BstockTicker%7D/get/responses/200/content/application~1json/schema")})
    # Keys so long that names made of them would not fit a file name (255 bytes): objects five
    # deep under 80-byte keys, and a first segment (a new group) as long.
    long_key = "a_property_name_long_enough_to_make_the_file_names_of_nested_models_too_long_"
    nested = {"type": "object", "properties": {"leaf": {"type": "string"}}}
    for depth in range(5):
        nested = {"type": "object", "properties": {long_key + str(depth): nested, "n": {"type": "integer"}}}
    paths["/" + "long-group-" * 12 + "/v1/rows"] = operation("GetLongNames", [], paged(nested))
    # Rows and a nested object the description gives no key.
    paths["/v9/unusual-no-keys"] = operation("GetUnusualNoKeys", [], paged({"type": "object", "properties": {
        "nothing": {"type": "object"}}}))
    paths["/v9/unusual-empty-rows"] = operation("GetUnusualEmptyRows", [], paged({"type": "object"}))
    # Rows of 300 integers: more than a byte numbers.
    paths["/v9/unusual-many-integers"] = operation("GetUnusualManyIntegers", [], paged({"type": "object", "properties": {
        "i%03d" % i: {"type": "integer"} for i in range(300)}}))
    # Rows whose one property has no name: a model of no fields, so no columns (mutated seed
    # 11003).
    paths["/v9/unusual-no-fields"] = operation("GetUnusualNoFields", [], paged({"type": "object", "properties": {
        "": {"type": "string"}}}))
    # Path items that are $refs: to another path's and to one under components.
    paths["/v9/unusual-path-ref/{stockTicker}"] = {"$ref": "#/paths/~1v3~1trades~1%7BstockTicker%7D"}
    spec["components"].setdefault("pathItems", {})["UnusualItem"] = operation("GetUnusualPathItem", [], paged(base))
    paths["/v9/unusual-path-item"] = {"$ref": "#/components/pathItems/UnusualItem"}
    level = operation("GetUnusualPathLevel", [], paged(base))
    level["parameters"] = [{"in": "query", "name": "shared", "schema": {"type": "string"}}]
    paths["/v9/unusual-path-level"] = level
    # A path written without its leading '/', and an extension of the paths object that looks
    # like a path item (not a route: nothing may be generated from it).
    paths["v9/unusual-no-slash"] = operation("GetUnusualNoSlash", [], paged(base))
    paths["x-unusual-extension"] = operation("GetUnusualExtension", [], paged(base))
    # A path parameter the path has no place for, and a query parameter declared twice.
    paths["/v9/unusual-dropped"] = operation("GetUnusualDropped", [
        {"in": "path", "name": "ghost", "required": True, "schema": {"type": "string"}},
        {"in": "query", "name": "twice", "schema": {"type": "string"}},
        {"in": "query", "name": "twice", "schema": {"type": "integer"}}], paged(base))
    # Texts that end a comment or continue its line, in every place a doc comment is made from.
    hostile = "Ends a comment */ or continues one \\\nC:\\ \r\t\u00e9 <b>&amp;</b> `tick` \"q\" ??/ C:\\"
    texts = operation("GetUnusualTexts", [{"in": "query", "name": "note", "description": hostile,
                                           "schema": {"type": "string", "description": hostile}}],
                      paged({"type": "object", "description": hostile, "properties": {
                          "text": {"type": "string", "description": hostile},
                          "kind": {"type": "string", "enum": ["*/", "a\\", "\"", "x\ny"], "description": hostile}}}))
    texts["get"]["summary"] = hostile
    texts["get"]["description"] = hostile
    paths["/v9/unusual-texts"] = texts
    # Rows and an enumeration whose default names are those of the generator's own types: the
    # group's class (reference_group) and the operation's parameters (reference_group_params).
    paths["/v9/group"] = operation("GetGroup", [{"in": "query", "name": "params", "schema": {
        "type": "string", "enum": ["a", "b"]}}], paged({"type": "object", "properties": {"grouped": {"type": "string"}}}))
    paths["/new-group.v2/v1/items/{class}/{b}/sub"] = operation("GetNewGroupItems", [
        {"in": "path", "name": "class", "required": True, "schema": {"type": "string"}},
        {"in": "path", "name": "b", "required": True, "schema": {"type": "integer"}},
        {"in": "query", "name": "Ticker", "schema": {"type": "string"}},
        {"in": "query", "name": "ticker", "schema": {"type": "string"}},
        {"in": "query", "name": "obj", "style": "deepObject", "schema": {"type": "object", "properties": {"a": {"type": "string"}}}},
        {"in": "query", "name": "collide", "schema": {"type": "string", "enum": ["a-b", "a_b", "A-B", "a b"]}},
        {"in": "query", "name": "big", "schema": {"type": "string", "enum": ["v%d" % i for i in range(300)]}},
        {"in": "query", "name": "levels", "schema": {"type": "integer", "enum": [1, 5, 10]}},
        {"in": "query", "name": "ids", "style": "form", "explode": False, "schema": {"type": "array", "items": {"type": "integer"}}},
    ], paged({"type": "object", "properties": {"a-b": {"type": "string"}, "a_b": {"type": "string"},
                                                "results": {"type": "object", "properties": {"*": {"type": "number"}}}}}))
    paths["/v9/unusual-enums"] = operation("GetUnusualEnums", [
        {"in": "query", "name": "repeated", "schema": {"type": "string", "enum": ["a", "a", "b"]}},
        {"in": "query", "name": "negative", "schema": {"type": "integer", "enum": [-1, 0, 1]}},
        {"in": "query", "name": "yes_no", "schema": {"type": "boolean", "enum": [True, False]}},
        {"in": "query", "name": "halves", "schema": {"type": "number", "enum": [0.5, 1.5]}},
        {"in": "query", "name": "none", "schema": {"type": "string", "enum": []}},
        {"in": "query", "name": "nullable_choice", "schema": {"type": "string", "nullable": True, "enum": ["on", None, "off"]}},
        {"in": "query", "name": "only_null", "schema": {"type": "string", "enum": [None]}},
        {"in": "query", "name": "mixed", "schema": {"enum": ["x", 1, None]}},
    ], paged({"type": "object", "properties": {"e": {"type": "string", "enum": ["a", "a"]},
                                               "n": {"type": "integer", "enum": [-5, 5]}}}))
    # Fields of a model that hand-written code reads by name (the flat files' trades) retyped as
    # nothing a file's column holds: the library must still compile.
    trades = paths["/v3/trades/{stockTicker}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    trade = resolve(spec, resolve(spec, resolve(spec, trades)["properties"]["results"])["items"])
    trade["properties"]["exchange"] = {"type": "boolean"}
    trade["properties"]["tape"] = {"type": "object", "properties": {"name": {"type": "string"}}}
    trade["properties"]["size"] = {"type": "array", "items": {"type": "number"}}
    # Where the map has rows keyed by a model and a key, or a route and a parameter, a key or a
    # parameter the description names "" must match none of them: the trades' model (eight field
    # rows) gains a property named "", and the aggregates' route (two ptype rows) query
    # parameters named "" and named by an object (left out, with a warning). Seen failing, as
    # mutated seed 9008 did, with an empty name matching every row: "duplicate ptype row".
    trade["properties"][""] = {"type": "string"}
    # An operation skipped for its rows (values that are not objects) beside underlying bars,
    # then one whose rows have bars of another shape: the skipped one's bars must go with it.
    # They were kept under the index the next operation takes: the second one's rows got two
    # kinds of bars ("rows ... come with underlying rows ... here and ... elsewhere"), and with
    # none after it the index was past the last operation (mutated seed 9214: SIGSEGV).
    def values_with_bars(items, bar_key):
        return {"type": "object", "properties": {"results": {"type": "object", "properties": {
            "values": {"type": "array", "items": items},
            "underlying": {"type": "object", "properties": {"aggregates": {
                "type": "array", "items": {"type": "object", "properties": {bar_key: {"type": "number"}}}}}}}}}}
    paths["/zz-unusual-values"] = operation("GetUnusualValuesSkipped", [], values_with_bars({"type": "string"}, "c"))
    paths["/zz-unusual-values2"] = operation("GetUnusualValues", [], values_with_bars(
        {"type": "object", "properties": {"v": {"type": "number"}}}, "o"))
    aggs = paths["/v2/aggs/ticker/{stocksTicker}/range/{multiplier}/{timespan}/{from}/{to}"]["get"]
    aggs["parameters"] = aggs["parameters"] + [
        {"in": "query", "name": "", "schema": {"type": "string"}},
        {"in": "query", "name": {"a": 1}, "schema": {"type": "string"}}]
    # A bool the map reads as false when absent (agg's otc, absent=false) typed a string in every
    # object of agg's shape: a warning, and the field optional (absence must not read as a value).
    agg_keys = {"c", "h", "l", "n", "o", "otc", "t", "v", "vw"}

    def retype_otc(node):
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict) and set(node["properties"]) == agg_keys:
                node["properties"]["otc"] = {"type": "string"}
            for v in node.values():
                retype_otc(v)
        elif isinstance(node, list):
            for v in node:
                retype_otc(v)
    retype_otc(spec)
    # An experimental route promoted (vX to v1, as futures' were): the map's route still, and its
    # method still takes massive::experimental, deprecated (the group's source compiles it).
    paths["/stocks/filings/v1/13-F"] = paths.pop("/stocks/filings/vX/13-F")
    spec["openapi"] = "3.1.0"
    return spec


def unusual_stream(spec):
    paths = spec["paths"]
    model = next(iter(paths.values()))
    spec["components"].setdefault("schemas", {})["UnusualStreamNode"] = {"type": "object", "properties": {
        "n": {"type": "string"}, "kids": {"type": "array", "items": {"$ref": "#/components/schemas/UnusualStreamNode"}}}}

    def channel(path, ev, props, media="application/json", example_ev=None):
        c = json.loads(json.dumps(model))
        schema = {"type": "object", "properties": dict({"ev": {"type": "string", "enum": [ev]}}, **props)}
        if ev is None:
            schema["properties"]["ev"] = {"type": "string"}
        example = {"ev": example_ev or ev}
        c["get"]["responses"] = {"200": {"description": "an event", "content": {media: {"schema": schema, "example": example}}}}
        c["get"]["description"] = "Ends with a backslash C:\\"
        paths[path] = c

    channel("/stocks/UZ", "UZ", {"class": {"type": "string"}, "sym": {"type": "string"}, "t": {"type": "integer"},
                                 "a-b": {"type": "number"}, "tree": {"$ref": "#/components/schemas/UnusualStreamNode"},
                                 "one": {"oneOf": [{"type": "string"}, {"type": "number"}]}})
    channel("/stocks/UC", "UC", {"sym": {"type": "string"}}, media="application/json; charset=utf-8")
    channel("/stocks/UQ", "UQ\"\\??/", {"sym": {"type": "string"}})
    channel("/new-market/UN", "UN", {"sym": {"type": "string"}})
    channel("/stocks/UE", "UE", {})  # an event of no key but its ev
    channel("/stocks/UD", "T", {"sym": {"type": "string"}})  # trades' ev: a frame could not tell them apart
    # No ev in the schema, and an example copied from another channel (as /options/A's says AM).
    channel("/stocks/UX", None, {"sym": {"type": "string"}}, example_ev="AM")
    channel("/stocks/" + "LONG" * 70, "L", {"sym": {"type": "string"}})  # a prefix too long for a file name
    # Prefixes whose topic helpers would be named as the type and the enumeration helpers name.
    channel("/stocks/market", "market", {"sym": {"type": "string"}})
    channel("/stocks/topic", "topic", {"sym": {"type": "string"}})
    # Curated channels written without their leading '/' and with a trailing one, and an x- key
    # that looks like a channel: the events the CLI and the samples name must stay.
    paths["stocks/Q"] = paths.pop("/stocks/Q")
    paths["/stocks/T/"] = paths.pop("/stocks/T")
    paths["x-unusual-channel"] = json.loads(json.dumps(model))
    # No status schema: the map row's words make the status event.
    del spec["components"]["schemas"]["Event"]
    return spec


def main():
    args = sys.argv[1:]
    at = args.index("--base-spec")
    base = args[at + 1]
    del args[at:at + 2]
    work = args[args.index("--work") + 1]
    with open(base, encoding="utf-8") as f:
        spec = unusual(json.load(f))
    os.makedirs(os.path.dirname(os.path.abspath(work)), exist_ok=True)
    written = os.path.abspath(work) + "-spec.json"
    with open(written, "w", encoding="utf-8") as f:
        json.dump(spec, f, indent=1)
    at = args.index("--stream-spec")
    with open(args[at + 1], encoding="utf-8") as f:
        stream = unusual_stream(json.load(f))
    args[at + 1] = os.path.abspath(work) + "-stream-spec.json"
    with open(args[at + 1], "w", encoding="utf-8") as f:
        json.dump(stream, f, indent=1)
    here = os.path.dirname(os.path.abspath(__file__))
    return subprocess.run([sys.executable, os.path.join(here, "regenerate_history.py"), "--spec", written] + args).returncode


if __name__ == "__main__":
    sys.exit(main())
