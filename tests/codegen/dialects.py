#!/usr/bin/env python3
"""Regenerates from a committed description (REST or stream) rewritten as a whole, one way at a
time: every schema, parameter, route or channel at once, as a publisher's change of tooling or
conventions rewrites a description (OpenAPI 3.1's nullable forms, everything inlined or
everything under components, extensions renamed or gone, another status code or media type,
formats dropped, integers as numbers...) or as names the generated code already gives arrive
(members, groups, methods and models named like the SDK's types, files and members). Each
result is checked as regenerate_history.py checks a real older description: exit 0, every route
gone or added in the report, and with --compile-commands, the changed sources compile; the
rewrites that keep the description's meaning (SAME) must generate what the committed
description generates, byte for byte. CI runs it without compiling (about half a second each);
with compilation, a minute each.

Usage: dialects.py --spec <REST description> --stream-spec <stream description> --work <dir>
       [--only NAME ...] <regenerate_history.py arguments without --spec and --stream-spec>
(with --baseline-generated, what those descriptions generate: the SAME rewrites are compared
with it, else with --generated)
"""
import copy
import json
import os
import re
import subprocess
import sys

from mutated_spec import take
from regenerate_history import follow
from jvm_form import jvm_form
from x_massive_form import renamed


def walk(x, f):
    if isinstance(x, dict):
        f(x)
        for v in list(x.values()):
            walk(v, f)
    elif isinstance(x, list):
        for v in x:
            walk(v, f)


def ops(s):
    for p, item in s['paths'].items():
        if isinstance(item, dict):
            for m, op in item.items():
                if m in ('get', 'post', 'put', 'delete') and isinstance(op, dict):
                    yield p, item, m, op


def resolve(s, x):
    while isinstance(x, dict) and '$ref' in x:
        x = follow(s, x['$ref'])
    return x


T = {}


def t(f):
    T[f.__name__] = f
    return f


@t
def oas31_null_types(s):
    def f(d):
        if d.get('nullable') is True and isinstance(d.get('type'), str):
            d['type'] = [d['type'], 'null']
            del d['nullable']
        elif d.get('type') in ('number', 'integer', 'string', 'boolean') and 'properties' not in d and 'in' not in d:
            d['type'] = [d['type'], 'null']
    walk(s['components'], f)
    walk(s['paths'], f)
    s['openapi'] = '3.1.0'


@t
def oas31_nullable_refs(s):
    def f(d):
        props = d.get('properties')
        if isinstance(props, dict):
            for k, v in list(props.items()):
                if isinstance(v, dict) and '$ref' in v: props[k] = {'anyOf': [v, {'type': 'null'}]}
                elif isinstance(v, dict) and isinstance(v.get('items'), dict) and '$ref' in v['items']:
                    v['items'] = {'oneOf': [v['items'], {'type': 'null'}]}
    walk(s, f)
    s['openapi'] = '3.1.0'


@t
def x_massive_names(s):
    whole = renamed(s)
    s.clear()
    s.update(whole)


@t
def helper_names(s):
    names = ["none", "timestamp_ns", "timestamp_ms", "timestamp_us", "json_value", "decimal", "std", "massive",
             "span", "optional", "string_view", "int64_t", "row", "seen", "required", "absent_is_false",
             "integer_names", "required_names", "integer_field", "store_integer", "ctx", "key", "value", "field",
             "object", "number", "integer", "detail", "date_or_ms", "year_month_day", "chrono", "owned",
             "json_writer", "reflection", "write_json", "visit_fields", "to_owned", "page", "cursor", "uint64_t",
             "size_t", "int32_t", "bool", "double", "nullopt", "keys_met", "od", "decode_agg", "agg"]
    x = s['paths']['/v2/aggs/ticker/{stocksTicker}/range/{multiplier}/{timespan}/{from}/{to}']['get']
    sch = x['responses']['200']['content']['application/json']['schema']
    def f(d):
        if d.get('type') == 'array' and isinstance(d.get('items'), dict) and 'properties' in d['items']:
            for i, n in enumerate(names):
                d['items']['properties'][n] = {"type": ["integer", "string", "number", "boolean"][i % 4]}
            d['items']['properties']['nested'] = {"type": "object",
                                                  "properties": {n: {"type": "integer"} for n in names}}
    walk(sch, f)
    # the same names as query parameters
    x['parameters'] += [{"in": "query", "name": n, "schema": {"type": "integer"}} for n in names]


