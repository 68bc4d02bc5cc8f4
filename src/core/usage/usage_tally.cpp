#include "core/usage/usage_tally.hpp"

#include <utility>
#include <vector>

#include "core/usage/usage_book.hpp"
#include "core/util/utc_time.hpp"

namespace skillrt::core {

UsageTally::UsageTally(std::chrono::milliseconds flush_after, std::size_t flush_at_events)
    : m_flush_after(flush_after), m_flush_at_events(flush_at_events) {}

UsageTally::~UsageTally() { (void)flush(); }

void UsageTally::note(const Context& ctx, Layer layer, const std::string& name, UsageEvent event) {
  auto path = usage_book_path(ctx, layer);
  if (!path) {
    return;  // no book for this caller (a database skill without a user): nothing to count
  }
  bool due = false;
  {
    std::lock_guard lock(m_mutex);
    auto book = m_books.try_emplace(path->string(), PendingBook{ctx, layer, {}}).first;
    Counts& counts = book->second.skills[{layer, name}];
    (event == UsageEvent::view ? counts.views : counts.uses) += 1;
    if (m_events++ == 0) {
      m_oldest = std::chrono::steady_clock::now();
    }
    const auto now = std::chrono::steady_clock::now();
    due = now >= m_retry_at && (m_events >= m_flush_at_events || now - m_oldest >= m_flush_after);
  }
  if (due) {
    std::unique_lock flushing(m_flush_mutex, std::try_to_lock);
    if (flushing.owns_lock()) {
      (void)flush();
    }
  }
}

Result<void> UsageTally::flush() {
  std::map<std::string, PendingBook> books;
  {
    std::lock_guard lock(m_mutex);
    books.swap(m_books);
    m_events = 0;
  }
  std::optional<Error> first_error;
  const std::string now = utc_now_iso8601();
  // Named references, not a structured binding: clang 14 cannot capture a
  // binding in the lambda below.
  for (auto& entry : books) {
    const std::string& path = entry.first;
    PendingBook& book = entry.second;
    auto written = update_usage_book(book.ctx, book.layer, [&](UsageBook& records) {
      for (const auto& [key, counts] : book.skills) {
        auto [record, added] = records.of(key.first).try_emplace(key.second);
        if (added) {
          record->second.created_at = now;
          record->second.state_since = now;
        }
        record->second.views += counts.views;
        record->second.uses += counts.uses;
        record->second.last_used = now;
      }
      return true;
    });
    if (!written) {
      if (!first_error) {
        first_error = written.error();
      }
      // Keep the counts for the next flush.
      std::lock_guard lock(m_mutex);
      auto pending = m_books.try_emplace(path, PendingBook{book.ctx, book.layer, {}}).first;
      for (const auto& [key, counts] : book.skills) {
        Counts& kept = pending->second.skills[key];
        kept.views += counts.views;
        kept.uses += counts.uses;
        m_events += counts.views + counts.uses;
      }
      // Retry after another full interval, not on every note: a book that
      // cannot be written must not turn each view into a failing write.
      m_oldest = std::chrono::steady_clock::now();
      m_retry_at = m_oldest + m_flush_after;
    }
  }
  if (first_error) {
    return tl::unexpected(*first_error);
  }
  return {};
}

std::size_t UsageTally::pending_events() const {
  std::lock_guard lock(m_mutex);
  return m_events;
}

}  // namespace skillrt::core
