#!/usr/bin/env bash
# Builds and runs the decode benchmark, then prints the figures and the ratios that the
# decode engine's targets are stated in (docs/maintainers/performance.md).
#
#   scripts/bench-decode.sh [benchmark flags...]
#
# Environment: BUILD_DIR (default build-bench), REPETITIONS (default 5), MIN_TIME (seconds
# per repetition, default 0.5). Extra arguments go to the benchmark binary, e.g.
# --benchmark_filter=aggs/50000. The raw JSON is kept in $BUILD_DIR/bench-decode.json.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/bench-build.sh"
build="${BUILD_DIR:-$root/build-bench}"
repetitions="${REPETITIONS:-5}"
min_time="${MIN_TIME:-0.5}"

# A build directory of its own is configured with the benchmarks alone; one that exists (the
# tests' build, say) only gains the benchmarks and keeps its other options.
bench_build "$root" "$build" massive_bench_decode

json="$build/bench-decode.json"
echo "running massive_bench_decode ($repetitions repetitions, ${min_time}s each); raw JSON: $json" >&2
# Repetitions interleaved in random order: the machine is shared, and a load that drifts
# during the run then spreads over every arm instead of biasing the ratios.
"$build/bench/massive_bench_decode" --benchmark_format=json \
  --benchmark_repetitions="$repetitions" --benchmark_min_time="$min_time" \
  --benchmark_enable_random_interleaving=true "$@" >"$json"

python3 - "$json" "$build/compile_commands.json" <<'PY'
import json, os, re, sys

data = json.load(open(sys.argv[1]))

# The machine line: what the figures were measured on and compiled with.
ctx = data["context"]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
flags = "?"
compiler = "?"
try:
    for entry in json.load(open(sys.argv[2])):
        if entry["file"].endswith("bench/decode.cpp"):
            args = entry.get("command", "").split()
            compiler = os.popen(f"{args[0]} --version").readline().strip()
            flags = " ".join(a for a in args if re.match(r"-(O|march|mtune|std|DNDEBUG|f)", a))
except (OSError, ValueError, IndexError):
    pass
simdjson = next((l.split()[2] for l in open("/usr/include/simdjson.h") if l.startswith("#define SIMDJSON_VERSION ")), "?")
print(f"machine: {cpu}, {ctx.get('num_cpus')} cores; {compiler}; {flags}; simdjson {simdjson}; "
      f"load average {ctx.get('load_avg', ['?'])[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")

# Medians over the repetitions (or the single run), and every repetition's rate for the spread.
runs = {}
rates = {}
for b in data["benchmarks"]:
    name = b.get("run_name", b["name"])
    kind = b.get("aggregate_name", "")
    if b.get("run_type") == "iteration" and "items_per_second" in b:
        rates.setdefault(name, []).append(b["items_per_second"])
    if kind in ("median", "") and (kind == "median" or name not in runs):
        runs[name] = dict(b)
    if kind == "cv":
        runs.setdefault(name, {})["cv"] = b.get("cpu_time", 0)

print()
# alloc/iter: heap bytes per body (operator new and the C allocator); pool/iter: page-pool
# memory the engine touched afresh per body (the heap counter never sees it); cv: of the CPU
# time.
print(f"{'benchmark':44} {'Mrows/s':>8} {'MB/s':>6} {'alloc/iter':>12} {'allocs':>8} {'pool/iter':>10} {'cv':>6}")
arm_order = ["engine", "buffered_reused", "buffered_string", "padded_whole", "nlohmann"]
def order(name):
    _, model, rows, arm = name.split("/")
    return (model, int(rows), arm_order.index(arm) if arm in arm_order else len(arm_order), arm)
for name, b in sorted(runs.items(), key=lambda kv: order(kv[0])):
    if "items_per_second" not in b:
        continue
    alloc = b.get("alloc_bytes_per_iter", 0)
    cv = b.get("cv")
    pool = b.get("pool_bytes_touched_per_iter")
    print(f"{name:44} {b['items_per_second'] / 1e6:8.2f} {b['bytes_per_second'] / 1e6:6.0f} "
          f"{alloc:12,.0f} {b.get('allocs_per_iter', 0):8.0f} "
          f"{'-' if pool is None else f'{pool:,.0f}':>10} "
          f"{'' if cv is None else f'{cv * 100:5.1f}%':>6}")

# The wire-order fast path: what share of each body's rows leaves it, and the engine's rate
# on a body whose every row does (the same aggregates, keys sorted) beside its rate in wire
# order.
print()
for key, value in sorted((k, v) for k, v in ctx.items() if k.startswith("rows_off_wire_order/")):
    print(f"{key.split('/', 1)[1]:36} {value} rows leave the wire-order fast path")
for name in sorted(n for n in runs if n.startswith("decode/aggs_sorted_keys/") and n.endswith("/engine")):
    wire = runs.get(name.replace("aggs_sorted_keys", "aggs"), {}).get("items_per_second")
    off = runs[name].get("items_per_second")
    if wire and off:
        print(f"engine on rows off the fast path: {off / 1e6:.2f} Mrows/s, {off / wire:.2f} x its "
              f"{wire / 1e6:.2f} Mrows/s on the same rows in wire order ({name.split('/')[2]} rows)")

# Ratios of median rows/s, with their spread over the repetitions (the lowest engine run over
# the highest other run, and the reverse). A target counts as met only when the whole spread
# clears it; a spread that straddles it is "within spread", not met.
targets = [("buffered_reused", 1.0), ("buffered_string", 1.0), ("padded_whole", 0.85), ("nlohmann", 10.0)]
print()
print(f"{'ratio (median rows/s)':56} {'value':>7} {'spread':>13} {'target':>7}  status")
for workload in sorted({n.rsplit("/", 1)[0] for n in runs}, key=lambda w: (w.split("/")[1], int(w.split("/")[2]))):
    engine = runs.get(f"{workload}/engine", {}).get("items_per_second")
    for arm, target in targets:
        other = runs.get(f"{workload}/{arm}", {}).get("items_per_second")
        if not engine or not other:
            continue
        ratio = engine / other
        lo = min(rates.get(f"{workload}/engine", [engine])) / max(rates.get(f"{workload}/{arm}", [other]))
        hi = max(rates.get(f"{workload}/engine", [engine])) / min(rates.get(f"{workload}/{arm}", [other]))
        graded = workload.endswith("/50000") and workload.split("/")[1] in ("aggs", "trades")
        if not graded:
            status = "(not a target)"
        elif lo >= target:
            status = "met"
        elif hi >= target:
            status = "within spread"
        else:
            status = "MISSED"
        headline = "  <- headline: vs a buffered simdjson decode" if arm == "buffered_reused" and graded else ""
        print(f"{workload + ': engine / ' + arm:56} {ratio:7.2f} {lo:6.2f}-{hi:<6.2f} {target:7.2f}  {status}{headline}")
PY