@t
def group_names(s):
    src = s['paths']['/v3/reference/exchanges']
    for g in ["stream", "detail", "files", "relay", "reflection", "mock", "models", "owned", "client", "page",
              "cursor", "all", "groups", "enums", "version", "error", "massive", "std", "experimental", "filter",
              "required", "time", "decimal", "trace", "retry", "underlying"]:
        op = copy.deepcopy(src)
        op['get']['operationId'] = 'Get' + g.title() + 'Things'
        s['paths']['/' + g + '/v1/things'] = op


@t
def generated_names(s):
    src = s['paths']['/v3/reference/exchanges']
    for opid, path in [("GetGroup", "/v3/reference/group"), ("GetStocksGroup", "/v3/stocks/group/{stocksTicker}"),
                       ("GetExchangesParams", "/v3/reference/exchanges-params"), ("GetTicker", "/v9/reference/ticker"),
                       ("GetClientGroups", "/v3/reference/client-groups"),
                       ("GetOperations", "/v3/reference/operations"),
                       ("GetOwned", "/v3/reference/owned"), ("GetDecoding", "/v3/reference/decoding")]:
        op = copy.deepcopy(src)
        op['get']['operationId'] = opid
        op['get']['responses']['200']['content']['application/json']['schema'] = {"type": "object", "properties": {
            "status": {"type": "string"}, "results": {"type": "array", "items": {"type": "object", "properties": {
                "unique_" + opid.lower(): {"type": "string"}, "n": {"type": "integer"}}}}}}
        if '{stocksTicker}' in path:
            op['get'].setdefault('parameters', []).append(
                {"in": "path", "name": "stocksTicker", "required": True, "schema": {"type": "string"}})
        s['paths'][path] = op


@t
def method_names(s):
    src = s['paths']['/v3/reference/exchanges']
    for opid, path in [("GetReferenceGroup", "/v3/reference/reference-group"), ("ListTmxGroup", "/tmx/v1/tmx-group"),
                       ("GetClient", "/v3/reference/client"), ("GetRender", "/v3/reference/render"),
                       ("GetTarget", "/v3/reference/target")]:
        op = copy.deepcopy(src)
        op['get']['operationId'] = opid
        s['paths'][path] = op


@t
def nullable_everywhere(s):
    def f(d):
        if isinstance(d.get('type'), str) and 'in' not in d: d['nullable'] = True
    walk(s, f)


@t
def params_at_path_level(s):
    for p, item, m, op in list(ops(s)):
        if 'parameters' in op: item['parameters'] = op.pop('parameters')


@t
def json_charset(s):
    def f(d):
        if 'application/json' in d and isinstance(d['application/json'], dict):
            d['application/json; charset=utf-8'] = d.pop('application/json')
    walk(s, f)


@t
def responses_as_refs(s):
    comps = s['components'].setdefault('responses', {})
    for i, (p, item, m, op) in enumerate(list(ops(s))):
        r = op.get('responses', {})
        if '200' in r and '$ref' not in r['200']:
            comps['Resp%d' % i] = r['200']
            r['200'] = {'$ref': '#/components/responses/Resp%d' % i}


@t
def params_as_refs(s):
    comps = s['components'].setdefault('parameters', {})
    n = [0]
    for p, item, m, op in list(ops(s)):
        ps = op.get('parameters', [])
        for i, prm in enumerate(ps):
            if '$ref' not in prm:
                n[0] += 1
                comps['P%d' % n[0]] = prm
                ps[i] = {'$ref': '#/components/parameters/P%d' % n[0]}


