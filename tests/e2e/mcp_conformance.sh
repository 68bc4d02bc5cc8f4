#!/usr/bin/env bash
# Real peer: the official MCP conformance suite (@modelcontextprotocol/
# conformance, pinned in tests/tools), `server` mode, against
# `skillrt serve --allow-anonymous` on loopback, once for each revision we
# speak: the 2025-11-25 scenarios over sessions, the 2026-07-28 ones
# stateless, and the Skills extension's on both. Every scenario must have no
# FAILURE check. The scenarios that call the suite's own fixtures (test_*
# tools, test:// resources, test_prompt_* prompts) do not apply to a skills
# server and are not run; in the scenarios we run, the few checks that need
# such a fixture fail as "Not testable: …" and are listed, not counted (only
# the ids in `fixture_checks`). One summary line per scenario; the raw checks
# stay in $E2E_TMP/conformance/ (SKILLRT_E2E_KEEP=1 keeps them) and are
# merged into $E2E_TMP/conformance-results.json.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
require_node_tools

# scenario@revision ("default": the suite's own choice, for the extension).
scenarios=(
  server-initialize@2025-11-25
  server-session-lifecycle@2025-11-25
  ping@2025-11-25
  logging-set-level@2025-11-25
  completion-complete@2025-11-25
  tools-list@2025-11-25
  prompts-list@2025-11-25
  resources-list@2025-11-25
  dns-rebinding-protection@2025-11-25
  server-sse-multiple-streams@2025-11-25
  server-stateless@2026-07-28
  caching@2026-07-28
  http-header-validation@2026-07-28
  completion-complete@2026-07-28
  tools-list@2026-07-28
  prompts-list@2026-07-28
  resources-list@2026-07-28
  sep-2164-resource-not-found@2026-07-28
  dns-rebinding-protection@2026-07-28
  server-sse-multiple-streams@2026-07-28
  sep-2640-skills-enumeration@default
  sep-2640-skills-manifest@default
  sep-2640-skills-directory@default
  sep-2640-skills-enumeration@2026-07-28
  sep-2640-skills-manifest@2026-07-28
  sep-2640-skills-directory@2026-07-28
)
# Checks that exercise the suite's own diagnostic tools (test_missing_capability,
# test_streaming_elicitation, test_logging_tool): "Not testable" against any
# server without them.
fixture_checks='["sep-2575-server-rejects-undeclared-capability","sep-2575-missing-capability-http-400",
  "sep-2575-http-server-no-independent-requests-on-stream","sep-2575-server-no-log-without-loglevel"]'
suite="$NODE_TOOLS/@modelcontextprotocol/conformance/dist/index.js"
[[ -f "$suite" ]] || fail "no conformance suite at $suite"

home=$(make_home)
make_skill "$home/skills/devops/deploy" deploy "Roll out the service to the cluster"
mkdir -p "$home/skills/devops/deploy/references"
printf '# Checklist\n\n- tests are green\n' >"$home/skills/devops/deploy/references/checklist.md"
make_skill "$home/skills/notes/journal" journal "Keep a daily work journal"
make_skill "$home/skills/review" review "Review a change before it merges"
# The directory scenario reads the first listed skill's directory and wants
# a subdirectory in it: every skill here has one.
for dir in notes/journal review; do
  mkdir -p "$home/skills/$dir/references"
  printf '# Notes\n\nSee the main file.\n' >"$home/skills/$dir/references/notes.md"
done

serve_pid=""
stop_serve() {
  [[ -n "$serve_pid" ]] || return 0
  kill -TERM "$serve_pid" 2>/dev/null || true
  local waited=0
  while kill -0 "$serve_pid" 2>/dev/null && (( waited < 100 )); do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -KILL "$serve_pid" 2>/dev/null || true
}
on_exit() {
  local code=$?
  stop_serve
  (exit "$code")
  e2e_cleanup
}
trap on_exit EXIT

"$SKILLRT_BIN" --home "$home" serve --allow-anonymous --listen 127.0.0.1:0 \
  >"$E2E_TMP/serve.out" 2>"$E2E_TMP/serve.err" </dev/null &
serve_pid=$!
url=""
for _ in $(seq 1 200); do
  url=$(sed -n 's#^listening \(http://127\.0\.0\.1:[0-9][0-9]*/mcp\)$#\1#p' "$E2E_TMP/serve.out" | head -n 1)
  [[ -n "$url" ]] && break
  kill -0 "$serve_pid" 2>/dev/null || break
  sleep 0.1
