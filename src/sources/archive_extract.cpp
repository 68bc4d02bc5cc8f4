// Archive extraction over libarchive (the only file that includes archive.h);
// see archive_extract.hpp for the rules.
#include "sources/archive_extract.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <system_error>
#include <vector>

#include "core/util/sha256.hpp"
#include "sources/bundle_path.hpp"
#include "core/files/tree_walk.hpp"
#include "core/files/unique_fd.hpp"
#include "core/util/text.hpp"

namespace skillrt::sources {

namespace {

constexpr std::size_t k_block_bytes = 64 * 1024;

using core::errno_text;

struct ArchiveFree {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveFree>;

std::string archive_error(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? std::string(text) : std::string("unknown libarchive error");
}

// A reader that accepts exactly what a bundle may be: tar (plain or gzip) and zip.
Result<ArchivePtr> new_reader() {
  ArchivePtr a(archive_read_new());
  if (!a) {
    return fail(ErrorCode::internal, "libarchive could not allocate a reader");
  }
  if (archive_read_support_filter_gzip(a.get()) != ARCHIVE_OK ||
      archive_read_support_format_tar(a.get()) != ARCHIVE_OK ||
      archive_read_support_format_zip(a.get()) != ARCHIVE_OK) {
    return fail(ErrorCode::internal, "libarchive lacks tar, zip or gzip support: " + archive_error(a.get()));
  }
  return a;
}

std::string entry_name(archive_entry* entry) {
  if (const char* utf8 = archive_entry_pathname_utf8(entry)) {
    return utf8;
  }
  if (const char* raw = archive_entry_pathname(entry)) {
    return raw;
  }
  return {};
}

std::string link_target(archive_entry* entry, bool hard) {
  const char* utf8 = hard ? archive_entry_hardlink_utf8(entry) : archive_entry_symlink_utf8(entry);
  if (utf8 != nullptr) {
    return utf8;
  }
  const char* raw = hard ? archive_entry_hardlink(entry) : archive_entry_symlink(entry);
  return raw != nullptr ? std::string(raw) : std::string();
}

// Does a symlink at `entry` (normalized) pointing to `target` leave the bundle?
bool symlink_leaves(const std::string& entry, std::string_view target) {
  if (target.empty() || target.front() == '/') {
    return !target.empty();
  }
  std::vector<std::string_view> stack;
  std::size_t start = 0;
  // The link resolves from its own folder.
  const std::size_t slash = entry.rfind('/');
  const std::string_view folder =
      slash == std::string::npos ? std::string_view() : std::string_view(entry).substr(0, slash);
  while (start < folder.size()) {
    std::size_t end = folder.find('/', start);
    end = end == std::string_view::npos ? folder.size() : end;
    stack.push_back(folder.substr(start, end - start));
    start = end + 1;
  }
  start = 0;
  while (start <= target.size()) {
    std::size_t end = target.find('/', start);
    end = end == std::string_view::npos ? target.size() : end;
    const std::string_view segment = target.substr(start, end - start);
    start = end + 1;
    if (segment.empty() || segment == ".") {
      continue;
    }
    if (segment == "..") {
      if (stack.empty()) {
        return true;
      }
      stack.pop_back();
    } else {
      stack.push_back(segment);
    }
  }
  return false;
}

class Extraction {
public:
  Extraction(archive* a, std::string_view label, BundleWriter& writer) : m_a(a), m_label(label), m_writer(writer) {}

  Result<void> run() {
    std::string last; // the previous entry, to place a corrupt-archive error
    for (;;) {
      archive_entry* entry = nullptr;
      const int status = archive_read_next_header(m_a, &entry);
      if (status == ARCHIVE_EOF) {
        return {};
      }
      // OK and WARN (a name's charset, say) go on; RETRY is not trusted.
      if (status != ARCHIVE_OK && status != ARCHIVE_WARN) {
        if (last.empty()) {
          return fail(ErrorCode::parse_error,
                      m_label + " is not a readable .tar.gz, .tgz or .zip archive: " + archive_error(m_a));
        }
        return fail(ErrorCode::parse_error,
                    m_label + " is corrupt after entry " + quote_entry(last) + ": " + archive_error(m_a));
      }
      std::string name = entry_name(entry);
      if (name.empty()) {
        return fail(ErrorCode::refused, m_label + " has an entry without a readable name");
      }
      if (auto one = extract_entry(entry, name); !one) {
        return one;
      }
      last = std::move(name);
    }
  }

private:
  Result<void> extract_entry(archive_entry* entry, const std::string& name) {
    auto normalized = m_writer.check_path(name);
    if (!normalized) {
      return tl::unexpected(normalized.error());
    }
    if (archive_entry_is_encrypted(entry) != 0) {
      return fail(ErrorCode::refused, entry_prefix(name) + "encrypted entries are not supported");
    }
    const std::string hardlink = link_target(entry, true);
    if (!hardlink.empty()) {
      return extract_hardlink(name, hardlink);
    }
    const auto type = static_cast<mode_t>(archive_entry_filetype(entry));
    if (type == AE_IFDIR) {
      auto made = m_writer.add_directory(name);
      return made ? Result<void>() : tl::unexpected(made.error());
    }
    if (type == AE_IFLNK) {
      const std::string target = link_target(entry, false);
      if (symlink_leaves(*normalized, target)) {
        return fail(ErrorCode::refused,
                    entry_prefix(name) + "symlink target " + quote_entry(target) + " leaves the bundle");
      }
      return fail(ErrorCode::refused, "skill bundles may not contain symlinks: " + *normalized);
    }
    if (const char* special = core::files::special_kind_name(type)) {
      return fail(ErrorCode::refused,
                  entry_prefix(name) + "devices, fifos and sockets are not allowed (" + special + ")");
    }
    if (type != AE_IFREG) {
      return fail(ErrorCode::refused, entry_prefix(name) + "unsupported entry type");
    }
    const auto mode = static_cast<mode_t>(archive_entry_perm(entry));
    const std::uint64_t declared = archive_entry_size_is_set(entry) != 0 && archive_entry_size(entry) > 0
                                       ? static_cast<std::uint64_t>(archive_entry_size(entry))
                                       : 0;
    auto written = m_writer.add_file(
        name, (mode & 0111) != 0, [&]() -> Result<std::string_view> { return next_chunk(name); }, declared);
    return written ? Result<void>() : tl::unexpected(written.error());
  }

