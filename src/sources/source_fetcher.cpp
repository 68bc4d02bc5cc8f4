// The SOURCE dispatcher (see source_fetcher.hpp): parse, pick the adapter,
// write through one BundleWriter into `<staging>/<name>`, apply //subdir, and
// fill FetchedSource.
#include "sources/source_fetcher.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <system_error>

#include "core/hub/fetcher.hpp"
#include "core/limits.hpp"
#include "core/util/sha256.hpp"
#include "sources/archive_extract.hpp"
#include "sources/bundle_writer.hpp"
#include "sources/folder_fetch.hpp"
#include "sources/git_fetch.hpp"
#include "sources/https_fetch.hpp"
#include "sources/source_spec.hpp"
#include "sources/url.hpp"

namespace skillrt::sources {

namespace {

namespace fs = std::filesystem;
using core::hub::FetchedSource;
using core::hub::FetchOptions;
using core::hub::SourceKind;

// Where a git clone waits while its tree is written out; a dot name, so it
// can never be a bundle folder (those never start with '.').
constexpr const char* k_git_scratch = ".git-clone";
// The bundle folder's name when the source gives no usable one.
constexpr const char* k_fallback_name = "bundle";

bool is_safe_folder_name(std::string_view name) {
  if (name.empty() || name.size() > limits::k_max_name_length || name.front() == '.' || name.front() == '-') {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return std::isalnum(c) != 0 || c == '.' || c == '_' || c == '-';
  });
}

std::string strip_suffix_icase(std::string name, std::string_view suffix) {
  if (name.size() > suffix.size()) {
    std::string tail = name.substr(name.size() - suffix.size());
    std::transform(tail.begin(), tail.end(), tail.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (tail == suffix) {
      name.resize(name.size() - suffix.size());
    }
  }
  return name;
}

// The bundle folder's name: the last segment of the subdir if any, else of
// the source (without .tar.gz / .tgz / .zip / .git), when it is a safe name.
std::string bundle_folder_name(const SourceSpec& spec) {
  std::string last;
  if (!spec.subdir.empty()) {
    last = spec.subdir.substr(spec.subdir.rfind('/') + 1);
  } else {
    auto url = parse_url(spec.identifier);
    last = url ? std::string(url->path_only()) : spec.identifier;
    while (!last.empty() && last.back() == '/') {
      last.pop_back();
    }
    last = last.substr(last.rfind('/') == std::string::npos ? 0 : last.rfind('/') + 1);
    for (const std::string_view suffix : {".tar.gz", ".tgz", ".zip", ".git"}) {
      last = strip_suffix_icase(last, suffix);
    }
  }
  return is_safe_folder_name(last) ? last : std::string(k_fallback_name);
}

SourceKind kind_of(SpecKind kind) {
  switch (kind) {
  case SpecKind::folder:
    return SourceKind::folder;
  case SpecKind::archive:
    return SourceKind::archive;
  case SpecKind::git:
    return SourceKind::git;
  case SpecKind::url_archive:
  case SpecKind::url_skill_file:
    return SourceKind::url;
  }
  return SourceKind::folder;
}

Result<void> check_staging(const fs::path& staging) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(staging, ec);
  if (ec || !fs::is_directory(status)) {
    return fail(ErrorCode::invalid_argument, "the staging folder " + staging.string() + " is not a folder");
  }
  if (!fs::is_empty(staging, ec) || ec) {
    return fail(ErrorCode::invalid_argument, "the staging folder " + staging.string() + " is not empty");
  }
  return {};
}

Result<BundleWriter> open_bundle(const fs::path& folder, const BundleLimits& limits, const FetchOptions& options,
                                 std::string_view phase) {
  if (::mkdir(folder.c_str(), 0755) != 0) {
    return fail(ErrorCode::io_error,
                "cannot create " + folder.string() + ": " + std::generic_category().message(errno));
  }
  return BundleWriter::open(folder, limits, options.progress, phase);
}

// The fetched tree's //subdir, which must be a real folder inside it.
Result<fs::path> apply_subdir(const fs::path& bundle, const SourceSpec& spec) {
  fs::path current = bundle;
  std::size_t start = 0;
  while (start < spec.subdir.size()) {
    std::size_t end = spec.subdir.find('/', start);
    end = end == std::string::npos ? spec.subdir.size() : end;
    current /= spec.subdir.substr(start, end - start);
    start = end + 1;
    struct stat st {};
    if (::lstat(current.c_str(), &st) != 0) {
      return fail(ErrorCode::not_found, "//subdir \"" + spec.subdir + "\" does not exist in " + spec.identifier);
    }
    if (!S_ISDIR(st.st_mode)) {
      return fail(ErrorCode::invalid_argument,
                  "//subdir \"" + spec.subdir + "\" is not a folder in " + spec.identifier);
    }
  }
  return current;
}

class SourceFetcher final : public core::hub::Fetcher {
public:
  explicit SourceFetcher(SourceFetcherSettings settings) : m_settings(std::move(settings)) {}

