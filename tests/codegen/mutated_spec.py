#!/usr/bin/env python3
"""Regenerates from the committed descriptions changed at random in the ways a publisher's
next version, an older one or a careless edit changes them, and checks each result as
regenerate_history.py checks a real older description: the generator exits 0 (no signal, no
hang, no refusal), the change report names every route gone or added, and, for the first
--compile-seeds seeds, the changed sources compile.

Each seed is deterministic (random.Random(seed)); a failure names the seed and the changes made,
so it can be replayed alone with --first <seed> --seeds 1 (the descriptions are kept under
--work). The kinds of change (KINDS below) are kinds, not instances: a schema whose type goes,
changes or becomes a list, whose properties, items or enumeration go or turn into another JSON
type; $refs that name nothing, leave the file or go round in a circle; allOf/oneOf/anyOf
wrappers; operations without or with another's operationId, without parameters, with a
response of no JSON, with a parameter renamed away from its path, with a default, an example
or an enumeration of odd values (quotes, backslashes, `??/`, a line break, integers beyond 64
bits, objects, values equal but for case), written as Swagger 2.0 writes one (the schema on
the response, parameters typed in place); routes added with a trailing slash, an undeclared
path parameter or another case; a path written without its leading '/'; an x- extension
among the paths; a parameter declared twice, a path parameter the path has no place for; a
method other than GET; schemas removed from components; OpenAPI 3.1's nullable forms (type
lists with null, anyOf/oneOf of a schema and null); Massive's extensions under x-massive-;
members and routes named like what the SDK or the generated code already names (timestamp_ms,
none, /time/, group); names that differ only in case, separators or camel/snake form (bidPrice
and bid_price, T and t, Trade and trade); comment ends, line splices, raw-string delimiters and
control characters in the texts. The stream description gets its own:
schemas removed, $refs to nothing, an ev without values, keys of another JSON type, a channel
gone or moved.

What may fail instead of exit 0 is not drawn: a description with no GET operation at all is
refused by design (nothing to generate), and codegen_refuses tests that.

Usage: mutated_spec.py --spec <REST description> --stream-spec <stream description>
       --seeds N [--first S] [--compile-seeds K] [--kinds kind,...] <regenerate_history.py
       arguments without --spec, --stream-spec and --expect>
"""
import copy
import json
import os
import random
import re
import subprocess
import sys

WEIRD = [None, 5, "x", [], {}, True, -1, 1.5, [1, "a"], {"a": 1}]


def walk(x):
    """Every object in x, x first."""
    if isinstance(x, dict):
        yield x
        for v in x.values():
            yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)


def schemas(spec):
    """Every object of the description that is a schema (not a parameter)."""
    return [n for n in walk(spec) if any(k in n for k in ("type", "$ref", "properties", "items", "allOf"))
            and "in" not in n]


def operations(spec):
    return [(path, item["get"]) for path, item in spec["paths"].items() if isinstance(item.get("get"), dict)]


def schema_names(spec):
    return list(spec.get("components", {}).get("schemas", {})) or ["Missing"]


# Each kind takes (spec, random) and changes the REST description in place; its name says what.
def type_removed(spec, r):
    r.choice(schemas(spec)).pop("type", None)


def type_changed(spec, r):
    r.choice(schemas(spec))["type"] = r.choice(["string", "integer", "number", "boolean", "array", "object", "null",
                                                 ["string", "null"], ["integer", "string"], "unknown"])


def properties_removed(spec, r):
    r.choice(schemas(spec)).pop("properties", None)


def items_removed(spec, r):
    r.choice(schemas(spec)).pop("items", None)


def member_of_another_json_type(spec, r):
    key = r.choice(["type", "properties", "items", "required", "description", "enum", "format", "$ref", "nullable"])
    r.choice(schemas(spec))[key] = r.choice(WEIRD)


def replaced_by_ref(spec, r):
    n = r.choice(schemas(spec))
    n.clear()
    n["$ref"] = "#/components/schemas/" + r.choice(schema_names(spec))


def ref_to_nothing(spec, r):
    n = r.choice(schemas(spec))
    n.clear()
    n["$ref"] = r.choice(["#/components/schemas/Missing", "#/components/schemas/", "#/nowhere/at/all",
                          "other.json#/components/schemas/X", "#/components/schemas/A~1B%20C"])


def ref_cycle(spec, r):
    spec.setdefault("components", {}).setdefault("schemas", {})["Loop"] = {"$ref": "#/components/schemas/Loop"}
    n = r.choice(schemas(spec))
    n.clear()
    n["$ref"] = "#/components/schemas/Loop"


