// The canonical manifest of a skill bundle (bundle_manifest.hpp). The walk
// goes through directory file descriptors (openat, O_NOFOLLOW), so a link
// planted inside the bundle is seen as a link and refused, never followed, and
// a folder swapped for a link mid-walk fails to open instead of leading out.
#include "core/hub/bundle_manifest.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <system_error>

#include "core/files/runtime_cache.hpp"
#include "core/limits.hpp"
#include "core/util/sha256.hpp"
#include "core/util/text.hpp"

namespace skillrt::core::hub {

namespace {

// Owns one file descriptor.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd) : m_fd(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  int get() const { return m_fd; }

private:
  int m_fd;
};

// Owns one open directory stream (and through it, its descriptor).
class DirectoryStream {
public:
  explicit DirectoryStream(DIR* dir) : m_dir(dir) {}
  DirectoryStream(const DirectoryStream&) = delete;
  DirectoryStream& operator=(const DirectoryStream&) = delete;
  ~DirectoryStream() {
    if (m_dir != nullptr) {
      ::closedir(m_dir);
    }
  }
  DIR* get() const { return m_dir; }

private:
  DIR* m_dir;
};

const char* file_type_name(mode_t mode) {
  if (S_ISFIFO(mode)) {
    return "a fifo";
  }
  if (S_ISCHR(mode)) {
    return "a character device";
  }
  if (S_ISBLK(mode)) {
    return "a block device";
  }
  if (S_ISSOCK(mode)) {
    return "a socket";
  }
  return "not a regular file";
}

struct Walk {
  std::vector<ManifestEntry> entries;
  std::size_t entry_count = 0; // files and folders, against k_max_bundle_entries
  std::uint64_t total_bytes = 0;
};

// A name that would break the one-line-per-file text (a newline could forge
// a second entry, so two different trees could share one manifest) is refused,
// as is any other control character.
Result<void> check_name(std::string_view name, const std::string& relative) {
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      return fail(ErrorCode::refused, "skill bundles may not contain file names with control characters (newline, "
                                      "tab, ...): \"" +
                                          relative + "\"");
    }
  }
  return {};
}

Result<void> count_entry(Walk& walk, const std::string& relative, std::size_t depth) {
  if (++walk.entry_count > limits::k_max_bundle_entries) {
    return fail(ErrorCode::limit_exceeded, "the bundle has more than " + std::to_string(limits::k_max_bundle_entries) +
                                               " files and folders (k_max_bundle_entries)");
  }
  if (relative.size() > limits::k_max_bundle_path_bytes) {
    return fail(ErrorCode::limit_exceeded, "path longer than " + std::to_string(limits::k_max_bundle_path_bytes) +
                                               " bytes (k_max_bundle_path_bytes): " + relative.substr(0, 120) + "...");
  }
  if (depth > limits::k_max_bundle_depth) {
    return fail(ErrorCode::limit_exceeded, "path deeper than " + std::to_string(limits::k_max_bundle_depth) +
                                               " folders (k_max_bundle_depth): " + relative);
  }
  return {};
}

Result<void> hash_file(int dir_fd, const std::string& name, const std::string& relative, const struct stat& seen,
                       Walk& walk) {
  // O_NONBLOCK: should the file have become a fifo since fstatat, opening it
  // must not wait for a writer; the fstat below then refuses it.
  const int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    return fail(ErrorCode::io_error, "cannot open " + relative + ": " + errno_text(errno));
  }
  const FileDescriptor file(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return fail(ErrorCode::io_error, "cannot stat " + relative + ": " + errno_text(errno));
  }
  if (!S_ISREG(st.st_mode) || st.st_dev != seen.st_dev || st.st_ino != seen.st_ino) {
    return fail(ErrorCode::io_error, relative + " changed while the bundle was being read");
  }
  const auto limit_error = [&] {
    return fail(ErrorCode::limit_exceeded, relative + " is larger than " +
                                               std::to_string(limits::k_max_bundle_file_bytes) +
                                               " bytes (k_max_bundle_file_bytes)");
  };
  const auto total_error = [&] {
    return fail(ErrorCode::limit_exceeded, "the bundle holds more than " + std::to_string(limits::k_max_bundle_bytes) +
                                               " bytes in all (k_max_bundle_bytes); reached at " + relative);
  };
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > limits::k_max_bundle_file_bytes) {
    return limit_error();
  }
  if (walk.total_bytes + size > limits::k_max_bundle_bytes) {
    return total_error();
  }
  Sha256 digest;
  std::uint64_t read_bytes = 0;
  std::array<char, 65536> buffer{};
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return fail(ErrorCode::io_error, "cannot read " + relative + ": " + errno_text(errno));
    }
    if (n == 0) {
      break;
    }
    // The file may grow after fstat: the limits hold on what is actually read.
    read_bytes += static_cast<std::uint64_t>(n);
    if (read_bytes > limits::k_max_bundle_file_bytes) {
      return limit_error();
    }
    if (walk.total_bytes + read_bytes > limits::k_max_bundle_bytes) {
      return total_error();
    }
    digest.update(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
  }
  walk.total_bytes += read_bytes;
  walk.entries.push_back(ManifestEntry{relative, digest.hex_digest(), read_bytes});
  return {};
}

