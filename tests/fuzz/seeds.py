#!/usr/bin/env python3
"""Seeds and dictionaries for the fuzz targets (scripts/fuzz.sh runs this on every run).

    seeds.py <wire-samples dir> <generated dir> <build dir> <stream description> <API notes>

Writes $build/fuzz-corpus (fuzz_decode), $build/fuzz-models-corpus (fuzz_models),
$build/fuzz-transport-corpus (fuzz_transport: whole HTTP answers, framed every way the client
reads) and $build/fuzz-stream-corpus (fuzz_stream: the stream description's example of every
channel, alone and mixed per market with a status event, and the frames API-NOTES records),
$build/fuzz-files-corpus (fuzz_files: the flat files' headers API-NOTES gives, with rows),
adding seeds to whatever the corpora already hold, and $build/fuzz-models.dict: decode.dict plus
every field key of the generated models. The recorded responses are read where they are,
never copied into the repository. The model seeds are a row synthesised for each model from
the mock's catalog (generated/mock/catalog.cpp, the field trees the decoders read), in each
payload shape its operations use, and the recorded responses under their operation's model.
"""
import gzip
import hashlib
import json
import os
import re
import sys

samples, generated, build, stream_spec, api_notes = sys.argv[1:6]
here = os.path.dirname(os.path.abspath(__file__))

SHAPES = ["results_array", "results_object", "document", "top_level_array", "results_values"]
SPLITS = (0x00, 0x03, 0x05, 0x07, 0x44, 0x84)  # chunking and limits (fuzz_input.hpp)


def compact(value):
    return json.dumps(value, separators=(",", ":")).encode()


def body_of(shape, row):
    """A body carrying `row` where `shape` says the rows are."""
    return compact({
        "results_array": {"status": "OK", "request_id": "r", "count": 2, "results": [row, row],
                          "next_url": "https://api.massive.com/v3/x?cursor=YXA9MQ"},
        "results_object": {"status": "OK", "request_id": "r", "results": row},
        "document": row,
        "top_level_array": [row, row],
        "results_values": {"status": "OK", "results": {"underlying": {"url": "u"}, "values": [row]}},
    }[shape])


def recorded():
    """(file name, request, body) of every recorded response."""
    manifest = os.path.join(samples, "MANIFEST.tsv")
    if not os.path.isfile(manifest):
        return []
    lines = open(manifest).read().splitlines()[1:]
    return [(name, request, open(os.path.join(samples, name), "rb").read())
            for name, request in (line.split("\t", 1) for line in lines if line)]


def write(corpus, seeds):
    os.makedirs(corpus, exist_ok=True)
    for seed in seeds:
        with open(os.path.join(corpus, "seed-" + hashlib.sha1(seed).hexdigest()), "wb") as f:
            f.write(seed)
    print(f"{len(seeds)} seeds in {corpus}", file=sys.stderr)


# The mock's catalog: every model's field tree, and the operations' shapes and models.
catalog = open(os.path.join(generated, "mock", "catalog.cpp")).read()
fields = re.findall(r'^    \{"((?:[^"\\]|\\.)*)", form::(\w+), scalar::(\w+), (-?\d+)\},$', catalog, re.M)
models = re.findall(r'^    \{"(\w+)", (\d+), (\d+)\},$', catalog, re.M)
operations = re.findall(r'^    \{"(\w+)", "\w+", "([^"]*)", shape::(\w+), \w+, \w+, (-?\d+)\},$', catalog, re.M)
table = re.findall(r'^    \{"(\w+)", &detail::decode_model<\w+>\},$',
                   open(os.path.join(generated, "src", "models", "model_table.cpp")).read(), re.M)
if not (fields and models and operations and table):
    sys.exit("seeds.py: cannot read the catalog or the model table in " + generated)

SCALARS = {"int64": 7, "int32": 7, "number": 1.25, "boolean": True, "string": "x",
           "date": "2024-01-02", "timestamp_ns": 1704205800000000000,
           "timestamp_us": 1704205800000000, "timestamp_ms": 1704205800000, "decimal": "1.5",
           "json": {"k": 1}}


def synthesise(index, depth=0):
    """A row of catalog model `index` with every field present (nested models to depth 3)."""
    _, first, count = models[index]
    row = {}
    for key, form, scalar, nested in fields[int(first):int(first) + int(count)]:
        key = json.loads(f'"{key}"')
        value = synthesise(int(nested), depth + 1) if int(nested) >= 0 and depth < 3 else SCALARS[scalar]
        row[key] = {"scalar": value, "object": value, "array": [value], "map": {"k": value}}[form]
    return row