done
if [[ -z "$url" ]]; then
  echo "--- serve stdout:" >&2; cat "$E2E_TMP/serve.out" >&2
  echo "--- serve stderr:" >&2; tail -c 4000 "$E2E_TMP/serve.err" >&2
  fail "skillrt serve printed no 'listening http://127.0.0.1:PORT/mcp' line within 20 s"
fi
port=${url##*127.0.0.1:}
port=${port%%/*}
# The DNS-rebinding scenario needs a localhost URL; it derives the Host it
# expects to be accepted from this one.
target="http://localhost:$port/mcp"

results="$E2E_TMP/conformance"
mkdir -p "$results"
failed=()
for entry in "${scenarios[@]}"; do
  scenario=${entry%@*}
  revision=${entry#*@}
  out="$results/$entry"
  mkdir -p "$out"
  version_args=()
  [[ "$revision" == default ]] || version_args=(--spec-version "$revision" --force)
  code=0
  timeout 120 "$NODE_BIN" "$suite" server --url "$target" --scenario "$scenario" "${version_args[@]}" -o "$out" \
    >"$out/stdout.txt" 2>&1 </dev/null || code=$?
  checks=$(find "$out" -name checks.json -print | head -n 1)
  if [[ -z "$checks" ]]; then
    printf 'conformance %-44s ERROR (suite exit %s, no checks.json)\n' "$entry" "$code"
    tail -n 40 "$out/stdout.txt" | sed 's/^/    /'
    failed+=("$entry")
    continue
  fi
  counts=$(jq -r --argjson fixture "$fixture_checks" '
      def untestable: .status=="FAILURE" and (.id as $id | $fixture | index($id))
                      and ((.errorMessage // "") | startswith("Not testable:"));
      [(map(select(.status=="SUCCESS"))|length), (map(select(.status=="FAILURE" and (untestable|not)))|length),
       (map(select(.status=="WARNING"))|length), (map(select(.status=="INFO"))|length),
       (map(select(untestable))|length)] | @tsv' "$checks")
  read -r n_ok n_fail n_warn n_info n_untestable <<<"$counts"
  verdict=PASS
  (( n_fail == 0 )) || verdict=FAIL
  printf 'conformance %-44s %s (%s success, %s failure, %s warning, %s info, %s need the suite'"'"'s fixtures; suite exit %s)\n' \
    "$entry" "$verdict" "$n_ok" "$n_fail" "$n_warn" "$n_info" "$n_untestable" "$code"
  jq -r '.[] | select(.status=="FAILURE" or .status=="WARNING")
         | "    \(.status) \(.id): \(.errorMessage // .description)"' "$checks"
  if (( n_fail > 0 )); then
    failed+=("$entry")
  elif (( code != 0 && n_untestable == 0 )); then
    # The suite exits 1 exactly when a check failed; anything else is a crash.
    printf '    the suite exited %s with no FAILURE check\n' "$code"
    failed+=("$entry")
  fi
done

# All raw checks in one file, by scenario.
for entry in "${scenarios[@]}"; do
  checks=$(find "$results/$entry" -name checks.json -print | head -n 1)
  if [[ -n "$checks" ]]; then
    jq -c --arg s "$entry" '{scenario: $s, checks: .}' "$checks"
  else
    jq -nc --arg s "$entry" '{scenario: $s, checks: null}'
  fi
done | jq -s . >"$E2E_TMP/conformance-results.json"

# The server must have survived the whole suite and stop cleanly.
kill -0 "$serve_pid" 2>/dev/null || fail "skillrt serve died during the suite (stderr: $(tail -c 2000 "$E2E_TMP/serve.err"))"
kill -TERM "$serve_pid"
serve_code=0
wait "$serve_pid" || serve_code=$?
serve_pid=""
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$E2E_TMP/serve.err"; then
  tail -c 6000 "$E2E_TMP/serve.err" >&2
  fail "a sanitizer reported an error in skillrt serve"
fi
assert_eq 0 "$serve_code" "exit code of skillrt serve after SIGTERM"

(( ${#failed[@]} == 0 )) ||
  fail "conformance scenarios with FAILURE checks: ${failed[*]} (raw results: $E2E_TMP/conformance-results.json)"
echo "conformance: all ${#scenarios[@]} scenarios passed"
