// The ledger's answers (`skillrt ledger list|verify|rollback`): JSON objects
// with `success` first, entries spelt as entries.jsonl spells them; and the
// same answers for people (ledger_text.cpp), tables through render_table.
#pragma once

#include <string>
#include <vector>

#include "core/ledger/ledger.hpp"
#include "core/ledger/ledger_rollback.hpp"
#include "core/ledger/ledger_verify.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// One entry: {seq, id, time, actor, actor_id, action, layer, skill, root, path,
// before: null|{hash, files: [{path, size, sha256, mode}]}, after, note, rolls_back, prev, hash}.
Json ledger_entry_json(const core::LedgerEntry& entry);

// {success: true, ledger, entries: [...]}
Json ledger_list_json(const core::Ledger& ledger, const std::vector<core::LedgerEntry>& entries);

// {success: <intact>, ledger, entries, blobs, problems: [{kind, seq, line, message}], notes: [...]}
Json ledger_verify_json(const core::Ledger& ledger, const core::LedgerVerifyReport& report);

// {success: true, message, rolled_back: <id>, skill, skill_dir?, entry: {...}, warnings?}
Json ledger_rollback_json(const core::LedgerRollback& rollback);

// For people: a table of ID, SEQ, TIME, ACTOR, ACTION, SKILL, NOTE ("No ledger entries." when none).
std::string ledger_list_text(const std::vector<core::LedgerEntry>& entries, bool color);
// "ledger intact: N entries, M blobs" or the problems, one per line, then the notes.
std::string ledger_verify_text(const core::LedgerVerifyReport& report);
// "Rolled back <id> ('skill'): ... ; recorded as <new id>."
std::string ledger_rollback_message(const core::LedgerRollback& rollback);

} // namespace skillrt::protocol
