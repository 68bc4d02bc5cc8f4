// Verifying a ledger (ledger_verify.hpp): one pass over entries.jsonl, then
// the head, then every blob once.
#include "core/ledger/ledger_verify.hpp"

#include <map>
#include <optional>
#include <system_error>

#include "core/ledger/ledger_blobs.hpp"
#include "core/ledger/ledger_log.hpp"
#include "core/ledger/ledger_rollback.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using ledger_detail::LedgerHead;
using ledger_detail::LedgerLine;

std::string seq_text(std::uint64_t seq) {
  return "entry " + std::to_string(seq);
}

// What the pass over the lines remembers about one complete entry line.
struct Seen {
  std::uint64_t seq = 0;
  std::string hash;
  std::uint64_t end = 0;
  std::uint64_t line = 0;
};

class Verifier {
public:
  explicit Verifier(const Ledger& ledger) : m_ledger(ledger) {}

  LedgerVerifyReport run() {
    auto head = ledger_detail::read_head(m_ledger);
    if (!head) {
      problem(LedgerCheck::corrupt, 0, 0, head.error().message);
    }
    std::uint64_t file_size = 0;
    auto walked = ledger_detail::for_each_line(
        m_ledger, [this](const LedgerLine& line) { return visit(line), true; }, &file_size);
    if (!walked) {
      problem(LedgerCheck::corrupt, 0, 0, walked.error().message);
      return std::move(m_report);
    }
    if (head) {
      check_head(*head, file_size);
    }
    check_blobs();
    for (const PendingLedgerRollback& pending : pending_ledger_rollbacks(m_ledger)) {
      note(LedgerCheck::pending_rollback, 0, 0,
           "a rollback of " + pending.target.string() + " was interrupted (" + pending.record.filename().string() +
               "); the next `skillrt ledger rollback` finishes or undoes it");
    }
    return std::move(m_report);
  }

private:
  void problem(LedgerCheck kind, std::uint64_t seq, std::uint64_t line, std::string message) {
    m_report.problems.push_back(LedgerFinding{kind, seq, line, std::move(message)});
  }
  void note(LedgerCheck kind, std::uint64_t seq, std::uint64_t line, std::string message) {
    m_report.notes.push_back(LedgerFinding{kind, seq, line, std::move(message)});
  }

  void visit(const LedgerLine& line) {
    const std::uint64_t expected = m_seen.empty() ? 1 : m_seen.back().seq + 1;
    if (!line.complete) {
      // Judged with the head (a torn line past it is a crash's leftover).
      m_torn = line;
      return;
    }
    if (line.too_long) {
      problem(LedgerCheck::corrupt, expected, line.number,
              "line " + std::to_string(line.number) + " is longer than " +
                  "k_max_ledger_entry_bytes; it is not an entry");
      m_chain_known = false;
      m_seen.push_back(Seen{expected, "", line.end, line.number});
      return;
    }
    auto entry = parse_ledger_entry(line.text);
    if (!entry) {
      problem(LedgerCheck::corrupt, expected, line.number,
              "line " + std::to_string(line.number) + " is not a ledger entry: " + entry.error().message);
      m_chain_known = false;
      m_seen.push_back(Seen{expected, "", line.end, line.number});
      return;
    }
    ++m_report.entries;
    if (!ledger_detail::entry_seal_holds(*entry)) {
      problem(LedgerCheck::edited, entry->seq, line.number,
              seq_text(entry->seq) + " (line " + std::to_string(line.number) +
                  ") does not match its hash: it was edited after it was written");
    }
    const std::string previous = m_seen.empty() ? std::string() : m_seen.back().hash;
    if (entry->seq != expected) {
      if (entry->seq > expected) {
        problem(LedgerCheck::chain_break, entry->seq, line.number,
                seq_text(entry->seq) + " follows " + (expected == 1 ? "the start" : seq_text(expected - 1)) + ": " +
                    (entry->seq - expected == 1
                         ? seq_text(expected) + " was"
                         : "entries " + std::to_string(expected) + "-" + std::to_string(entry->seq - 1) + " were") +
                    " removed");
      } else {
        problem(LedgerCheck::chain_break, entry->seq, line.number,
                seq_text(entry->seq) + " comes after " + seq_text(expected - 1) + ": entries were reordered or copied");
      }
    } else if (m_chain_known && entry->prev != previous) {
      problem(LedgerCheck::chain_break, entry->seq, line.number,
              seq_text(entry->seq) + " does not chain onto the entry before it: an entry was replaced, removed or " +
                  "reordered");
    }
    m_chain_known = true;
    for (const auto* snapshot : {&entry->before, &entry->after}) {
      if (*snapshot) {
        for (const LedgerFile& file : (*snapshot)->files) {
          m_blobs.emplace(file.sha256, BlobUse{file, entry->seq, line.number});
        }
      }
    }
    m_seen.push_back(Seen{entry->seq, entry->hash, line.end, line.number});
  }

