#!/usr/bin/env bash
# `match MESSAGE [--path FILE]... [--limit N]`: the skills whose triggers fire
# on a user's message, each with its reasons, as one JSON object
# {success, message, results:[{name, description, source, score, path|id,
# reasons:[{kind, trigger, matched}]}], count[, problems]}; off-topic messages
# match nothing; `paths` globs; a user's database skill; a catastrophic
# pattern costs nothing; bad input fails cleanly. Then the same over MCP
# (skills_match) on stdio.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/security/web-pentest" web-pentest "Test a web app for vulnerabilities" \
  "triggers:" '  - "pentest [URL]"' '  - "find vulns in [URL]"' '  - "/\\bsql ?injection\\b/"'
make_skill "$home/skills/music/songwriting" songwriting "Write songs" \
  "triggers: [writing a song, song lyrics]"
make_skill "$home/skills/frontend/ts-style" ts-style "House style for TypeScript" \
  "paths:" '  - "src/**/*.{ts,tsx}"'
make_skill "$home/skills/code-review" code-review "Review a diff"
make_skill "$home/skills/evil" evil "A pattern a backtracking engine chokes on" \
  "triggers:" '  - "/(a+)+$/"' '  - "/(x+x+)+y/"'
make_skill "$home/skills/broken" broken "Broken triggers" \
  "triggers:" '  - "/(unclosed/"' '  - "never said by anyone"'

run_skillrt --home "$home" --json match "Please pentest https://shop.example/login before Friday"
assert_exit 0
assert_json_object
assert_eq '["success","message","results","count","problems"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "key order"
assert_eq '["web-pentest"]' "$(json_get "$RUN_OUT" '[.results[].name]')" "fired"
assert_eq '["name","description","source","score","path","reasons"]' \
  "$(json_get "$RUN_OUT" '.results[0] | keys_unsorted')" "result key order"
assert_eq "$home/skills/security/web-pentest/SKILL.md" "$(json_get "$RUN_OUT" '.results[0].path')" "path"
assert_eq '[{"kind":"phrase","trigger":"pentest [URL]","matched":"pentest https://shop.example/login"}]' \
  "$(json_get "$RUN_OUT" '.results[0].reasons')" "reason"
assert_eq '[{"name":"broken","trigger":"/(unclosed/","error":"pattern does not compile: missing ): (unclosed"}]' \
  "$(json_get "$RUN_OUT" '.problems')" "problems"

# A pattern, a name, words near each other; ranked, with --limit.
run_skillrt --home "$home" --json match "Check this SQL injection, then do a code review, and the lyrics of our song"
assert_exit 0
assert_eq '["web-pentest","code-review","songwriting"]' "$(json_get "$RUN_OUT" '[.results[].name]')" "ranked"
assert_eq '["pattern","name","words"]' "$(json_get "$RUN_OUT" '[.results[].reasons[0].kind]')" "kinds"
assert_eq 'SQL injection' "$(json_get "$RUN_OUT" '.results[0].reasons[0].matched')" "pattern matched"
run_skillrt --home "$home" --json match "Check this SQL injection, then do a code review" --limit 1
assert_eq '["web-pentest"]' "$(json_get "$RUN_OUT" '[.results[].name]')" "--limit 1"

# Off-topic: nothing, and success.
for message in "What's the weather in Lisbon?" "thanks!" "summarise the meeting notes" "songs"; do
  run_skillrt --home "$home" --json match "$message"
  assert_exit 0
  assert_eq 0 "$(json_get "$RUN_OUT" '.count')" "off-topic: $message"
done

# Files the turn touches.
run_skillrt --home "$home" --json match "" --path src/ui/button.tsx --path README.md
assert_exit 0
assert_eq '[{"kind":"path","trigger":"src/**/*.{ts,tsx}","matched":"src/ui/button.tsx"}]' \
  "$(json_get "$RUN_OUT" '.results[0].reasons')" "path reason"

# A catastrophic pattern over a long message: linear time (a backtracking
# engine would not finish within the 60 s run_skillrt allows).
long=$(head -c 60000 /dev/zero | tr '\0' a)
run_skillrt --home "$home" --json match "${long}!"
assert_exit 0
assert_eq 0 "$(json_get "$RUN_OUT" '.count')" "catastrophic pattern"

# Text mode: a line per skill, a line per reason; problems on stderr.
run_skillrt --home "$home" match "pentest http://a.test"
assert_exit 0
assert_eq 'web-pentest  [shared]  Test a web app for vulnerabilities
    phrase "pentest [URL]" <- pentest http://a.test' "$RUN_OUT" "text"
assert_contains "$RUN_ERR" 'note: broken: trigger "/(unclosed/" is ignored: pattern does not compile'

# A user's database skill: theirs alone.
printf -- '---\nname: invoices\ndescription: Bill clients\ntriggers: [send an invoice]\n---\nBody.\n' >"$E2E_TMP/invoices.md"
run_skillrt --home "$home" --user alice --json db create invoices --content "$E2E_TMP/invoices.md"
assert_exit 0
run_skillrt --home "$home" --user alice --json match "please send an invoice to ACME"
assert_eq '["invoices"]' "$(json_get "$RUN_OUT" '[.results[].name]')" "alice's row"
assert_eq database "$(json_get "$RUN_OUT" '.results[0].source')" "source"
assert_eq true "$(json_get "$RUN_OUT" '.results[0].id > 0')" "id"
run_skillrt --home "$home" --user bob --json match "please send an invoice to ACME"
assert_eq 0 "$(json_get "$RUN_OUT" '.count')" "bob does not get alice's row"

# Bad requests.
run_skillrt --home "$home" --json match "   "
assert_exit 1
assert_json_object
assert_contains "$(json_get "$RUN_OUT" '.error')" "message is empty"
run_skillrt --home "$home" --json match "$(head -c 70000 /dev/zero | tr '\0' b)"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "longer than 65536 bytes"
run_skillrt --home "$home" --json match x --limit 0
assert_exit 2
run_skillrt --home "$home" --json match
assert_exit 2

# Over MCP: skills_match is the fifth tool, answering the same JSON (without problems).
mcp_in=$(cat <<'JSONRPC'
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"skills_match","arguments":{"message":"pentest https://a.test","paths":["src/x.ts"],"limit":5}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"skills_match","arguments":{"message":"hi","paths":"src/x.ts"}}}
JSONRPC
)
out=$(printf '%s\n' "$mcp_in" | timeout 30 "$SKILLRT_BIN" --home "$home" mcp 2>"$E2E_TMP/mcp.err") || fail "mcp exited $?"
answer() { jq -c "select(.id == $1) | $2" <<<"$out"; }
assert_eq '["skills_list","skill_view","skill_manage","skills_search","skills_match"]' \
  "$(answer 2 '[.result.tools[].name]')" "tools"
assert_eq '["web-pentest","ts-style"]' "$(answer 3 '[.result.structuredContent.results[].name]')" "mcp match"
assert_eq false "$(answer 3 '.result.structuredContent | has("problems")')" "no problems over MCP"
assert_eq true "$(answer 4 '.result.isError')" "paths must be an array"
assert_contains "$(answer 4 '.result.content[0].text')" "Argument 'paths' must be an array of strings."
