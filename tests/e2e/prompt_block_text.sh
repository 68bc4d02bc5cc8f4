#!/usr/bin/env bash
# `prompt` prints the skills index block of spec §2.16 rule 8 exactly: heading,
# guidance, patch and save lines, the index (categories sorted, root-level
# skills under "general", nested categories by full path) and the closing
# line; `--json` carries the same text with counts.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/tools/shaper" shaper "Shapes things"
make_skill "$home/skills/tools/aligner" aligner ""
make_skill "$home/skills/notes" notes "  'Takes notes'  "
make_skill "$home/skills/ml/train/fit" fit "A description much longer than sixty characters, so it is cut short"
printf -- '---\ndescription: Small tools\n---\n' >"$home/skills/tools/DESCRIPTION.md"

expected=$(cat <<'TEXT'
## Skills
Before you reply, scan the skills below. When one matches the task, or is even partly relevant to it, load it with skill_view(name) and follow it; when unsure, load it. A skill beats working from basic tools such as web_search or terminal alone, because it records how this user wants the work done.
If a skill has issues, fix it with skill_manage(action='patch').
After a difficult or many-step task, offer to save the approach as a skill; when a skill you loaded turned out wrong or incomplete, update it.

<available_skills>
  general:
    - notes: Takes notes
  ml/train:
    - fit: A description much longer than sixty characters, so it is...
  tools: Small tools
    - aligner: Steps for the end-to-end test skill.
    - shaper: Shapes things
</available_skills>

Only proceed without loading a skill if genuinely none are relevant to the task.
TEXT
)

run_skillrt --home "$home" prompt
assert_exit 0
assert_eq "$expected" "$RUN_OUT" "prompt block"

run_skillrt --home "$home" --json prompt
assert_exit 0
assert_json_object
assert_eq '["success","prompt","skills_count","categories","demoted","elided","chars"]' \
  "$(json_get "$RUN_OUT" 'keys_unsorted')" "key order"
assert_eq "$expected" "$(json_get "$RUN_OUT" '.prompt')" "JSON prompt"
assert_eq 4 "$(json_get "$RUN_OUT" '.skills_count')" "skills_count"
assert_eq '["general","ml/train","tools"]' "$(json_get "$RUN_OUT" '.categories')" "categories"
assert_eq "${#expected}" "$(json_get "$RUN_OUT" '.chars')" "chars"

# Tool info changes the guidance; compact categories list names only.
run_skillrt --home "$home" prompt --tools terminal --compact tools
assert_exit 0
assert_contains "$RUN_OUT" "basic tools such as terminal alone"
assert_contains "$RUN_OUT" "  tools [names only]: aligner, shaper"
assert_contains "$RUN_OUT" "Categories marked [names only] list their skills without descriptions"

# An empty home prints nothing.
empty=$(make_home)
run_skillrt --home "$empty" prompt
assert_exit 0
assert_eq "" "$RUN_OUT" "empty home"
