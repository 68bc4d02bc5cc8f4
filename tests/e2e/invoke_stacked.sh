#!/usr/bin/env bash
# `invoke "/a /b instruction"` loads up to five skills together (spec §2.15
# rule 6): one header naming the bundle, loaded and missing skills, the
# instruction once, then each skill's block with its activation note.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/alpha" alpha "First"
make_skill "$home/skills/beta" beta "Second"

run_skillrt --home "$home" --json invoke "/alpha /ghost /beta review the diff"
assert_exit 0
assert_json_object
assert_eq '["alpha","beta"]' "$(json_get "$RUN_OUT" '.skills')" "skills"
assert_eq '["/ghost"]' "$(json_get "$RUN_OUT" '.missing')" "missing"
message=$(json_get "$RUN_OUT" '.message')
head=$(printf '%s\n' "$message" | head -n 6)
assert_eq '[IMPORTANT: The user has invoked the "/alpha /ghost /beta" stacked skill bundle, loading 2 skills together. Treat every skill below as active guidance for this turn.]

Skills loaded: alpha, beta
Skills missing (skipped): /ghost

User instruction: review the diff' "$head" "stacked header"
assert_contains "$message" '[Loaded as part of the stacked skill invocation "alpha".]'
assert_contains "$message" '[Loaded as part of the stacked skill invocation "beta".]'
assert_contains "$message" "[Skill directory: $home/skills/beta]"
[[ "$message" != *"The user has provided the following instruction"* ]] || fail "instruction repeated per skill"

# Six leading commands: only five are taken, the sixth is instruction text.
for n in 1 2 3 4 5 6; do make_skill "$home/skills/s$n" "s$n" "Skill $n"; done
run_skillrt --home "$home" --json invoke "/s1 /s2 /s3 /s4 /s5 /s6 go"
assert_eq '["s1","s2","s3","s4","s5"]' "$(json_get "$RUN_OUT" '.skills')" "five at most"
assert_contains "$(json_get "$RUN_OUT" '.message')" "User instruction: /s6 go"
