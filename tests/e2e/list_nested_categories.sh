#!/usr/bin/env bash
# Categories come from the first path component under the skills root when
# SKILL.md is at depth >= 3; nested categories list under their top component;
# skills sort by (category or "", name) with uncategorised ones first
# (spec §2.1 rule 4, §2.6 rule 4).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
skills="$home/skills"
make_skill "$skills/zeta-flat" zeta-flat "An uncategorised skill at the root"
make_skill "$skills/alpha-flat" alpha-flat "Another uncategorised skill"
make_skill "$skills/devops/docker-helper" docker-helper "Build and run containers"
make_skill "$skills/devops/ci-fixer" ci-fixer "Fix a red CI pipeline"
make_skill "$skills/research/papers/arxiv-reader" arxiv-reader "Read arXiv papers"
make_skill "$skills/a/b/c/deep-one" deep-one "Four levels down"

run_skillrt --home "$home" --json list
assert_exit 0
assert_json_object
assert_eq true "$(json_get "$RUN_OUT" '.success')" "success"
assert_eq 6 "$(json_get "$RUN_OUT" '.count')" "count"
assert_eq '["alpha-flat","zeta-flat","deep-one","ci-fixer","docker-helper","arxiv-reader"]' \
  "$(json_get "$RUN_OUT" '[.skills[].name]')" "skill order"
assert_eq '[null,null,"a","devops","devops","research"]' \
  "$(json_get "$RUN_OUT" '[.skills[].category]')" "skill categories"
assert_eq '["a","devops","research"]' "$(json_get "$RUN_OUT" '.categories')" "categories"
assert_eq "Read arXiv papers" \
  "$(json_get "$RUN_OUT" '.skills[] | select(.name == "arxiv-reader") | .description')" "description"
