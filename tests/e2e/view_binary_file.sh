#!/usr/bin/env bash
# A linked file that is not UTF-8 text is reported as binary instead of being
# served as mojibake (spec §5.1 item 5, fixed).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/art" art "Has an image"
mkdir -p "$home/skills/art/assets"
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR' >"$home/skills/art/assets/logo.png"

run_skillrt --home "$home" --json view art --file assets/logo.png
assert_exit 0
assert_json_object
assert_eq true "$(json_get "$RUN_OUT" '.is_binary')" "is_binary"
assert_eq "[Binary file: logo.png, size: 16 bytes]" "$(json_get "$RUN_OUT" '.content')" "content"
