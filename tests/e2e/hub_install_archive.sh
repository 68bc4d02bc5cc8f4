#!/usr/bin/env bash
# install from a .tar.gz (and a .zip when `zip` exists) made here: a bundle
# with several skills installs each; a hostile archive (a `..` entry) is
# refused with nothing placed.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
mkdir -p "$E2E_TMP/bundle/skills"
make_skill "$E2E_TMP/bundle/skills/alpha" alpha "First skill"
make_skill "$E2E_TMP/bundle/skills/group/beta" beta "Second skill"
echo "readme" >"$E2E_TMP/bundle/README.md"
tar czf "$E2E_TMP/bundle.tar.gz" -C "$E2E_TMP" bundle

run_skillrt --home "$home" --json install "$E2E_TMP/bundle.tar.gz"
assert_exit 0
assert_json_object
assert_eq '["alpha","beta"]' "$(json_get "$RUN_OUT" '[.skills[].name] | sort')" "installed skills"
assert_eq archive "$(jq -r '.installed.alpha.source' "$home/skills/.hub/lock.json")"
[[ "$(jq -r '.installed.alpha.revision' "$home/skills/.hub/lock.json")" =~ ^sha256:[0-9a-f]{64}$ ]] ||
  fail "archive revision is the sha256 of the archive"
# With no --category, third-party skills go under 3rd/<vendor>/ (the archive's name here).
[[ -f "$home/skills/3rd/bundle/alpha/SKILL.md" && -f "$home/skills/3rd/bundle/beta/SKILL.md" ]] || fail "skills not placed"
assert_eq 3rd/bundle/alpha "$(jq -r '.installed.alpha.install_path' "$home/skills/.hub/lock.json")"
run_skillrt --home "$home" --json list
assert_eq hub "$(json_get "$RUN_OUT" '.skills[] | select(.name == "alpha") | .provenance.kind')" "listed as from the hub"
assert_eq community "$(json_get "$RUN_OUT" '.skills[] | select(.name == "alpha") | .provenance.trust')"

# A subdir of the archive.
home2=$(make_home)
run_skillrt --home "$home2" --json install "$E2E_TMP/bundle.tar.gz//bundle/skills/group"
assert_exit 0
assert_eq '["beta"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "subdir install"

if command -v zip >/dev/null 2>&1; then
  home3=$(make_home)
  (cd "$E2E_TMP" && zip -qr bundle.zip bundle)
  run_skillrt --home "$home3" --json install "$E2E_TMP/bundle.zip"
  assert_exit 0
  assert_eq 2 "$(json_get "$RUN_OUT" '.skills | length')" "zip skills"
fi

# Zip-slip: an entry climbing out of the bundle.
mkdir -p "$E2E_TMP/evil/inner"
make_skill "$E2E_TMP/evil/inner" evil "Evil skill"
echo "pwned" >"$E2E_TMP/escaped.txt"
tar czf "$E2E_TMP/evil.tar.gz" -C "$E2E_TMP/evil/inner" SKILL.md -C "$E2E_TMP" --transform 's,^escaped.txt,../escaped.txt,' escaped.txt 2>/dev/null ||
  skip "tar cannot write a .. entry here"
home4=$(make_home)
run_skillrt --home "$home4" --json install "$E2E_TMP/evil.tar.gz"
assert_exit 1
assert_json_object
assert_eq false "$(json_get "$RUN_OUT" '.success')"
[[ ! -e "$home4/skills/evil" && ! -e "$home4/skills/3rd" ]] || fail "a hostile archive was installed"
[[ ! -e "$home4/escaped.txt" && ! -e "$home4/skills/escaped.txt" ]] || fail "an entry escaped"
[[ -z "$(ls -A "$home4/skills/.hub/quarantine")" ]] || fail "quarantine not emptied"
