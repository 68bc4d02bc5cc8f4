#!/usr/bin/env bash
# `sign DIR` then `sign --check DIR` through the four statuses: unsigned,
# untrusted-key, valid (trusted in config.yaml beside junk entries), invalid
# after an edit or an added file; re-signing; a garbage signature file. Exit
# code 0 only for valid; --json shapes (one object, `success` first).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
bundle="$E2E_TMP/bundle"
make_skill "$bundle" demo "A demo skill to sign."
mkdir -p "$bundle/references"
printf 'notes\n' >"$bundle/references/notes.md"
: >"$bundle/.empty"

run_skillrt --home "$home" keygen
assert_exit 0
key="$home/keys/skillrt-signing.key"
pub=$(cat "$key.pub")
run_skillrt --home "$home" --json keygen --out "$E2E_TMP/other.key"
assert_exit 0
other_pub=$(json_get "$RUN_OUT" '.public_key')

# --- sign --check before signing: unsigned, exit 1 ---
run_skillrt --home "$home" sign --check "$bundle"
assert_exit 1
assert_contains "$RUN_OUT" "unsigned:"

# --- sign (default key) ---
run_skillrt --home "$home" sign "$bundle"
assert_exit 0
assert_contains "$RUN_OUT" "$pub"
assert_contains "$RUN_OUT" "3 files covered"
sig="$bundle/.skillrt-signature"
[[ -f "$sig" ]] || fail "no signature file"
assert_eq 3 "$(wc -l <"$sig" | tr -d ' ')" "signature file lines"
assert_eq "skillrt-signature v1" "$(sed -n 1p "$sig")" "signature header"
assert_eq "key $pub" "$(sed -n 2p "$sig")" "signature key line"

# --json sign: one object, success first, file count and content hash.
run_skillrt --home "$home" --json sign "$bundle"
assert_exit 0
assert_json_object
assert_eq '["success","bundle","key","files","content_hash","signature_file"]' \
  "$(json_get "$RUN_OUT" 'keys_unsorted')" "sign keys"
assert_eq 3 "$(json_get "$RUN_OUT" '.files')" "files"
[[ "$(json_get "$RUN_OUT" '.content_hash')" =~ ^sha256:[0-9a-f]{64}$ ]] || fail "content hash format"

# --- check: signed, but the key is not trusted yet ---
run_skillrt --home "$home" sign --check "$bundle"
assert_exit 1
assert_contains "$RUN_OUT" "untrusted-key:"
assert_contains "$RUN_ERR" "trusted_keys"

# Trust it (with junk beside it): valid, exit 0.
cat >"$home/config.yaml" <<EOF
skills:
  trusted_keys:
    - "not a key"
    - "$other_pub"
    - "$pub"
EOF
run_skillrt --home "$home" sign --check "$bundle"
assert_exit 0
assert_contains "$RUN_OUT" "valid: signed by trusted key $pub"
run_skillrt --home "$home" --json sign --check "$bundle"
assert_exit 0
assert_json_object
assert_eq '["success","status","key","message","bundle"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "check keys"
assert_eq valid "$(json_get "$RUN_OUT" '.status')" "status"
assert_eq "$pub" "$(json_get "$RUN_OUT" '.key')" "signer"

# --- edit a file after signing: invalid, exit 1 ---
printf 'one more line\n' >>"$bundle/references/notes.md"
run_skillrt --home "$home" sign --check "$bundle"
assert_exit 1
assert_contains "$RUN_OUT" "invalid:"
assert_contains "$RUN_OUT" "after signing"
run_skillrt --home "$home" --json sign --check "$bundle"
assert_exit 1
assert_json_object
assert_eq '["success","error","status","key","message","bundle"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" \
  "invalid check keys"
assert_eq false "$(json_get "$RUN_OUT" '.success')" "success"
assert_eq invalid "$(json_get "$RUN_OUT" '.status')" "status"

# Re-signing makes it valid again; adding a file breaks it again.
run_skillrt --home "$home" sign "$bundle"
assert_exit 0
run_skillrt --home "$home" sign --check "$bundle"
assert_exit 0
printf 'x' >"$bundle/added.txt"
run_skillrt --home "$home" sign --check "$bundle"
assert_exit 1
assert_contains "$RUN_OUT" "invalid:"
rm "$bundle/added.txt"
run_skillrt --home "$home" sign --check "$bundle"
assert_exit 0

# A garbage signature file is invalid, not a crash.
head -c 5000 /dev/urandom >"$sig"
run_skillrt --home "$home" --json sign --check "$bundle"
assert_exit 1
assert_json_object
assert_eq invalid "$(json_get "$RUN_OUT" '.status')" "garbage status"
printf '' >"$sig"
run_skillrt --home "$home" sign --check "$bundle"
assert_exit 1
assert_contains "$RUN_OUT" "invalid:"
rm "$sig"

