#!/usr/bin/env bash
# `search QUERY [--limit N]`: the most relevant skills first, as one JSON
# object {success, query, results:[{name, description, source, score, path|id}],
# count}; text mode prints one line per hit; the index follows file edits;
# bad queries and limits fail cleanly.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/devops/kubernetes" kubernetes "Roll out services to a cluster" "tags: [containers]"
make_skill "$home/skills/notes/journal" journal "Keep a journal; sometimes mentions kubernetes"
make_skill "$home/skills/misc/unrelated" unrelated "Bake bread"
for i in 1 2 3 4 5 6 7; do
  make_skill "$home/skills/bulk/widget-$i" "widget-$i" "A widget helper number $i"
done

run_skillrt --home "$home" --json search kubernetes
assert_exit 0
assert_json_object
assert_eq '["success","query","results","count"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "key order"
assert_eq true "$(json_get "$RUN_OUT" '.success')" "success"
assert_eq kubernetes "$(json_get "$RUN_OUT" '.query')" "query"
assert_eq 2 "$(json_get "$RUN_OUT" '.count')" "count"
assert_eq '["kubernetes","journal"]' "$(json_get "$RUN_OUT" '[.results[].name]')" "name match first"
assert_eq '["name","description","source","score","path"]' \
  "$(json_get "$RUN_OUT" '.results[0] | keys_unsorted')" "result key order"
assert_eq shared "$(json_get "$RUN_OUT" '.results[0].source')" "source"
assert_eq "$home/skills/devops/kubernetes/SKILL.md" "$(json_get "$RUN_OUT" '.results[0].path')" "path"
assert_eq "Roll out services to a cluster" "$(json_get "$RUN_OUT" '.results[0].description')" "description"
assert_eq true "$(json_get "$RUN_OUT" '.results[0].score > .results[1].score')" "scores descend"

# Tags are searched.
run_skillrt --home "$home" --json search containers
assert_eq '["kubernetes"]' "$(json_get "$RUN_OUT" '[.results[].name]')" "tag match"

# Default limit 5, --limit N.
run_skillrt --home "$home" --json search widget
assert_eq 5 "$(json_get "$RUN_OUT" '.count')" "default limit"
run_skillrt --home "$home" --json search widget --limit 7
assert_eq 7 "$(json_get "$RUN_OUT" '.count')" "--limit 7"

# Nothing found is a success with no results.
run_skillrt --home "$home" --json search zzyzx
assert_exit 0
assert_eq 0 "$(json_get "$RUN_OUT" '.count')" "no hits"
assert_eq '[]' "$(json_get "$RUN_OUT" '.results')" "empty results"

# The index follows an edit, a new skill and a delete.
make_skill "$home/skills/misc/unrelated" unrelated "Bake sourdough with kubernetes precision"
make_skill "$home/skills/misc/fresh" fresh "A freshly added sourdough skill"
run_skillrt --home "$home" --json search sourdough
assert_eq '["fresh","unrelated"]' "$(json_get "$RUN_OUT" '[.results[].name] | sort')" "edit and new skill seen"
rm -rf "$home/skills/misc/fresh"
run_skillrt --home "$home" --json search sourdough
assert_eq '["unrelated"]' "$(json_get "$RUN_OUT" '[.results[].name]')" "deleted skill gone"
run_skillrt --home "$home" --json search bread
assert_eq 0 "$(json_get "$RUN_OUT" '.count')" "old text gone after the edit"

# Text mode: one line per hit.
run_skillrt --home "$home" search kubernetes --limit 1
assert_exit 0
assert_eq "kubernetes  [shared]  Roll out services to a cluster" "$RUN_OUT" "text line"

# Operators and quotes are text, never syntax.
for query in '"' 'NEAR(' 'a AND OR' "'; DROP TABLE hermes_skills; --" '*' 'name:kubernetes'; do
  run_skillrt --home "$home" --json search "$query"
  assert_exit 0
  assert_json_object
done

# Bad requests.
run_skillrt --home "$home" --json search "   "
assert_exit 1
assert_json_object
assert_eq false "$(json_get "$RUN_OUT" '.success')" "blank query"
assert_contains "$(json_get "$RUN_OUT" '.error')" "empty"
run_skillrt --home "$home" --json search widget --limit 0
assert_exit 2
run_skillrt --home "$home" --json search widget --limit 51
assert_exit 2
run_skillrt --home "$home" --json search
assert_exit 2
