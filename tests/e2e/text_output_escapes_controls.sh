#!/usr/bin/env bash
# A hostile skill cannot drive the user's terminal: ESC/CSI/OSC sequences, a
# lone CR, other C0 controls, DEL and C1 controls in its description, category
# or body reach every text output as visible escapes (`\x1b`, `\u009b`), on
# stdout and stderr alike, while --json output still carries the exact text.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
category=$'evil\e]0;cat\a'
dir="$home/skills/$category/hostile"
mkdir -p "$dir"
# YAML double-quoted escapes: \e is ESC, \a BEL, \r CR, \x7f DEL, \x9b the C1 CSI.
{
  printf '%s\n' '---' 'name: hostile' \
    'description: "Looks harmless \e]0;pwned\a\e[2J then \rOVERWRITE \x7f \x9b2J \x01 end"' '---' '# Hostile' ''
  printf 'Body line one\twith a tab.\n'
  printf 'Body line two with an escape: \033[1;31mred\033[0m and a title: \033]0;pwned\007\n'
} >"$dir/SKILL.md"
make_skill "$home/skills/care/otters" otters "Otter care, plain and safe"
# A broken skill in the hostile category: doctor names its path among the skipped.
mkdir -p "$home/skills/$category/broken"
printf -- '---\nname: [unclosed\n---\nBody\n' >"$home/skills/$category/broken/SKILL.md"

# has_raw_controls TEXT: true when TEXT holds ESC, BEL, a CR, DEL, another C0
# control besides \n and \t, or a C1 control (UTF-8 C2 80..C2 9F).
has_raw_controls() {
  printf '%s' "$1" | LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]'
}

check_text() {
  local what=$1
  has_raw_controls "$RUN_OUT" && fail "$what: raw control characters on stdout: $(printf '%s' "$RUN_OUT" | od -c | head -20)"
  has_raw_controls "$RUN_ERR" && fail "$what: raw control characters on stderr: $(printf '%s' "$RUN_ERR" | od -c | head -20)"
  return 0
}

# The test's own oracle first: the raw description does hold the bytes.
run_skillrt --home "$home" --json list
assert_exit 0
desc=$(json_get "$RUN_OUT" '.skills[] | select(.name=="hostile") | .description')
assert_eq $'Looks harmless \e]0;pwned\a\e[2J then \rOVERWRITE \x7f \xc2\x9b2J \x01 end' "$desc" "JSON keeps the exact text"
has_raw_controls "$desc" || fail "the oracle finds no control characters in the raw description"

run_skillrt --home "$home" list
assert_exit 0
check_text list
# A table cell is one line (the CR becomes a space) and is cut to the column.
assert_contains "$RUN_OUT" 'Looks harmless \x1b]0;pwned\x07\x1b[2J'
assert_contains "$RUN_OUT" 'evil\x1b]0;cat\x07' "category column"
assert_contains "$RUN_OUT" 'otters' "the safe skill is still listed"

run_skillrt --home "$home" prompt --no-snapshot
assert_exit 0
check_text prompt
# (the index turns the CR into plain whitespace itself)
assert_contains "$RUN_OUT" 'Looks harmless \x1b]0;pwned\x07\x1b[2J then'
assert_contains "$RUN_OUT" 'OVERWRITE \u007f \u009b2J \x01 end'
assert_contains "$RUN_OUT" 'evil\x1b]0;cat\x07:' "category heading"

run_skillrt --home "$home" doctor
check_text doctor
assert_contains "$RUN_OUT" 'evil\x1b]0;cat\x07/broken'

run_skillrt --home "$home" view hostile
assert_exit 0
check_text view
# A body keeps its lines and tabs; only the controls are escaped.
assert_contains "$RUN_OUT" $'Body line one\twith a tab.\nBody line two with an escape: \\x1b[1;31mred\\x1b[0m'

run_skillrt --home "$home" search harmless
check_text search

run_skillrt --home "$home" commands
assert_exit 0
check_text commands
assert_contains "$RUN_OUT" 'hostile'

run_skillrt --home "$home" scan "$dir"
check_text scan

# A failure message naming the hostile category goes through the same filter (stderr).
run_skillrt --home "$home" view "$category/nope"
assert_exit 1
check_text "view error"

# Database skills: db list and db get text.
run_skillrt --home "$home" --user alice --json db create hostile --content "$dir/SKILL.md"
assert_exit 0
run_skillrt --home "$home" --user alice db list
assert_exit 0
check_text "db list"
assert_contains "$RUN_OUT" '\x1b]0;pwned\x07'
run_skillrt --home "$home" --user alice db get hostile
assert_exit 0
check_text "db get"

# --json stays exactly as it was: the control characters escaped the JSON way.
run_skillrt --home "$home" --json view hostile
assert_exit 0
assert_contains "$RUN_OUT" '\u001b[1;31mred'
