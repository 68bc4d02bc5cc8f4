// The change log port (issue 4/6): every change event of every process that
// shares one database — replicas of `skillrt serve` and the CLI — appended as
// one row with a sequence number that rises in commit order, so each replica
// can replay exactly what it has not seen yet, after a dropped connection as
// after a restart. The PostgreSQL adapter (src/store/postgres) also wakes
// every listener with NOTIFY; nothing in core knows how.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/events/event_bus.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

class ChangeLog {
 public:
  virtual ~ChangeLog() = default;

  // Appends `event` (its sequence is ignored) and returns the row's sequence,
  // or 0 when `dedupe_key` is not empty and a row with that key exists
  // already: several replicas that notice the same edit on a shared volume
  // log it once. Sequences rise in commit order: a reader that has seen N
  // never later finds a row below N appear.
  virtual Result<std::uint64_t> append(const SkillEvent& event, std::string_view dedupe_key) = 0;
  // Rows after `sequence`, oldest first, at most `limit`; each event's
  // `sequence` is its row's.
  virtual Result<std::vector<SkillEvent>> read_after(std::uint64_t sequence, std::size_t limit) = 0;
  // The newest row's sequence (0 for an empty log).
  virtual Result<std::uint64_t> last_sequence() = 0;
};

// A wake-up call for a change-log reader: blocks until the log may have new
// rows (PostgreSQL's LISTEN), the timeout, or interrupt().
class ChangeSignal {
 public:
  virtual ~ChangeSignal() = default;

  // Connects (or reconnects) the dedicated listening connection. After it
  // succeeds no append is missed: the reader must catch up from the log once,
  // since rows appended while it was away sent their wake-up to nobody.
  virtual Result<void> connect() = 0;
  // true: a notification arrived (or interrupt() was called); false: the
  // timeout passed. An error means the connection is gone: connect() again.
  virtual Result<bool> wait(std::chrono::milliseconds timeout) = 0;
  // Makes a wait() in progress on another thread return now. Thread-safe.
  virtual void interrupt() = 0;
};

}  // namespace skillrt::core
