// Views and uses counted in memory and written in one locked pass per usage
// book. A server answering thousands of skill_view calls a second must not
// take a file lock and rewrite a JSON file for each one; the CLI, one view per
// process, writes at once through record_view / record_use instead.
//
// Counts only ever add, and a flush applies them inside the book's own
// read-modify-write, so a flush never loses a `pin`, a curator pass or
// another process's counts made in between.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "core/context.hpp"
#include "core/tenancy/layer.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

enum class UsageEvent : unsigned char { view, use };

class UsageTally {
 public:
  // Counts written at the latest after this long, or after this many events.
  explicit UsageTally(std::chrono::milliseconds flush_after = std::chrono::seconds(2),
                      std::size_t flush_at_events = 512);
  ~UsageTally();  // flushes what is pending; errors are dropped (best effort)

  UsageTally(const UsageTally&) = delete;
  UsageTally& operator=(const UsageTally&) = delete;

  // Counts one event of skill `name` (its folder name; a database skill's
  // name) in `layer` as ctx sees it. Flushes when a threshold is passed and no
  // other thread is flushing. Never fails: usage is bookkeeping, and a view
  // must not fail because its count could not be written.
  void note(const Context& ctx, Layer layer, const std::string& name, UsageEvent event);

  // Writes every pending count now. A book that cannot be written keeps its
  // counts for the next flush; the first error is returned.
  Result<void> flush();

  std::size_t pending_events() const;

 private:
  struct Counts {
    std::uint64_t views = 0;
    std::uint64_t uses = 0;
  };
  struct PendingBook {
    Context ctx;   // whose book (the first caller's context for this path)
    Layer layer;   // any layer stored in this book
    std::map<std::pair<Layer, std::string>, Counts> skills;
  };

  std::chrono::milliseconds m_flush_after;
  std::size_t m_flush_at_events;
  mutable std::mutex m_mutex;  // guards the fields below
  std::map<std::string, PendingBook> m_books;  // by book path
  std::size_t m_events = 0;
  std::chrono::steady_clock::time_point m_oldest{};
  std::chrono::steady_clock::time_point m_retry_at{};  // after a failed flush, no automatic one before this
  std::mutex m_flush_mutex;  // one flush at a time
};

}  // namespace skillrt::core
