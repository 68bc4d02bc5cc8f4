// Snapshots and the blob store of a ledger: capturing a skill's content
// stores the bytes of each of its files once, under their SHA-256
// (blobs/<first 2 hex>/<64 hex>), so any entry's before or after can be put
// back, and the same file in a thousand entries costs one blob.
//
// A folder's identity is core/files' one content manifest (the one walker:
// no links or special files, runtime caches left out, the bundle limits),
// hashed as the hub hashes a bundle ("sha256:" over "<sha256>  <path>\n"
// lines), so an entry's hash equals lock.json's content_hash of an unsigned
// install and changes exactly when the hub and bundled sync see a change.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/ledger/ledger.hpp"
#include "core/ledger/ledger_entry.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// One file given by its bytes (a database skill's SKILL.md, a rollback's restore).
struct LedgerBytes {
  std::string path; // relative, POSIX
  std::string bytes;
  unsigned mode = 0644;
};

// The snapshot hash of `files` (sorted by path bytes): "sha256:" + 64 hex.
std::string ledger_content_hash(const std::vector<LedgerFile>& files);

// The content of the skill folder `skill_dir` as a snapshot, every file's
// bytes stored as a blob of `ledger` (created when missing). A file that
// changes while it is captured is an io_error (the caller holds the skill's
// lock, so only an outside writer can do that). Errors: those of
// files::build_content_manifest (not_found: no folder; refused: a link or
// special file; limit_exceeded), io_error.
Result<LedgerSnapshot> capture_folder(const Ledger& ledger, const std::filesystem::path& skill_dir);

// The same for files given by their bytes (database skills).
// Errors: invalid_argument (a path that is empty, absolute, has "." or ".."
// segments or appears twice), io_error.
Result<LedgerSnapshot> capture_bytes(const Ledger& ledger, const std::vector<LedgerBytes>& files);

// Where the blob of `sha256` lives.
std::filesystem::path ledger_blob_path(const Ledger& ledger, std::string_view sha256);

// The bytes of `file`, checked against its size and SHA-256.
// Errors: not_found (no blob), io_error (a blob whose bytes do not match: corrupt).
Result<std::string> read_ledger_blob(const Ledger& ledger, const LedgerFile& file);

// Every file of `snapshot` with its bytes, in its order.
Result<std::vector<LedgerBytes>> read_snapshot_bytes(const Ledger& ledger, const LedgerSnapshot& snapshot);

} // namespace skillrt::core
