#!/usr/bin/env bash
# Two users writing at once (issue 3/5): background processes creating and
# patching skills in their own layers all land, and neither sees the other's.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/shared-one" shared-one "Shared"
rounds=8

writer() {  # USER
  local user=$1 i file
  for ((i = 0; i < rounds; i++)); do
    file="$E2E_TMP/$user-$i.md"
    printf -- '---\nname: %s-skill-%d\ndescription: by %s\n---\nBody %d.\n' "$user" "$i" "$user" "$i" >"$file"
    "$SKILLRT_BIN" --home "$home" --user "$user" --json create "$user-skill-$i" --content "$file" \
      >"$E2E_TMP/$user-$i.out" 2>&1 || { echo "create $user $i failed" >>"$E2E_TMP/failures"; continue; }
    "$SKILLRT_BIN" --home "$home" --user "$user" --json patch "$user-skill-$i" --old "Body $i." --new "Patched $i." \
      >>"$E2E_TMP/$user-$i.out" 2>&1 || echo "patch $user $i failed" >>"$E2E_TMP/failures"
  done
}

writer alice &
pid_a=$!
writer bob &
pid_b=$!
wait "$pid_a"
wait "$pid_b"
if [[ -f "$E2E_TMP/failures" ]]; then
  fail "concurrent writes failed: $(cat "$E2E_TMP/failures")"
fi

for user in alice bob; do
  other=$([[ $user == alice ]] && echo bob || echo alice)
  for ((i = 0; i < rounds; i++)); do
    md="$home/users/$user/skills/$user-skill-$i/SKILL.md"
    [[ -f "$md" ]] || fail "$user's skill $i did not land"
    assert_contains "$(cat "$md")" "Patched $i." "$user's skill $i"
  done
  run_skillrt --home "$home" --user "$user" --json list
  assert_exit 0
  assert_eq $((rounds + 1)) "$(json_get "$RUN_OUT" '.count')" "$user's count"
  assert_not_contains "$RUN_OUT" "$other-skill" "$user's listing"
done
[[ -z "$(ls -A "$home/skills" | grep -v shared-one || true)" ]] || fail "user writes leaked into the shared layer"
