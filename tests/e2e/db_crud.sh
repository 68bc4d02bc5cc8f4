#!/usr/bin/env bash
# `db create|get|list|update|delete` round trip for one user on the embedded
# SQLite store (HOME/skillrt.db): JSON shapes, versions, exit codes, text output.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
cat >"$E2E_TMP/skill.md" <<'MD'
---
name: rollout
description: Rolls the service out region by region
---
# Rollout

Apply the manifests, then watch the canary.
MD

run_skillrt --home "$home" --user alice --json db create rollout --file "$E2E_TMP/skill.md" --category ops
assert_exit 0
assert_json_object
assert_eq '["success","message","backend","skill"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "create keys"
assert_eq '["id","name","description","category","version","is_active","created_at","updated_at","content"]' \
  "$(json_get "$RUN_OUT" '.skill | keys_unsorted')" "skill keys"
assert_eq "Database skill 'rollout' created." "$(json_get "$RUN_OUT" '.message')" "message"
assert_eq sqlite "$(json_get "$RUN_OUT" '.backend')" "backend"
assert_eq "Rolls the service out region by region" "$(json_get "$RUN_OUT" '.skill.description')" "description from frontmatter"
assert_eq ops "$(json_get "$RUN_OUT" '.skill.category')" "category"
assert_eq 1 "$(json_get "$RUN_OUT" '.skill.version')" "version"
assert_eq true "$(json_get "$RUN_OUT" '.skill.is_active')" "is_active"
[[ -f "$home/skillrt.db" ]] || fail "HOME/skillrt.db was not created"
[[ "$(stat -c %a "$home/skillrt.db")" == 600 ]] || fail "skillrt.db is not owner-only"

# Same name again: refused, exit 1, one JSON object.
run_skillrt --home "$home" --user alice --json db create rollout --content "$E2E_TMP/skill.md"
assert_exit 1
assert_json_object
assert_eq false "$(json_get "$RUN_OUT" '.success')" "duplicate success"
assert_eq refused "$(json_get "$RUN_OUT" '.code')" "duplicate code"
assert_contains "$(json_get "$RUN_OUT" '.error')" "already exists"

# get: the content round-trips byte for byte (text mode prints it).
run_skillrt --home "$home" --user alice --json db get rollout
assert_exit 0
assert_eq "$(cat "$E2E_TMP/skill.md")" "$(json_get "$RUN_OUT" '.skill.content')" "content"
run_skillrt --home "$home" --user alice db get rollout
assert_exit 0
assert_eq "$(cat "$E2E_TMP/skill.md")" "$RUN_OUT" "text get prints the content"

# update: version grows; stdin works for --file -.
sed 's/watch the canary/watch the canary twice/' "$E2E_TMP/skill.md" >"$E2E_TMP/v2.md"
RUN_CODE=0
out=$("$SKILLRT_BIN" --home "$home" --user alice --json db update rollout --file - <"$E2E_TMP/v2.md") || RUN_CODE=$?
assert_eq 0 "$RUN_CODE" "update from stdin"
assert_eq 2 "$(json_get "$out" '.skill.version')" "version after update"
run_skillrt --home "$home" --user alice --json db update rollout --description "Careful rollout"
assert_exit 0
assert_eq 3 "$(json_get "$RUN_OUT" '.skill.version')" "version after second update"
assert_eq "Careful rollout" "$(json_get "$RUN_OUT" '.skill.description')" "description"
assert_contains "$(json_get "$RUN_OUT" '.skill.content')" "twice" "content kept"

# list: JSON shape and text.
printf -- '---\nname: notes\ndescription: Notes\n---\nBody\n' >"$E2E_TMP/notes.md"
run_skillrt --home "$home" --user alice --json db create notes --content "$E2E_TMP/notes.md"
assert_exit 0
run_skillrt --home "$home" --user alice --json db list
assert_exit 0
assert_json_object
assert_eq '["success","backend","user","count","skills"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "list keys"
assert_eq alice "$(json_get "$RUN_OUT" '.user')" "list user"
assert_eq 2 "$(json_get "$RUN_OUT" '.count')" "count"
assert_eq '["notes","rollout"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "names, sorted"
assert_eq null "$(json_get "$RUN_OUT" '.skills[0].content')" "list has no content"
run_skillrt --home "$home" --user alice db list
assert_exit 0
assert_contains "$RUN_OUT" "rollout  v3  [ops]  Careful rollout"

# delete: gone from get and list; a second delete is not found.
run_skillrt --home "$home" --user alice --json db delete rollout
assert_exit 0
assert_eq "Database skill 'rollout' deleted." "$(json_get "$RUN_OUT" '.message')" "delete message"
assert_eq null "$(json_get "$RUN_OUT" '.skill.content')" "delete result has no content"
run_skillrt --home "$home" --user alice --json db get rollout
assert_exit 1
assert_eq not_found "$(json_get "$RUN_OUT" '.code')" "get after delete"
run_skillrt --home "$home" --user alice --json db delete rollout
assert_exit 1
run_skillrt --home "$home" --user alice --json db list
assert_eq '["notes"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "list after delete"
# ... and the name can be used again, at version 1.
run_skillrt --home "$home" --user alice --json db create rollout --file "$E2E_TMP/skill.md"
assert_exit 0
assert_eq 1 "$(json_get "$RUN_OUT" '.skill.version')" "re-created version"

# Bad names and usage errors.
run_skillrt --home "$home" --user alice --json db create ../escape --content "$E2E_TMP/notes.md"
assert_exit 1
assert_eq invalid_argument "$(json_get "$RUN_OUT" '.code')" "path trick"
run_skillrt --home "$home" --user alice --json db create nothing
assert_exit 2
assert_json_object
run_skillrt --home "$home" --user alice --json db create both --content "$E2E_TMP/notes.md" --file "$E2E_TMP/skill.md"
assert_exit 2
run_skillrt --home "$home" --user alice --json db create gone --file "$E2E_TMP/missing.md"
assert_exit 2
run_skillrt --home "$home" --user alice --json db
assert_exit 2

# --db and database.url pick another file.
run_skillrt --home "$home" --user alice --db "$E2E_TMP/other.db" --json db list
assert_exit 0
assert_eq 0 "$(json_get "$RUN_OUT" '.count')" "--db points elsewhere"
[[ -f "$E2E_TMP/other.db" ]] || fail "--db file not created"
printf 'database:\n  url: %s\n' "$E2E_TMP/from-config.db" >"$home/config.yaml"
run_skillrt --home "$home" --user alice --json db create cfg --content "$E2E_TMP/notes.md"
assert_exit 0
[[ -f "$E2E_TMP/from-config.db" ]] || fail "database.url was not used"
run_skillrt --home "$home" --user alice --db "$home/skillrt.db" --json db list
assert_eq 2 "$(json_get "$RUN_OUT" '.count')" "--db wins over database.url"

# A corrupt database is a clear failure, not a crash.
head -c 8192 /dev/urandom >"$E2E_TMP/junk.db"
run_skillrt --home "$home" --user alice --db "$E2E_TMP/junk.db" --json db list
assert_exit 1
assert_json_object
assert_contains "$(json_get "$RUN_OUT" '.error')" "corrupt"
