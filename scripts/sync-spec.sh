#!/usr/bin/env bash
# Takes a newer API description, regenerates generated/ from it, builds and tests, and prints
# the change report: what a scheduled job runs (docs/maintainers/codegen.md has a CI recipe).
#
#   scripts/sync-spec.sh [--stream] URL|FILE [--no-build]
#
# URL is downloaded with curl (e.g. https://api.massive.com/openapi); FILE is read as it is.
# Either may be JSON or YAML; it is stored as JSON.
# --stream: the description is the stream (WebSocket) one, not the REST one.
# --no-build: regenerate only (the generator is still built unless MASSIVE_CODEGEN names one).
# The description is stored normalised (keys sorted, 2-space indent: the generator does not
# care, but the diff reads) as spec/massive-openapi.json or spec/massive-websocket.json, and its
# row in spec/README.md records the source, the date and the sha256; the change report's
# breaking and added lines go to CHANGELOG.md under the release being prepared. Exit status: the
# generator's (1: a person must decide, every problem listed), the build's or the tests'.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

target=massive-openapi.json
build=1
source=""
for arg in "$@"; do
  case "$arg" in
    --stream) target=massive-websocket.json ;;
    --no-build) build=0 ;;
    -*) echo "usage: $0 [--stream] URL|FILE [--no-build]" >&2; exit 2 ;;
    *) source="$arg" ;;
  esac
done
[ -n "$source" ] || { echo "usage: $0 [--stream] URL|FILE [--no-build]" >&2; exit 2; }

fetched="$(mktemp)"
trap 'rm -f "$fetched"' EXIT
case "$source" in
  http://*|https://*) curl -fsSL --retry 3 -o "$fetched" "$source" ;;
  *) cp "$source" "$fetched" ;;
esac
python3 - "$fetched" "spec/$target" <<'PY'
import datetime, json, sys
with open(sys.argv[1], encoding="utf-8-sig") as f:  # a byte order mark, if any, is not content
    text = f.read()
try:
    description = json.loads(text)
except ValueError:
    # OpenAPI's other form: YAML (python3-yaml), stored as the JSON it means. Its keys become
    # strings (a status code 200 is "200" in JSON) and its dates their ISO text.
    import yaml
    try:
        # libyaml's parser where python3-yaml has it (Debian's does): the pure-Python one takes
        # seconds over a 2 MB description.
        description = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as e:
        sys.exit("sync-spec: %s is neither JSON nor YAML: %s" % (sys.argv[1], e))

    def as_json(o):
        if isinstance(o, dict):
            return {(k if isinstance(k, str) else json.dumps(k).strip('"')): as_json(v) for k, v in o.items()}
        if isinstance(o, list):
            return [as_json(v) for v in o]
        return o.isoformat() if isinstance(o, (datetime.date, datetime.datetime)) else o
    description = as_json(description)
if not isinstance(description, dict) or not isinstance(description.get("paths"), dict) or not description["paths"]:
    sys.exit("sync-spec: %s is not an API description (no paths)" % sys.argv[1])
with open(sys.argv[2], "w", encoding="utf-8") as f:
    json.dump(description, f, indent=2, sort_keys=True, ensure_ascii=False)
    f.write("\n")
PY

# Provenance: the file's row in spec/README.md.
sha=$(sha256sum "spec/$target" | cut -d' ' -f1)
today=$(date -u +%Y-%m-%d)
python3 - "spec/README.md" "spec/$target" "$source" "$today" "$sha" <<'PY'
import json, os, sys
readme, stored, source, day, sha = sys.argv[1:]
name = os.path.basename(stored)
with open(stored, encoding="utf-8") as f:
    d = json.load(f)
version = "OpenAPI %s" % d["openapi"] if "openapi" in d else "Swagger %s" % d.get("swagger", "?")
gets = [(p, i) for p, i in d["paths"].items() if isinstance(i, dict) and isinstance(i.get("get"), dict)]
if name == "massive-websocket.json":
    what = "streams (%s form): %d channels" % (version, len(d["paths"]))
else:
    ignored = sum(1 for _, i in gets if any(x.get(p + "ignore") for x in (i, i["get"])
                                            for p in ("x-massive-", "x-polygon-")))
    what = "REST (%s): %d GET operations, %d of them `x-polygon-ignore` path variants" % (
        version, len(gets), ignored)
with open(readme, encoding="utf-8") as f:
    lines = f.read().split("\n")
for i, line in enumerate(lines):
    if line.startswith("| `%s` |" % name):
        lines[i] = "| `%s` | %s | %s, normalised (keys sorted, 2-space indent) by scripts/sync-spec.sh | %s | `%s` |" % (
            name, what, source, day, sha)
        break
else:
    sys.exit("sync-spec: spec/README.md has no row for %s" % name)
with open(readme, "w", encoding="utf-8") as f:
    f.write("\n".join(lines))
PY
echo "sync-spec: spec/$target from $source ($sha)"

codegen="${MASSIVE_CODEGEN:-}"
if [ "$build" = 1 ] || [ -z "$codegen" ]; then
  cmake -S . -B build-sync -G Ninja -DCMAKE_BUILD_TYPE=Release -DMASSIVE_BUILD_CODEGEN=ON -DMASSIVE_BUILD_TESTS=ON >/dev/null
fi
if [ -z "$codegen" ]; then
  cmake --build build-sync --target massive_codegen
  codegen=build-sync/codegen/massive_codegen
fi
report_before=$(cat generated/CHANGES.md 2>/dev/null || true)
"$codegen" --spec spec/massive-openapi.json --stream-spec spec/massive-websocket.json --map codegen/map.txt \
  --out generated

# CHANGELOG.md: the report's breaking and added lines, under the release being prepared.
if [ "$(cat generated/CHANGES.md)" != "$report_before" ]; then
  python3 - CHANGELOG.md generated/CHANGES.md "$target" "$today" <<'PY'
import sys
changelog, report, name, day = sys.argv[1:]
with open(report, encoding="utf-8") as f:
    lines = f.read().split("\n")
keep, section = [], None
for line in lines:
    if line.startswith("## "):
        section = line[3:]
    elif line.startswith("- ") and section and (section.startswith("Breaking") or section == "Added"):
        keep.append(("- breaking: " if section.startswith("Breaking") else "- ") + line[2:])
if not keep:
    sys.exit(0)
with open(changelog, encoding="utf-8") as f:
    text = f.read().split("\n")
at = next(i for i, l in enumerate(text) if l.startswith("## "))
entry = ["### %s of %s (generated/CHANGES.md)" % (name, day), ""] + keep + [""]
text[at + 2:at + 2] = entry
with open(changelog, "w", encoding="utf-8") as f:
    f.write("\n".join(text))
PY
fi

if [ "$build" = 1 ]; then
  cmake --build build-sync
  ctest --test-dir build-sync --output-on-failure -j "$(nproc)"
fi
echo "sync-spec: the change report is generated/CHANGES.md; review it with \`git diff spec generated\`"
if ! sha256sum --quiet -c codegen/curated.sha256 >/dev/null 2>&1; then
  echo "sync-spec: codegen/map.txt and codegen/audit.tsv were reviewed for other descriptions: the tests" \
       "listed what is left to review (default names, stale rows, examples that disagree with their schemas)." \
       "Once reviewed: sha256sum spec/massive-openapi.json spec/massive-websocket.json > codegen/curated.sha256"
fi
