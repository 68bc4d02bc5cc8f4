#include "core/memory/user_state_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <system_error>
#include <thread>

#include "core/limits.hpp"
#include "core/tenancy/user_id.hpp"
#include "core/files/atomic_file.hpp"
#include "core/files/read_file.hpp"
#include "core/util/text.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

// Anything at `path` that is not a plain file is refused: a planted symlink
// must never redirect a user's write (or read) elsewhere.
Result<bool> plain_file_exists(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) {
      return false;
    }
    const int err = errno;
    return fail(ErrorCode::io_error, "cannot inspect " + path.string() + ": " + errno_text(err));
  }
  if (S_ISLNK(info.st_mode)) {
    return fail(ErrorCode::refused, path.string() + " is a symlink; refusing to use it");
  }
  if (!S_ISREG(info.st_mode)) {
    return fail(ErrorCode::refused, path.string() + " is not a regular file; refusing to use it");
  }
  return true;
}

} // namespace

Result<UserStateLock> UserStateLock::acquire(const Context& ctx, std::string_view file_stem) {
  if (!ctx.user_id) {
    return fail(ErrorCode::invalid_argument, "no user in the context (--user)");
  }
  // The id becomes part of a file name: only a checked one may.
  SKILLRT_TRY(check_user_id(*ctx.user_id));
  const fs::path dir = ctx.home / "cache" / "locks";
  const fs::path path = dir / ("user-" + *ctx.user_id + "." + std::string(file_stem) + ".lock");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot create the lock folder " + dir.string() + ": " + ec.message());
  }
  auto lock = FileLock::acquire(path, std::chrono::milliseconds(limits::k_user_state_lock_timeout_ms),
                               {"cannot open the lock file", "cannot lock",
                                "another writer has held the lock on the " + std::string(file_stem) + " file of user " +
                                    *ctx.user_id + " for over " +
                                    std::to_string(limits::k_user_state_lock_timeout_ms / 1000) +
                                    " s; try again later"});
  if (!lock) {
    return tl::unexpected(lock.error());
  }
  return UserStateLock(std::move(*lock));
}

Result<std::optional<std::string>> read_user_state_file(const fs::path& path) {
  auto exists = plain_file_exists(path);
  if (!exists) {
    return tl::unexpected(exists.error());
  }
  if (!*exists) {
    return std::optional<std::string>{};
  }
  auto bytes = read_regular_file(path, limits::k_max_user_state_file_bytes);
  if (!bytes) {
    if (bytes.error().code == ErrorCode::not_found) {
      return std::optional<std::string>{}; // removed between the check and the read
    }
    return tl::unexpected(bytes.error());
  }
  return std::optional<std::string>(std::move(*bytes));
}

Result<void> write_user_state_file(const fs::path& path, std::string_view content) {
  SKILLRT_TRY(plain_file_exists(path));
  if (auto written = write_file_atomic(path, content); !written) {
    return written;
  }
  // A new file is created 0600 already; an old one may have been loosened by hand.
  if (::chmod(path.c_str(), S_IRUSR | S_IWUSR) != 0) {
    const int err = errno;
    return fail(ErrorCode::io_error, "cannot set mode 0600 on " + path.string() + ": " + errno_text(err));
  }
  return {};
}

} // namespace skillrt::core