# fuzz_decode: byte 0 = model + 3 * shape, byte 1 = chunking and limits.
decode_models = {"agg": 0, "trade": 1, "quote": 2}
decode_seeds = []


def add_decode(model, shape, body):
    for split in SPLITS:
        decode_seeds.append(bytes([decode_models[model] + 3 * SHAPES.index(shape), split]) + body)


rows = {}
for name, _, raw in recorded():
    model = "quote" if "quotes" in name or "nbbo" in name else "trade" if "trade" in name else "agg"
    add_decode(model, "results_object" if "__last__" in name else "results_array", raw)
    doc = json.loads(raw)
    results = doc.get("results") if isinstance(doc, dict) else None
    if isinstance(results, list) and results and isinstance(results[0], dict):
        rows.setdefault(model, results[0])

# Every model in every shape, from a recorded row when there is one, else a synthesised one.
model_names = [name for name, _, _ in models]
for model in decode_models:
    for shape in SHAPES:
        add_decode(model, shape, body_of(shape, rows.get(model) or synthesise(model_names.index(model))))

# Issue 30: values a model cannot hold (a 30-digit integer, a fraction, null) in every field of a
# row, and rows that are not objects, so that the fuzzer starts from the paths that leave an
# object out of the page.
for model, row in rows.items():
    for bad in ("123456789012345678901234567890", "1.5", "null", "\"x\"", "{}"):
        for key in row:
            spoiled = dict(row)
            spoiled[key] = "__BAD__"
            body = compact({"status": "OK", "results": [spoiled, 7, None, row]}).replace(b'"__BAD__"', bad.encode())
            add_decode(model, "results_array", body)
write(os.path.join(build, "fuzz-corpus"), decode_seeds)

# fuzz_models: byte 0 = index in the model table, byte 1 = shape << 3 | chunking and limits.
model_seeds = []


def add_model(index, shape, body):
    for split in SPLITS:
        model_seeds.append(bytes([index, SHAPES.index(shape) << 3 | split]) + body)


route_of = {}  # route template -> (table index, shape)
for group, path, shape, model in operations:
    name = models[int(model)][0]
    if name in table:
        add_model(table.index(name), shape, body_of(shape, synthesise(int(model))))
        if path not in route_of or group in ("stocks", "reference"):
            route_of[path] = (table.index(name), shape)
for _, request, raw in recorded():
    path = request.split("?", 1)[0]
    for route, (index, shape) in route_of.items():
        if re.fullmatch(re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(route)), path):
            add_model(index, shape, raw)
            break
write(os.path.join(build, "fuzz-models-corpus"), model_seeds)

keys = sorted({json.loads(f'"{key}"') for key, _, _, _ in fields})
with open(os.path.join(build, "fuzz-models.dict"), "w") as f:
    f.write(open(os.path.join(here, "decode.dict")).read())
    f.write("# every field key of the generated models (tests/fuzz/seeds.py)\n")
    for key in keys:
        f.write(json.dumps(json.dumps(key)) + "\n")

# fuzz_transport: whole HTTP answers, byte for byte as a server writes them. Bodies: the
# recorded aggregates responses where there are some, else a synthesised agg row.

agg_bodies = [raw for name, request, raw in recorded() if request.startswith("/v2/aggs/")][:2]
if not agg_bodies:
    agg_bodies = [body_of("results_array", synthesise(next(i for i, m in enumerate(models) if m[0] == "agg")))]


def answer(status_line, headers, body):
    head = status_line + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    return head.encode() + body


def chunked(body, size):
    out = b""
    for at in range(0, len(body), size):
        piece = body[at:at + size]
        out += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    return out + b"0\r\n\r\n"


transport_seeds = []
for body in agg_bodies:
    packed = gzip.compress(body, mtime=0)
    transport_seeds += [
        answer("HTTP/1.1 200 OK", [("Content-Type", "application/json"), ("Content-Length", len(body))], body),
        answer("HTTP/1.1 200 OK", [("Transfer-Encoding", "chunked"), ("X-Request-Id", "abc")], chunked(body, 97)),
        answer("HTTP/1.1 200 OK", [("Content-Encoding", "gzip"), ("Content-Length", len(packed))], packed),
        answer("HTTP/1.1 200 OK", [("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")],
               chunked(packed, 61)),
    ]
