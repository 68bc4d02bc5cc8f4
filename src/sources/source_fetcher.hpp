// The one Fetcher (core/hub/fetcher.hpp) the binary uses: it reads SOURCE
// (source_spec.hpp), picks the adapter (folder copy, archive extraction, git
// checkout, https download) and fetches into the caller's staging directory
// with every bundle limit applied. It reports progress but never calls
// Progress::finish(): the caller owns the line across fetch, scan and install.
#pragma once

#include <filesystem>
#include <memory>

#include "core/hub/fetcher.hpp"
#include "sources/bundle_path.hpp"
#include "sources/git_fetch.hpp"
#include "sources/https_fetch.hpp"

namespace skillrt::sources {

// Knobs of the fetcher; the defaults are what the binary uses.
struct SourceFetcherSettings {
  BundleLimits bundle;
  DownloadLimits download;
  ChildDeadlines git = default_git_deadlines();
  // Relative local SOURCEs resolve against this; empty = the process's cwd.
  std::filesystem::path cwd;
};

std::unique_ptr<core::hub::Fetcher> make_source_fetcher();
std::unique_ptr<core::hub::Fetcher> make_source_fetcher(const SourceFetcherSettings& settings);

} // namespace skillrt::sources