def wrapped_in_composition(spec, r):
    n = r.choice(schemas(spec))
    inner = dict(n)
    n.clear()
    n[r.choice(["allOf", "oneOf", "anyOf"])] = [inner, {"type": r.choice(["string", "object", "integer"])}]


def enumeration_changed(spec, r):
    r.choice(schemas(spec))["enum"] = r.choice([[], [1, 2], ["a", "a"], [None], ["x", 1, True], [{"a": 1}], "x"])


def format_changed(spec, r):
    r.choice(schemas(spec))["format"] = r.choice(["date", "date-time", "int64", "double", "float", "uuid", "unknown", 5])


def properties_of_another_shape(spec, r):
    r.choice(schemas(spec))["properties"] = r.choice([
        {}, {"": {"type": "string"}}, {"a": 5}, {"a": None}, {"a": {"$ref": "#/x/y"}},
        {"m": {"type": "object", "additionalProperties": r.choice([True, False, {"type": "integer"}])}}])


def schema_removed(spec, r):
    spec.get("components", {}).get("schemas", {}).pop(r.choice(schema_names(spec)), None)


def operation_id_removed(spec, r):
    r.choice(operations(spec))[1].pop("operationId", None)


def operation_id_shared(spec, r):
    (_, a), (_, b) = r.sample(operations(spec), 2)
    a["operationId"] = b.get("operationId", "shared")


def responses_without_json(spec, r):
    r.choice(operations(spec))[1]["responses"] = r.choice([
        {}, {"200": {"description": "OK"}}, {"404": {"description": "no"}},
        {"200": {"$ref": "#/components/responses/Missing"}}, r.choice(WEIRD)])


def parameters_removed(spec, r):
    r.choice(operations(spec))[1].pop("parameters", None)


def parameter_changed(spec, r):
    params = r.choice(operations(spec))[1].get("parameters") or [{}]
    p = r.choice(params)
    if isinstance(p, dict):
        p[r.choice(["name", "in", "schema", "required", "description"])] = r.choice(WEIRD + ["path", "query", "class", ""])


def parameter_ref_to_nothing(spec, r):
    params = r.choice(operations(spec))[1].get("parameters")
    if params:
        params[r.randrange(len(params))] = {"$ref": "#/components/parameters/Missing"}


ODD_VALUES = ["a\"b\\c??/", "line\nbreak", "", "\u00fc", "x" * 300, 18446744073709551616, -9223372036854775809, -0.0,
              1e308, {"a": 1}, [1, 2], None, True]


def parameter_default_or_example_odd(spec, r):
    params = [p for p in r.choice(operations(spec))[1].get("parameters", []) if isinstance(p, dict)]
    if params:
        p = r.choice(params)
        target = p.setdefault("schema", {}) if r.random() < 0.7 and isinstance(p.get("schema"), dict) else p
        target[r.choice(["default", "example"])] = r.choice(ODD_VALUES)


def enumeration_of_odd_values(spec, r):
    values = r.sample(ODD_VALUES + ["A", "a", "1", "-", "class", "a b", "a-b", "a_b"], r.randrange(1, 8))
    r.choice(schemas(spec))["enum"] = values
    params = [p for p in r.choice(operations(spec))[1].get("parameters", []) if isinstance(p, dict)]
    if params and isinstance(params[0].get("schema"), dict):
        params[0]["schema"]["enum"] = values


def swagger2_style(spec, r):
    """An operation written as Swagger 2.0 writes one: the response's schema on the response,
    parameters typed in place."""
    _, op = r.choice(operations(spec))
    ok = op.get("responses", {}).get("200") if isinstance(op.get("responses"), dict) else None
    if isinstance(ok, dict) and isinstance(ok.get("content"), dict):
        media = ok.pop("content").get("application/json")
        if isinstance(media, dict) and "schema" in media:
            ok["schema"] = media["schema"]
    for p in op.get("parameters", []):
        if isinstance(p, dict) and isinstance(p.get("schema"), dict) and "$ref" not in p["schema"]:
            for key, value in p.pop("schema").items():
                p.setdefault(key, value)


def path_parameter_renamed(spec, r):
    for p in r.choice(operations(spec))[1].get("parameters", []):
        if isinstance(p, dict) and p.get("in") == "path" and isinstance(p.get("name"), str):
            p["name"] += "Renamed"


