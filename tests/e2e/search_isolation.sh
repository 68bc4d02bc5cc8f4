#!/usr/bin/env bash
# search never shows one user's skills to another: Alice's file and database
# skills are hers; Bob and the anonymous caller see only shared skills. Her own
# skills shadow shared ones of the same name (database > user > shared).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/care/otters" otters "Shared otter care"
make_skill "$home/skills/care/deploy" deploy "Shared otter deploy"
make_skill "$home/skills/care/feeding" feeding "Shared otter feeding"
make_skill "$home/users/alice/skills/mine/alice-notes" alice-notes "Alice's private otter notes"
make_skill "$home/users/alice/skills/mine/feeding" feeding "Alice's own otter feeding"
printf -- '---\nname: alice-row\ndescription: Alice private otter row\n---\nOtters in the database.\n' >"$E2E_TMP/alice-row.md"
run_skillrt --home "$home" --user alice --json db create alice-row --content "$E2E_TMP/alice-row.md"
assert_exit 0
printf -- '---\nname: deploy\ndescription: Alice database otter deploy\n---\nHer way.\n' >"$E2E_TMP/deploy.md"
run_skillrt --home "$home" --user alice --json db create deploy --content "$E2E_TMP/deploy.md"
assert_exit 0

run_skillrt --home "$home" --user alice --json search otter --limit 10
assert_exit 0
assert_json_object
assert_eq '["alice-notes","alice-row","deploy","feeding","otters"]' \
  "$(json_get "$RUN_OUT" '[.results[].name] | sort')" "alice's results"
assert_eq database "$(json_get "$RUN_OUT" '.results[] | select(.name=="deploy") | .source')" "db shadows shared"
assert_eq number "$(json_get "$RUN_OUT" '.results[] | select(.name=="deploy") | .id | type')" "db hit has an id"
assert_eq '["name","description","source","score","id"]' \
  "$(json_get "$RUN_OUT" '.results[] | select(.name=="deploy") | keys_unsorted')" "db hit keys"
assert_eq user "$(json_get "$RUN_OUT" '.results[] | select(.name=="feeding") | .source')" "user shadows shared"
assert_eq "Alice's own otter feeding" \
  "$(json_get "$RUN_OUT" '.results[] | select(.name=="feeding") | .description')" "her feeding"
assert_eq user "$(json_get "$RUN_OUT" '.results[] | select(.name=="alice-notes") | .source')" "her file skill"

for who in "--user bob" ""; do
  # shellcheck disable=SC2086
  run_skillrt --home "$home" $who --json search otter --limit 10
  assert_exit 0
  assert_eq '["deploy","feeding","otters"]' "$(json_get "$RUN_OUT" '[.results[].name] | sort')" "results of [$who]"
  assert_eq '["shared"]' "$(json_get "$RUN_OUT" '[.results[].source] | unique')" "only shared for [$who]"
  assert_not_contains "$RUN_OUT" "Alice"
  assert_not_contains "$RUN_OUT" "alice"
  # shellcheck disable=SC2086
  run_skillrt --home "$home" $who --json search private
  assert_eq 0 "$(json_get "$RUN_OUT" '.count')" "private hidden from [$who]"
done

# Alice still finds hers after the others searched.
run_skillrt --home "$home" --user alice --json search private
assert_eq '["alice-notes","alice-row"]' "$(json_get "$RUN_OUT" '[.results[].name] | sort')" "alice again"

# A deleted database skill leaves the results; the shared one shows again.
run_skillrt --home "$home" --user alice --json db delete deploy
assert_exit 0
run_skillrt --home "$home" --user alice --json search deploy
assert_eq '["shared"]' "$(json_get "$RUN_OUT" '[.results[] | select(.name=="deploy") | .source]')" "shared after delete"
