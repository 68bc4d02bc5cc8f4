// head.json, the lines of entries.jsonl and the append step (ledger_log.hpp).
#include "core/ledger/ledger_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

#include <nlohmann/json.hpp>

#include "core/files/atomic_file.hpp"
#include "core/files/fsync_dir.hpp"
#include "core/files/read_at.hpp"
#include "core/files/read_file.hpp"
#include "core/files/unique_fd.hpp"
#include "core/limits.hpp"
#include "core/util/strict_json.hpp"
#include "core/util/text.hpp"
#include "core/util/utc_time.hpp"

namespace skillrt::core::ledger_detail {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t k_read_chunk = 64 * 1024;

files::UniqueFd open_entries(const Ledger& ledger, int flags) {
  return files::UniqueFd(::open(ledger.entries_path().c_str(), flags | O_NOFOLLOW | O_CLOEXEC, 0600));
}

Result<std::uint64_t> size_of(int fd, const fs::path& shown) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return fail(ErrorCode::io_error, "cannot stat " + shown.string() + ": " + errno_text(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return fail(ErrorCode::refused, shown.string() + " is not a regular file");
  }
  return static_cast<std::uint64_t>(st.st_size);
}

Result<void> write_all(int fd, std::string_view bytes, const fs::path& shown) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return fail(ErrorCode::io_error, "cannot write " + shown.string() + ": " + errno_text(errno));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

// Cuts entries.jsonl back to `size` bytes, durably.
Result<void> truncate_to(int fd, std::uint64_t size, const fs::path& shown) {
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0 || ::fsync(fd) != 0) {
    return fail(ErrorCode::io_error, "cannot cut " + shown.string() + " back to its last entry: " + errno_text(errno));
  }
  return {};
}

Error damaged(const Ledger& ledger, const std::string& what) {
  return Error{ErrorCode::refused,
               "the ledger " + ledger.dir.string() + " is damaged past its last recorded entry (" + what +
                   "); nothing is appended until it is repaired: run `skillrt ledger verify`",
               {}};
}

} // namespace

Result<std::optional<LedgerHead>> read_head(const Ledger& ledger) {
  auto text = read_regular_file(ledger.head_path(), limits::k_max_ledger_head_bytes);
  if (!text) {
    if (text.error().code == ErrorCode::not_found) {
      return std::optional<LedgerHead>{};
    }
    return tl::unexpected(text.error());
  }
  const auto corrupt = [&] {
    return fail(ErrorCode::parse_error, ledger.head_path().string() + " is not a ledger head");
  };
  if (!check_strict_json(*text, 2)) {
    return corrupt();
  }
  const nlohmann::json json = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || json.size() != 3) {
    return corrupt();
  }
  const auto seq = json.find("seq");
  const auto hash = json.find("hash");
  const auto size = json.find("size");
  if (seq == json.end() || hash == json.end() || size == json.end() || !seq->is_number_unsigned() ||
      !hash->is_string() || !size->is_number_unsigned()) {
    return corrupt();
  }
  LedgerHead head;
  head.seq = seq->get<std::uint64_t>();
  head.hash = hash->get<std::string>();
  head.size = size->get<std::uint64_t>();
  return std::optional<LedgerHead>(std::move(head));
}

Result<void> write_head(const Ledger& ledger, const LedgerHead& head) {
  const std::string text = "{\"seq\":" + std::to_string(head.seq) + ",\"hash\":" + json_quoted(head.hash) +
                           ",\"size\":" + std::to_string(head.size) + "}\n";
  return write_file_atomic(ledger.head_path(), text);
}

Result<void> for_each_line(const Ledger& ledger, const std::function<bool(const LedgerLine&)>& visit,
                           std::uint64_t* file_size) {
  const files::UniqueFd fd = open_entries(ledger, O_RDONLY | O_NONBLOCK);
  if (!fd) {
    if (errno == ENOENT) {
      if (file_size != nullptr) {
        *file_size = 0;
      }
      return {};
    }
    return fail(ErrorCode::io_error, "cannot open " + ledger.entries_path().string() + ": " + errno_text(errno));
  }
  auto size = size_of(fd.get(), ledger.entries_path());
  if (!size) {
    return tl::unexpected(size.error());
  }
  if (file_size != nullptr) {
    *file_size = *size;
  }
  LedgerLine line;
  line.number = 1;
  std::string chunk;
  for (std::uint64_t offset = 0; offset < *size;) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(k_read_chunk, *size - offset));
    chunk.resize(want);
    if (!files::read_exactly_at(fd.get(), offset, chunk.data(), want)) {
      return fail(ErrorCode::io_error, "cannot read " + ledger.entries_path().string() + " at byte " +
                                           std::to_string(offset) + " (it changed or shrank while it was read)");
    }
    std::size_t start = 0;
    while (start < want) {
      const std::size_t newline = chunk.find('\n', start);
      const std::size_t stop = newline == std::string::npos ? want : newline;
      if (!line.too_long) {
        if (line.text.size() + (stop - start) > limits::k_max_ledger_entry_bytes) {
          // Never held in memory: reported by its position alone.
          line.too_long = true;
          std::string().swap(line.text);
        } else {
          line.text.append(chunk, start, stop - start);
        }
      }
      if (newline == std::string::npos) {
        break;
      }
      line.complete = true;
      line.end = offset + newline + 1;
      if (!visit(line)) {
        return {};
      }
      const std::uint64_t next_number = line.number + 1;
      line = LedgerLine{};
      line.number = next_number;
      line.offset = offset + newline + 1;
      start = newline + 1;
    }
    offset += want;
  }
  if (line.offset < *size) {
    // The last line has no newline: torn by a crash, or cut short.
    line.end = *size;
    visit(line);
  }
  return {};
}

