// Folder hashes of skills (see dir_hash.hpp).
#include "core/sync/dir_hash.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <system_error>
#include <utility>
#include <vector>

#include "core/files/runtime_cache.hpp"
#include "core/limits.hpp"
#include "core/util/sha256.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;

enum class EntryKind : unsigned char { file, link, special };

struct Entry {
  std::string relative; // generic form, '/' separators
  EntryKind kind;
};

std::string errno_text(int err) {
  return std::generic_category().message(err);
}

// Every non-cache entry below `dir` (iteratively, symlinks never followed).
Result<std::vector<Entry>> list_entries(const fs::path& dir) {
  std::vector<Entry> entries;
  std::vector<std::pair<fs::path, std::size_t>> pending{{fs::path(), 0}};
  std::size_t count = 0;
  while (!pending.empty()) {
    auto [relative_dir, depth] = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    fs::directory_iterator it(dir / relative_dir, ec);
    if (ec) {
      return fail(ErrorCode::io_error, "cannot read the folder " + (dir / relative_dir).string() + ": " + ec.message());
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      const fs::path relative = relative_dir / name;
      if (++count > limits::k_max_bundle_entries) {
        return fail(ErrorCode::limit_exceeded, dir.string() + " has more than " +
                                                   std::to_string(limits::k_max_bundle_entries) +
                                                   " entries (limits::k_max_bundle_entries)");
      }
      const fs::file_status status = it->symlink_status(ec);
      if (ec) {
        return fail(ErrorCode::io_error, "cannot stat " + it->path().string() + ": " + ec.message());
      }
      if (fs::is_directory(status)) {
        if (files::is_runtime_cache_dir(name)) {
          continue;
        }
        if (depth + 1 > limits::k_max_bundle_depth) {
          return fail(ErrorCode::limit_exceeded, it->path().string() + " is deeper than " +
                                                     std::to_string(limits::k_max_bundle_depth) +
                                                     " levels (limits::k_max_bundle_depth)");
        }
        pending.emplace_back(relative, depth + 1);
      } else if (fs::is_regular_file(status)) {
        if (!files::is_runtime_cache_file(name)) {
          entries.push_back({relative.generic_string(), EntryKind::file});
        }
      } else if (fs::is_symlink(status)) {
        entries.push_back({relative.generic_string(), EntryKind::link});
      } else {
        entries.push_back({relative.generic_string(), EntryKind::special});
      }
    }
    if (ec) {
      return fail(ErrorCode::io_error, "cannot read the folder " + (dir / relative_dir).string() + ": " + ec.message());
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.relative < b.relative; });
  return entries;
}

// Feeds one regular file's record; `total` counts bytes across the tree.
Result<void> feed_file(Sha256& digest, const fs::path& path, const std::string& relative, std::uint64_t& total) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return fail(ErrorCode::io_error, "cannot read " + path.string() + ": " + errno_text(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(ErrorCode::io_error, path.string() + " changed while it was being hashed");
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > limits::k_max_bundle_file_bytes) {
    ::close(fd);
    return fail(ErrorCode::limit_exceeded, path.string() + " is larger than " +
                                               std::to_string(limits::k_max_bundle_file_bytes) +
                                               " bytes (limits::k_max_bundle_file_bytes)");
  }
  total += size;
  if (total > limits::k_max_bundle_bytes) {
    ::close(fd);
    return fail(ErrorCode::limit_exceeded, "the skill folder holding " + path.string() + " is larger than " +
                                               std::to_string(limits::k_max_bundle_bytes) +
                                               " bytes (limits::k_max_bundle_bytes)");
  }
  digest.update("f");
  digest.update(std::string_view("\0", 1));
  digest.update(relative);
  digest.update(std::string_view("\0", 1));
  digest.update(std::to_string(size));
  digest.update(std::string_view("\0", 1));
  std::array<char, 65536> buffer{};
  std::uint64_t seen = 0;
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      const int err = errno;
      ::close(fd);
      return fail(ErrorCode::io_error, "cannot read " + path.string() + ": " + errno_text(err));
    }
    if (n == 0) {
      break;
    }
    seen += static_cast<std::uint64_t>(n);
    if (seen > size) {
      break; // growing under us: the size record already differs from a stable copy
    }
    digest.update(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
  }
  ::close(fd);
  if (seen != size) {
    return fail(ErrorCode::io_error, path.string() + " changed size while it was being hashed");
  }
  return {};
}

} // namespace

bool is_known_origin_hash(std::string_view hash) {
  return hash.size() == 64 &&
         std::all_of(hash.begin(), hash.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

Result<std::string> skill_dir_hash(const fs::path& dir) {
  Sha256 digest;
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    return digest.hex_digest();
  }
  auto entries = list_entries(dir);
  if (!entries) {
    return tl::unexpected(entries.error());
  }
  std::uint64_t total = 0;
  for (const Entry& entry : *entries) {
    const fs::path path = dir / entry.relative;
    switch (entry.kind) {
    case EntryKind::file:
      if (auto fed = feed_file(digest, path, entry.relative, total); !fed) {
        return tl::unexpected(fed.error());
      }
      break;
    case EntryKind::link: {
      const fs::path target = fs::read_symlink(path, ec);
      if (ec) {
        return fail(ErrorCode::io_error, "cannot read the symlink " + path.string() + ": " + ec.message());
      }
      digest.update("l");
      digest.update(std::string_view("\0", 1));
      digest.update(entry.relative);
      digest.update(std::string_view("\0", 1));
      digest.update(target.string());
      digest.update(std::string_view("\0", 1));
      break;
    }
    case EntryKind::special:
      digest.update("s");
      digest.update(std::string_view("\0", 1));
      digest.update(entry.relative);
      digest.update(std::string_view("\0", 1));
      break;
    }
  }
  return digest.hex_digest();
}

} // namespace skillrt::core::sync
