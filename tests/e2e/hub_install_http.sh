#!/usr/bin/env bash
# install over HTTP from the local fixture server (loopback http is allowed
# for tests): a .tar.gz bundle and a single SKILL.md.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
[[ -n "${SKILLRT_HTTP_FIXTURE:-}" ]] || skip "SKILLRT_HTTP_FIXTURE is not set"

home=$(make_home)
served="$E2E_TMP/served"
mkdir -p "$served" "$E2E_TMP/pack"
make_skill "$E2E_TMP/pack/webskill" webskill "Skill over HTTP"
tar czf "$served/bundle.tar.gz" -C "$E2E_TMP/pack" webskill
make_skill "$served/single" single "A single SKILL.md"

"$SKILLRT_HTTP_FIXTURE" "$served" --until-signal >"$E2E_TMP/port" &
server=$!
trap 'kill "$server" 2>/dev/null || true; e2e_cleanup' EXIT
for _ in $(seq 1 100); do
  [[ -s "$E2E_TMP/port" ]] && break
  sleep 0.05
done
port=$(head -n1 "$E2E_TMP/port")
[[ "$port" =~ ^[0-9]+$ ]] || fail "the fixture server printed no port"

run_skillrt --home "$home" --json install "http://127.0.0.1:$port/bundle.tar.gz"
assert_exit 0
assert_json_object
assert_eq webskill "$(json_get "$RUN_OUT" '.skills[0].name')"
assert_eq url "$(jq -r '.installed.webskill.source' "$home/skills/.hub/lock.json")"
[[ -f "$home/skills/webskill/SKILL.md" ]] || fail "skill not placed"

run_skillrt --home "$home" --json install "http://127.0.0.1:$port/single/SKILL.md"
assert_exit 0
assert_eq single "$(json_get "$RUN_OUT" '.skills[0].name')"
[[ -f "$home/skills/single/SKILL.md" ]] || fail "single SKILL.md not placed"

run_skillrt --home "$home" --json check
assert_exit 0
assert_eq '["up_to_date","up_to_date"]' "$(json_get "$RUN_OUT" '[.skills[].status]')" "check over http"

run_skillrt --home "$home" --json install "http://127.0.0.1:$port/missing.tar.gz"
assert_exit 1
assert_json_object
