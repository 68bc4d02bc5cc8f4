#!/usr/bin/env bash
# `token create|list|revoke` on the embedded SQLite store: the bearer is shown
# once (create) and never again (list, revoke, the database file); --user and
# --org are both required to create; JSON shapes and exit codes.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)

# Both ids are required, before the database is touched.
run_skillrt --home "$home" token create
assert_exit 2
assert_contains "$RUN_ERR" "--user U and --org O"
run_skillrt --home "$home" --user alice --json token create
assert_exit 2
assert_json_object
assert_eq true "$(json_get "$RUN_OUT" '.usage')" "usage flag"
run_skillrt --home "$home" --org acme token create
assert_exit 2
[[ ! -e "$home/skillrt.db" ]] || fail "a refused create touched the database"
run_skillrt --home "$home" --user ../etc --org acme token create
assert_exit 2

run_skillrt --home "$home" --user alice --org acme --json token create --label "alice's laptop"
assert_exit 0
assert_json_object
assert_eq '["success","token","bearer"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "create keys"
assert_eq '["id","user_id","org_id","label","created_at"]' "$(json_get "$RUN_OUT" '.token | keys_unsorted')" "token keys"
alice_id=$(json_get "$RUN_OUT" '.token.id')
alice_bearer=$(json_get "$RUN_OUT" '.bearer')
assert_eq alice "$(json_get "$RUN_OUT" '.token.user_id')" "user"
assert_eq acme "$(json_get "$RUN_OUT" '.token.org_id')" "org"
assert_eq "alice's laptop" "$(json_get "$RUN_OUT" '.token.label')" "label"
[[ "$alice_bearer" =~ ^skrt_${alice_id}_[A-Za-z0-9_-]{43}$ ]] || fail "bearer shape: $alice_bearer"
alice_secret=${alice_bearer:18}  # after "skrt_" + 12-char id + "_" (the secret may hold "_")
[[ "$(stat -c %a "$home/skillrt.db")" == 600 ]] || fail "skillrt.db is not owner-only"

# Text mode: only the bearer on stdout, so $(…) captures it; the note goes to stderr.
run_skillrt --home "$home" --user bob --org globex token create
assert_exit 0
[[ "$RUN_OUT" =~ ^skrt_[a-z2-7]{12}_[A-Za-z0-9_-]{43}$ ]] || fail "text create prints only the bearer"
assert_contains "$RUN_ERR" "shown only this once"
bob_bearer=$RUN_OUT

# list: everyone's, newest first, never a secret.
run_skillrt --home "$home" --json token list
assert_exit 0
assert_json_object
assert_eq 2 "$(json_get "$RUN_OUT" '.count')" "count"
assert_eq '["bob","alice"]' "$(json_get "$RUN_OUT" '[.tokens[].user_id]')" "newest first"
assert_eq '["id","user_id","org_id","label","created_at","last_used_at","revoked_at"]' \
  "$(json_get "$RUN_OUT" '.tokens[0] | keys_unsorted')" "list keys"
assert_eq null "$(json_get "$RUN_OUT" '.tokens[1].revoked_at')" "not revoked"
assert_not_contains "$RUN_OUT" "$alice_secret" "list shows no secret"
assert_not_contains "$RUN_OUT" "${bob_bearer:18}" "list shows no secret"

# --user narrows the list.
run_skillrt --home "$home" --user alice --json token list
assert_eq '["alice"]' "$(json_get "$RUN_OUT" '[.tokens[].user_id]')" "only alice's"
run_skillrt --home "$home" --user alice token list
assert_exit 0
assert_contains "$RUN_OUT" "$alice_id"
assert_contains "$RUN_OUT" "alice's laptop"
assert_not_contains "$RUN_OUT" "$alice_secret"
run_skillrt --home "$home" --user carol token list
assert_contains "$RUN_OUT" "No API tokens for user carol."

# revoke
run_skillrt --home "$home" --json token revoke "$alice_id"
assert_exit 0
assert_json_object
assert_eq "$alice_id" "$(json_get "$RUN_OUT" '.token.id')" "revoked id"
[[ "$(json_get "$RUN_OUT" '.token.revoked_at')" =~ ^20[0-9-]{8}T ]] || fail "revoked_at set"
run_skillrt --home "$home" token revoke "$alice_id"
assert_exit 0
assert_contains "$RUN_OUT" "revoked"
run_skillrt --home "$home" --json token revoke aaaaaaaaaaaa
assert_exit 1
assert_json_object
assert_eq not_found "$(json_get "$RUN_OUT" '.code')" "unknown id"
run_skillrt --home "$home" token revoke $'bad\nid'
assert_exit 1
run_skillrt --home "$home" token revoke
assert_exit 2
run_skillrt --home "$home" --json token list
assert_eq 1 "$(json_get "$RUN_OUT" '[.tokens[] | select(.revoked_at != null)] | length')" "one revoked"

# The database file holds neither secret, nor a bearer (WAL included).
for secret in "$alice_secret" "${bob_bearer:18}"; do
  for file in "$home"/skillrt.db*; do
    if grep -aqF -- "$secret" "$file"; then
      fail "the secret is stored in $(basename "$file")"
    fi
  done
done

# A label with a control character is refused (operation failure, exit 1).
run_skillrt --home "$home" --user alice --org acme --json token create --label $'two\nlines'
assert_exit 1
assert_eq invalid_argument "$(json_get "$RUN_OUT" '.code')" "bad label"