error_json = b'{"status":"ERROR","request_id":"req-1","error":"Unknown API Key"}'
transport_seeds += [
    answer("HTTP/1.1 401 Unauthorized", [("Content-Length", len(error_json))], error_json),
    answer("HTTP/1.1 429 Too Many Requests", [("Retry-After", "2"), ("Content-Length", len(error_json))], error_json),
    answer("HTTP/1.1 503 Service Unavailable",
           [("Retry-After", "Wed, 21 Oct 2026 07:28:00 GMT"), ("Content-Type", "text/html")],
           b"<html><body>upstream unavailable</body></html>"),
    answer("HTTP/1.1 500 Internal Server Error", [("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")],
           chunked(gzip.compress(error_json, mtime=0), 10)),
    answer("HTTP/1.1 200 OK", [("Content-Length", "10")], b"{\"resu"),
]
# Issue 30: interim (1xx) answers before the final one, a 101 nobody asked for, a 408.
for body in agg_bodies[:1]:
    final = answer("HTTP/1.1 200 OK", [("Content-Length", len(body))], body)
    transport_seeds += [
        b"HTTP/1.1 100 Continue\r\n\r\n" + final,
        b"HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n" + final,
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n" + final,
        answer("HTTP/1.1 408 Request Timeout", [("Connection", "close"), ("Content-Length", "4")], b"idle"),
    ]
write(os.path.join(build, "fuzz-transport-corpus"), transport_seeds)

# fuzz_stream: byte 0 = market + 6 * channel set (+ 0x80: the tight frame cap), byte 1 =
# chunking and limits. Markets and channel sets in fuzz_stream.cpp's order.
MARKETS = ["stocks", "options", "forex", "crypto", "indices", "futures"]
CHANNEL_SETS = ["market", "business", "launchpad"]
STATUS = {"ev": "status", "status": "success", "message": "subscribed to: T.*"}
stream_seeds = []


def add_stream(market, channels, frame):
    for split in SPLITS:
        for cap in (0, 0x80):
            stream_seeds.append(bytes([MARKETS.index(market) + 6 * CHANNEL_SETS.index(channels) + cap, split]) + frame)


by_market = {}
for path, item in json.load(open(stream_spec))["paths"].items():
    parts = path.strip("/").split("/")
    channels = parts.pop(0) if parts[0] in CHANNEL_SETS else "market"
    example = item["get"]["responses"]["200"]["content"]["application/json"]["example"]
    add_stream(parts[0], channels, compact([example]))
    by_market.setdefault((parts[0], channels), []).append(example)
for (market, channels), examples in by_market.items():
    add_stream(market, channels, compact([STATUS] + examples + examples[:1]))
# The recorded frames: every `[{"ev":...}]` between backticks in the notes' Streams section.
notes = open(api_notes).read()
for frame in re.findall(r"`(\[\{\"ev\":.*?\])`", notes[notes.find("## Streams"):]):
    add_stream("stocks", "market", frame.encode())
write(os.path.join(build, "fuzz-stream-corpus"), stream_seeds)

# fuzz_files: the flat files' headers API-NOTES gives ("Flat files", each `ticker,...` between
# backticks), with rows whose values have each column's shape (a quoted condition list, empty
# fields, nanosecond times), under every row type (byte 0 modulo 7) with and without the tight
# limits, the filters and the strict policy, in LF and CRLF.
VALUES = {"ticker": ["AAPL", "A", "O:SPY241220P00720000"], "conditions": ['"12,37"', "", "14"],
          "id": ["71675", "", '"a""b"'], "price": ["110.51", "1e3", "x"], "size": ["100", "0.5", ""]}
files_seeds = []
flat = notes[notes.find("## Flat files"):]
for header in re.findall(r"`(ticker,[a-z_,\s]*)`", flat):
    columns = [c.strip() for c in header.replace("\n", "").split(",") if c.strip()]
    rows = []
    for i in range(3):
        row = []
        for c in columns:
            if c in VALUES:
                row.append(VALUES[c][i])
            elif "timestamp" in c or c == "window_start":
                row.append(["1712325600013154000", "", "17123256000131540001"][i])
            else:
                row.append(["4", "", "-2"][i])
        rows.append(",".join(row))
    text = ",".join(columns) + "\n" + "\n".join(rows) + "\n"
    for row_type in range(7):
        for options in (0x00, 0x08, 0x10, 0x20, 0x40, 0x78):
            for split in SPLITS[:4]:
                files_seeds.append(bytes([row_type + options, split]) + text.encode())
        files_seeds.append(bytes([row_type, 0x03]) + text.replace("\n", "\r\n").encode())
write(os.path.join(build, "fuzz-files-corpus"), files_seeds)
