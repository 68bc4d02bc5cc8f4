// The content manifest of a skill tree (see content_manifest.hpp).
#include "core/files/content_manifest.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>

#include "core/util/sha256.hpp"
#include "core/util/text.hpp"

namespace skillrt::core::files {

Result<void> read_file_exactly(int fd, std::uint64_t expected_size, const std::string& shown,
                               const std::function<void(std::string_view)>& sink) {
  std::array<char, 65536> buffer{};
  std::uint64_t seen = 0;
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return fail(ErrorCode::io_error, "cannot read " + shown + ": " + errno_text(errno));
    }
    if (n == 0) {
      break;
    }
    seen += static_cast<std::uint64_t>(n);
    if (seen > expected_size) {
      break; // growing under us: never read past what the limits were checked on
    }
    sink(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
  }
  if (seen != expected_size) {
    return fail(ErrorCode::io_error, shown + " changed size while it was being read");
  }
  return {};
}

Result<std::vector<ContentEntry>> build_content_manifest(const std::filesystem::path& root, WalkOptions options) {
  options.skip_runtime_caches = true;
  std::vector<ContentEntry> entries;
  const WalkVisitor hash_file = [&entries](const WalkEntry& entry) -> Result<void> {
    if (entry.kind != EntryKind::file) {
      return {};
    }
    const std::string path(entry.path);
    // O_NONBLOCK: should the file have become a fifo since the walk's lstat,
    // opening it must not wait for a writer; the identity check refuses it.
    const UniqueFd fd(
        ::openat(entry.parent_fd, std::string(entry.name).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd) {
      return fail(ErrorCode::io_error, "cannot open " + path + ": " + errno_text(errno));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) {
      return fail(ErrorCode::io_error, "cannot stat " + path + ": " + errno_text(errno));
    }
    if (!S_ISREG(st.st_mode) || st.st_dev != entry.st->st_dev || st.st_ino != entry.st->st_ino) {
      return fail(ErrorCode::io_error, path + " changed while it was being read");
    }
    const auto size = static_cast<std::uint64_t>(entry.st->st_size);
    Sha256 digest;
    if (auto read = read_file_exactly(fd.get(), size, path, [&digest](std::string_view bytes) { digest.update(bytes); });
        !read) {
      return read;
    }
    entries.push_back(ContentEntry{path, digest.hex_digest(), size});
    return {};
  };
  if (auto walked = walk_tree(root, options, hash_file); !walked) {
    return tl::unexpected(walked.error());
  }
  // std::string compares bytes as unsigned char: exactly "sorted by path bytes".
  std::sort(entries.begin(), entries.end(),
            [](const ContentEntry& a, const ContentEntry& b) { return a.path < b.path; });
  return entries;
}

} // namespace skillrt::core::files
