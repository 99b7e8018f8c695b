#!/usr/bin/env bash
# What the build costs (issue 17's targets), measured from the build's own .ninja_log in a
# fresh build directory with no compiler cache:
#   1. the quickstart: configure + build of the `quickstart` target, its compile count, and
#      the sample's run (the first row) against the embedded mock;
#   2. massive::core alone; in another directory massive::sdk (the core, every group and the
#      stream: what a program links) in one build, then massive::reflection, which only the
#      CLI and the tests link;
#   3. a user's file that includes <massive/stocks.hpp> and calls one endpoint, the same
#      with <massive/all.hpp>, and the floor under both: an Asio coroutine with no SDK header
#      (g++ -std=c++20 -O2, the median of 3).
# Usage: scripts/build-times.sh [work dir, default /tmp/massive-build-times]. About 7 minutes
# on 2 cores. Prints one line per figure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-/tmp/massive-build-times}"
jobs=$(nproc)
rm -rf "$work"
mkdir -p "$work"
export CCACHE_DISABLE=1  # a cache would measure nothing

# Sum of the compile and link steps of a .ninja_log whose outputs match a pattern, in seconds
# of compiler time (wall time on `jobs` cores is about this over `jobs`).
steps() {
  python3 - "$1" "$2" <<'PY'
import re, sys
log, pattern = sys.argv[1], re.compile(sys.argv[2])
total, count = 0, 0
for line in open(log):
    if line.startswith('#'):
        continue
    start, end, _, output, _ = line.rstrip('\n').split('\t')
    if pattern.search(output):
        total += int(end) - int(start)
        count += output.endswith('.o')
print(f"{total / 1000:.1f} s of compiler time, {count} compiled files")
PY
}

cd "$work"
begin=$(date +%s.%N)
cmake -S "$root" -B quickstart -G Ninja -DCMAKE_BUILD_TYPE=Release -DMASSIVE_BUILD_TESTS=OFF \
  -DMASSIVE_BUILD_SAMPLES=ON -DMASSIVE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build quickstart -j "$jobs" --target quickstart >/dev/null
MASSIVE_API_KEY= quickstart/samples/quickstart >/dev/null
end=$(date +%s.%N)
echo "quickstart: configure + build + first row $(python3 -c "print(f'{$end - $begin:.0f}')") s wall;" \
     "$(steps quickstart/.ninja_log '\.o$')"

# The core alone, then every library of massive::sdk in one build of a fresh directory (as a
# user's build would run them, the core's files beside the groups'), then massive::reflection.
for dir in core library; do
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMASSIVE_BUILD_TESTS=OFF \
    -DMASSIVE_BUILD_SAMPLES=OFF -DMASSIVE_BUILD_BENCHMARKS=OFF -DMASSIVE_BUILD_CLI=OFF >/dev/null
done
begin=$(date +%s.%N)
cmake --build core -j "$jobs" --target massive_core >/dev/null
end=$(date +%s.%N)
echo "massive::core: $(python3 -c "print(f'{$end - $begin:.0f}')") s wall; $(steps core/.ninja_log 'massive_core')"
begin=$(date +%s.%N)
# massive::sdk is an INTERFACE target (nothing of its own to build): build what it links.
groups=$(sed -n 's/^set(MASSIVE_GROUPS \(.*\))$/\1/p' "$root/generated/libraries.cmake")
# shellcheck disable=SC2086
cmake --build library -j "$jobs" --target massive_stream $(printf 'massive_%s ' $groups) >/dev/null
end=$(date +%s.%N)
echo "massive::sdk (the core, every group, shared models, stream): $(python3 -c "print(f'{$end - $begin:.0f}')") s wall;" \
     "$(steps library/.ninja_log '^sdk/')"
begin=$(date +%s.%N)
cmake --build library -j "$jobs" --target massive_reflection >/dev/null
end=$(date +%s.%N)
echo "massive::reflection on top (the CLI's and tests' tables, no user program's): $(python3 -c "print(f'{$end - $begin:.0f}')") s wall;" \
     "$(steps library/.ninja_log 'massive_reflection')"

# The floor any such file stands on: the smallest Asio coroutine a service would write.
cat > asio_floor.cpp <<'CPP'
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
boost::asio::awaitable<void> tick(boost::asio::steady_timer& timer) {
  co_await timer.async_wait(boost::asio::use_awaitable);
}
CPP
for header in stocks all asio_floor; do
  if [ "$header" != asio_floor ]; then
    sed "s|<massive/stocks.hpp>|<massive/$header.hpp>|" "$root/tests/package/consumer/one_endpoint.cpp" > "$header.cpp"
  fi
  times=()
  for _ in 1 2 3; do
    begin=$(date +%s.%N)
    g++ -std=c++20 -O2 -I"$root/sdk/include" -I"$root/generated/include" -c "$header.cpp" -o "$header.o"
    end=$(date +%s.%N)
    times+=("$(python3 -c "print(f'{$end - $begin:.2f}')")")
  done
  what="a file including <massive/$header.hpp>, one endpoint"
  [ "$header" = asio_floor ] && what="the floor: an Asio coroutine awaiting a steady_timer, no SDK header"
  echo "$what: $(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p) s (runs: ${times[*]})"
done
