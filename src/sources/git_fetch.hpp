// Fetching a git repository (local path, file://, https://, loopback http://)
// with libgit2. The repository is cloned bare into a scratch folder; the
// commit of `#ref` (default: the remote's HEAD) is then written out entry by
// entry through the BundleWriter, so no checkout ever happens unchecked:
// symlinks and submodules are refused, `.git` entries skipped, every bundle
// limit held before a blob is read. The bare clone is deleted afterwards.
// The clone itself runs in a watched child process (watched_child.hpp), so a
// server that stalls or trickles cannot hang the caller.
#pragma once

#include <filesystem>
#include <string>

#include "core/hub/fetcher.hpp"
#include "skillrt/result.hpp"
#include "sources/bundle_writer.hpp"
#include "sources/watched_child.hpp"

namespace skillrt::sources {

// limits::k_git_stall_timeout_s without a word from the server (progress or
// its "Counting objects" messages), limits::k_git_fetch_timeout_s in all.
ChildDeadlines default_git_deadlines();

struct GitRequest {
  std::string location;   // what libgit2 clones: absolute path or URL (with credentials)
  std::string identifier; // the same without credentials, for messages
  std::string ref;        // branch, tag or commit id (abbreviated allowed); "" = remote HEAD
  std::string subdir;     // normalized; "" = the whole tree
  ChildDeadlines deadlines = default_git_deadlines();
};

// Clones `request` into `scratch` (a folder that must not exist yet; removed
// before returning), writes the tree of the chosen commit (or its `subdir`)
// into `writer` and returns the commit id (40 hex). Transfer progress goes to
// `progress` (phase "fetch"); a network transfer stops past the writer's
// max_bytes (a local clone copies objects without a transfer). Errors name
// the ref, the subdir or the entry; a clone past its deadlines ends with an
// io_error "cannot clone X: no progress for N s" / "not finished after N s".
Result<std::string> fetch_git(const GitRequest& request, const std::filesystem::path& scratch, BundleWriter& writer,
                              core::hub::Progress* progress);

} // namespace skillrt::sources
