#!/usr/bin/env bash
# `scan` reports what the folder holds: a symlink leaving the skill is
# critical and never followed, a FIFO is reported and never opened, ignored
# paths are left out of the scan and the counts, Unicode tag characters are
# decoded into the finding.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

mkdir -p "$E2E_TMP/outside"
printf 'a\xe2\x80\x8bb\n' >"$E2E_TMP/outside/secret.md"

skill="$E2E_TMP/structured"
make_skill "$skill" structured "Structure test"
mkdir -p "$skill/references" "$skill/vendor"
ln -s "$E2E_TMP/outside/secret.md" "$skill/references/key.md"
ln -s "$E2E_TMP/outside" "$skill/linked-dir"
mkfifo "$skill/pipe.md"
printf '.skillrt-build/\nvendor/\n' >"$skill/.skillignore"
for i in $(seq 1 60); do printf 'x\n' >"$skill/vendor/f$i.md"; done
printf 'a\xe2\x80\x8bb\n' >"$skill/vendor/hidden.md"
# "Nice." followed by "rm -rf" written in Unicode tag characters.
printf 'Nice.\xf3\xa0\x81\xb2\xf3\xa0\x81\xad\xf3\xa0\x80\xa0\xf3\xa0\x80\xad\xf3\xa0\x81\xb2\xf3\xa0\x81\xa6\n' >"$skill/references/tags.md"

run_skillrt --json scan "$skill"
assert_exit 1
assert_json_object
assert_eq dangerous "$(json_get "$RUN_OUT" '.verdict')" "verdict"
assert_eq '{"severity":"critical","category":"traversal"}' \
  "$(json_get "$RUN_OUT" '.findings[] | select(.pattern_id == "symlink_escape" and .file == "references/key.md") | {severity, category}')" "symlink escape"
assert_eq 1 "$(json_get "$RUN_OUT" '[.findings[] | select(.pattern_id == "symlink_escape" and .file == "linked-dir")] | length')" "directory link"
assert_eq medium "$(json_get "$RUN_OUT" '.findings[] | select(.pattern_id == "special_file") | .severity')" "fifo"
assert_eq '[]' "$(json_get "$RUN_OUT" '[.findings[] | select(.pattern_id == "invisible_unicode")]')" "no content read through links or ignored dirs"
assert_eq '[]' "$(json_get "$RUN_OUT" '[.findings[] | select(.pattern_id == "too_many_files")]')" "ignored files not counted"
assert_eq '{"severity":"critical","match":"hidden text: rm -rf","line":1}' \
  "$(json_get "$RUN_OUT" '.findings[] | select(.pattern_id == "unicode_tag_smuggling") | {severity, match, line}')" "tag smuggling"
