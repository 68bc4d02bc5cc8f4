#!/usr/bin/env bash
# The prompt snapshot (HOME/.skills_prompt_snapshot.json) never hides an edit:
# changing a skill's conditions in place, with the same size and the same
# mtime, shows on the next `prompt`; a corrupt snapshot is ignored and rewritten.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
skill_md="$home/skills/web/finder/SKILL.md"
make_skill "$home/skills/web/finder" finder "Finds pages" "metadata:" "  hermes:" "    requires_tools: [aaa]"
make_skill "$home/skills/web/other" other "Always there"
# Files changed within the last 2 s (the racy window: an edit inside the
# timestamp granularity could keep every stamp) are not stored; wait it out.
sleep 2.1

run_skillrt --home "$home" prompt --tools aaa
assert_exit 0
assert_contains "$RUN_OUT" "    - finder: Finds pages"
snapshot="$home/.skills_prompt_snapshot.json"
[[ -f "$snapshot" ]] || fail "no snapshot written"
jq -e '.version == 3 and (.manifest | length) == 2' "$snapshot" >/dev/null || fail "snapshot shape: $(cat "$snapshot")"

# Same size, same mtime, different requirement.
cp -p "$skill_md" "$E2E_TMP/ref"
sed -i 's/requires_tools: \[aaa\]/requires_tools: [bbb]/' "$skill_md"
touch -r "$E2E_TMP/ref" "$skill_md"
assert_eq "$(stat -c '%s %Y' "$E2E_TMP/ref")" "$(stat -c '%s %Y' "$skill_md")" "size and mtime kept"

run_skillrt --home "$home" prompt --tools aaa
assert_exit 0
assert_not_contains "$RUN_OUT" "finder"
assert_contains "$RUN_OUT" "    - other: Always there"
run_skillrt --home "$home" prompt --tools bbb
assert_contains "$RUN_OUT" "    - finder: Finds pages"

# A torn snapshot is ignored and replaced by a whole one.
printf '{"version":3,"manifest":{"x":[1,' >"$snapshot"
run_skillrt --home "$home" prompt --tools bbb
assert_exit 0
assert_contains "$RUN_OUT" "    - finder: Finds pages"
jq -e '.version == 3' "$snapshot" >/dev/null || fail "snapshot not rewritten"

# --no-snapshot neither reads nor writes it.
rm -f "$snapshot"
run_skillrt --home "$home" prompt --tools bbb --no-snapshot
assert_contains "$RUN_OUT" "    - finder: Finds pages"
[[ ! -e "$snapshot" ]] || fail "--no-snapshot wrote a snapshot"

# Neither does SKILLRT_NO_CACHE=1.
SKILLRT_NO_CACHE=1 run_skillrt --home "$home" prompt --tools bbb
assert_contains "$RUN_OUT" "    - finder: Finds pages"
[[ ! -e "$snapshot" ]] || fail "SKILLRT_NO_CACHE=1 wrote a snapshot"
