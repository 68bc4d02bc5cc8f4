// The install sources port: how the hub (install, check, update) gets a
// bundle's files without knowing about libarchive, libgit2 or libcurl. The
// adapters live in src/sources (SourceFetcher); tests may use them directly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/progress.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

enum class SourceKind : unsigned char {
  folder,   // a local directory, copied
  archive,  // a local .tar.gz / .tgz / .zip, extracted
  git,      // a git repository (local path, file://, https://), checked out
  url,      // an https:// archive or SKILL.md, downloaded (then extracted if an archive)
};
const char* source_kind_name(SourceKind kind);  // "folder" | "archive" | "git" | "url"
std::optional<SourceKind> parse_source_kind(std::string_view name); // the inverse; nullopt for other text

// The hub's long work reports through the core progress port.
using Progress = core::Progress;

struct FetchedSource {
  SourceKind kind = SourceKind::folder;
  // The fetched tree, inside the staging directory given to fetch(), after
  // applying a `//subdir` suffix. It may hold one skill (SKILL.md at its top)
  // or several (SKILL.md files below it).
  std::filesystem::path root;
  // What lock.json records as the source: absolute path for local sources, the
  // URL without credentials, fragment or //subdir otherwise.
  std::string identifier;
  // SOURCE rewritten to fetch the same thing from anywhere: an absolute path
  // or a URL without credentials, plus `//subdir` and `#ref`. lock.json keeps
  // it for check and update ("" from a fetcher that cannot tell: the caller
  // keeps the user's string).
  std::string canonical_source;
  std::string subdir;    // the `//subdir` part, "" when none
  std::string ref;       // the `#ref` asked for (git), "" when none
  // What the source was at fetch time: the git commit id (40 hex); for
  // downloads and archives "sha256:<64 hex>" of the fetched bytes; "" for folders.
  std::string revision;
};

struct FetchOptions {
  Progress* progress = nullptr;
};

class Fetcher {
 public:
  virtual ~Fetcher() = default;
  // Fetches SOURCE (the user's string, with optional `#ref` and `//subdir`)
  // into `staging`, an existing empty directory the caller owns and removes.
  // Every limit of limits.hpp "Distribution" applies; a hostile bundle (absolute
  // paths, `..`, links leaving it, devices, bombs) is an error naming the entry.
  virtual Result<FetchedSource> fetch(std::string_view source, const std::filesystem::path& staging,
                                      const FetchOptions& options) = 0;
};

}  // namespace skillrt::core::hub
