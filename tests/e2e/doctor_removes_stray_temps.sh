#!/usr/bin/env bash
# `doctor` removes what writers killed mid-write left behind: a temp file
# beside SKILL.md, an old trash folder of an interrupted delete and an old
# 0-byte temp of a killed listing-cache writer, and reports the counts; the
# skills themselves, and a fresh cache temp a live writer may own, are untouched.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/s" s "Keeps its content"
cp "$home/skills/s/SKILL.md" "$E2E_TMP/original.md"
printf 'partial' >"$home/skills/s/.SKILL.md.tmp.Ab12Cd"
mkdir -p "$home/skills/.skillrt-trash-Zz9Yy8/old"
printf 'x' >"$home/skills/.skillrt-trash-Zz9Yy8/old/SKILL.md"
touch -d '2 hours ago' "$home/skills/.skillrt-trash-Zz9Yy8"
mkdir -p "$home/cache"
: >"$home/cache/.skillrt-listing.bin.tmp.Qq11Ww"
touch -d '2 hours ago' "$home/cache/.skillrt-listing.bin.tmp.Qq11Ww"
: >"$home/cache/.skillrt-listing.bin.tmp.Rr22Xx"

run_skillrt --home "$home" --json doctor
assert_exit 0
assert_eq 2 "$(json_get "$RUN_OUT" '.stray_files_removed.temp_files')" "temp files removed"
assert_eq 1 "$(json_get "$RUN_OUT" '.stray_files_removed.work_dirs')" "work folders removed"
[[ ! -e "$home/skills/s/.SKILL.md.tmp.Ab12Cd" ]] || fail "the stray temp file is still there"
[[ ! -e "$home/skills/.skillrt-trash-Zz9Yy8" ]] || fail "the old trash folder is still there"
[[ ! -e "$home/cache/.skillrt-listing.bin.tmp.Qq11Ww" ]] || fail "the old listing-cache temp is still there"
[[ -e "$home/cache/.skillrt-listing.bin.tmp.Rr22Xx" ]] || fail "a fresh listing-cache temp was removed"
cmp -s "$E2E_TMP/original.md" "$home/skills/s/SKILL.md" || fail "SKILL.md changed"

# A second run finds nothing left to remove.
run_skillrt --home "$home" --json doctor
assert_eq 0 "$(json_get "$RUN_OUT" '.stray_files_removed.temp_files')" "temp files on the second run"
