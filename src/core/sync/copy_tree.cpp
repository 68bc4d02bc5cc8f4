// Copying a bundled skill folder (see copy_tree.hpp).
#include "core/sync/copy_tree.hpp"

#include <system_error>
#include <utility>
#include <vector>

#include "core/files/runtime_cache.hpp"
#include "core/limits.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;

Result<void> copy_entries(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  if (!fs::create_directory(to, from, ec) || ec) {
    return fail(ErrorCode::io_error, "cannot create " + to.string() + ": " + (ec ? ec.message() : "it exists"));
  }
  std::vector<std::pair<fs::path, std::size_t>> pending{{fs::path(), 0}};
  std::size_t entries = 0;
  std::uint64_t bytes = 0;
  while (!pending.empty()) {
    auto [relative_dir, depth] = std::move(pending.back());
    pending.pop_back();
    fs::directory_iterator it(from / relative_dir, ec);
    if (ec) {
      return fail(ErrorCode::io_error, "cannot read " + (from / relative_dir).string() + ": " + ec.message());
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      const fs::path relative = relative_dir / name;
      const fs::path source = it->path();
      const fs::path target = to / relative;
      if (++entries > limits::k_max_bundle_entries) {
        return fail(ErrorCode::limit_exceeded, from.string() + " has more than " +
                                                   std::to_string(limits::k_max_bundle_entries) +
                                                   " entries (limits::k_max_bundle_entries)");
      }
      const fs::file_status status = it->symlink_status(ec);
      if (ec) {
        return fail(ErrorCode::io_error, "cannot stat " + source.string() + ": " + ec.message());
      }
      if (fs::is_directory(status)) {
        if (files::is_runtime_cache_dir(name)) {
          continue;
        }
        if (depth + 1 > limits::k_max_bundle_depth) {
          return fail(ErrorCode::limit_exceeded, source.string() + " is deeper than " +
                                                     std::to_string(limits::k_max_bundle_depth) +
                                                     " levels (limits::k_max_bundle_depth)");
        }
        fs::create_directory(target, source, ec);
        if (ec) {
          return fail(ErrorCode::io_error, "cannot create " + target.string() + ": " + ec.message());
        }
        pending.emplace_back(relative, depth + 1);
      } else if (fs::is_regular_file(status)) {
        if (files::is_runtime_cache_file(name)) {
          continue;
        }
        const std::uintmax_t size = it->file_size(ec);
        if (ec) {
          return fail(ErrorCode::io_error, "cannot stat " + source.string() + ": " + ec.message());
        }
        if (size > limits::k_max_bundle_file_bytes) {
          return fail(ErrorCode::limit_exceeded, source.string() + " is larger than " +
                                                     std::to_string(limits::k_max_bundle_file_bytes) +
                                                     " bytes (limits::k_max_bundle_file_bytes)");
        }
        bytes += size;
        if (bytes > limits::k_max_bundle_bytes) {
          return fail(ErrorCode::limit_exceeded, from.string() + " is larger than " +
                                                     std::to_string(limits::k_max_bundle_bytes) +
                                                     " bytes (limits::k_max_bundle_bytes)");
        }
        fs::copy_file(source, target, fs::copy_options::none, ec);
        if (ec) {
          return fail(ErrorCode::io_error,
                      "cannot copy " + source.string() + " to " + target.string() + ": " + ec.message());
        }
      } else if (fs::is_symlink(status)) {
        const fs::path link = fs::read_symlink(source, ec);
        if (!ec) {
          fs::create_symlink(link, target, ec);
        }
        if (ec) {
          return fail(ErrorCode::io_error, "cannot copy the symlink " + source.string() + ": " + ec.message());
        }
      } else {
        return fail(ErrorCode::invalid_argument,
                    source.string() + " is not a regular file, folder or symlink (a FIFO, socket or device): "
                                      "bundled skills may not contain one");
      }
    }
    if (ec) {
      return fail(ErrorCode::io_error, "cannot read " + (from / relative_dir).string() + ": " + ec.message());
    }
  }
  return {};
}

} // namespace

Result<void> copy_skill_tree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  if (fs::exists(fs::symlink_status(to, ec))) {
    return fail(ErrorCode::io_error, "cannot copy into " + to.string() + ": it already exists");
  }
  auto copied = copy_entries(from, to);
  if (!copied) {
    fs::remove_all(to, ec); // our own partial copy, never a user's folder (`to` did not exist)
  }
  return copied;
}

} // namespace skillrt::core::sync