  Result<void> extract_hardlink(const std::string& name, const std::string& target) {
    // Hardlink targets name an earlier entry from the archive's root.
    if (target.front() == '/' || symlink_leaves(std::string(), target)) {
      return fail(ErrorCode::refused,
                  entry_prefix(name) + "hardlink target " + quote_entry(target) + " leaves the bundle");
    }
    auto normalized_target = m_writer.check_path(target);
    if (!normalized_target) {
      return tl::unexpected(normalized_target.error());
    }
    auto copied = m_writer.add_copy(name, *normalized_target);
    return copied ? Result<void>() : tl::unexpected(copied.error());
  }

  Result<std::string_view> next_chunk(const std::string& name) {
    // archive_read_data fills sparse holes with zeros: a hole counts as bytes.
    const la_ssize_t n = archive_read_data(m_a, m_buffer.data(), m_buffer.size());
    if (n < 0) {
      return fail(ErrorCode::parse_error,
                  m_label + " is corrupt at entry " + quote_entry(name) + ": " + archive_error(m_a));
    }
    m_uncompressed += static_cast<std::uint64_t>(n);
    if (auto ratio = check_ratio(name); !ratio) {
      return tl::unexpected(ratio.error());
    }
    return std::string_view(m_buffer.data(), static_cast<std::size_t>(n));
  }

  Result<void> check_ratio(const std::string& name) const {
    const BundleLimits& limits = m_writer.limits();
    if (m_uncompressed <= limits.ratio_grace_bytes) {
      return {};
    }
    const la_int64_t consumed = archive_filter_bytes(m_a, -1);
    const std::uint64_t compressed = consumed > 0 ? static_cast<std::uint64_t>(consumed) : 1;
    if (m_uncompressed / compressed > limits.max_compression_ratio) {
      return fail(ErrorCode::limit_exceeded, entry_prefix(name) + "the archive expands more than " +
                                                 std::to_string(limits.max_compression_ratio) +
                                                 " times its compressed size (a decompression bomb?)");
    }
    return {};
  }

  archive* m_a;
  std::string m_label;
  BundleWriter& m_writer;
  std::vector<char> m_buffer = std::vector<char>(k_block_bytes);
  std::uint64_t m_uncompressed = 0;
};

Result<ExtractResult> finish(Result<void> outcome, const BundleWriter& writer, std::string sha256) {
  if (!outcome) {
    return tl::unexpected(outcome.error());
  }
  return ExtractResult{writer.entries(), writer.bytes(), std::move(sha256)};
}

} // namespace

Result<ExtractResult> extract_archive_bytes(std::string_view bytes, std::string_view label, BundleWriter& writer) {
  auto reader = new_reader();
  if (!reader) {
    return tl::unexpected(reader.error());
  }
  // Fed in blocks, so the bytes consumed so far (the ratio's denominator)
  // grow with the reading instead of being the whole input at once.
  if (archive_read_open_memory2(reader->get(), const_cast<char*>(bytes.data()), bytes.size(), k_block_bytes) !=
      ARCHIVE_OK) {
    return fail(ErrorCode::parse_error, std::string(label) + " is not a readable .tar.gz, .tgz or .zip archive: " +
                                            archive_error(reader->get()));
  }
  Extraction extraction(reader->get(), label, writer);
  return finish(extraction.run(), writer, core::sha256_hex(bytes));
}

Result<ExtractResult> extract_archive_file(const std::filesystem::path& path, BundleWriter& writer) {
  const std::string label = "the archive " + path.string();
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (!fd.valid()) {
    if (errno == ENOENT) {
      return fail(ErrorCode::not_found, "no such archive: " + path.string());
    }
    return fail(ErrorCode::io_error, "cannot open " + label + ": " + errno_text(errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return fail(ErrorCode::invalid_argument, label + " is not a regular file");
  }
  // The revision is the hash of the bytes extracted: hash the open file, then
  // rewind it for libarchive (one inode, whatever happens to the name).
  core::Sha256 hash;
  std::vector<char> buffer(k_block_bytes);
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return fail(ErrorCode::io_error, "cannot read " + label + ": " + errno_text(errno));
    }
    if (n == 0) {
      break;
    }
    hash.update(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
  }
  if (::lseek(fd.get(), 0, SEEK_SET) != 0) {
    return fail(ErrorCode::io_error, "cannot rewind " + label + ": " + errno_text(errno));
  }
  auto reader = new_reader();
  if (!reader) {
    return tl::unexpected(reader.error());
  }
  if (archive_read_open_fd(reader->get(), fd.get(), k_block_bytes) != ARCHIVE_OK) {
    return fail(ErrorCode::parse_error,
                label + " is not a readable .tar.gz, .tgz or .zip archive: " + archive_error(reader->get()));
  }
  Extraction extraction(reader->get(), label, writer);
  return finish(extraction.run(), writer, hash.hex_digest());
}

} // namespace skillrt::sources
