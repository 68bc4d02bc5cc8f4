#!/usr/bin/env bash
# The progress line: drawn with \r on stderr when stderr is a terminal (run
# under script(1) for a pty), cleared at the end; never in --json mode and
# never when stderr is not a terminal.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
command -v script >/dev/null 2>&1 || skip "script(1) is not installed"

src="$E2E_TMP/src/demo"
make_skill "$src" demo "Progress demo"

home=$(make_home)
script -qec "'$SKILLRT_BIN' --home '$home' install '$src'" /dev/null >"$E2E_TMP/tty.out" </dev/null ||
  fail "install under a pty failed: $(cat "$E2E_TMP/tty.out")"
grep -q $'\rscan 0/1' "$E2E_TMP/tty.out" || fail "no progress line on a terminal"
grep -q $'\rinstall 1/1' "$E2E_TMP/tty.out" || fail "no install progress on a terminal"

home=$(make_home)
script -qec "'$SKILLRT_BIN' --home '$home' --json install '$src'" /dev/null >"$E2E_TMP/json.out" </dev/null ||
  fail "--json install under a pty failed"
if grep -q $'\r[a-z]* [0-9]' "$E2E_TMP/json.out"; then
  fail "a progress line was drawn in --json mode"
fi

home=$(make_home)
run_skillrt --home "$home" install "$src"
assert_exit 0
assert_not_contains "$RUN_ERR" $'\r' "stderr without a terminal"
