#!/usr/bin/env bash
# `sign` with --key and its failures: a key file others could read, a missing
# key (with the keygen hint), a missing folder, a bundle holding a symlink
# (nothing signed), and usage errors (exit 2, JSON usage flag).
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
run_skillrt --home "$home" --json keygen --out "$E2E_TMP/other.key"
assert_exit 0
other_pub=$(json_get "$RUN_OUT" '.public_key')

printf 'skills:\n  trusted_keys: ["%s"]\n' "$other_pub" >"$home/config.yaml"

# --- sign with --key; errors ---
run_skillrt --home "$home" sign "$bundle" --key "$E2E_TMP/other.key"
assert_exit 0
assert_contains "$RUN_OUT" "$other_pub"
run_skillrt --home "$home" sign --check "$bundle"
assert_exit 0

chmod 644 "$E2E_TMP/other.key"
run_skillrt --home "$home" sign "$bundle" --key "$E2E_TMP/other.key"
assert_exit 1
assert_contains "$RUN_ERR" "too open"
chmod 600 "$E2E_TMP/other.key"

run_skillrt --home "$home" --json sign "$bundle" --key "$E2E_TMP/missing.key"
assert_exit 1
assert_json_object
assert_eq false "$(json_get "$RUN_OUT" '.success')" "missing key"

empty_home=$(make_home)
run_skillrt --home "$empty_home" sign "$bundle"
assert_exit 1
assert_contains "$RUN_ERR" "skillrt keygen"

run_skillrt --home "$home" sign "$E2E_TMP/no-such-dir"
assert_exit 1

ln -s /etc/passwd "$bundle/references/link"
run_skillrt --home "$home" sign "$bundle"
assert_exit 1
assert_contains "$RUN_ERR" "symlinks"
rm "$bundle/references/link"

# Usage errors: exit 2.
run_skillrt --home "$home" sign
assert_exit 2
run_skillrt --home "$home" sign --check "$bundle" --key "$key"
assert_exit 2
run_skillrt --home "$home" --json sign --check "$bundle" --key "$key"
assert_exit 2
assert_json_object
assert_eq true "$(json_get "$RUN_OUT" '.usage')" "usage flag"

# A top-level .git is covered like any file, but installs drop it: sign warns.
mkdir -p "$bundle/.git"
printf 'ref: refs/heads/main\n' >"$bundle/.git/HEAD"
run_skillrt --home "$home" sign "$bundle" --key "$E2E_TMP/other.key"
assert_exit 0
assert_contains "$RUN_ERR" "installs leave .git out"
run_skillrt --home "$home" --json sign "$bundle" --key "$E2E_TMP/other.key"
assert_exit 0
assert_json_object
assert_eq 1 "$(json_get "$RUN_OUT" '.warnings | length')" "warnings"