bool entry_seal_holds(const LedgerEntry& entry) {
  LedgerEntry copy = entry;
  seal_ledger_entry(copy);
  return copy.hash == entry.hash && copy.id == entry.id;
}

LedgerEntry next_entry(const LedgerHead& head, const LedgerChange& change) {
  LedgerEntry entry;
  static_cast<LedgerChange&>(entry) = change;
  entry.seq = head.seq + 1;
  entry.prev = head.hash;
  entry.time = utc_now_iso8601(TimePrecision::milliseconds);
  seal_ledger_entry(entry);
  return entry;
}

Result<LedgerHead> settle_tail(const Ledger& ledger) {
  auto recorded = read_head(ledger);
  if (!recorded) {
    return tl::unexpected(damaged(ledger, recorded.error().message));
  }
  LedgerHead head = recorded->value_or(LedgerHead{});
  const files::UniqueFd fd = open_entries(ledger, O_RDWR | O_CREAT);
  if (!fd) {
    return fail(ErrorCode::io_error, "cannot open " + ledger.entries_path().string() + ": " + errno_text(errno));
  }
  auto size = size_of(fd.get(), ledger.entries_path());
  if (!size) {
    return tl::unexpected(size.error());
  }
  if (*size < head.size) {
    return tl::unexpected(damaged(ledger, "entries.jsonl is shorter than its head records"));
  }
  if (*size == head.size) {
    return head;
  }
  const std::uint64_t tail_size = *size - head.size;
  if (tail_size > limits::k_max_ledger_entry_bytes + 1) {
    return tl::unexpected(damaged(ledger, std::to_string(tail_size) + " bytes past the head"));
  }
  std::string tail(static_cast<std::size_t>(tail_size), '\0');
  if (!files::read_exactly_at(fd.get(), head.size, tail.data(), tail.size())) {
    return fail(ErrorCode::io_error, "cannot read the end of " + ledger.entries_path().string());
  }
  const std::size_t newline = tail.find('\n');
  if (newline == std::string::npos) {
    // A line torn by a crash mid-append: never committed, so it goes.
    if (auto cut = truncate_to(fd.get(), head.size, ledger.entries_path()); !cut) {
      return tl::unexpected(cut.error());
    }
    return head;
  }
  if (newline + 1 != tail.size()) {
    return tl::unexpected(damaged(ledger, "more than one line past the head"));
  }
  // One complete line: the appender died before it replaced the head. It is
  // adopted when it is exactly the entry that was being appended.
  auto entry = parse_ledger_entry(std::string_view(tail).substr(0, newline));
  if (!entry || !entry_seal_holds(*entry) || entry->seq != head.seq + 1 || entry->prev != head.hash) {
    return tl::unexpected(damaged(ledger, "the line past the head is not the next entry"));
  }
  LedgerHead adopted{entry->seq, entry->hash, *size};
  // Durable before anything is appended after it, so at most one entry is
  // ever past the head.
  if (auto written = write_head(ledger, adopted); !written) {
    return tl::unexpected(written.error());
  }
  return adopted;
}

Result<void> write_entry(const Ledger& ledger, const LedgerHead& head, const LedgerEntry& entry) {
  std::string line = render_ledger_entry(entry);
  if (line.size() > limits::k_max_ledger_entry_bytes) {
    return fail(ErrorCode::limit_exceeded, "the ledger entry is " + std::to_string(line.size()) +
                                               " bytes (limit: k_max_ledger_entry_bytes, " +
                                               std::to_string(limits::k_max_ledger_entry_bytes) + ")");
  }
  line += '\n';
  const files::UniqueFd fd = open_entries(ledger, O_WRONLY | O_APPEND | O_CREAT);
  if (!fd) {
    return fail(ErrorCode::io_error, "cannot open " + ledger.entries_path().string() + ": " + errno_text(errno));
  }
  // One write(2) of the whole line; a failure part-way is cut back at once
  // (and, should that fail too, by the next settle_tail).
  if (auto written = write_all(fd.get(), line, ledger.entries_path()); !written) {
    (void)truncate_to(fd.get(), head.size, ledger.entries_path());
    return written;
  }
  if (::fsync(fd.get()) != 0) {
    const int err = errno;
    (void)truncate_to(fd.get(), head.size, ledger.entries_path());
    return fail(ErrorCode::io_error, "cannot sync " + ledger.entries_path().string() + ": " + errno_text(err));
  }
  if (head.seq == 0) {
    (void)files::fsync_dir(ledger.dir); // the file's own name, on the first entry
  }
  // The entry is committed once it is durable; a head that fails to follow
  // is caught up by the next settle_tail, so this is not an error.
  (void)write_head(ledger, LedgerHead{entry.seq, entry.hash, head.size + line.size()});
  return {};
}

} // namespace skillrt::core::ledger_detail
