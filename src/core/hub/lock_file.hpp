// lock.json (dist_shared decision 5, spec §2.14.1): what the hub installed
// into a skills root, where from, and what it looked like when it did.
//
//   {"version": 1, "installed": {NAME: {source, identifier, source_spec, ref,
//    revision, subdir, trust_level, scan_verdict, scanner_version,
//    findings {total, critical, high, medium, low}, content_hash,
//    install_path, files [...], signature {status, key}, installed_at,
//    updated_at}}}
//
// Unlike Hermes, a corrupt file is an error naming the file, never read as
// empty: the next write would silently forget every install.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"
#include "core/hub/fetcher.hpp"
#include "core/hub/signature.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct FindingCounts {
  std::uint64_t total = 0;
  std::uint64_t critical = 0;
  std::uint64_t high = 0;
  std::uint64_t medium = 0;
  std::uint64_t low = 0;

  bool operator==(const FindingCounts&) const = default;
};

struct LockEntry {
  // The names below are what the file holds (source_kind_name, trust_level_name,
  // verdict_name, signature_status_name); an absent or empty member is
  // nullopt, and any other text makes the file corrupt.
  std::optional<SourceKind> source;
  std::string identifier;  // FetchedSource::identifier
  std::string source_spec; // the SOURCE string the user gave (check/update fetch it again)
  std::string ref;
  std::string revision;
  std::string subdir;
  std::optional<TrustLevel> trust_level;
  std::optional<Verdict> scan_verdict;
  std::string scanner_version;
  FindingCounts findings;
  std::string content_hash; // bundle_manifest content_hash, "sha256:<64 hex>"
  std::string install_path; // relative to the root, ends with the skill name
  std::vector<std::string> files;
  std::optional<SignatureStatus> signature_status;
  std::string signature_key;
  std::string installed_at; // ISO UTC, "Z"
  std::string updated_at;

  bool operator==(const LockEntry&) const = default;
};

struct LockFile {
  int version = 1;
  std::map<std::string, LockEntry> installed; // by skill name

  bool operator==(const LockFile&) const = default;
};

// A category for `--category`: one or more safe segments joined by '/'.
Result<void> validate_hub_category(std::string_view category);

// install_path rules: relative, non-empty, POSIX separators, no "." / ".." /
// empty segment, no ':' or '\\', every segment safe, last segment == name.
Result<void> validate_install_path(std::string_view install_path, std::string_view name);

// The JSON text (indent 2, trailing newline; entries sorted by name).
std::string render_lock_json(const LockFile& lock);

// Parses lock.json text strictly. `origin` names the file in errors.
Result<LockFile> parse_lock_json(std::string_view text, const std::string& origin);

// Reads `path`: missing → an empty lock; larger than k_max_hub_state_bytes,
// unreadable or corrupt → an error naming the file.
Result<LockFile> read_lock_file(const std::filesystem::path& path);

// Writes `lock` atomically (util/atomic_file), 0600 when new.
Result<void> write_lock_file(const std::filesystem::path& path, const LockFile& lock);

} // namespace skillrt::core::hub
