#!/usr/bin/env bash
# create refuses a name any tier already has: a local folder name, a frontmatter
# name in an external dir, a disabled skill (spec §2.10 rule 11).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/ops/deploy" deploy "Deploys"
ext="$E2E_TMP/ext"
make_skill "$ext/some-dir" shipper "Ships"
make_skill "$home/skills/quiet" quiet "Disabled one"
cat >"$home/config.yaml" <<YAML
skills:
  external_dirs: ["$ext"]
  disabled: [quiet]
YAML

for name in deploy shipper quiet; do
  printf -- '---\nname: %s\ndescription: again\n---\nBody\n' "$name" >"$E2E_TMP/$name.md"
  run_skillrt --home "$home" --json create "$name" --content "$E2E_TMP/$name.md"
  assert_exit 1
  assert_json_object
  assert_contains "$(json_get "$RUN_OUT" '.error')" "A skill named '$name' already exists at "
done
assert_contains "$(cat "$home/skills/ops/deploy/SKILL.md")" "description: \"Deploys\"" "original untouched"
[[ ! -e "$home/skills/shipper" ]] || fail "a local duplicate of the external skill was created"

# Hostile names never reach the filesystem.
printf -- '---\nname: x\ndescription: d\n---\nBody\n' >"$E2E_TMP/x.md"
for bad in "../escape" "/tmp/abs" "Upper" "$(printf 'a\xd0\xb0b')" "$(printf '%0.sa' {1..65})"; do
  run_skillrt --home "$home" --json create "$bad" --content "$E2E_TMP/x.md"
  assert_exit 1
  assert_json_object
done
run_skillrt --home "$home" --json create x --category ../up --content "$E2E_TMP/x.md"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "Invalid category"
[[ ! -e "$home/up" && ! -e "$home/skills/x" ]] || fail "a hostile category created something"
