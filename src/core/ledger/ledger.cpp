// Where ledgers live, their lock, append, list and find (ledger.hpp).
#include "core/ledger/ledger.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <system_error>

#include "core/files/fsync_dir.hpp"
#include "core/ledger/ledger_log.hpp"
#include "core/limits.hpp"
#include "core/tenancy/user_home.hpp"
#include "core/util/text.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using ledger_detail::LedgerHead;

constexpr mode_t k_owner_only_dir = 0700;

// `path` as an owner-only folder of ours: made when missing, refused when a
// symlink or anything but a folder stands there.
Result<void> make_private_dir(const fs::path& path) {
  if (::mkdir(path.c_str(), k_owner_only_dir) == 0) {
    (void)files::fsync_dir(path.parent_path());
    return {};
  }
  if (errno != EEXIST) {
    return fail(ErrorCode::io_error, "cannot create " + path.string() + ": " + errno_text(errno));
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return fail(ErrorCode::io_error, "cannot inspect " + path.string() + ": " + errno_text(errno));
  }
  if (!S_ISDIR(st.st_mode)) {
    return fail(ErrorCode::refused, path.string() + " is a symlink or not a folder; refusing to use it");
  }
  return {};
}

bool is_hex_text(std::string_view text) {
  for (const char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return false;
    }
  }
  return true;
}

} // namespace

Result<Ledger> ledger_for(const Context& ctx, Layer layer) {
  if (!ctx.home.is_absolute()) {
    // Never a ledger relative to wherever the process runs.
    return fail(ErrorCode::invalid_argument,
                "the ledger needs an absolute home folder, not '" + ctx.home.string() + "'");
  }
  Ledger ledger;
  ledger.home = ctx.home;
  if (layer == Layer::shared) {
    ledger.dir = ctx.home / "ledger";
    return ledger;
  }
  SKILLRT_TRY_ASSIGN(const UserHome home, user_home_paths(ctx));
  ledger.dir = home.root / "ledger";
  ledger.owner = *ctx.user_id;
  return ledger;
}

Result<void> ensure_ledger(const Ledger& ledger) {
  if (!ledger.owner.empty()) {
    // The user's own folder, made and checked the one way (no planted links).
    Context owner_ctx;
    owner_ctx.home = ledger.home;
    owner_ctx.user_id = ledger.owner;
    SKILLRT_TRY(ensure_user_home(owner_ctx));
  } else {
    std::error_code ec;
    fs::create_directories(ledger.home, ec);
    if (ec) {
      return fail(ErrorCode::io_error, "cannot create " + ledger.home.string() + ": " + ec.message());
    }
  }
  return make_private_dir(ledger.dir);
}

Result<LedgerLock> LedgerLock::acquire(const Ledger& ledger) {
  auto lock = FileLock::acquire(ledger.lock_path(), std::chrono::milliseconds(limits::k_ledger_lock_timeout_ms),
                                {"cannot open the ledger lock", "cannot lock",
                                 "another writer has held the ledger " + ledger.dir.string() + " for over " +
                                     std::to_string(limits::k_ledger_lock_timeout_ms / 1000) + " s; try again later"});
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  return LedgerLock(std::move(*lock));
}

Result<LedgerEntry> append_ledger_entry_locked(const Ledger& ledger, const LedgerChange& change) {
  SKILLRT_TRY_ASSIGN(const LedgerHead head, ledger_detail::settle_tail(ledger));
  LedgerEntry entry = ledger_detail::next_entry(head, change);
  SKILLRT_TRY(ledger_detail::write_entry(ledger, head, entry));
  return entry;
}

Result<LedgerEntry> append_ledger_entry(const Ledger& ledger, const LedgerChange& change) {
  SKILLRT_TRY(ensure_ledger(ledger));
  SKILLRT_TRY_ASSIGN(const LedgerLock lock, LedgerLock::acquire(ledger));
  return append_ledger_entry_locked(ledger, change);
}

Result<std::vector<LedgerEntry>> list_ledger(const Ledger& ledger, std::string_view skill) {
  std::vector<LedgerEntry> entries;
  auto walked = ledger_detail::for_each_line(ledger, [&](const ledger_detail::LedgerLine& line) {
    if (!line.complete || line.too_long) {
      return true;
    }
    auto entry = parse_ledger_entry(line.text);
    if (entry && (skill.empty() || entry->skill == skill)) {
      entries.push_back(std::move(*entry));
    }
    return true;
  });
  if (!walked) {
    return tl::unexpected(walked.error());
  }
  return entries;
}

Result<LedgerEntry> find_ledger_entry(const Ledger& ledger, std::string_view id) {
  if (id.size() < limits::k_min_ledger_id_prefix || id.size() > 64 || !is_hex_text(id)) {
    return fail(ErrorCode::invalid_argument, "a ledger entry id is " + std::to_string(k_ledger_id_hex_digits) +
                                                 " lower-case hex digits (at least " +
                                                 std::to_string(limits::k_min_ledger_id_prefix) + " of them)");
  }
  SKILLRT_TRY_ASSIGN(std::vector<LedgerEntry> entries, list_ledger(ledger));
  std::vector<LedgerEntry*> found;
  for (LedgerEntry& entry : entries) {
    if (entry.hash.compare(0, id.size(), id) == 0) {
      found.push_back(&entry);
    }
  }
  if (found.empty()) {
    return fail(ErrorCode::not_found, "no ledger entry " + std::string(id) + " in " + ledger.dir.string());
  }
  if (found.size() > 1) {
    return fail(ErrorCode::ambiguous,
                "more than one ledger entry starts with " + std::string(id) + "; give more digits");
  }
  return std::move(*found.front());
}

} // namespace skillrt::core
