#!/usr/bin/env bash
# `prompt --max-chars N` first lists the largest categories by name only, then
# leaves out whole categories, and always ends with a line counting what was
# left out: every skill is listed or counted, never dropped silently.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
total=0
for c in 1 2 3 4 5 6; do
  for ((s = 1; s <= c * 2; s++)); do
    make_skill "$home/skills/cat$c/skill-$c-$s" "skill-$c-$s" "Describes skill $s of category $c at some length"
    total=$((total + 1))
  done
done

run_skillrt --home "$home" --json prompt
full_chars=$(json_get "$RUN_OUT" '.chars')

# Slightly too small: demotion only, the biggest category first.
run_skillrt --home "$home" --json prompt --max-chars $((full_chars - 100))
assert_exit 0
assert_eq '["cat6"]' "$(json_get "$RUN_OUT" '.demoted')" "demoted"
assert_eq '[]' "$(json_get "$RUN_OUT" '.elided')" "elided"
(( $(json_get "$RUN_OUT" '.chars') <= full_chars - 100 )) || fail "over the limit"

# Much too small: whole categories left out, and said so.
limit=900
run_skillrt --home "$home" --json prompt --max-chars $limit
assert_exit 0
prompt=$(json_get "$RUN_OUT" '.prompt')
chars=$(json_get "$RUN_OUT" '.chars')
(( chars <= limit )) || fail "chars $chars over $limit"
elided_count=$(json_get "$RUN_OUT" '[.elided[].skills] | add // 0')
(( elided_count > 0 )) || fail "nothing elided at $limit chars"
shown=0
for c in 1 2 3 4 5 6; do
  for ((s = 1; s <= c * 2; s++)); do
    if [[ "$prompt" == *"skill-$c-$s"* ]]; then
      shown=$((shown + 1))
    fi
  done
done
assert_eq "$total" "$((shown + elided_count))" "listed + counted skills"
last_line=$(printf '%s\n' "$prompt" | tail -n 1)
assert_contains "$last_line" "[Not shown, to fit the index size limit: $elided_count skills in "
for category in $(json_get "$RUN_OUT" '.elided[].category'); do
  assert_contains "$last_line" "$category ("
done
assert_eq "$total" "$(json_get "$RUN_OUT" '.skills_count')" "skills_count"
