#!/usr/bin/env bash
# `token create|list|revoke` against PostgreSQL (`--db postgres://…`): the same
# JSON as on SQLite, and the table holds a salted hash, not the secret. Needs
# the test cluster (SKILLRT_TEST_PG_URL); skipped without it unless
# SKILLRT_REQUIRE_PG=1.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [[ -z "${SKILLRT_TEST_PG_URL:-}" ]]; then
  [[ "${SKILLRT_REQUIRE_PG:-0}" == 1 ]] && fail "SKILLRT_REQUIRE_PG=1 but SKILLRT_TEST_PG_URL is unset"
  skip "PostgreSQL test cluster not running (SKILLRT_TEST_PG_URL unset)"
fi
url=$SKILLRT_TEST_PG_URL
home=$(make_home)
# The cluster's database is shared by every test: users unique to this run keep it apart.
run_id="e2e-$$-$RANDOM"
alice="alice-$run_id"

run_skillrt --home "$home" --user "$alice" --org acme --db "$url" --json token create --label ci
assert_exit 0
assert_json_object
assert_eq '["success","token","bearer"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "create keys"
id=$(json_get "$RUN_OUT" '.token.id')
bearer=$(json_get "$RUN_OUT" '.bearer')
[[ "$bearer" =~ ^skrt_${id}_[A-Za-z0-9_-]{43}$ ]] || fail "bearer shape: $bearer"
[[ "$(json_get "$RUN_OUT" '.token.created_at')" =~ ^20[0-9-]{8}T[0-9:.]{12}Z$ ]] || fail "created_at format"
[[ ! -e "$home/skillrt.db" ]] || fail "an SQLite file was created although --db names PostgreSQL"

run_skillrt --home "$home" --user "$alice" --db "$url" --json token list
assert_exit 0
assert_eq "[\"$id\"]" "$(json_get "$RUN_OUT" '[.tokens[].id]')" "alice's tokens"
assert_not_contains "$RUN_OUT" "${bearer:18}" "no secret in list"

if command -v psql >/dev/null 2>&1 || [[ -x /usr/lib/postgresql/15/bin/psql ]]; then
  psql_bin=$(command -v psql || echo /usr/lib/postgresql/15/bin/psql)
  stored=$("$psql_bin" "$url" -Atc "SELECT salt || ' ' || secret_hash FROM api_tokens WHERE id = '$id'")
  [[ "$stored" =~ ^[0-9a-f]{32}\ [0-9a-f]{64}$ ]] || fail "salt and hash shape: $stored"
  assert_not_contains "$stored" "${bearer:18}" "the secret is not stored"
fi

run_skillrt --home "$home" --db "$url" --json token revoke "$id"
assert_exit 0
[[ "$(json_get "$RUN_OUT" '.token.revoked_at')" =~ ^20 ]] || fail "revoked_at"
run_skillrt --home "$home" --db "$url" --json token revoke "$id"
assert_exit 0
run_skillrt --home "$home" --db "$url" --json token revoke zzzzzzzzzzzz
assert_exit 1
assert_eq not_found "$(json_get "$RUN_OUT" '.code')" "unknown id"
