#include "core/tenancy/user_home.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <utility>

#include "core/files/unique_fd.hpp"
#include "core/tenancy/user_id.hpp"
#include "core/util/text.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

constexpr mode_t k_owner_only_dir = 0700;

// Creates `name` inside the directory `parent` (0700) when missing and opens
// it without following a symlink, so a planted link in place of users/ or a
// user's folder can never redirect the walk outside HOME/users.
Result<files::UniqueFd> open_or_make_dir(int parent, const char* name, const fs::path& shown) {
  if (::mkdirat(parent, name, k_owner_only_dir) != 0 && errno != EEXIST) {
    const int err = errno;
    return fail(ErrorCode::io_error, "cannot create " + shown.string() + ": " + errno_text(err));
  }
  files::UniqueFd fd(::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) {
    const int err = errno;
    if (err == ELOOP || err == ENOTDIR) {
      return fail(ErrorCode::refused, shown.string() + " is a symlink or not a directory; refusing to use it");
    }
    return fail(ErrorCode::io_error, "cannot open " + shown.string() + ": " + errno_text(err));
  }
  return fd;
}

}  // namespace

Result<UserHome> user_home_paths(const Context& ctx) {
  if (!ctx.user_id) return fail(ErrorCode::invalid_argument, "no user in the context (--user)");
  if (auto ok = check_user_id(*ctx.user_id); !ok) return tl::unexpected(ok.error());
  UserHome home;
  home.root = ctx.home / "users" / *ctx.user_id;
  home.skills = home.root / "skills";
  home.memory = home.root / "memory.json";
  home.todo = home.root / "todo.json";
  home.tmp = home.root / "tmp";
  return home;
}

Result<UserHome> ensure_user_home(const Context& ctx) {
  auto paths = user_home_paths(ctx);
  if (!paths) return paths;

  // HOME itself is the operator's choice (it may legitimately be a symlink);
  // everything below it is ours and is walked without following links.
  std::error_code ec;
  fs::create_directories(ctx.home, ec);
  if (ec) return fail(ErrorCode::io_error, "cannot create " + ctx.home.string() + ": " + ec.message());
  const files::UniqueFd home_fd(::open(ctx.home.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!home_fd) {
    const int err = errno;
    return fail(ErrorCode::io_error, "cannot open " + ctx.home.string() + ": " + errno_text(err));
  }

  auto users = open_or_make_dir(home_fd.get(), "users", ctx.home / "users");
  if (!users) return tl::unexpected(users.error());
  const files::UniqueFd users_fd = std::move(*users);

  auto root = open_or_make_dir(users_fd.get(), ctx.user_id->c_str(), paths->root);
  if (!root) return tl::unexpected(root.error());
  const files::UniqueFd root_fd = std::move(*root);
  // Owner-only even when the folder pre-existed with a looser mode (another
  // tool or an older run may have created it). Only when it differs: a chmod
  // is an inotify event, and watchers would take every read for a change.
  struct stat root_stat {};
  const bool owner_only = ::fstat(root_fd.get(), &root_stat) == 0 && (root_stat.st_mode & 07777) == k_owner_only_dir;
  if (!owner_only && ::fchmod(root_fd.get(), k_owner_only_dir) != 0) {
    const int err = errno;
    return fail(ErrorCode::io_error, "cannot restrict " + paths->root.string() + ": " + errno_text(err));
  }

  for (const char* sub : {"skills", "tmp"}) {
    if (auto dir = open_or_make_dir(root_fd.get(), sub, paths->root / sub); !dir) return tl::unexpected(dir.error());
  }
  return paths;
}

}  // namespace skillrt::core
