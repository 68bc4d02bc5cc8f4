// Snapshots and blobs (ledger_blobs.hpp).
#include "core/ledger/ledger_blobs.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <set>

#include "core/files/atomic_file.hpp"
#include "core/files/content_manifest.hpp"
#include "core/files/fsync_dir.hpp"
#include "core/files/read_file.hpp"
#include "core/ledger/ledger_path.hpp"
#include "core/limits.hpp"
#include "core/util/sha256.hpp"
#include "core/util/text.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

constexpr mode_t k_owner_only_dir = 0700;

Result<void> make_dir(const fs::path& path) {
  if (::mkdir(path.c_str(), k_owner_only_dir) == 0) {
    (void)files::fsync_dir(path.parent_path());
    return {};
  }
  struct stat st {};
  if (errno == EEXIST && ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return {};
  }
  return fail(ErrorCode::io_error, "cannot create the ledger folder " + path.string());
}

// Present with the right size: a blob is written whole (atomically) or not
// at all, so its size is enough to skip it; verify checks the bytes.
bool blob_present(const fs::path& path, std::uint64_t size) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) == size;
}

Result<void> store_blob(const Ledger& ledger, const LedgerFile& file, std::string_view bytes) {
  const fs::path path = ledger_blob_path(ledger, file.sha256);
  if (blob_present(path, file.size)) {
    return {};
  }
  SKILLRT_TRY(make_dir(ledger.blobs_dir()));
  SKILLRT_TRY(make_dir(path.parent_path()));
  return write_file_atomic(path, bytes);
}

} // namespace

std::string ledger_content_hash(const std::vector<LedgerFile>& files) {
  Sha256 digest;
  for (const LedgerFile& file : files) {
    digest.update(file.sha256);
    digest.update("  ");
    digest.update(file.path);
    digest.update("\n");
  }
  return "sha256:" + digest.hex_digest();
}

fs::path ledger_blob_path(const Ledger& ledger, std::string_view sha256) {
  return ledger.blobs_dir() / std::string(sha256.substr(0, 2)) / std::string(sha256);
}

Result<LedgerSnapshot> capture_folder(const Ledger& ledger, const fs::path& skill_dir) {
  files::WalkOptions options;
  options.links = files::LinkPolicy::refuse;
  options.specials = files::SpecialPolicy::refuse;
  // A newline in a name could forge a manifest line (two trees, one hash).
  options.refuse_control_names = true;
  SKILLRT_TRY_ASSIGN(const std::vector<files::ContentEntry> manifest,
                     files::build_content_manifest(skill_dir, options));
  SKILLRT_TRY(ensure_ledger(ledger));
  LedgerSnapshot snapshot;
  snapshot.files.reserve(manifest.size());
  for (const files::ContentEntry& entry : manifest) {
    LedgerFile file{entry.path, entry.size, entry.sha256, 0644};
    const fs::path source = skill_dir / entry.path;
    struct stat st {};
    if (::lstat(source.c_str(), &st) == 0) {
      file.mode = static_cast<unsigned>(st.st_mode & 0777);
    }
    if (!blob_present(ledger_blob_path(ledger, file.sha256), file.size)) {
      // Read again by path and held to the manifest's hash: what is stored
      // is exactly what the identity names, or the capture fails.
      SKILLRT_TRY_ASSIGN(const std::string bytes,
                         read_regular_file(source, static_cast<std::size_t>(limits::k_max_bundle_file_bytes)));
      if (bytes.size() != file.size || sha256_hex(bytes) != file.sha256) {
        return fail(ErrorCode::io_error, source.string() + " changed while the ledger captured it");
      }
      SKILLRT_TRY(store_blob(ledger, file, bytes));
    }
    snapshot.files.push_back(std::move(file));
  }
  snapshot.hash = ledger_content_hash(snapshot.files);
  return snapshot;
}

Result<LedgerSnapshot> capture_bytes(const Ledger& ledger, const std::vector<LedgerBytes>& files) {
  std::set<std::string> seen;
  for (const LedgerBytes& file : files) {
    SKILLRT_TRY(ledger_detail::check_relative_path(file.path));
    if (!seen.insert(file.path).second) {
      return fail(ErrorCode::invalid_argument, "the file " + file.path + " is given twice");
    }
  }
  SKILLRT_TRY(ensure_ledger(ledger));
  LedgerSnapshot snapshot;
  for (const LedgerBytes& file : files) {
    LedgerFile entry{file.path, file.bytes.size(), sha256_hex(file.bytes), file.mode & 0777};
    SKILLRT_TRY(store_blob(ledger, entry, file.bytes));
    snapshot.files.push_back(std::move(entry));
  }
  std::sort(snapshot.files.begin(), snapshot.files.end(),
            [](const LedgerFile& a, const LedgerFile& b) { return a.path < b.path; });
  snapshot.hash = ledger_content_hash(snapshot.files);
  return snapshot;
}

Result<std::string> read_ledger_blob(const Ledger& ledger, const LedgerFile& file) {
  const fs::path path = ledger_blob_path(ledger, file.sha256);
  auto bytes = read_regular_file(path, static_cast<std::size_t>(std::max<std::uint64_t>(file.size, 1)));
  if (!bytes) {
    if (bytes.error().code == ErrorCode::not_found) {
      return fail(ErrorCode::not_found,
                  "the blob of " + file.path + " (" + file.sha256 + ") is missing from " + ledger.blobs_dir().string());
    }
    if (bytes.error().code == ErrorCode::limit_exceeded) {
      return fail(ErrorCode::io_error, "the blob " + path.string() + " is corrupt (larger than the file it stores)");
    }
    return tl::unexpected(bytes.error());
  }
  if (bytes->size() != file.size || sha256_hex(*bytes) != file.sha256) {
    return fail(ErrorCode::io_error, "the blob " + path.string() + " is corrupt (its bytes do not match its name)");
  }
  return std::move(*bytes);
}

Result<std::vector<LedgerBytes>> read_snapshot_bytes(const Ledger& ledger, const LedgerSnapshot& snapshot) {
  std::vector<LedgerBytes> out;
  out.reserve(snapshot.files.size());
  for (const LedgerFile& file : snapshot.files) {
    SKILLRT_TRY(ledger_detail::check_relative_path(file.path));
    SKILLRT_TRY_ASSIGN(std::string bytes, read_ledger_blob(ledger, file));
    out.push_back(LedgerBytes{file.path, std::move(bytes), file.mode});
  }
  return out;
}

} // namespace skillrt::core