  Result<FetchedSource> fetch(std::string_view source, const fs::path& staging, const FetchOptions& options) override {
    std::error_code ec;
    const fs::path cwd = m_settings.cwd.empty() ? fs::current_path(ec) : m_settings.cwd;
    auto spec = parse_source_spec(source, cwd);
    if (!spec) {
      return tl::unexpected(spec.error());
    }
    if (auto ready = check_staging(staging); !ready) {
      return tl::unexpected(ready.error());
    }
    // A local file that is not named like an archive is still tried as one:
    // archives are recognised by their content.
    if (spec->kind == SpecKind::folder) {
      struct stat st {};
      if (::stat(spec->location.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        spec->kind = SpecKind::archive;
      }
    }
    FetchedSource fetched;
    fetched.kind = kind_of(spec->kind);
    fetched.identifier = spec->identifier;
    fetched.canonical_source = canonical_source(*spec);
    fetched.subdir = spec->subdir;
    fetched.ref = spec->ref;
    auto root = fetch_kind(*spec, staging, options, fetched.revision);
    if (!root) {
      return tl::unexpected(root.error());
    }
    fetched.root = std::move(*root);
    return fetched;
  }

private:
  Result<fs::path> fetch_kind(const SourceSpec& spec, const fs::path& staging, const FetchOptions& options,
                              std::string& revision) const {
    switch (spec.kind) {
    case SpecKind::folder:
      return fetch_folder(spec, staging, options);
    case SpecKind::archive:
      return fetch_archive(spec, staging, options, revision);
    case SpecKind::git:
      return fetch_repository(spec, staging, options, revision);
    case SpecKind::url_archive:
      return fetch_url_archive(spec, staging, options, revision);
    case SpecKind::url_skill_file:
      return fetch_skill_file(spec, staging, options, revision);
    }
    return fail(ErrorCode::internal, "unknown source kind");
  }

  Result<fs::path> fetch_folder(const SourceSpec& spec, const fs::path& staging, const FetchOptions& options) const {
    const fs::path bundle = staging / bundle_folder_name(spec);
    auto writer = open_bundle(bundle, m_settings.bundle, options, "fetch");
    if (!writer) {
      return tl::unexpected(writer.error());
    }
    // The staging folder may lie inside the source (installing from a folder
    // that holds the skills root): it is never copied into itself.
    if (auto copied = copy_folder(spec.location, spec.subdir, *writer, staging); !copied) {
      return tl::unexpected(copied.error());
    }
    return bundle;
  }

  Result<fs::path> fetch_archive(const SourceSpec& spec, const fs::path& staging, const FetchOptions& options,
                                 std::string& revision) const {
    SourceSpec whole = spec;
    whole.subdir.clear();
    const fs::path bundle = staging / bundle_folder_name(whole);
    auto writer = open_bundle(bundle, m_settings.bundle, options, "extract");
    if (!writer) {
      return tl::unexpected(writer.error());
    }
    auto extracted = extract_archive_file(spec.location, *writer);
    if (!extracted) {
      return tl::unexpected(extracted.error());
    }
    revision = "sha256:" + extracted->archive_sha256;
    return apply_subdir(bundle, spec);
  }

  Result<fs::path> fetch_repository(const SourceSpec& spec, const fs::path& staging, const FetchOptions& options,
                                    std::string& revision) const {
    const fs::path bundle = staging / bundle_folder_name(spec);
    auto writer = open_bundle(bundle, m_settings.bundle, options, "extract");
    if (!writer) {
      return tl::unexpected(writer.error());
    }
    const GitRequest request{spec.location, spec.identifier, spec.ref, spec.subdir, m_settings.git};
    auto commit = fetch_git(request, staging / k_git_scratch, *writer, options.progress);
    if (!commit) {
      return tl::unexpected(commit.error());
    }
    revision = std::move(*commit);
    return bundle;
  }

  Result<fs::path> fetch_url_archive(const SourceSpec& spec, const fs::path& staging, const FetchOptions& options,
                                     std::string& revision) const {
    auto downloaded = download(spec.location, options.progress, m_settings.download);
    if (!downloaded) {
      return tl::unexpected(downloaded.error());
    }
    SourceSpec whole = spec;
    whole.subdir.clear();
    const fs::path bundle = staging / bundle_folder_name(whole);
    auto writer = open_bundle(bundle, m_settings.bundle, options, "extract");
    if (!writer) {
      return tl::unexpected(writer.error());
    }
    auto extracted = extract_archive_bytes(downloaded->bytes, "the download " + spec.identifier, *writer);
    if (!extracted) {
      return tl::unexpected(extracted.error());
    }
    revision = "sha256:" + extracted->archive_sha256;
    return apply_subdir(bundle, spec);
  }

  Result<fs::path> fetch_skill_file(const SourceSpec& spec, const fs::path& staging, const FetchOptions& options,
                                    std::string& revision) const {
    if (!spec.subdir.empty()) {
      return fail(ErrorCode::invalid_argument, "//subdir does not apply to a single SKILL.md: " + spec.identifier);
    }
    auto downloaded = download(spec.location, options.progress, m_settings.download);
    if (!downloaded) {
      return tl::unexpected(downloaded.error());
    }
    auto name = skill_folder_name(downloaded->bytes);
    if (!name) {
      return tl::unexpected(name.error());
    }
    const fs::path bundle = staging / *name;
    auto writer = open_bundle(bundle, m_settings.bundle, options, "fetch");
    if (!writer) {
      return tl::unexpected(writer.error());
    }
    if (auto written = writer->add_file_bytes("SKILL.md", false, downloaded->bytes); !written) {
      return tl::unexpected(written.error());
    }
    revision = "sha256:" + core::sha256_hex(downloaded->bytes);
    return bundle;
  }

  SourceFetcherSettings m_settings;
};

} // namespace

std::unique_ptr<core::hub::Fetcher> make_source_fetcher() {
  return make_source_fetcher(SourceFetcherSettings{});
}

std::unique_ptr<core::hub::Fetcher> make_source_fetcher(const SourceFetcherSettings& settings) {
  return std::make_unique<SourceFetcher>(settings);
}

} // namespace skillrt::sources
