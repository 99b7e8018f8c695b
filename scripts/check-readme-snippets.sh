#!/usr/bin/env bash
# The README's C++ snippets are copied from the samples, which CI builds and runs, so a snippet
# that no longer compiles or behaves fails the suite instead of rotting. This check holds the
# copies to their sources: every ```cpp block of the README must start with a line
#   // from samples/<name>/main.cpp
# and the rest of the block must appear in that file as consecutive lines, verbatim except for
# one indentation common to the whole block (a snippet may be cut out of a function body).
# A ```sh block that starts with `# from <file>` (the command-line examples, from
# tests/cli/readme_examples.sh, which CI runs) is held to its file the same way; other ```sh
# blocks are not checked. Seen failing with `--x` added to the README's `massive stocks --help`:
# "1 of 14 README snippets fail the check".
#
# Usage: check-readme-snippets.sh [README] (paths in markers are relative to the README's
# directory). Exits 1 listing every block that is unmarked or not found.
set -euo pipefail
readme=${1:-"$(dirname "$0")/../README.md"}
root=$(cd "$(dirname "$readme")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Splits the README's cpp and sh blocks into $work/<n>.snippet, with $work/<n>.line (where it
# starts) and $work/<n>.lang.
awk -v dir="$work" '
  /^```(cpp|sh)[ \t]*$/ { n++; inside = 1; print NR > (dir "/" n ".line"); close(dir "/" n ".line");
                          lang = $0; sub(/^```/, "", lang); sub(/[ \t]*$/, "", lang);
                          print lang > (dir "/" n ".lang"); close(dir "/" n ".lang");
                          printf "" > (dir "/" n ".snippet"); next }
  /^```/ && inside { inside = 0; close(dir "/" n ".snippet"); next }
  inside { print > (dir "/" n ".snippet") }
' "$readme"

name=$(basename "$readme")
failures=0
unchecked=0  # sh blocks without a marker
blocks=$(find "$work" -name '*.snippet' | wc -l)
for ((n = 1; n <= blocks; n++)); do
  snippet="$work/$n.snippet"
  line=$(cat "${snippet%.snippet}.line")
  marker=$(head -n 1 "$snippet")
  if [ "$(cat "${snippet%.snippet}.lang")" = sh ]; then
    source=$(sed -n 's|^# from \([^ ]*\)[ \t]*$|\1|p' <<<"$marker")
    [ -n "$source" ] || { unchecked=$((unchecked + 1)); continue; }
  else
    source=$(sed -n 's|^// from \([^ ]*\)[ \t]*$|\1|p' <<<"$marker")
  fi
  if [ -z "$source" ]; then
    echo "$name:$line: cpp block without a '// from <file>' first line" >&2
    failures=$((failures + 1))
    continue
  fi
  if [ ! -f "$root/$source" ]; then
    echo "$name:$line: $source does not exist" >&2
    failures=$((failures + 1))
    continue
  fi
  tail -n +2 "$snippet" > "$work/body"
  if [ ! -s "$work/body" ]; then
    echo "$name:$line: the block from $source is empty" >&2
    failures=$((failures + 1))
    continue
  fi
  # Found when, at some line of the source, every snippet line equals the source line with a
  # common indentation removed (blank lines match blank lines).
  if ! awk '
      NR == FNR { want[++n] = $0; next }
      { have[++m] = $0 }
      END {
        for (i = 1; i + n - 1 <= m; i++) {
          first = have[i]
          if (length(first) < length(want[1])) continue
          indent = substr(first, 1, length(first) - length(want[1]))
          if (indent !~ /^[ \t]*$/ || indent want[1] != first) continue
          ok = 1
          for (j = 2; j <= n && ok; j++) {
            if (want[j] ~ /^[ \t]*$/) ok = have[i + j - 1] ~ /^[ \t]*$/
            else ok = have[i + j - 1] == indent want[j]
          }
          if (ok) exit 0
        }
        exit 1
      }' "$work/body" "$root/$source"; then
    echo "$name:$line: this block is not (any longer) a verbatim excerpt of $source:" >&2
    sed 's/^/    /' "$work/body" >&2
    failures=$((failures + 1))
  fi
done

if [ "$blocks" -eq 0 ]; then
  echo "no code blocks found in $readme" >&2
  exit 1
fi
if [ "$failures" -gt 0 ]; then
  echo "$failures of $((blocks - unchecked)) README snippets fail the check" >&2
  exit 1
fi
echo "all $((blocks - unchecked)) README snippets are verbatim excerpts of their sources"
