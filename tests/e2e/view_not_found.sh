#!/usr/bin/env bash
# An unknown name fails with the first 20 names in skills_list order and a hint
# (spec §2.7 rule 10).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
for i in $(seq 10 21); do
  make_skill "$home/skills/zcat/cat-skill-$i" "cat-skill-$i" "Categorised $i"
  make_skill "$home/skills/top-$i" "top-$i" "Top $i"
done

run_skillrt --home "$home" --json view no-such-skill
assert_exit 1
assert_json_object
assert_eq "Skill 'no-such-skill' not found." "$(json_get "$RUN_OUT" '.error')" "error"
assert_eq 20 "$(json_get "$RUN_OUT" '.available_skills | length')" "suggestions"
assert_eq top-10 "$(json_get "$RUN_OUT" '.available_skills[0]')" "first suggestion"
assert_eq cat-skill-10 "$(json_get "$RUN_OUT" '.available_skills[12]')" "first categorised suggestion"
assert_eq "Use skills_list to see all available skills" "$(json_get "$RUN_OUT" '.hint')" "hint"
