#!/usr/bin/env bash
# A change's A/B on the decode and frame benchmarks: two builds' massive_bench_decode and
# massive_bench_stream run in alternation, ROUNDS times (6 by default), and each arm's best
# figure compared. The best, not the median: on a shared VM interference only ever slows a run
# down, and the spread between runs of one binary is wider than what a change moves.
#
#   scripts/bench-ab.sh <base build> [<head build>]     (head: build)
#
# Both builds must hold the benchmarks (bench_build in scripts/lib/bench-build.sh, or a tree's
# test build). The end-to-end A/B is scripts/bench-e2e.sh with BASE_BIN.
set -euo pipefail

base=${1:?usage: scripts/bench-ab.sh <base build> [<head build>]}
head=${2:-build}
rounds=${ROUNDS:-6}
out="$(mktemp -d "${TMPDIR:-/tmp}/massive-ab.XXXXXX")"
trap 'rm -rf "$out"' EXIT

for round in $(seq "$rounds"); do
  for arm in base head; do
    dir=${!arm}
    "$dir/bench/massive_bench_decode" --benchmark_filter='decode/(aggs|trades)/50000/(engine|buffered_reused)$' \
      --benchmark_repetitions=3 --benchmark_min_time=0.3 --benchmark_format=json 2>/dev/null >"$out/decode-$arm-$round.json"
    "$dir/bench/massive_bench_stream" --benchmark_filter='(massive|ondemand_padded)_frames/(1|10|100)$' \
      --benchmark_min_time=0.3 --benchmark_format=json 2>/dev/null >"$out/stream-$arm-$round.json"
  done
done

python3 - "$out" "$rounds" <<'PY'
import json, os, sys
out, rounds = sys.argv[1], int(sys.argv[2])
for bench, field, better, unit in (("decode", "items_per_second", max, "M rows/s"), ("stream", "real_time", min, "ns")):
    best = {}
    for arm in ("base", "head"):
        for r in range(1, rounds + 1):
            for b in json.load(open(os.path.join(out, f"{bench}-{arm}-{r}.json")))["benchmarks"]:
                if b.get("run_type", "iteration") != "iteration":
                    continue
                value = b[field] / 1e6 if field == "items_per_second" else b[field]
                key = (b.get("run_name", b["name"]), arm)
                best[key] = better(best.get(key, value), value)
    for name in sorted({k[0] for k in best}):
        b, h = best[(name, "base")], best[(name, "head")]
        speed = h / b if better is max else b / h
        print(f"{name:42s} base {b:10.2f}  head {h:10.2f} {unit}  head's speed / base's {speed:.3f}")
print(f"best of {rounds} rounds; load average {os.getloadavg()[0]:.2f} at the end")
PY
