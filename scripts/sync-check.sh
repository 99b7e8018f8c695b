#!/usr/bin/env bash
# What a scheduled sync would do with a description, without touching this checkout: in a
# scratch worktree of HEAD, scripts/sync-spec.sh takes the description (and, with --stream, a
# stream description), regenerates, builds everything and runs every test. Prints the tests'
# summary; exits with the sync's status. A full build per description is more than CI affords,
# so this is run by hand (docs/maintainers/codegen.md, "The tests after a sync").
#
#   scripts/sync-check.sh REST.json [--stream STREAM.json]
#
# SYNC_CHECK_DIR: where the worktree goes (default: a fresh directory under /tmp; kept after the
# run only when given, so that a second run reuses its objects through ccache anyway).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

rest=""
stream=""
while [ $# -gt 0 ]; do
  case "$1" in
    --stream) stream="$(realpath "$2")"; shift 2 ;;
    -*) echo "usage: $0 REST.json [--stream STREAM.json]" >&2; exit 2 ;;
    *) rest="$(realpath "$1")"; shift ;;
  esac
done
[ -n "$rest" ] || { echo "usage: $0 REST.json [--stream STREAM.json]" >&2; exit 2; }

dir="${SYNC_CHECK_DIR:-}"
keep=1
if [ -z "$dir" ]; then
  dir="$(mktemp -d /tmp/massive-sync-check.XXXXXX)"
  rmdir "$dir"
  keep=0
fi
git -C "$root" worktree add -q --detach "$dir" HEAD
cleanup() {
  if [ "$keep" = 0 ]; then git -C "$root" worktree remove --force "$dir"; fi
}
trap cleanup EXIT

cd "$dir"
# The tests' input beside this checkout (../shared), wherever the worktree is.
shared="$(realpath "$root/../shared")"
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$dir"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build-sync -G Ninja -DCMAKE_BUILD_TYPE=Release -DMASSIVE_BUILD_CODEGEN=ON -DMASSIVE_BUILD_TESTS=ON \
  -DMASSIVE_SPEC_HISTORY="$shared/spec/history" -DMASSIVE_WIRE_SAMPLES="$shared/wire-samples" \
  -DMASSIVE_SPEC_BASELINE="$shared/spec/massive-openapi.json" "${launcher[@]}" >/dev/null
if [ -n "$stream" ]; then
  scripts/sync-spec.sh "$rest" --no-build
  scripts/sync-spec.sh --stream "$stream"
else
  scripts/sync-spec.sh "$rest"
fi