@t
def inline_everything(s):
    comps = s['components']
    def deref(x, depth=0):
        if depth > 40: return {}
        if isinstance(x, dict):
            if '$ref' in x and x['$ref'].startswith('#/'):
                return deref(copy.deepcopy(resolve(s, x)), depth + 1)
            return {k: deref(v, depth) for k, v in x.items()}
        if isinstance(x, list): return [deref(v, depth) for v in x]
        return x
    s['paths'] = deref(s['paths'])
    s['components'] = {'securitySchemes': comps.get('securitySchemes', {})}


@t
def hoist_row_schemas(s):
    comps = s['components'].setdefault('schemas', {})
    n = [0]
    def f(d):
        if d.get('type') == 'array' and isinstance(d.get('items'), dict) and d['items'].get('type') == 'object':
            n[0] += 1
            comps['Hoisted%d' % n[0]] = d['items']
            d['items'] = {'$ref': '#/components/schemas/Hoisted%d' % n[0]}
    walk(s['paths'], f)


def split_in_allof(schema):
    """An object's properties as two allOf parts, the first half and the rest."""
    if isinstance(schema.get('properties'), dict) and len(schema['properties']) > 1:
        props = schema.pop('properties')
        keys = list(props)
        half = len(keys) // 2
        schema['allOf'] = [{'type': 'object', 'properties': {k: props[k] for k in keys[:half]}},
                           {'type': 'object', 'properties': {k: props[k] for k in keys[half:]}}]


@t
def props_in_allof(s):
    def f(d):
        if d.get('type') == 'object':
            split_in_allof(d)
    walk(s['paths'], f)


@t
def no_x_extensions(s):
    def f(d):
        for k in [k for k in d if isinstance(k, str) and k.startswith('x-')]: del d[k]
    walk(s, f)


@t
def no_text(s):
    def f(d):
        for k in ('description', 'summary', 'example', 'examples', 'title'):
            if k in d and not isinstance(d.get(k), dict) or k in ('example','examples'): d.pop(k, None)
    walk(s, f)


@t
def no_formats(s):
    def f(d):
        if isinstance(d.get('format'), str): del d['format']
    walk(s, f)


@t
def status_2xx(s):
    for p, item, m, op in ops(s):
        r = op.get('responses', {})
        if '200' in r: r['2XX'] = r.pop('200')


@t
def status_default(s):
    for p, item, m, op in ops(s):
        r = op.get('responses', {})
        if '200' in r: r['default'] = r.pop('200')


@t
def trailing_slash(s):
    s['paths'] = {(k + '/' if k.startswith('/') and not k.endswith('/') else k): v for k, v in s['paths'].items()}


@t
def enum_with_null(s):
    def f(d):
        if isinstance(d.get('enum'), list): d['enum'] = d['enum'] + [None]
    walk(s, f)


@t
def integers_as_numbers(s):
    def f(d):
        if d.get('type') == 'integer': d['type'] = 'number'
    walk(s, f)


@t
def numbers_as_integers(s):
    def f(d):
        if d.get('type') == 'number': d['type'] = 'integer'
    walk(s['components'], f)


@t
def param_content(s):
    def f(d):
        if d.get('in') in ('query', 'path') and 'schema' in d:
            d['content'] = {'application/json': {'schema': d.pop('schema')}}
    walk(s, f)


@t
def header_params(s):
    for p, item, m, op in ops(s):
        op.setdefault('parameters', []).append({'name': 'X-Request-Id', 'in': 'header', 'schema': {'type': 'string'}})
        op['parameters'].append({'name': 'session', 'in': 'cookie', 'schema': {'type': 'string'}})


@t
def request_bodies(s):
    for p, item, m, op in ops(s):
        op['requestBody'] = {'content': {'application/json': {'schema': {'type': 'object'}}}}


@t
def post_twins(s):
    for p, item, m, op in list(ops(s)):
        if m == 'get':
            item['post'] = copy.deepcopy(op)
            item['post']['operationId'] = str(op.get('operationId', '')) + 'Post'


