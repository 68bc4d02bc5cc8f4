// Downloads over libcurl: https anywhere, http only to loopback hosts (tests,
// local mirrors). Redirects are followed one hop at a time so each target is
// checked (https stays https), at most limits::k_max_redirects of them; the
// size cap holds on the announced Content-Length and while streaming; TLS
// verification is on; an HTTP status of 400 or more is an error naming it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/hub/fetcher.hpp"
#include "core/limits.hpp"
#include "skillrt/result.hpp"

namespace skillrt::sources {

struct DownloadLimits {
  std::uint64_t max_bytes = limits::k_max_download_bytes;
  int timeout_s = limits::k_download_timeout_s; // for the whole download, redirects included
  int max_redirects = limits::k_max_redirects;
};

struct Download {
  std::string bytes;
  std::string final_url; // after redirects, without credentials
};

// Downloads `url` (checked with check_fetchable). Progress: phase "fetch",
// (bytes so far, bytes announced or 0).
Result<Download> download(std::string_view url, core::hub::Progress* progress, const DownloadLimits& limits);

// The frontmatter `name` of a downloaded SKILL.md, which becomes its folder
// name: it must be one safe path segment (letters, digits, '.', '_', '-', not
// starting with '.' or '-', at most limits::k_max_name_length bytes).
Result<std::string> skill_folder_name(std::string_view skill_md);

} // namespace skillrt::sources