  void check_head(const std::optional<LedgerHead>& head, std::uint64_t file_size) {
    const LedgerHead recorded = head.value_or(LedgerHead{});
    // The entry head.json names, found by seq and hash (searched from the
    // end: it is normally the last or the one before).
    std::size_t committed = 0; // entries through the head's
    if (recorded.seq > 0) {
      std::optional<std::size_t> found;
      for (std::size_t i = m_seen.size(); i-- > 0;) {
        if (m_seen[i].seq == recorded.seq && m_seen[i].hash == recorded.hash) {
          found = i;
          break;
        }
      }
      if (found) {
        committed = *found + 1;
        if (m_seen[*found].end != recorded.size && m_report.problems.empty()) {
          problem(LedgerCheck::edited, recorded.seq, m_seen[*found].line,
                  "the bytes of entries.jsonl before " + seq_text(recorded.seq) +
                      " changed length, though every entry still matches its hash: the file was rewritten");
        }
      } else {
        const std::uint64_t last_seq = m_seen.empty() ? 0 : m_seen.back().seq;
        if (file_size < recorded.size || last_seq < recorded.seq) {
          problem(LedgerCheck::truncated, recorded.seq, 0,
                  "head.json records " + seq_text(recorded.seq) + " (" + std::to_string(recorded.size) +
                      " bytes) but the ledger ends at " + (last_seq == 0 ? "no entry" : seq_text(last_seq)) + " (" +
                      std::to_string(file_size) + " bytes): the last entries were removed");
        } else {
          problem(LedgerCheck::truncated, recorded.seq, 0,
                  "head.json records " + seq_text(recorded.seq) +
                      " with a hash no entry has: the entries it recorded were replaced");
        }
        committed = m_seen.size(); // judged above; nothing more to say about the tail
      }
    }
    const std::size_t past = m_seen.size() - committed;
    if (past == 1 && m_seen.back().seq == recorded.seq + 1) {
      note(LedgerCheck::head_behind, m_seen.back().seq, m_seen.back().line,
           seq_text(m_seen.back().seq) + " was written but head.json was not replaced (a writer was killed); the " +
               "next append records it");
    } else if (past > 0) {
      if (!head) {
        problem(LedgerCheck::truncated, 0, 0,
                "head.json is missing while entries.jsonl holds " + std::to_string(m_seen.size()) +
                    " entries: the end of the ledger cannot be checked");
      } else {
        problem(LedgerCheck::damaged_tail, recorded.seq + 1, m_seen[committed].line,
                std::to_string(past) + " entries follow the one head.json records (" + seq_text(recorded.seq) +
                    "); an append leaves at most one");
      }
    }
    if (m_torn) {
      if (m_torn->offset >= recorded.size) {
        note(LedgerCheck::torn_tail, 0, m_torn->number,
             "line " + std::to_string(m_torn->number) +
                 " is torn (an append was killed mid-write); it was never committed and the next append removes it");
      } else {
        problem(LedgerCheck::truncated, recorded.seq, m_torn->number,
                "line " + std::to_string(m_torn->number) + " is cut short before the end head.json records");
      }
    }
  }

  void check_blobs() {
    for (const auto& [sha, use] : m_blobs) {
      ++m_report.blobs;
      auto bytes = read_ledger_blob(m_ledger, use.file);
      if (bytes) {
        continue;
      }
      const bool missing = bytes.error().code == ErrorCode::not_found;
      problem(missing ? LedgerCheck::missing_blob : LedgerCheck::corrupt_blob, use.seq, use.line,
              seq_text(use.seq) + ": " + bytes.error().message);
    }
  }

  struct BlobUse {
    LedgerFile file;
    std::uint64_t seq = 0;
    std::uint64_t line = 0;
  };

  const Ledger& m_ledger;
  LedgerVerifyReport m_report;
  std::vector<Seen> m_seen;
  bool m_chain_known = true;
  std::optional<LedgerLine> m_torn;
  std::map<std::string, BlobUse> m_blobs; // by sha256: each blob read once
};

} // namespace

const char* ledger_check_name(LedgerCheck check) {
  switch (check) {
  case LedgerCheck::corrupt:
    return "corrupt";
  case LedgerCheck::edited:
    return "edited";
  case LedgerCheck::chain_break:
    return "chain_break";
  case LedgerCheck::truncated:
    return "truncated";
  case LedgerCheck::damaged_tail:
    return "damaged_tail";
  case LedgerCheck::missing_blob:
    return "missing_blob";
  case LedgerCheck::corrupt_blob:
    return "corrupt_blob";
  case LedgerCheck::torn_tail:
    return "torn_tail";
  case LedgerCheck::head_behind:
    return "head_behind";
  case LedgerCheck::pending_rollback:
    return "pending_rollback";
  }
  return "corrupt";
}

LedgerVerifyReport verify_ledger(const Ledger& ledger) {
  return Verifier(ledger).run();
}

} // namespace skillrt::core
