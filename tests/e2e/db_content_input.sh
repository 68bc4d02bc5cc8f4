#!/usr/bin/env bash
# `db create/update --content FILE|-` read SKILL.md text the way create, edit
# and write-file do: from a file or standard input, never the argument itself;
# --file is an alias; an unreadable file is a usage error (exit 2) naming it.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
md="$E2E_TMP/otter.md"
printf -- '---\nname: otter\ndescription: Otter care from a file\n---\n# Otter\n\n\tTabbed line.\n' >"$md"

# FILE: the stored content is the file's bytes, not its path.
run_skillrt --home "$home" --user alice --json db create otter --content "$md"
assert_exit 0
assert_eq "Otter care from a file" "$(json_get "$RUN_OUT" '.skill.description')" "description from the file"
run_skillrt --home "$home" --user alice --json db get otter
assert_exit 0
[[ "$(json_get "$RUN_OUT" '.skill.content | @base64')" == "$(base64 -w0 <"$md")" ]] ||
  fail "stored content is not the file's bytes: $(json_get "$RUN_OUT" '.skill.content')"

# -: standard input, for create and update.
printf -- '---\nname: heron\ndescription: Heron from stdin\n---\nBody\n' >"$E2E_TMP/heron.md"
RUN_CODE=0
out=$("$SKILLRT_BIN" --home "$home" --user alice --json db create heron --content - <"$E2E_TMP/heron.md") || RUN_CODE=$?
assert_eq 0 "$RUN_CODE" "create from stdin"
assert_eq "Heron from stdin" "$(json_get "$out" '.skill.description')" "description from stdin"
assert_eq "$(cat "$E2E_TMP/heron.md")" "$(json_get "$out" '.skill.content')" "content from stdin"
sed 's/Body/Body v2/' "$md" >"$E2E_TMP/otter2.md"
out=$("$SKILLRT_BIN" --home "$home" --user alice --json db update otter --content - <"$E2E_TMP/otter2.md") || RUN_CODE=$?
assert_eq 0 "$RUN_CODE" "update from stdin"
assert_eq 2 "$(json_get "$out" '.skill.version')" "version after update"

# --file is the same option under its older name.
run_skillrt --home "$home" --user alice --json db update otter --file "$md"
assert_exit 0
assert_eq "$(cat "$md")" "$(json_get "$RUN_OUT" '.skill.content')" "--file alias"

# A missing file is a usage error naming the file; nothing is stored.
run_skillrt --home "$home" --user alice --json db create ghost --content "$E2E_TMP/missing.md"
assert_exit 2
assert_json_object
assert_eq true "$(json_get "$RUN_OUT" '.usage')" "usage flag"
assert_contains "$(json_get "$RUN_OUT" '.error')" "--content $E2E_TMP/missing.md"
run_skillrt --home "$home" --user alice db update otter --content "$E2E_TMP/missing.md"
assert_exit 2
assert_contains "$RUN_ERR" "missing.md"
run_skillrt --home "$home" --user alice --json db get ghost
assert_exit 1
# ... as it is for the file commands.
run_skillrt --home "$home" --json create ghost --content "$E2E_TMP/missing.md"
assert_exit 2

# A directory is refused the same way (never read as text).
run_skillrt --home "$home" --user alice --json db create ghost --content "$E2E_TMP"
assert_exit 2
