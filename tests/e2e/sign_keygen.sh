#!/usr/bin/env bash
# `keygen`: default path HOME/keys (0700) with the secret key 0600 and the
# public key 0644 beside it, the text formats, the secret never printed, an
# existing key never overwritten, --out and the --json shape (success first).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
bundle="$E2E_TMP/bundle"
make_skill "$bundle" demo "A demo skill to sign."
mkdir -p "$bundle/references"
printf 'notes\n' >"$bundle/references/notes.md"
: >"$bundle/.empty"

# --- keygen: default path under HOME/keys, text output ---
run_skillrt --home "$home" keygen
assert_exit 0
key="$home/keys/skillrt-signing.key"
[[ -f "$key" && -f "$key.pub" ]] || fail "keygen did not create $key and $key.pub"
assert_eq 600 "$(stat -c %a "$key")" "secret key mode"
assert_eq 644 "$(stat -c %a "$key.pub")" "public key mode"
assert_eq 700 "$(stat -c %a "$home/keys")" "keys folder mode"
pub=$(cat "$key.pub")
[[ "$pub" =~ ^ed25519:[A-Za-z0-9+/]{43}=$ ]] || fail "public key format: $pub"
[[ "$(cat "$key")" =~ ^ed25519-secret:[A-Za-z0-9+/]{86}==$ ]] || fail "secret key format"
assert_contains "$RUN_OUT" "$pub"
assert_contains "$RUN_OUT" "$key"
assert_contains "$RUN_OUT" "trusted_keys:"
assert_not_contains "$RUN_OUT" "ed25519-secret:" "keygen output"
assert_not_contains "$RUN_ERR" "ed25519-secret:" "keygen errors"

# Never overwrites: same path again fails and leaves the key alone.
before=$(cat "$key")
run_skillrt --home "$home" keygen
assert_exit 1
assert_contains "$RUN_ERR" "already exists"
assert_eq "$before" "$(cat "$key")" "secret key after a refused keygen"

# --json keygen with --out.
run_skillrt --home "$home" --json keygen --out "$E2E_TMP/other.key"
assert_exit 0
assert_json_object
assert_eq '["success","public_key","secret_key_file","public_key_file","config_snippet"]' \
  "$(json_get "$RUN_OUT" 'keys_unsorted')" "keygen keys"
other_pub=$(json_get "$RUN_OUT" '.public_key')
assert_eq "$other_pub" "$(cat "$E2E_TMP/other.key.pub")" "public key in JSON"
assert_eq "$E2E_TMP/other.key" "$(json_get "$RUN_OUT" '.secret_key_file')" "secret key path"
assert_not_contains "$RUN_OUT" "ed25519-secret:" "keygen JSON"