def route_parameter_renamed(spec, r):
    """A path parameter renamed in the route and its declaration alike ({stockTicker} -> {ticker})."""
    routes = [p for p in spec["paths"] if "{" in p and isinstance(spec["paths"][p], dict)]
    if not routes:
        return
    path = r.choice(routes)
    old = r.choice(re.findall(r"\{([^}]*)\}", path))
    new = r.choice(["ticker", "id", old + "_2", old.lower(), "stock_ticker"])
    if "{%s}" % new in path:
        return
    item = spec["paths"].pop(path)
    spec["paths"][path.replace("{%s}" % old, "{%s}" % new)] = item
    for op in item.values():
        for p in op.get("parameters", []) if isinstance(op, dict) and isinstance(op.get("parameters"), list) else []:
            if isinstance(p, dict) and p.get("in") == "path" and p.get("name") == old:
                p["name"] = new


def route_added(spec, r):
    path, op = r.choice(operations(spec))
    new = r.choice([path.rstrip("/") + "/", path + "/{extra}", path + "/x-y.z", path.replace("v", "V", 1),
                    path + "/{ticker}/{ticker}", path + ":batch"])
    spec["paths"][new] = {"get": copy.deepcopy(op)}


def method_changed(spec, r):
    path, op = r.choice(operations(spec))
    item = spec["paths"][path]
    del item["get"]
    item[r.choice(["post", "put", "delete", "options"])] = op
    if not operations(spec):  # every GET gone is the refusal codegen_refuses tests: keep one
        item["get"] = op


def operation_text_of_another_type(spec, r):
    key = r.choice(["summary", "description", "tags", "x-polygon-paginate", "deprecated", "x-polygon-deprecation"])
    r.choice(operations(spec))[1][key] = r.choice(WEIRD)


def path_without_slash(spec, r):
    path, _ = r.choice(operations(spec))
    spec["paths"][path.lstrip("/")] = spec["paths"].pop(path)


def paths_extension(spec, r):
    _, op = r.choice(operations(spec))
    spec["paths"]["x-" + r.choice(["extension", "internal", "v9"])] = {"get": copy.deepcopy(op)}


def parameter_declared_twice(spec, r):
    params = r.choice(operations(spec))[1].get("parameters")
    if isinstance(params, list) and params:
        params.append(copy.deepcopy(r.choice(params)))


def path_parameter_unplaced(spec, r):
    _, op = r.choice(operations(spec))
    if isinstance(op.get("parameters", []), list):
        op.setdefault("parameters", []).append({"in": "path", "name": "unplaced", "required": True,
                                                "schema": {"type": "string"}})


def nullable_as_in_3_1(spec, r):
    s = r.choice(schemas(spec))
    if isinstance(s.get("type"), str) and r.random() < 0.5:
        s["type"] = r.choice([[s["type"], "null"], ["null", s["type"]], [s["type"], "integer", "null"]])
    else:
        inner = dict(s)
        s.clear()
        s[r.choice(["anyOf", "oneOf"])] = r.choice([[inner, {"type": "null"}], [{"type": "null"}, inner], [inner]])


def extension_renamed(spec, r):
    nodes = [n for n in walk(spec) if any(isinstance(k, str) and k.startswith("x-polygon-") for k in n)]
    for n in r.sample(nodes, min(len(nodes), r.choice([1, 10, len(nodes)]))):
        for k in [k for k in n if isinstance(k, str) and k.startswith("x-polygon-")]:
            n["x-massive-" + k[len("x-polygon-"):]] = n.pop(k)


def pointers(x, at=""):
    """Every object in x with its JSON pointer."""
    if isinstance(x, dict):
        yield at, x
        for k, v in x.items():
            yield from pointers(v, at + "/" + str(k).replace("~", "~0").replace("/", "~1"))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from pointers(v, at + "/" + str(i))


def holds_itself(spec, r):
    """A schema with properties holds itself again (a tree's node its children, a company its
    parent), through a $ref to where it is: under components, or inside an operation."""
    at, s = r.choice([(p, n) for p, n in pointers(spec) if isinstance(n.get("properties"), dict) and "in" not in n])
    ref = {"$ref": "#" + at}
    s["properties"][r.choice(["parent", "children", "self", "node"])] = r.choice(
        [ref, {"type": "array", "items": ref}, {"type": "object", "properties": {"again": ref}},
         {"allOf": [ref], "description": "itself"}, {"oneOf": [ref, {"type": "null"}]}])


# Names the SDK or the generator's own output already take.
TAKEN = ["time", "stream", "table", "self", "enums", "decimal", "timestamp_ms", "json_value", "none", "filter",
         "required", "group", "params", "client", "page"]