// Walks the folder open as `dir_fd` (owned by the caller); `prefix` is its
// path relative to the bundle ("" for the top, else ending in '/').
Result<void> walk_folder(int dir_fd, const std::string& prefix, std::size_t depth, Walk& walk) {
  // fdopendir takes ownership of the descriptor it is given: hand it a copy.
  const int stream_fd = ::dup(dir_fd);
  if (stream_fd < 0) {
    return fail(ErrorCode::io_error,
                "cannot read folder " + (prefix.empty() ? "." : prefix) + ": " + errno_text(errno));
  }
  DIR* raw = ::fdopendir(stream_fd);
  if (raw == nullptr) {
    const int err = errno;
    ::close(stream_fd);
    return fail(ErrorCode::io_error, "cannot read folder " + (prefix.empty() ? "." : prefix) + ": " + errno_text(err));
  }
  const DirectoryStream stream(raw);

  // Names first (bounded by the entry limit), sorted so that which error is
  // reported first does not depend on the file system's order.
  std::vector<std::string> names;
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(stream.get());
    if (entry == nullptr) {
      if (errno != 0) {
        return fail(ErrorCode::io_error,
                    "cannot read folder " + (prefix.empty() ? "." : prefix) + ": " + errno_text(errno));
      }
      break;
    }
    const std::string_view name = entry->d_name;
    if (name == "." || name == "..") {
      continue;
    }
    // One name of slack: the top-level signature file is not counted.
    if (walk.entry_count + names.size() > limits::k_max_bundle_entries + 1) {
      return fail(ErrorCode::limit_exceeded, "the bundle has more than " +
                                                 std::to_string(limits::k_max_bundle_entries) +
                                                 " files and folders (k_max_bundle_entries)");
    }
    names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());

  for (const std::string& name : names) {
    const std::string relative = prefix + name;
    if (auto ok = check_name(name, relative); !ok) {
      return ok;
    }
    struct stat st {};
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return fail(ErrorCode::io_error, "cannot stat " + relative + ": " + errno_text(errno));
    }
    const bool is_signature_file = depth == 0 && name == k_signature_file_name;
    // Not content, whatever it holds (a link in a cache is still a cache).
    if (files::is_runtime_cache(name, S_ISDIR(st.st_mode))) {
      continue;
    }
    if (S_ISLNK(st.st_mode)) {
      return fail(ErrorCode::refused, "skill bundles may not contain symlinks: " + relative);
    }
    if (is_signature_file) {
      // Left out of the manifest (it signs the rest), but it must still be a
      // plain file: a link there could make `sign` write outside the bundle.
      if (!S_ISREG(st.st_mode)) {
        return fail(ErrorCode::refused, "the signature file " + relative + " is not a regular file");
      }
      continue;
    }
    if (auto counted = count_entry(walk, relative, depth + 1); !counted) {
      return counted;
    }
    if (S_ISDIR(st.st_mode)) {
      const int child = ::openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (child < 0) {
        return fail(ErrorCode::io_error, "cannot open folder " + relative + ": " + errno_text(errno));
      }
      const FileDescriptor child_fd(child);
      if (auto walked = walk_folder(child, relative + "/", depth + 1, walk); !walked) {
        return walked;
      }
      continue;
    }
    if (S_ISREG(st.st_mode)) {
      if (auto hashed = hash_file(dir_fd, name, relative, st, walk); !hashed) {
        return hashed;
      }
      continue;
    }
    return fail(ErrorCode::refused, "skill bundles may contain only regular files and folders: " + relative + " is " +
                                        file_type_name(st.st_mode));
  }
  return {};
}

} // namespace

Result<BundleManifest> build_bundle_manifest(const std::filesystem::path& bundle_dir) {
  // The bundle's own path is the caller's choice and may be a link to a
  // folder; everything below it is walked without following links.
  const int root = ::open(bundle_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root < 0) {
    const int err = errno;
    if (err == ENOENT) {
      return fail(ErrorCode::not_found, "bundle folder " + bundle_dir.string() + " does not exist");
    }
    if (err == ENOTDIR) {
      return fail(ErrorCode::invalid_argument, bundle_dir.string() + " is not a folder");
    }
    return fail(ErrorCode::io_error, "cannot open bundle folder " + bundle_dir.string() + ": " + errno_text(err));
  }
  const FileDescriptor root_fd(root);
  Walk walk;
  if (auto walked = walk_folder(root, "", 0, walk); !walked) {
    return tl::unexpected(walked.error());
  }
  // std::string compares through char_traits<char>, which orders bytes as
  // unsigned char: exactly "sorted by path bytes".
  std::sort(walk.entries.begin(), walk.entries.end(),
            [](const ManifestEntry& a, const ManifestEntry& b) { return a.path < b.path; });

  BundleManifest manifest;
  std::size_t text_size = 0;
  for (const ManifestEntry& entry : walk.entries) {
    text_size += entry.sha256.size() + 2 + entry.path.size() + 1;
  }
  manifest.text.reserve(text_size);
  for (const ManifestEntry& entry : walk.entries) {
    manifest.text += entry.sha256;
    manifest.text += "  ";
    manifest.text += entry.path;
    manifest.text += '\n';
  }
  manifest.content_hash = "sha256:" + sha256_hex(manifest.text);
  manifest.entries = std::move(walk.entries);
  return manifest;
}

} // namespace skillrt::core::hub