@t
def oneof_rows(s):
    def f(d):
        if d.get('type') == 'array' and isinstance(d.get('items'), dict) and d['items'].get('type') == 'object':
            d['items'] = {'oneOf': [d['items']]}
    walk(s['paths'], f)


@t
def anyof_numbers(s):
    def f(d):
        if d.get('type') == 'number' and 'in' not in d and not d.get('_seen'):
            t = dict(d)
            t['_seen'] = 1
            d.clear()
            d['anyOf'] = [t, {'type': 'string'}]
    walk(s['components'], f)


@t
def additional_props_false(s):
    def f(d):
        if d.get('type') == 'object' and 'properties' in d: d['additionalProperties'] = False
    walk(s, f)


@t
def ref_siblings(s):
    def f(d):
        if '$ref' in d:
            d['description'] = 'sibling text'
            d['nullable'] = True
    walk(s, f)


@t
def swagger_ish_definitions(s):
    # refs into '#/definitions' as a JSON-schema bundle would write them
    s['definitions'] = s['components'].pop('schemas')
    def f(d):
        if isinstance(d.get('$ref'), str): d['$ref'] = d['$ref'].replace('#/components/schemas/', '#/definitions/')
    walk(s, f)


@t
def external_refs(s):
    n = [0]
    def f(d):
        if isinstance(d.get('$ref'), str) and n[0] < 5:
            d['$ref'] = 'common.json' + d['$ref']
            n[0] += 1
    walk(s['paths'], f)


@t
def servers_variables(s):
    s['servers'] = [{'url': '{scheme}://api.polygon.io/{base}',
                     'variables': {'scheme': {'default': 'https'}, 'base': {'default': ''}}}]


@t
def no_servers_no_info(s):
    s.pop('servers', None)
    s.pop('info', None)
    s.pop('tags', None)
    s.pop('security', None)


@t
def query_in_path_keys(s):
    s['paths'] = {(k + '?apiKey={apiKey}' if k.startswith('/v3') else k): v for k, v in s['paths'].items()}


@t
def unicode_names(s):
    def f(d):
        if isinstance(d.get('properties'), dict) and d['properties']:
            k = next(iter(d['properties']))
            d['properties']['ünï-cödé ' + k] = copy.deepcopy(d['properties'][k])
    walk(s['components'], f)


@t
def huge_enum(s):
    def f(d):
        if isinstance(d.get('enum'), list) and all(isinstance(v, str) for v in d['enum']):
            d['enum'] = d['enum'] + ['v%d' % i for i in range(3000)]
    walk(s, f)


@t
def deprecated_everywhere(s):
    for p, item, m, op in ops(s): op['deprecated'] = True
    def f(d):
        if d.get('in') in ('query',): d['deprecated'] = True
    walk(s, f)


@t
def no_operation_ids(s):
    for p, item, m, op in ops(s):
        op.pop('operationId', None)


@t
def one_operation_id(s):
    for p, item, m, op in ops(s):
        op['operationId'] = 'GetData'


@t
def arrays_without_items(s):
    def f(d):
        if d.get('type') == 'array' and 'items' in d and d['items'].get('type') != 'object': del d['items']
    walk(s, f)


@t
def implicit_types(s):
    """Objects and arrays without their "type": JSON Schema lets properties and items imply it,
    and generators of descriptions leave it out. Seen failing without schema_type()'s inference:
    "differs: include/massive/stocks.hpp" (a list parameter became a string)."""
    def f(d):
        if d.get('type') == 'object' and isinstance(d.get('properties'), dict):
            del d['type']
        if d.get('type') == 'array' and isinstance(d.get('items'), dict):
            del d['type']
    walk(s, f)


@t
def allof_wrapped_refs(s):
    """Every $ref in a property or items wrapped in a one-part allOf, its siblings on the wrapper:
    OpenAPI 3.0's only way to give a reference a description or nullable."""
    def f(d):
        if isinstance(d.get('items'), dict) and list(d['items']) == ['$ref']:
            d['items'] = {'allOf': [d['items']]}
        if isinstance(d.get('properties'), dict):
            for name, v in list(d['properties'].items()):
                if isinstance(v, dict) and '$ref' in v:
                    wrapper = {k: x for k, x in v.items() if k != '$ref'}
                    wrapper['allOf'] = [{'$ref': v['$ref']}]
                    d['properties'][name] = wrapper
    walk(s, f)


