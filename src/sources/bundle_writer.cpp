// BundleWriter (see bundle_writer.hpp).
#include "sources/bundle_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <vector>

#include "core/files/runtime_cache.hpp"
#include "core/util/text.hpp"
#include "sources/bundle_path.hpp"

namespace skillrt::sources {

namespace {

constexpr std::size_t k_copy_chunk_bytes = 64 * 1024;

using core::errno_text;

std::vector<std::string_view> split_segments(std::string_view normalized) {
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  while (start < normalized.size()) {
    std::size_t end = normalized.find('/', start);
    if (end == std::string_view::npos) {
      end = normalized.size();
    }
    segments.push_back(normalized.substr(start, end - start));
    start = end + 1;
  }
  return segments;
}

Result<void> write_all(int fd, std::string_view bytes, std::string_view raw) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return fail(ErrorCode::io_error, entry_prefix(raw) + "cannot write: " + errno_text(errno));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

} // namespace

BundleWriter::BundleWriter(UniqueFd dest, const BundleLimits& limits, core::hub::Progress* progress,
                           std::string_view phase)
    : m_dest(std::move(dest)), m_limits(limits), m_progress(progress), m_phase(phase) {}

Result<BundleWriter> BundleWriter::open(const std::filesystem::path& dest, const BundleLimits& limits,
                                        core::hub::Progress* progress, std::string_view phase) {
  UniqueFd fd(::open(dest.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) {
    return fail(ErrorCode::io_error, "cannot open the staging folder " + dest.string() + ": " + errno_text(errno));
  }
  return BundleWriter(std::move(fd), limits, progress, phase);
}

Result<std::string> BundleWriter::check_path(std::string_view raw) const {
  return normalize_bundle_path(raw, m_limits);
}

bool BundleWriter::has_file(const std::string& normalized) const {
  const auto it = m_kinds.find(normalized);
  return it != m_kinds.end() && it->second == Kind::file;
}

void BundleWriter::report() const {
  if (m_progress != nullptr) {
    m_progress->update(m_phase, m_entries, 0);
  }
}

Result<void> BundleWriter::count_entry(std::string_view raw) {
  if (m_entries + 1 > m_limits.max_entries) {
    return fail(ErrorCode::limit_exceeded, entry_prefix(raw) + "the bundle has more than " +
                                               std::to_string(m_limits.max_entries) + " entries (files and folders)");
  }
  ++m_entries;
  report();
  return {};
}

Result<UniqueFd> BundleWriter::open_folder_chain(std::string_view raw, const std::string& normalized,
                                                 bool include_last) {
  std::vector<std::string_view> segments = split_segments(normalized);
  if (!include_last && !segments.empty()) {
    segments.pop_back();
  }
  UniqueFd current(::dup(m_dest.get()));
  if (!current.valid()) {
    return fail(ErrorCode::io_error, entry_prefix(raw) + "cannot open the staging folder: " + errno_text(errno));
  }
  std::string prefix;
  for (const std::string_view segment : segments) {
    if (!prefix.empty()) {
      prefix += '/';
    }
    prefix += segment;
    const std::string name(segment);
    const auto known = m_kinds.find(prefix);
    if (known == m_kinds.end()) {
      if (auto counted = count_entry(raw); !counted) {
        return tl::unexpected(counted.error());
      }
      // The destination started empty and we record all we create: an
      // existing name here is not ours, so it is an error, not a reuse.
      if (::mkdirat(current.get(), name.c_str(), 0755) != 0) {
        return fail(ErrorCode::io_error,
                    entry_prefix(raw) + "cannot create the folder \"" + prefix + "\": " + errno_text(errno));
      }
      m_kinds.emplace(prefix, Kind::folder);
    } else if (known->second != Kind::folder) {
      return fail(ErrorCode::refused, entry_prefix(raw) + "\"" + prefix + "\" is a file, not a folder");
    }
    UniqueFd next(::openat(current.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.valid()) {
      return fail(ErrorCode::io_error,
                  entry_prefix(raw) + "cannot open the folder \"" + prefix + "\": " + errno_text(errno));
    }
    current = std::move(next);
  }
  return current;
}

Result<std::string> BundleWriter::add_directory(std::string_view raw) {
  auto normalized = check_path(raw);
  if (!normalized) {
    return normalized;
  }
  if (normalized->empty() || core::files::is_runtime_cache_path(*normalized, true)) {
    return normalized;
  }
  if (m_explicit_folders.count(*normalized) != 0) {
    return fail(ErrorCode::refused, entry_prefix(raw) + "the bundle has this entry twice");
  }
  const auto known = m_kinds.find(*normalized);
  if (known != m_kinds.end() && known->second == Kind::file) {
    return fail(ErrorCode::refused, entry_prefix(raw) + "a file of the same path is already in the bundle");
  }
  if (auto chain = open_folder_chain(raw, *normalized, true); !chain) {
    return tl::unexpected(chain.error());
  }
  m_explicit_folders.insert(*normalized);
  return normalized;
}

Result<void> BundleWriter::check_new_file_path(std::string_view raw, const std::string& normalized) const {
  if (normalized.empty()) {
    return fail(ErrorCode::refused, entry_prefix(raw) + "a file cannot be the bundle's root");
  }
  const auto known = m_kinds.find(normalized);
  if (known != m_kinds.end()) {
    if (known->second == Kind::file) {
      return fail(ErrorCode::refused, entry_prefix(raw) + "the bundle has this entry twice");
    }
    return fail(ErrorCode::refused, entry_prefix(raw) + "a folder of the same path is already in the bundle");
  }
  return {};
}

Result<std::string> BundleWriter::add_file(std::string_view raw, bool executable, const ChunkSource& source,
                                           std::uint64_t declared_size) {
  auto normalized = check_path(raw);
  if (!normalized) {
    return normalized;
  }
  if (core::files::is_runtime_cache_path(*normalized, false)) {
    return normalized; // never placed: see runtime_cache.hpp (its bytes are simply not read)
  }
  if (auto fresh = check_new_file_path(raw, *normalized); !fresh) {
    return tl::unexpected(fresh.error());
  }
  const std::string too_big =
      entry_prefix(raw) + "the file is larger than " + std::to_string(m_limits.max_file_bytes) + " bytes";
  const std::string bundle_too_big =
      entry_prefix(raw) + "the bundle is larger than " + std::to_string(m_limits.max_bytes) + " bytes (uncompressed)";
  // A declared size is a claim: refuse early on it, but count the real bytes too.
  if (declared_size > m_limits.max_file_bytes) {
    return fail(ErrorCode::limit_exceeded, too_big);
  }
  if (declared_size > m_limits.max_bytes - m_bytes) {
    return fail(ErrorCode::limit_exceeded, bundle_too_big);
  }
  auto parent = open_folder_chain(raw, *normalized, false);
  if (!parent) {
    return tl::unexpected(parent.error());
  }
  if (auto counted = count_entry(raw); !counted) {
    return tl::unexpected(counted.error());
  }
  const std::size_t slash = normalized->rfind('/');
  const std::string name = slash == std::string::npos ? *normalized : normalized->substr(slash + 1);
  const mode_t mode = executable ? 0755 : 0644;
  UniqueFd out(::openat(parent->get(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
  if (!out.valid()) {
    return fail(ErrorCode::io_error, entry_prefix(raw) + "cannot create the file: " + errno_text(errno));
  }
  m_kinds.emplace(*normalized, Kind::file);
  std::uint64_t file_bytes = 0;
  std::uint64_t counted_bytes = 0;
  const auto abandon = [&](Error error) -> Result<std::string> {
    // A refused file is not left half written (the folder never holds a
    // truncated file that looks complete) nor counted.
    out.reset();
    ::unlinkat(parent->get(), name.c_str(), 0);
    m_kinds.erase(*normalized);
    m_bytes -= counted_bytes;
    --m_entries;
    return tl::unexpected(std::move(error));
  };
  for (;;) {
    auto chunk = source();
    if (!chunk) {
      return abandon(chunk.error());
    }
    if (chunk->empty()) {
      break;
    }
    file_bytes += chunk->size();
    if (file_bytes > m_limits.max_file_bytes) {
      return abandon(Error{ErrorCode::limit_exceeded, too_big, {}});
    }
    if (chunk->size() > m_limits.max_bytes - m_bytes) {
      return abandon(Error{ErrorCode::limit_exceeded, bundle_too_big, {}});
    }
    m_bytes += chunk->size();
    counted_bytes += chunk->size();
    if (auto written = write_all(out.get(), *chunk, raw); !written) {
      return abandon(written.error());
    }
  }
  if (::close(out.release()) != 0) {
    return fail(ErrorCode::io_error, entry_prefix(raw) + "cannot close the file: " + errno_text(errno));
  }
  return normalized;
}

Result<std::string> BundleWriter::add_file_bytes(std::string_view raw, bool executable, std::string_view bytes) {
  bool given = false;
  return add_file(
      raw, executable,
      [&]() -> Result<std::string_view> {
        if (given) {
          return std::string_view();
        }
        given = true;
        return bytes;
      },
      bytes.size());
}

Result<std::string> BundleWriter::add_copy(std::string_view raw, const std::string& existing) {
  if (auto normalized = check_path(raw); normalized && core::files::is_runtime_cache_path(*normalized, false)) {
    return normalized;
  }
  if (!has_file(existing)) {
    return fail(ErrorCode::refused, entry_prefix(raw) + "the link target \"" + existing +
                                        "\" is not a file written before it in the bundle");
  }
  auto parent = open_folder_chain(existing, existing, false);
  if (!parent) {
    return tl::unexpected(parent.error());
  }
  const std::size_t slash = existing.rfind('/');
  const std::string name = slash == std::string::npos ? existing : existing.substr(slash + 1);
  UniqueFd in(::openat(parent->get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  struct stat st {};
  if (!in.valid() || ::fstat(in.get(), &st) != 0) {
    return fail(ErrorCode::io_error, entry_prefix(raw) + "cannot read the link target: " + errno_text(errno));
  }
  return add_file_from_fd(raw, in.get(), st, "cannot read the link target");
}

Result<std::string> BundleWriter::add_file_from_fd(std::string_view raw, int fd, const struct stat& st,
                                                   std::string_view what) {
  std::string buffer(k_copy_chunk_bytes, '\0');
  return add_file(
      raw, (st.st_mode & 0111) != 0,
      [&]() -> Result<std::string_view> {
        for (;;) {
          const ssize_t n = ::read(fd, buffer.data(), buffer.size());
          if (n < 0 && errno == EINTR) {
            continue;
          }
          if (n < 0) {
            return fail(ErrorCode::io_error, entry_prefix(raw) + std::string(what) + ": " + errno_text(errno));
          }
          return std::string_view(buffer.data(), static_cast<std::size_t>(n));
        }
      },
      static_cast<std::uint64_t>(st.st_size));
}

} // namespace skillrt::sources
