#!/usr/bin/env bash
# The soak (issue 19, item 7; docs/maintainers/soak.md): 100,000 calls and 1,000 concurrent traversals on a
# 4-thread pool against the mock market on 127.0.0.1, with random faults (resets, truncations,
# stalls, 429 with Retry-After, 5xx, slow bodies). Exits non-zero when a call ends neither with
# its rows nor with a typed error, when anything outlives its deadline or the run hangs, or when
# memory grows; prints calls/s, faults by kind, outcomes by kind and the peak RSS. Not in CI.
#
#   scripts/soak.sh                                    the full soak (minutes)
#   scripts/soak.sh --calls=2000 --traversals=50       a quick check that it runs
#
# Arguments go to massive_soak (--calls, --traversals, --threads, --workers, --connections,
# --fault-rate, --seed, --deadline-ms, --slack-ms, --max-seconds). Environment: BUILD_DIR
# (default build-soak), JOBS (build jobs, default 2).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/bench-build.sh"
build="${BUILD_DIR:-$root/build-soak}"

bench_build "$root" "$build" massive_soak

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo ' (modified)')"
exec "$build/bench/soak/massive_soak" "$@"
