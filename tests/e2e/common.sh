# shellcheck shell=bash
# Shared harness for the end-to-end scripts. Source it first:
#
#   source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
#
# Every script gets strict mode, a private temp dir (removed on exit unless
# SKILLRT_E2E_KEEP=1), an isolated environment (HOME, cwd and the HERMES_*
# variables never point at a real user's files) and these helpers:
#
#   make_home [DIR]                  create a HERMES home with an empty skills/; prints its path
#   make_skill DIR NAME DESC [LINE…] write DIR/SKILL.md (NAME or DESC "" = leave the key out;
#                                    extra frontmatter LINEs are written verbatim)
#   run_skillrt ARGS…                run the binary; sets RUN_OUT, RUN_ERR, RUN_CODE
#   assert_eq EXPECTED ACTUAL [WHAT]
#   assert_contains HAYSTACK NEEDLE [WHAT]     assert_not_contains HAYSTACK NEEDLE [WHAT]
#   assert_exit CODE                 RUN_CODE of the last run_skillrt
#   assert_json_object               RUN_OUT is exactly one JSON object
#   json_get JSON FILTER             jq FILTER applied to JSON; strings raw, the rest compact JSON
#   fail MESSAGE                     fail the test (prints the last run for context)
#   skip MESSAGE                     exit 77: ctest reports the test as skipped
#
# Environment from ctest: SKILLRT_BIN, SKILLRT_SOURCE_DIR, SKILLRT_CORPUS_DIR.
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true

E2E_NAME=$(basename "${BASH_SOURCE[1]:-$0}" .sh)

fail() {
  {
    echo "FAIL [$E2E_NAME]: $*"
    if [[ -n "${RUN_CMD:-}" ]]; then
      echo "--- last command: $RUN_CMD"
      echo "--- exit code: ${RUN_CODE:-?}"
      echo "--- stdout:"
      printf '%s\n' "${RUN_OUT:-}" | head -c 8000
      echo "--- stderr:"
      printf '%s\n' "${RUN_ERR:-}" | head -c 8000
    fi
  } >&2
  exit 1
}

skip() {
  echo "SKIP [$E2E_NAME]: $*" >&2
  exit 77
}

[[ -n "${SKILLRT_BIN:-}" ]] || fail "SKILLRT_BIN is not set (run through ctest, or export it)"
[[ -x "$SKILLRT_BIN" ]] || fail "SKILLRT_BIN is not an executable: $SKILLRT_BIN"
command -v jq >/dev/null 2>&1 || fail "jq is required (scripts/bootstrap --test installs it)"

E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/skillrt-e2e.${E2E_NAME}.XXXXXX")
e2e_cleanup() {
  local code=$?
  if [[ "${SKILLRT_E2E_KEEP:-0}" == 1 ]]; then
    echo "kept temp dir: $E2E_TMP" >&2
  else
    # Tests may drop permissions on purpose; restore them so rm can work.
    chmod -R u+rwX "$E2E_TMP" 2>/dev/null || true
    rm -rf "$E2E_TMP"
  fi
  exit "$code"
}
trap e2e_cleanup EXIT

# Isolation: nothing below may read or write the real user's Hermes files, and
# the cwd is not inside the repository (whose .git would make it a project root).
export HOME="$E2E_TMP/user-home"
mkdir -p "$HOME" "$E2E_TMP/cwd"
cd "$E2E_TMP/cwd"
unset HERMES_HOME HERMES_PLATFORM HERMES_SESSION_PLATFORM TERMINAL_CWD \
  HERMES_KANBAN_TASK HERMES_KANBAN_BOARD
export NO_COLOR=1 LC_ALL=C.UTF-8 TZ=UTC
# A new home is seeded with the bundled skills before any command runs; tests
# start from the homes they build. The seeding tests unset this.
export SKILLRT_NO_BUNDLED_SEED=1
unset SKILLRT_BUNDLED_DIR
# Under ASan/UBSan a sanitizer report exits 86 (never a plausible skillrt code).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:exitcode=86:handle_sigill=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=86}

E2E_HOME_COUNT=0
make_home() {
  local dir=${1:-}
  if [[ -z "$dir" ]]; then
    E2E_HOME_COUNT=$((E2E_HOME_COUNT + 1))
    dir="$E2E_TMP/home$E2E_HOME_COUNT-$RANDOM"
  fi
  mkdir -p "$dir/skills"
  printf '%s\n' "$dir"
}

# Double-quoted YAML scalar: escapes backslash and double quote.
yaml_quote() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$s"
}

