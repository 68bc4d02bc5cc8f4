#!/usr/bin/env bash
# The db commands against PostgreSQL (`--db postgres://…`): the same JSON and
# exit codes as on SQLite, rows isolated per user. Needs the test cluster
# (SKILLRT_TEST_PG_URL, started by scripts/test); skipped without it unless
# SKILLRT_REQUIRE_PG=1.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [[ -z "${SKILLRT_TEST_PG_URL:-}" ]]; then
  [[ "${SKILLRT_REQUIRE_PG:-0}" == 1 ]] && fail "SKILLRT_REQUIRE_PG=1 but SKILLRT_TEST_PG_URL is unset"
  skip "PostgreSQL test cluster not running (SKILLRT_TEST_PG_URL unset)"
fi
url=$SKILLRT_TEST_PG_URL
home=$(make_home)
# The cluster is shared by every test: users unique to this run keep it apart.
run_id="e2e-$$-$RANDOM"
alice="alice-$run_id" bob="bob-$run_id"
md="$E2E_TMP/pgskill.md"
printf -- '---\nname: pgskill\ndescription: Stored in PostgreSQL\n---\nBody about pelicans.\n' >"$md"

run_skillrt --home "$home" --user "$alice" --db "$url" --json db create pgskill --content "$md"
assert_exit 0
assert_json_object
assert_eq postgres "$(json_get "$RUN_OUT" '.backend')" "backend"
assert_eq "Stored in PostgreSQL" "$(json_get "$RUN_OUT" '.skill.description')" "description"
assert_eq 1 "$(json_get "$RUN_OUT" '.skill.version')" "version"
[[ ! -e "$home/skillrt.db" ]] || fail "an SQLite file was created although --db names PostgreSQL"

run_skillrt --home "$home" --user "$alice" --db "$url" --json db create pgskill --content "$md"
assert_exit 1
assert_eq refused "$(json_get "$RUN_OUT" '.code')" "duplicate"

run_skillrt --home "$home" --user "$alice" --db "$url" --json db update pgskill --category birds
assert_exit 0
assert_eq 2 "$(json_get "$RUN_OUT" '.skill.version')" "version after update"

run_skillrt --home "$home" --user "$bob" --db "$url" --json db get pgskill
assert_exit 1
assert_eq not_found "$(json_get "$RUN_OUT" '.code')" "bob cannot read alice's row"
run_skillrt --home "$home" --user "$bob" --db "$url" --json db list
assert_eq 0 "$(json_get "$RUN_OUT" '.count')" "bob's list"

# database.url in config.yaml selects PostgreSQL too.
printf 'database:\n  url: "%s"\n' "$url" >"$home/config.yaml"
run_skillrt --home "$home" --user "$alice" --json db list
assert_exit 0
assert_eq '["pgskill"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "list via database.url"

run_skillrt --home "$home" --user "$alice" --json db delete pgskill
assert_exit 0
run_skillrt --home "$home" --user "$alice" --json db get pgskill
assert_exit 1

# No user: refused before connecting.
run_skillrt --home "$home" --db "$url" --json db list
assert_exit 1
assert_eq "database skills need a user (--user)" "$(json_get "$RUN_OUT" '.error')" "no user"
