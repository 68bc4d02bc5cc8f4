// The ledger's two files below the API (ledger.hpp has the protocol):
// head.json and the lines of entries.jsonl. Shared by append, list, verify
// and rollback so they read the same bytes the same way.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/ledger/ledger.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::ledger_detail {

// What head.json records: the last committed entry and where it ends.
struct LedgerHead {
  std::uint64_t seq = 0;
  std::string hash;       // "" before the first entry
  std::uint64_t size = 0; // bytes of entries.jsonl through entry `seq`
};

// head.json; nullopt when there is none. Errors: parse_error for anything
// but a complete head, and the read's own.
Result<std::optional<LedgerHead>> read_head(const Ledger& ledger);

// Replaces head.json atomically.
Result<void> write_head(const Ledger& ledger, const LedgerHead& head);

// One line of entries.jsonl.
struct LedgerLine {
  std::uint64_t number = 0; // 1-based
  std::uint64_t offset = 0; // where it starts
  std::uint64_t end = 0;    // just past its newline (or past its last byte when torn)
  std::string text;         // without the newline; empty when too_long
  bool complete = false;    // ended by a newline
  bool too_long = false;    // longer than limits::k_max_ledger_entry_bytes (text left out)
};

// Every line of entries.jsonl in order (none when it does not exist);
// `visit` returning false stops the walk. `file_size` (when given) receives
// the size read. Errors: io_error.
Result<void> for_each_line(const Ledger& ledger, const std::function<bool(const LedgerLine&)>& visit,
                           std::uint64_t* file_size = nullptr);

// Checks that `entry` is sealed correctly: hash over its members, id its prefix.
bool entry_seal_holds(const LedgerEntry& entry);

// Under the lock: makes the part past the head what append can build on
// (adopting a complete entry that chains onto the head, cutting a torn
// line) and returns the head to append after. refused when the tail is damaged.
Result<LedgerHead> settle_tail(const Ledger& ledger);

// Under the lock, after settle_tail: writes `entry` (sealed, seq head.seq+1,
// prev head.hash) as the next line, fsyncs it and replaces the head.
Result<void> write_entry(const Ledger& ledger, const LedgerHead& head, const LedgerEntry& entry);

// An entry for `change` after `head`, sealed, with the current time.
LedgerEntry next_entry(const LedgerHead& head, const LedgerChange& change);

} // namespace skillrt::core::ledger_detail