make_skill() {
  (( $# >= 3 )) || fail "make_skill DIR NAME DESC [frontmatter lines...]"
  local dir=$1 name=$2 desc=$3
  shift 3
  mkdir -p "$dir"
  {
    echo "---"
    [[ -z "$name" ]] || echo "name: $(yaml_quote "$name")"
    [[ -z "$desc" ]] || echo "description: $(yaml_quote "$desc")"
    local line
    for line in "$@"; do
      printf '%s\n' "$line"
    done
    echo "---"
    echo
    echo "# ${name:-$(basename "$dir")}"
    echo
    echo "Steps for the end-to-end test skill."
  } >"$dir/SKILL.md"
}

RUN_CMD="" RUN_OUT="" RUN_ERR="" RUN_CODE=""
run_skillrt() {
  local out="$E2E_TMP/.run.out" err="$E2E_TMP/.run.err"
  RUN_CMD="skillrt $*"
  RUN_CODE=0
  timeout 60 "$SKILLRT_BIN" "$@" >"$out" 2>"$err" </dev/null || RUN_CODE=$?
  RUN_OUT=$(cat "$out")
  RUN_ERR=$(cat "$err")
  if [[ $RUN_CODE == 124 ]]; then
    fail "skillrt did not finish within 60 s"
  fi
  if [[ $RUN_CODE == 86 || $RUN_CODE -ge 128 ]] ||
     grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$err"; then
    fail "skillrt crashed or a sanitizer reported an error"
  fi
}

assert_eq() {
  local expected=$1 actual=$2 what=${3:-value}
  [[ "$expected" == "$actual" ]] || fail "$what: expected [$expected], got [$actual]"
}

assert_contains() {
  local haystack=$1 needle=$2 what=${3:-output}
  [[ "$haystack" == *"$needle"* ]] || fail "$what does not contain [$needle]"
}

assert_not_contains() {
  local haystack=$1 needle=$2 what=${3:-output}
  [[ "$haystack" != *"$needle"* ]] || fail "$what contains [$needle]"
}

assert_exit() {
  local expected=$1
  [[ "$RUN_CODE" == "$expected" ]] || fail "exit code: expected $expected, got $RUN_CODE"
}

assert_json_object() {
  local kinds
  kinds=$(printf '%s' "$RUN_OUT" | jq -s -c 'map(type)' 2>/dev/null) ||
    fail "stdout is not valid JSON"
  assert_eq '["object"]' "$kinds" "JSON values on stdout"
}

json_get() {
  local json=$1 filter=$2
  printf '%s' "$json" | jq -r -c "$filter" ||
    fail "jq filter [$filter] failed on: ${json:0:400}"
}

# start_serve HOME [SERVE ARGS...]: starts `skillrt --home HOME serve --listen
# 127.0.0.1:0 ARGS...` in the background, waits for its listening line and sets
# SERVE_PID and SERVE_URL (http://127.0.0.1:PORT/mcp). On exit the server gets
# SIGTERM before the shared cleanup runs, keeping the script's exit code.
start_serve() {
  local home=$1
  shift
  local out="$E2E_TMP/serve.out" err="$E2E_TMP/serve.err"
  "$SKILLRT_BIN" --home "$home" serve --listen 127.0.0.1:0 "$@" >"$out" 2>"$err" </dev/null &
  SERVE_PID=$!
  trap stop_serve EXIT
  for _ in $(seq 1 100); do
    [[ -s "$out" ]] && break
    kill -0 "$SERVE_PID" 2>/dev/null || fail "serve exited early: $(cat "$err")"
    sleep 0.1
  done
  [[ "$(cat "$out")" =~ ^listening\ http://127\.0\.0\.1:([0-9]+)/mcp$ ]] || fail "listening line: [$(cat "$out")]"
  SERVE_URL="http://127.0.0.1:${BASH_REMATCH[1]}/mcp"
}
stop_serve() {
  local rc=$?
  kill -TERM "$SERVE_PID" 2>/dev/null || true
  wait "$SERVE_PID" 2>/dev/null || true
  set +e
  (exit "$rc")
  e2e_cleanup
}

# mcp_post BODY [CURL ARGS...]: POSTs one JSON-RPC message to $SERVE_URL as an
# MCP client does; sets STATUS, BODY and HEADERS (CRs stripped).
mcp_post() {
  local body=$1
  shift
  STATUS=$(curl -sS -D "$E2E_TMP/headers" -o "$E2E_TMP/body" -w '%{http_code}' -X POST "$SERVE_URL" \
    -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' "$@" --data-binary "$body")
  BODY=$(cat "$E2E_TMP/body")
  HEADERS=$(tr -d '\r' <"$E2E_TMP/headers")
}
