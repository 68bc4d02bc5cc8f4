#!/usr/bin/env bash
# Hermes' listing and view of a generated home through the Python package
# (bench/README.md "Python package"): skillrt.skills_list() and
# skillrt.skill_view(name), in-process, against the same calls through
# Hermes' own Python when HERMES_AGENT_DIR names a checkout of it.
#
#   bench/python.sh [SKILLS] [RUNS]      default 10000 10
# Environment: HERMES_AGENT_DIR, SKILLRT_BENCH_CACHE, SKILLRT_BENCH_BUILD (default build/release).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/bench/common.sh"
n=${1:-10000}
runs=${2:-10}

bench_build gen_tree skillrt_python
tree=$(bench_tree "$n")
view_name=$(sed -n 's/^view_name=//p' "$tree/manifest.txt")
# A copy of the home's config and a link to its skills: the listing cache and
# the usage book are written into the copy, never into the shared tree.
work=$(mktemp -d "$cache/python.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -a "$tree/home" "$work/home"
ln -s "$tree/ext" "$work/ext"
# Debian's interpreter, the one the module is built for (python/CMakeLists.txt).
PYTHONPATH="$build/python" /usr/bin/python3 "$root/bench/python_bench.py" "$work/home" "$view_name" "$runs"
