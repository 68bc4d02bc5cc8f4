#!/usr/bin/env bash
# `skillrt setup NAME`: supplies a skill's declared environment variables
# (--set-from-file, --from-env, and asked on a terminal with echo off), stores
# them in the .env readiness reads (HOME/.env, or the user's own with --user)
# with mode 0600, never prints a value, and `view` then reports `available`.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/weather" weather "Look the weather up" \
  "required_environment_variables:" \
  "  - name: WEATHER_KEY" \
  "    prompt: Your weather API key" \
  "    help: https://weather.example/keys" \
  "  - name: WEATHER_REGION" \
  "  - name: WEATHER_DEBUG" \
  "    optional: true"
printf '# my own settings\nUNRELATED=keep-me\n' >"$home/.env"
chmod 644 "$home/.env"
secret='k3y-AbC#1 with spaces'
printf '%s\n' "$secret" >"$E2E_TMP/key.txt"

run_skillrt --home "$home" --json view weather
assert_eq setup_needed "$(json_get "$RUN_OUT" '.readiness_status')" "readiness before setup"

# A variable the skill does not declare is refused; nothing is written.
run_skillrt --home "$home" --json setup weather --set-from-file NOT_DECLARED="$E2E_TMP/key.txt"
assert_exit 1
assert_json_object
assert_contains "$(json_get "$RUN_OUT" '.error')" "NOT_DECLARED is not a variable weather declares"
assert_eq "# my own settings
UNRELATED=keep-me" "$(cat "$home/.env")" ".env after a refused setup"

# From a file: stored, the value never shown.
run_skillrt --home "$home" --json setup weather --set-from-file WEATHER_KEY="$E2E_TMP/key.txt"
assert_exit 0
assert_json_object
assert_eq '["WEATHER_KEY"]' "$(json_get "$RUN_OUT" '.stored')" "stored"
assert_eq '["WEATHER_REGION"]' "$(json_get "$RUN_OUT" '.missing_required_environment_variables')" "still missing"
assert_eq setup_needed "$(json_get "$RUN_OUT" '.readiness_status')" "readiness with one left"
assert_not_contains "$RUN_OUT$RUN_ERR" "k3y-AbC" "setup output"
[[ "$(stat -c %a "$home/.env")" == 600 ]] || fail ".env is not 0600 after setup"
assert_contains "$(cat "$home/.env")" "UNRELATED=keep-me" ".env keeps other lines"

# From the environment: the text form reports, again without the value.
RUN_CODE=0
out=$(cd "$E2E_TMP" && WEATHER_REGION=eu-north timeout 60 "$SKILLRT_BIN" --home "$home" setup weather --from-env 2>&1) ||
  RUN_CODE=$?
assert_exit 0
assert_contains "$out" "stored WEATHER_REGION in $home/.env"
assert_contains "$out" "weather: available"
assert_not_contains "$out" "eu-north" "setup text output"
assert_not_contains "$out" "k3y-AbC" "setup text output"

# view, with neither variable in the environment, reads them from .env.
run_skillrt --home "$home" --json view weather
assert_eq available "$(json_get "$RUN_OUT" '.readiness_status')" "readiness after setup"
assert_not_contains "$RUN_OUT" "k3y-AbC" "view output"

# Per user: alice's secrets go to her own .env; the shared one is untouched
# and bob still needs setup.
home2=$(make_home)
cp -r "$home/skills/weather" "$home2/skills/"
printf 'eu\n' >"$E2E_TMP/region.txt"
run_skillrt --home "$home2" --user alice --json setup weather --set-from-file WEATHER_KEY="$E2E_TMP/key.txt" \
  --set-from-file WEATHER_REGION="$E2E_TMP/region.txt"
assert_exit 0
assert_eq "$home2/users/alice/.env" "$(json_get "$RUN_OUT" '.file')" "alice's file"
assert_eq available "$(json_get "$RUN_OUT" '.readiness_status')" "alice ready"
[[ ! -e "$home2/.env" ]] || fail "a user's setup wrote HOME/.env"
[[ "$(stat -c %a "$home2/users/alice/.env")" == 600 ]] || fail "alice's .env is not 0600"
run_skillrt --home "$home2" --user bob --json view weather
assert_eq setup_needed "$(json_get "$RUN_OUT" '.readiness_status')" "bob does not get alice's secrets"

# A symlink in place of a user's .env is refused.
mkdir -p "$home2/users/carol"
ln -s "$E2E_TMP/elsewhere.env" "$home2/users/carol/.env"
run_skillrt --home "$home2" --user carol --json setup weather --set-from-file WEATHER_KEY="$E2E_TMP/key.txt"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "is a symlink"
[[ ! -e "$E2E_TMP/elsewhere.env" ]] || fail "setup wrote through a symlink"

# A value .env cannot hold is refused, named by its variable only.
printf 'one\ntwo\n' >"$E2E_TMP/two-lines.txt"
run_skillrt --home "$home2" --user alice --json setup weather --set-from-file WEATHER_REGION="$E2E_TMP/two-lines.txt"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "WEATHER_REGION holds a line break"

# Bad usage: not VAR=FILE; no terminal and nothing to take the values from.
run_skillrt --home "$home2" --user dave --json setup weather --set-from-file WEATHER_KEY
assert_exit 2
run_skillrt --home "$home2" --user dave --json setup weather
assert_exit 2
assert_contains "$(json_get "$RUN_OUT" '.error')" "standard input is not a terminal"
run_skillrt --home "$home2" --json setup no-such-skill --from-env
assert_exit 1

# On a terminal: asked with the prompt and help URL, echo off. script(1)
# gives the command a pseudo-terminal; what it shows must not hold the value.
if command -v script >/dev/null 2>&1; then
  home3=$(make_home)
  cp -r "$home/skills/weather" "$home3/skills/"
  typed=$( { sleep 1; printf 'typed-secret-1\n'; sleep 0.5; printf 'typed-region\n'; sleep 1; } |
    timeout 30 script -qec "$SKILLRT_BIN --home $home3 setup weather" /dev/null 2>&1) ||
    fail "setup on a terminal failed: $typed"
  assert_contains "$typed" "Your weather API key (https://weather.example/keys): "
  assert_contains "$typed" "Enter value for WEATHER_REGION: "
  assert_contains "$typed" "weather: available"
  assert_not_contains "$typed" "typed-secret-1" "the terminal"
  assert_not_contains "$typed" "typed-region" "the terminal"
  run_skillrt --home "$home3" --json view weather
  assert_eq available "$(json_get "$RUN_OUT" '.readiness_status')" "readiness after a terminal setup"
  assert_contains "$(cat "$home3/.env")" "WEATHER_KEY='typed-secret-1'"
else
  echo "note: script(1) is missing; the terminal path was not exercised" >&2
fi
echo "PASS setup_secrets"
