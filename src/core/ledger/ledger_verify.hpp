// `ledger verify`: proves the ledger is the one its appenders wrote, or says
// where it is not. Each problem names the entry (seq) and the line:
//   corrupt      a line that is not an entry (or an unreadable head.json)
//   edited       an entry whose members no longer match its hash (or id)
//   chain_break  an entry that does not follow the one before it: its seq
//                jumps (entries removed) or goes back, or its prev is not
//                the previous entry's hash (an entry removed, replaced or
//                reordered)
//   truncated    the file ends before the entry head.json records (the last
//                entries removed), or the head does not match the entry it names
//   damaged_tail more than the one entry a crash can leave past the head
//   missing_blob / corrupt_blob  a file of a snapshot whose bytes are gone or
//                do not match
// Notes are states a crash leaves that the next append settles, not damage:
//   torn_tail        a last line without its newline past the head (an append killed mid-write)
//   head_behind      one complete entry past the head (killed before the head was replaced)
//   pending_rollback a rollback's journal record (killed mid-rollback; the next rollback recovers it)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ledger/ledger.hpp"

namespace skillrt::core {

enum class LedgerCheck : unsigned char {
  corrupt,
  edited,
  chain_break,
  truncated,
  damaged_tail,
  missing_blob,
  corrupt_blob,
  torn_tail,
  head_behind,
  pending_rollback,
};
// "corrupt" | "edited" | "chain_break" | "truncated" | "damaged_tail" | "missing_blob" | "corrupt_blob" |
// "torn_tail" | "head_behind" | "pending_rollback"
const char* ledger_check_name(LedgerCheck check);

struct LedgerFinding {
  LedgerCheck kind = LedgerCheck::corrupt;
  std::uint64_t seq = 0;  // the entry concerned (0: the ledger as a whole)
  std::uint64_t line = 0; // its line in entries.jsonl (0: none)
  std::string message;
};

struct LedgerVerifyReport {
  std::uint64_t entries = 0;           // entries read
  std::uint64_t blobs = 0;             // distinct blobs checked
  std::vector<LedgerFinding> problems; // any: the ledger is not intact
  std::vector<LedgerFinding> notes;    // crash leftovers the next write settles
  bool ok() const { return problems.empty(); }
};

// Reads the whole ledger (a missing one is empty and intact) and every blob
// its entries name. Never throws; an unreadable file is a problem.
LedgerVerifyReport verify_ledger(const Ledger& ledger);

} // namespace skillrt::core