def named_like_generated(spec, r):
    name = r.choice(TAKEN)
    if r.random() < 0.5:
        s = r.choice([n for n in schemas(spec) if isinstance(n.get("properties"), dict)])
        s["properties"][name] = {"type": r.choice(["integer", "string", "number"])}
    else:
        path, op = r.choice(operations(spec))
        spec["paths"]["/" + name + "/v1/" + r.choice(["group", "params", "things"])] = {"get": copy.deepcopy(op)}


def alike(name, r):
    """Another spelling of name that a C++ identifier may fold onto it: case, separators, camel
    or snake form."""
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
    camel = re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), name)
    return r.choice([name.upper(), name.lower(), name.capitalize(), snake, camel, name.replace("_", "-"),
                     name + "_", "_" + name, name.replace("_", ".")])


def names_alike(spec, r):
    """Two members, schemas, operations or parameters whose names differ only in a way a C++ name
    may not keep (bidPrice and bid_price, T and t, Trade and trade, ListTrades and listTrades)."""
    what = r.choice(["property", "schema", "operation", "parameter"])
    if what == "property":
        s = r.choice([n for n in schemas(spec) if isinstance(n.get("properties"), dict) and n["properties"]])
        name = r.choice(list(s["properties"]))
        s["properties"][alike(name, r)] = copy.deepcopy(s["properties"][name])
    elif what == "schema":
        components = spec.get("components", {}).get("schemas", {})
        if components:
            name = r.choice(list(components))
            twin = alike(name, r)
            components[twin] = copy.deepcopy(components[name])
            refs = [n for n in walk(spec) if n.get("$ref") == "#/components/schemas/" + name]
            if refs:
                r.choice(refs)["$ref"] = "#/components/schemas/" + twin
    elif what == "operation":
        _, op = r.choice(operations(spec))
        (_, other) = r.choice(operations(spec))
        op["operationId"] = alike(str(other.get("operationId", "ListThings")), r)
    else:
        _, op = r.choice(operations(spec))
        params = [p for p in op.get("parameters", []) if isinstance(p, dict) and isinstance(p.get("name"), str)]
        if params:
            p = copy.deepcopy(r.choice(params))
            p["name"] = r.choice([p["name"], alike(p["name"], r)])
            p["in"] = "query"
            p.pop("required", None)
            op["parameters"].append(p)


# Text a generator writes into comments and string literals: comment ends and starts, a line
# ending in a backslash (which splices the next line of C++ into a // comment), raw string
# delimiters, carriage returns, Unicode line separators, control characters.
HOSTILE_TEXT = ["ends */ here", "/* opens", "ends in a backslash \\", "line\\\nspliced", "R\"(raw)\"", ")\" x",
                "cr\rlf\r\n", "sep\u2028para\u2029", "nul\u0000bell\u0007esc\u001b", "tab\there", "??= ??/ ??'",
                "@param x \\brief", "100% %s %n {}", "\ud83d\ude00 emoji", "<script>&amp;</script>"]


def text_hostile(spec, r):
    nodes = [n for n in walk(spec) if isinstance(n.get("description"), str) or isinstance(n.get("summary"), str)
             or isinstance(n.get("title"), str)]
    for n in r.sample(nodes, min(len(nodes), r.choice([1, 10, 100]))):
        for key in ("description", "summary", "title"):
            if isinstance(n.get(key), str):
                n[key] = r.choice([r.choice(HOSTILE_TEXT), n[key] + " " + r.choice(HOSTILE_TEXT),
                                   r.choice(HOSTILE_TEXT) + "\n" + n[key]])


KINDS = [type_removed, type_changed, properties_removed, items_removed, member_of_another_json_type,
         replaced_by_ref, ref_to_nothing, ref_cycle, wrapped_in_composition, enumeration_changed, format_changed,
         properties_of_another_shape, schema_removed, operation_id_removed, operation_id_shared,
         responses_without_json, parameters_removed, parameter_changed, parameter_ref_to_nothing,
         path_parameter_renamed, route_parameter_renamed, route_added, method_changed, operation_text_of_another_type,
         parameter_default_or_example_odd, enumeration_of_odd_values, swagger2_style, path_without_slash,
         paths_extension, parameter_declared_twice, path_parameter_unplaced, nullable_as_in_3_1,
         extension_renamed, named_like_generated, holds_itself, names_alike, text_hostile]


def stream_schema_removed(spec, r):
    names = list(spec.get("components", {}).get("schemas", {}))
    if names:
        spec["components"]["schemas"].pop(r.choice(names))


