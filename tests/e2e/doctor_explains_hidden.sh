#!/usr/bin/env bash
# doctor names every root with its counts and says why skills are shadowed,
# hidden (platform, disabled) or skipped (support-dir decoy, excluded dir,
# symlink loop, bad frontmatter).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
ext="$E2E_TMP/ext"
mkdir -p "$ext"
make_skill "$home/skills/tools/deploy" deploy "Local deploy"
make_skill "$ext/deploy" deploy "External deploy, shadowed"
make_skill "$home/skills/mac-only" mac-only "Only on macOS" "platforms: [macos]"
make_skill "$home/skills/turned-off" turned-off "Disabled in config"
make_skill "$home/skills/tools/deploy/references/decoy" decoy "Not a skill: inside references/"
make_skill "$home/skills/node_modules/pkg" pkg "Not a skill: inside node_modules"
mkdir -p "$home/skills/loop"
ln -s "$home/skills/loop" "$home/skills/loop/again"
mkdir -p "$home/skills/broken"
printf -- '---\nname: broken\ndescription: [unclosed\n---\nbody\n' >"$home/skills/broken/SKILL.md"
cat >"$home/config.yaml" <<YAML
skills:
  external_dirs: ["$ext"]
  disabled: [turned-off]
YAML

run_skillrt --home "$home" --os linux --json doctor
assert_exit 0
assert_json_object
assert_eq '["local","external"]' "$(json_get "$RUN_OUT" '[.roots[].tier]')" "root tiers"
assert_eq deploy "$(json_get "$RUN_OUT" '.shadowed[0].name')" "shadowed name"
assert_contains "$(json_get "$RUN_OUT" '.shadowed[0].winner')" "$home/skills/tools/deploy"
assert_contains "$(json_get "$RUN_OUT" '.shadowed[0].losers')" "$ext/deploy"
assert_eq platform "$(json_get "$RUN_OUT" '.hidden[] | select(.name == "mac-only") | .reason')" "platform-hidden"
assert_eq disabled "$(json_get "$RUN_OUT" '.hidden[] | select(.name == "turned-off") | .reason')" "disabled"
reasons=$(json_get "$RUN_OUT" '[.skipped[].reason] | unique')
assert_contains "$reasons" '"support_dir"' "skip reasons"
assert_contains "$reasons" '"excluded"' "skip reasons"
assert_contains "$reasons" '"symlink_cycle"' "skip reasons"

# The human report says the same things.
run_skillrt --home "$home" --os linux doctor
assert_exit 0
assert_contains "$RUN_OUT" "$home/skills"
assert_contains "$RUN_OUT" "deploy"
