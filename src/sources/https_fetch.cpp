// Downloads over libcurl (the only file that includes curl/curl.h); see
// https_fetch.hpp.
#include "sources/https_fetch.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <memory>

#include "core/yaml/frontmatter.hpp"
#include "sources/bundle_path.hpp"
#include "sources/url.hpp"

namespace skillrt::sources {

namespace {

// libcurl's global state, set up once on first use.
struct CurlLibrary {
  CurlLibrary() { curl_global_init(CURL_GLOBAL_DEFAULT); }
  ~CurlLibrary() { curl_global_cleanup(); }
  CurlLibrary(const CurlLibrary&) = delete;
  CurlLibrary& operator=(const CurlLibrary&) = delete;
};

void ensure_library() {
  static const CurlLibrary library;
}

struct CurlFree {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
using CurlPtr = std::unique_ptr<CURL, CurlFree>;

struct Transfer {
  std::string body;
  std::uint64_t max_bytes = 0;
  bool too_large = false;
  core::hub::Progress* progress = nullptr;
};

std::size_t on_data(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t bytes = size * count;
  if (bytes > transfer->max_bytes - transfer->body.size()) {
    transfer->too_large = true;
    return 0; // a short count makes curl stop with CURLE_WRITE_ERROR
  }
  transfer->body.append(data, bytes);
  return bytes;
}

int on_progress(void* user, curl_off_t total, curl_off_t now, curl_off_t /*ultotal*/, curl_off_t /*ulnow*/) {
  auto* transfer = static_cast<Transfer*>(user);
  if (transfer->progress != nullptr && now > 0) {
    transfer->progress->update("fetch", static_cast<std::uint64_t>(now),
                               total > 0 ? static_cast<std::uint64_t>(total) : 0);
  }
  return 0;
}

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

template <typename T> void set(CURL* handle, CURLoption option, T value) {
  curl_easy_setopt(handle, option, value);
}

} // namespace

Result<Download> download(std::string_view url, core::hub::Progress* progress, const DownloadLimits& limits) {
  ensure_library();
  auto parsed = parse_url(url);
  if (!parsed) {
    return tl::unexpected(parsed.error());
  }
  if (auto fetchable = check_fetchable(*parsed); !fetchable) {
    return tl::unexpected(fetchable.error());
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limits.timeout_s);
  UrlParts current = *parsed;
  for (int redirects = 0;; ++redirects) {
    CurlPtr handle(curl_easy_init());
    if (!handle) {
      return fail(ErrorCode::internal, "libcurl could not allocate a handle");
    }
    const std::string shown = current.without_credentials();
    const std::string full = current.full();
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return fail(ErrorCode::io_error,
                  "downloading " + shown + " timed out after " + std::to_string(limits.timeout_s) + " s");
    }
    Transfer transfer;
    transfer.max_bytes = limits.max_bytes;
    transfer.progress = progress;
    char error_text[CURL_ERROR_SIZE] = {};
    CURL* h = handle.get();
    set(h, CURLOPT_URL, full.c_str());
    // Only the scheme check_fetchable allowed for this hop; redirects are ours to follow.
    set(h, CURLOPT_PROTOCOLS_STR, current.scheme == "https" ? "https" : "http");
    set(h, CURLOPT_REDIR_PROTOCOLS_STR, "https");
    set(h, CURLOPT_FOLLOWLOCATION, 0L);
    set(h, CURLOPT_MAXREDIRS, static_cast<long>(limits.max_redirects));
    set(h, CURLOPT_TIMEOUT_MS, static_cast<long>(left.count()));
    set(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(left.count()));
    set(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(limits.max_bytes));
    set(h, CURLOPT_SSL_VERIFYPEER, 1L);
    set(h, CURLOPT_SSL_VERIFYHOST, 2L);
    set(h, CURLOPT_NOSIGNAL, 1L);
    set(h, CURLOPT_USERAGENT, "skillrt");
    set(h, CURLOPT_ERRORBUFFER, error_text);
    set(h, CURLOPT_WRITEFUNCTION, on_data);
    set(h, CURLOPT_WRITEDATA, &transfer);
    set(h, CURLOPT_XFERINFOFUNCTION, on_progress);
    set(h, CURLOPT_XFERINFODATA, &transfer);
    set(h, CURLOPT_NOPROGRESS, 0L);
    if (is_loopback_host(current.host)) {
      // A loopback address is never reached through a proxy.
      set(h, CURLOPT_NOPROXY, "*");
    }
    const CURLcode code = curl_easy_perform(h);
    const std::string too_large =
        "the download " + shown + " is larger than " + std::to_string(limits.max_bytes) + " bytes";
    if (code == CURLE_FILESIZE_EXCEEDED || (code == CURLE_WRITE_ERROR && transfer.too_large)) {
      return fail(ErrorCode::limit_exceeded, too_large);
    }
    if (code == CURLE_OPERATION_TIMEDOUT) {
      return fail(ErrorCode::io_error,
                  "downloading " + shown + " timed out after " + std::to_string(limits.timeout_s) + " s");
    }
    if (code != CURLE_OK) {
      return fail(ErrorCode::io_error,
                  "cannot download " + shown + ": " +
                      (error_text[0] != '\0' ? std::string(error_text) : curl_easy_strerror(code)));
    }
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    if (is_redirect(status)) {
      char* location = nullptr;
      curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &location);
      if (location == nullptr) {
        return fail(ErrorCode::io_error, "HTTP " + std::to_string(status) + " from " + shown + " without a Location");
      }
      if (redirects >= limits.max_redirects) {
        return fail(ErrorCode::limit_exceeded, "too many redirects (more than " + std::to_string(limits.max_redirects) +
                                                   ") from " + parsed->without_credentials());
      }
      auto next = parse_url(location);
      if (!next) {
        return fail(ErrorCode::refused, "redirect from " + shown + " to an invalid URL: " + next.error().message);
      }
      if (auto fetchable = check_fetchable(*next); !fetchable) {
        return fail(ErrorCode::refused, "redirect from " + shown + " refused: " + fetchable.error().message);
      }
      if (current.scheme == "https" && next->scheme != "https") {
        return fail(ErrorCode::refused, "redirect from " + shown + " to " + next->without_credentials() +
                                            " refused: https may not be downgraded to http");
      }
      current = std::move(*next);
      continue;
    }
    if (status >= 400) {
      return fail(ErrorCode::io_error, "HTTP " + std::to_string(status) + " from " + shown);
    }
    if (status < 200 || status > 299) {
      return fail(ErrorCode::io_error, "unexpected HTTP status " + std::to_string(status) + " from " + shown);
    }
    return Download{std::move(transfer.body), shown};
  }
}

Result<std::string> skill_folder_name(std::string_view skill_md) {
  const core::Frontmatter frontmatter = core::parse_frontmatter(skill_md);
  const core::YamlNode* name_node = frontmatter.fields.get("name");
  if (!frontmatter.fenced || name_node == nullptr || !name_node->is_scalar() || name_node->text().empty()) {
    return fail(ErrorCode::invalid_argument,
                "the downloaded SKILL.md has no frontmatter `name`, which would name its folder");
  }
  const std::string& name = name_node->text();
  const bool charset_ok = std::all_of(name.begin(), name.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return std::isalnum(c) != 0 || c == '.' || c == '_' || c == '-';
  });
  if (!charset_ok || name.size() > limits::k_max_name_length || name.front() == '.' || name.front() == '-') {
    return fail(ErrorCode::invalid_argument,
                "the downloaded SKILL.md's name " + quote_entry(name) +
                    " is not a safe folder name (letters, digits, '.', '_', '-'; at most " +
                    std::to_string(limits::k_max_name_length) + " bytes; not starting with '.' or '-')");
  }
  return name;
}

} // namespace skillrt::sources