@t
def annotations_everywhere(s):
    """What description tools add and code never reads: formats on every number, readOnly and
    nullable: false on every schema, and a required list naming a key no schema has."""
    def f(d):
        if not isinstance(d.get('type'), str):
            return
        if d['type'] == 'integer':
            d.setdefault('format', 'int64')
        if d['type'] == 'number':
            d.setdefault('format', 'double')
        d['readOnly'] = True
        d.setdefault('nullable', False)
        if isinstance(d.get('properties'), dict):
            d['required'] = list(d.get('required', [])) + ['no_such_key']
    walk(s, f)


@t
def no_tags_no_required_path(s):
    """No tags anywhere, and path parameters without `required` (a path parameter always is)."""
    s.pop('tags', None)
    for p, item, m, op in ops(s):
        op.pop('tags', None)
        for prm in op.get('parameters', []):
            prm = resolve(s, prm)
            if prm.get('in') == 'path':
                prm.pop('required', None)


@t
def rows_holding_themselves(s):
    """Every row schema under components, holding itself as a parent, as children and through
    an object: each row stays a model, and only what closes the loop is JSON (the report says
    where)."""
    hoist_row_schemas(s)
    for n, sch in s['components']['schemas'].items():
        if n.startswith('Hoisted'):
            sch['properties']['parent'] = {'$ref': '#/components/schemas/' + n}
            sch['properties']['children'] = {'type': 'array', 'items': {'$ref': '#/components/schemas/' + n}}
            sch['properties']['loop'] = {'type': 'object', 'properties': {'back': {'$ref': '#/components/schemas/' + n}}}


@t
def renamed_path_parameters(s):
    """Path parameters renamed, as one name is spelt several ways (stocksTicker, stockTicker,
    fxTicker, forexTicker, options_ticker): a route keeps its map row, so its group, method,
    models and members (REPORT_LACKS: nothing breaks). Seen failing with map rows matched by the
    exact path: "28 breaking", client.stocks().trades() and massive::trade gone, the indicators'
    models renamed."""
    rename_path_parameters(s, {'stocksTicker': 'stock_ticker', 'stockTicker': 'ticker', 'fxTicker': 'forexTicker',
                               'options_ticker': 'optionsTicker', 'cryptoTicker': 'crypto_ticker', 'date': 'day'})


def rename_path_parameters(s, renamed):
    """Each path parameter named in `renamed` takes its new name, in its routes and declarations."""
    paths = {}
    for path, item in s['paths'].items():
        new = path
        for old, name in renamed.items():
            new = new.replace('{%s}' % old, '{%s}' % name)
        for _, _, _, op in ops({'paths': {path: item}}):
            for prm in op.get('parameters', []):
                prm = resolve(s, prm)
                if prm.get('in') == 'path' and '{%s}' % prm.get('name') in path and prm['name'] in renamed:
                    prm['name'] = renamed[prm['name']]
        paths[new] = item
    s['paths'] = paths


@t
def official_form_renamed(s):
    """The official clients' form (jvm_form.py: one market's variant of a shared route) with the
    stocks' {stockTicker} a bare {ticker}, as near to every market's row: the route's ticker
    example (AAPL, a stock) names its row. Seen failing with the example not read: "the report
    holds: removed `client.stocks().trades()`"."""
    jvm_form(s)
    rename_path_parameters(s, {'stockTicker': 'ticker'})


