#!/usr/bin/env bash
# --user and --org are validated before anything touches the disk: path tricks
# are usage errors (exit 2) with a clear message, and nothing is created
# outside HOME/users. A planted symlink in place of a user's folder is refused.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/deploy" deploy "Shared deploy"
content="$E2E_TMP/skill.md"
printf -- '---\nname: evil\ndescription: x\n---\nBody.\n' >"$content"
listing() { (cd "$E2E_TMP" && find . -not -name '.run.*' | sort); }
before=$(listing)

for id in ".." "." "../x" "a/b" "/abs" 'a\b' "%2e%2e" "a b" "-rf" ".hidden" "café" "" \
          "$(printf 'a\tb')" "$(printf '%065d' 0)"; do
  run_skillrt --home "$home" --user "$id" --json create evil --content "$content"
  assert_exit 2
  assert_json_object
  assert_eq true "$(json_get "$RUN_OUT" '.usage')" "usage flag for [$id]"
  assert_contains "$(json_get "$RUN_OUT" '.error')" "user id" "message for [$id]"
  run_skillrt --home "$home" --user "$id" list
  assert_exit 2
  assert_contains "$RUN_ERR" "user id"
done
for org in "" "a b" "$(printf 'a\nb')"; do
  run_skillrt --home "$home" --user alice --org "$org" --json list
  assert_exit 2
  assert_contains "$(json_get "$RUN_OUT" '.error')" "org id"
done
after=$(listing)
assert_eq "$before" "$after" "files after refused ids"
[[ ! -e "$home/users" ]] || fail "a refused id created HOME/users"

# A user folder that is a symlink to somewhere else is refused, never followed.
mkdir -p "$home/users" "$E2E_TMP/elsewhere"
ln -s "$E2E_TMP/elsewhere" "$home/users/mallory"
run_skillrt --home "$home" --user mallory --json create evil --content "$content"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "symlink"
[[ -z "$(ls -A "$E2E_TMP/elsewhere")" ]] || fail "a write went through the symlinked user folder"
run_skillrt --home "$home" --user mallory --json list
assert_exit 0
assert_eq '["deploy@shared"]' "$(json_get "$RUN_OUT" '[.skills[] | .name + "@" + .source]')" "mallory's listing"
[[ -z "$(ls -A "$E2E_TMP/elsewhere")" ]] || fail "listing wrote through the symlinked user folder"