def stream_ref_to_nothing(spec, r):
    n = r.choice(schemas(spec))
    n.clear()
    n["$ref"] = "#/components/schemas/Missing"


def stream_ev_without_values(spec, r):
    with_ev = [n for n in walk(spec) if isinstance(n.get("properties"), dict) and "ev" in n["properties"]]
    if with_ev:
        r.choice(with_ev)["properties"]["ev"] = r.choice([{}, {"enum": []}, {"enum": [1]}, {"type": "string"}])


def stream_key_of_another_type(spec, r):
    r.choice(schemas(spec))[r.choice(["type", "properties", "enum", "items", "description"])] = r.choice(WEIRD)


def stream_channel_gone(spec, r):
    spec["paths"].pop(r.choice(list(spec["paths"])))


def stream_channel_moved(spec, r):
    path = r.choice(list(spec["paths"]))
    spec["paths"][r.choice([path + "2", path.replace("/", "/launchpad/", 1), "/unknown" + path])] = spec["paths"].pop(path)


STREAM_KINDS = [stream_schema_removed, stream_ref_to_nothing, stream_ev_without_values, stream_key_of_another_type,
                stream_channel_gone, stream_channel_moved]


def take(args, flag, default=None):
    if flag not in args:
        return default
    at = args.index(flag)
    value = args[at + 1]
    del args[at:at + 2]
    return value


def main():
    args = sys.argv[1:]
    with open(take(args, "--spec"), encoding="utf-8") as f:
        base = json.load(f)
    with open(take(args, "--stream-spec"), encoding="utf-8") as f:
        stream_base = json.load(f)
    seeds = int(take(args, "--seeds"))
    first = int(take(args, "--first", "0"))
    compile_seeds = int(take(args, "--compile-seeds", "0"))
    compile_args = []
    compile_flags = ("--compile-commands", "--also-compile", "--also-compile-hand-written")
    while any(flag in args for flag in compile_flags):
        for flag in compile_flags:
            value = take(args, flag)
            if value is not None:
                compile_args += [flag, value]
    work = os.path.abspath(take(args, "--work"))
    os.makedirs(work, exist_ok=True)
    # --kinds a,b: only those kinds of REST change, for a sweep aimed at them.
    kinds = KINDS
    only = take(args, "--kinds")
    if only is not None:
        kinds = [k for k in KINDS if k.__name__ in only.split(",")]
    here = os.path.dirname(os.path.abspath(__file__))
    failed = []
    for seed in range(first, first + seeds):
        r = random.Random(seed)
        spec, stream = copy.deepcopy(base), copy.deepcopy(stream_base)
        made = []
        for _ in range(r.choice([1, 2, 4, 8, 16])):
            kind = r.choice(kinds)
            kind(spec, r)
            made.append(kind.__name__)
        for _ in range(r.choice([0, 0, 1, 3])):
            kind = r.choice(STREAM_KINDS)
            kind(stream, r)
            made.append(kind.__name__)
        spec_path = os.path.join(work, "seed%d-spec.json" % seed)
        stream_path = os.path.join(work, "seed%d-stream-spec.json" % seed)
        with open(spec_path, "w", encoding="utf-8") as f:
            json.dump(spec, f)
        with open(stream_path, "w", encoding="utf-8") as f:
            json.dump(stream, f)
        extra = compile_args if seed - first < compile_seeds else []
        try:
            run = subprocess.run([sys.executable, os.path.join(here, "regenerate_history.py"), "--spec", spec_path,
                                  "--stream-spec", stream_path, "--work", os.path.join(work, "seed%d" % seed)]
                                 + args + extra, capture_output=True, text=True, timeout=600)
            verdict, output = run.returncode, run.stdout + run.stderr
        except subprocess.TimeoutExpired:
            verdict, output = "timeout", ""
        print("seed %d (%s): %s" % (seed, ", ".join(made), "ok" if verdict == 0 else "FAILED"), flush=True)
        if verdict != 0:
            failed.append("seed %d (%s): %s\n%s" % (seed, ", ".join(made), verdict, output[-3000:]))
        else:
            for path in (spec_path, stream_path):
                os.remove(path)
            subprocess.run(["rm", "-rf", os.path.join(work, "seed%d" % seed)])
    if failed:
        print("FAIL: %d of %d changed descriptions did not regenerate:\n%s" % (len(failed), seeds, "\n".join(failed)),
              file=sys.stderr)
        return 1
    print("%d changed descriptions regenerated, %d of them compiled" % (seeds, min(seeds, compile_seeds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
