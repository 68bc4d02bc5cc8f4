#!/usr/bin/env bash
# A full disk, a permission error or an I/O error in the middle of a write
# (injected with the LD_PRELOAD shim fault_inject.c) leaves the original
# SKILL.md byte-identical and no temp file behind; a failed create leaves no folder.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[[ -n "${SKILLRT_FAULT_LIB:-}" && -f "${SKILLRT_FAULT_LIB:-}" ]] || skip "SKILLRT_FAULT_LIB (the fault shim) is not built"
export SKILLRT_NO_CACHE=1
export ASAN_OPTIONS="${ASAN_OPTIONS}:verify_asan_link_order=0"

home=$(make_home)
make_skill "$home/skills/s" s "Fault target"
cp "$home/skills/s/SKILL.md" "$E2E_TMP/original.md"
{
  printf -- '---\nname: s\ndescription: Bigger\n---\n'
  head -c 20000 /dev/zero | tr '\0' 'b'
  printf '\n'
} >"$E2E_TMP/big.md"

faulty() {
  local fault=$1
  shift
  RUN_CODE=0
  RUN_CMD="SKILLRT_FAULT=$fault skillrt $*"
  SKILLRT_FAULT="$fault" LD_PRELOAD="$SKILLRT_FAULT_LIB" timeout 60 "$SKILLRT_BIN" "$@" \
    >"$E2E_TMP/.f.out" 2>"$E2E_TMP/.f.err" </dev/null || RUN_CODE=$?
  RUN_OUT=$(cat "$E2E_TMP/.f.out")
  RUN_ERR=$(cat "$E2E_TMP/.f.err")
}

assert_intact() {
  local what=$1
  cmp -s "$E2E_TMP/original.md" "$home/skills/s/SKILL.md" || fail "$what: SKILL.md changed"
  local strays
  strays=$(find "$home/skills" -name '*.tmp.*')
  assert_eq "" "$strays" "$what: temp files left"
}

faulty "write:ENOSPC:after=4096:match=SKILL.md.tmp" --home "$home" --json edit s --content "$E2E_TMP/big.md"
assert_exit 1
assert_json_object
assert_contains "$(json_get "$RUN_OUT" '.error')" "No space left on device"
assert_intact "ENOSPC mid-write"

faulty "write:EDQUOT:match=SKILL.md.tmp" --home "$home" --json patch s --old "Steps for" --new "Stages for"
assert_exit 1
assert_intact "EDQUOT on the first write"

faulty "fsync:EIO:match=SKILL.md.tmp" --home "$home" --json edit s --content "$E2E_TMP/big.md"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "Input/output error"
assert_intact "EIO on fsync"

faulty "rename:EACCES:match=SKILL.md.tmp" --home "$home" --json patch s --old "Steps for" --new "Stages for"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "Permission denied"
assert_intact "EACCES on rename"

faulty "write:ENOSPC:match=api.md.tmp" --home "$home" --json write-file s references/api.md --content "$E2E_TMP/big.md"
assert_exit 1
[[ ! -e "$home/skills/s/references" ]] || fail "a failed write-file left its new folder"

# create: nothing appears, not even a staging folder.
sed 's/name: s/name: fresh/' "$E2E_TMP/big.md" >"$E2E_TMP/fresh.md"
faulty "write:ENOSPC:after=100:match=SKILL.md.tmp" --home "$home" --json create fresh --category c --content "$E2E_TMP/fresh.md"
assert_exit 1
[[ ! -e "$home/skills/c" ]] || fail "a failed create left $(ls -A "$home/skills/c")"
assert_eq "s" "$(ls -A "$home/skills")" "skills dir after the failed create"

# Without the fault the same edit works.
run_skillrt --home "$home" --json edit s --content "$E2E_TMP/big.md"
assert_exit 0
cmp -s "$E2E_TMP/big.md" "$home/skills/s/SKILL.md" || fail "the edit without a fault did not land"