@t
def versions_moved(s):
    """Every route moved to another version as Massive promotes one (/futures/vX/trades/{ticker}
    became /futures/v1/trades/{ticker}, /benzinga/v1/news became /benzinga/v2/news): vX and dev to v1,
    vN to vN+1, where no other route shares the route's shape in another version. Its map rows stay its
    own, and a route promoted from vX still takes massive::experimental, deprecated (REPORT_LACKS:
    nothing breaks). Seen failing with map rows matched by the exact path (the generator before
    2026-12-07): "the report holds ['## Breaking', 'has no map row', 'has no model row']"; and
    with the promoted routes' opt-in dropped: "the report holds ['## Breaking']"."""
    version = re.compile(r"/(v\d+|vX|dev)(?=/|$)")
    shapes = {}
    for path in s['paths']:
        shapes.setdefault(version.sub('/v', path), []).append(path)
    s['paths'] = {
        (version.sub(lambda m: '/v1' if m.group(1) in ('vX', 'dev') else '/v%d' % (int(m.group(1)[1:]) + 1), path)
         if len(shapes[version.sub('/v', path)]) == 1 else path): item
        for path, item in s['paths'].items()}


# The stream description's dialects (the REST description as committed).
STREAM = {}


def stream_dialect(f):
    STREAM[f.__name__] = f
    return f


def messages(s):
    """Every channel's 200 JSON media type."""
    for item in s['paths'].values():
        media = item.get('get', {}).get('responses', {}).get('200', {}).get('content', {}).get('application/json')
        if isinstance(media, dict):
            yield media


@stream_dialect
def stream_messages_under_components(s):
    schemas = s.setdefault('components', {}).setdefault('schemas', {})
    for i, media in enumerate(messages(s)):
        schemas['Message%d' % i] = media['schema']
        media['schema'] = {'$ref': '#/components/schemas/Message%d' % i}


@stream_dialect
def stream_frames_of_choices(s):
    for media in messages(s):
        media['schema'] = {'type': 'array', 'items': {'oneOf': [media['schema']]}}


@stream_dialect
def stream_x_polygon_names(s):
    def f(d):
        for k in [k for k in d if isinstance(k, str) and k.startswith('x-massive-')]:
            d['x-polygon-' + k[len('x-massive-'):]] = d.pop(k)
    walk(s, f)


@stream_dialect
def stream_properties_in_allof(s):
    for media in messages(s):
        split_in_allof(media['schema'])


@stream_dialect
def stream_frames_with_status(s):
    """Each message as the frame the wire carries: an array of a status event or the channel's.
    Seen failing with the choice read as it was ("differs: ..."; every event's fields gone)."""
    for media in messages(s):
        media['schema'] = {'type': 'array', 'items': {'oneOf': [{'$ref': '#/components/schemas/Event'},
                                                                  media['schema']]}}


@stream_dialect
def stream_examples_as_frames(s):
    """Each example as the frame it comes in: a list of one event."""
    for media in messages(s):
        if 'example' in media:
            media['example'] = [media['example']]


# REST rewrites that apply to the stream description as well, under the name stream_<name>. Seen
# failing with a channel's response $ref not followed (stream_responses_as_refs: "differs: ...";
# 4 channels of 37 generated) and with an ev enum of one value and null read as no ev and the
# example's ev taken before the prefix, as before (stream_enum_with_null: the example's AM taken
# for /options/A, whose schema says A).
for name in ("oas31_null_types", "implicit_types", "responses_as_refs", "params_as_refs", "status_2xx",
             "enum_with_null", "swagger_ish_definitions"):
    STREAM["stream_" + name] = T[name]


# The rewrites that keep the description's meaning: what is generated from them must be what the
# committed description generates, byte for byte.
SAME = {"oas31_null_types", "oas31_nullable_refs", "x_massive_names", "nullable_everywhere", "params_at_path_level",
        "json_charset", "responses_as_refs", "params_as_refs", "inline_everything", "hoist_row_schemas",
        "props_in_allof", "status_2xx", "status_default", "enum_with_null", "header_params", "request_bodies",
        "post_twins", "oneof_rows", "additional_props_false", "ref_siblings", "swagger_ish_definitions",
        "servers_variables", "no_servers_no_info", "no_operation_ids", "one_operation_id", "implicit_types",
        "allof_wrapped_refs", "annotations_everywhere", "no_tags_no_required_path"} | set(STREAM)


