#!/usr/bin/env bash
# `list --category C` keeps skills whose category equals C exactly (spec §2.6
# rule 4): categories reflect the filtered list, an unknown category gives an
# empty (successful) listing, and a nested path is not a category.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
skills="$home/skills"
make_skill "$skills/devops/docker-helper" docker-helper "Build and run containers"
make_skill "$skills/devops/ci-fixer" ci-fixer "Fix a red CI pipeline"
make_skill "$skills/research/papers/arxiv-reader" arxiv-reader "Read arXiv papers"
make_skill "$skills/loose-skill" loose-skill "No category at all"

run_skillrt --home "$home" --json list --category devops
assert_exit 0
assert_json_object
assert_eq true "$(json_get "$RUN_OUT" '.success')" "success"
assert_eq 2 "$(json_get "$RUN_OUT" '.count')" "count"
assert_eq '["ci-fixer","docker-helper"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "names"
assert_eq '["devops"]' "$(json_get "$RUN_OUT" '.categories')" "categories"

# A nested skill is filed under its top-level category.
run_skillrt --home "$home" --json list --category research
assert_exit 0
assert_eq '["arxiv-reader"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "names in research"

# No skill in that category: success with an empty list.
run_skillrt --home "$home" --json list --category no-such-category
assert_exit 0
assert_json_object
assert_eq true "$(json_get "$RUN_OUT" '.success')" "success"
assert_eq '[]' "$(json_get "$RUN_OUT" '.skills')" "skills"
assert_eq '[]' "$(json_get "$RUN_OUT" '.categories')" "categories"
assert_eq 0 "$(json_get "$RUN_OUT" '.count')" "count"

# The filter is exact equality: case and nested paths do not match.
run_skillrt --home "$home" --json list --category DevOps
assert_exit 0
assert_eq '[]' "$(json_get "$RUN_OUT" '.skills')" "skills for DevOps"
run_skillrt --home "$home" --json list --category research/papers
assert_exit 0
assert_eq '[]' "$(json_get "$RUN_OUT" '.skills')" "skills for research/papers"