# Rewrites that change routes and must not change these names: what their reports must not hold.
REPORT_LACKS = {
    "renamed_path_parameters": ["## Breaking"],
    "versions_moved": ["## Breaking", "has no map row", "has no model row"],
    "official_form_renamed": ["removed `client.stocks().trades()`", "removed `client.stocks().quotes()`",
                              "removed model `massive::trade`", "removed `client.stocks().sma()`"],
}

# What the code generated from a rewrite must hold: (file under generated/, text). A renamed path
# parameter's operation table still takes the old name on the command line. Seen failing with
# parameter_info::former not written (the generator before it): "src/operations/stocks.cpp lacks
# '.former = "stockTicker"'; src/operations/stocks.cpp lacks 'current_names(args, stocks_trades_parameters)'".
GENERATED_HOLDS = {
    "renamed_path_parameters": [("src/operations/stocks.cpp", '.former = "stockTicker"'),
                                ("src/operations/stocks.cpp", "current_names(args, stocks_trades_parameters)"),
                                ("src/operations/forex.cpp", '.former = "fxTicker"')],
}


def value_of(args, flag):
    return args[args.index(flag) + 1]


def main():
    args = sys.argv[1:]
    spec_path, stream_path = take(args, "--spec"), take(args, "--stream-spec")
    work = os.path.abspath(take(args, "--work"))
    only = []
    while "--only" in args:
        only.append(take(args, "--only"))
    here = os.path.dirname(os.path.abspath(__file__))
    failed = []
    names = only or list(T) + list(STREAM)
    for name in names:
        # One description rewritten, the other as committed.
        rest, stream = spec_path, stream_path
        with open(stream_path if name in STREAM else spec_path, encoding="utf-8") as f:
            description = json.load(f)
        (STREAM if name in STREAM else T)[name](description)
        os.makedirs(os.path.join(work, name), exist_ok=True)
        path = os.path.join(work, name, "spec.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(description, f)
        if name in STREAM:
            stream = path
        else:
            rest = path
        if name in SAME:
            # The same code as the unchanged description's: nothing changed to report or compile.
            same_as = value_of(args, "--baseline-generated") if "--baseline-generated" in args else value_of(args, "--generated")
            run = subprocess.run([value_of(args, "--codegen"), "--spec", rest, "--stream-spec", stream,
                                  "--map", value_of(args, "--map"), "--compare", same_as],
                                 capture_output=True, text=True)
            why, output = "not what the committed description generates: ", run.stderr
        else:
            run = subprocess.run([sys.executable, os.path.join(here, "regenerate_history.py"), "--spec", rest,
                                  "--stream-spec", stream, "--work", os.path.join(work, name, "out")] + args,
                                 capture_output=True, text=True)
            why, output = "", run.stdout + run.stderr
            report = os.path.join(work, name, "out", "generated", "CHANGES.md")
            if run.returncode == 0 and name in REPORT_LACKS:
                with open(report, encoding="utf-8") as f:
                    text = f.read()
                held = [line for line in REPORT_LACKS[name] if line in text]
                if held:
                    run.returncode, why, output = 1, "the report holds %s: " % held, text[:3000]
            if run.returncode == 0 and name in GENERATED_HOLDS:
                lacks = []
                for file, text in GENERATED_HOLDS[name]:
                    with open(os.path.join(work, name, "out", "generated", file), encoding="utf-8") as f:
                        if text not in f.read():
                            lacks.append("%s lacks '%s'" % (file, text))
                if lacks:
                    run.returncode, why, output = 1, "; ".join(lacks), ""
        print("%-34s %s" % (name, "ok" if run.returncode == 0 else "FAILED"), flush=True)
        if run.returncode != 0:
            failed.append("%s: %s%s" % (name, why, output[:3000]))
    if failed:
        print("FAIL: %d of %d dialects did not regenerate:\n%s" % (len(failed), len(names), "\n".join(failed)),
              file=sys.stderr)
        return 1
    print("%d dialects regenerated" % len(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
