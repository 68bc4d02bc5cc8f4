// SOURCE parsing (see source_spec.hpp and docs/sources.md).
#include "sources/source_spec.hpp"

#include <algorithm>
#include <cctype>

#include "core/limits.hpp"
#include "sources/bundle_path.hpp"
#include "sources/url.hpp"

namespace skillrt::sources {

namespace {

namespace fs = std::filesystem;


bool ends_with_icase(std::string_view text, std::string_view suffix) {
  if (text.size() < suffix.size()) {
    return false;
  }
  return std::equal(suffix.begin(), suffix.end(), text.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                    [](char a, char b) {
                      return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
                    });
}

bool names_archive(std::string_view path) {
  return ends_with_icase(path, ".tar.gz") || ends_with_icase(path, ".tgz") || ends_with_icase(path, ".zip");
}

bool names_skill_file(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return (slash == std::string_view::npos ? path : path.substr(slash + 1)) == "SKILL.md";
}

// A URL's scheme ("https" for "https://x"), "" when `text` has none.
std::string_view scheme_of(std::string_view text) {
  const std::size_t colon = text.find("://");
  if (colon == std::string_view::npos || colon == 0 || std::isalpha(static_cast<unsigned char>(text[0])) == 0) {
    return {};
  }
  for (std::size_t i = 0; i < colon; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (std::isalnum(c) == 0 && c != '+' && c != '-' && c != '.') {
      return {};
    }
  }
  return text.substr(0, colon);
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

Result<std::string> check_ref(std::string_view ref) {
  const std::string shown = quote_entry(ref);
  if (ref.empty()) {
    return fail(ErrorCode::invalid_argument, "empty #ref: give a branch, tag or commit id after '#'");
  }
  if (ref.size() > limits::k_max_source_ref_bytes) {
    return fail(ErrorCode::invalid_argument, "#ref is longer than " + std::to_string(limits::k_max_source_ref_bytes) + " bytes");
  }
  const bool charset_ok = std::all_of(ref.begin(), ref.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return std::isalnum(c) != 0 || c == '.' || c == '_' || c == '-' || c == '/' || c == '+';
  });
  if (!charset_ok || ref.front() == '-' || ref.front() == '/' || ref.back() == '/' ||
      ref.find("..") != std::string_view::npos || ref.find("//") != std::string_view::npos) {
    return fail(ErrorCode::invalid_argument,
                "invalid #ref " + shown + ": a branch, tag or commit id of letters, digits and . _ / + -");
  }
  return std::string(ref);
}

Result<std::string> check_subdir(std::string_view raw) {
  if (raw.empty()) {
    return fail(ErrorCode::invalid_argument, "empty //subdir: give a folder after '//'");
  }
  auto normalized = normalize_bundle_path(raw, BundleLimits{});
  if (!normalized) {
    // Same rules as a bundle entry, told as what the user typed.
    std::string rule = normalized.error().message.substr(entry_prefix(raw).size());
    return fail(ErrorCode::invalid_argument, "invalid //subdir " + quote_entry(raw) + ": " + rule);
  }
  if (normalized->empty()) {
    return fail(ErrorCode::invalid_argument, "empty //subdir: give a folder after '//'");
  }
  return normalized;
}

// Where `//` splits location from subdir; npos when there is none. In a URL
// only the path counts (the "//" of "https://" and any inside a query do not).
std::size_t subdir_separator(std::string_view head, std::string_view scheme) {
  if (!scheme.empty()) {
    const std::size_t authority = scheme.size() + 3;
    const std::size_t path_start = head.find('/', authority);
    if (path_start == std::string_view::npos) {
      return std::string_view::npos;
    }
    const std::size_t query = head.find('?', path_start);
    const std::size_t found = head.find("//", path_start);
    return (query != std::string_view::npos && found > query) ? std::string_view::npos : found;
  }
  // A leading "//" is a POSIX path prefix, not a separator.
  return head.size() < 2 ? std::string_view::npos : head.find("//", 1);
}

bool looks_like_scp(std::string_view head) {
  const std::size_t colon = head.find(':');
  const std::size_t slash = head.find('/');
  if (colon == std::string_view::npos || (slash != std::string_view::npos && slash < colon)) {
    return false;
  }
  return head.substr(0, colon).find('@') != std::string_view::npos;
}

Result<SourceSpec> parse_url_source(std::string_view location, std::string_view scheme, SourceSpec spec) {
  std::string lowered = lower(scheme);
  bool forced_git = false;
  if (lowered.rfind("git+", 0) == 0) {
    forced_git = true;
    location.remove_prefix(4);
    lowered = lowered.substr(4);
  }
  if (lowered == "ssh" || lowered == "git") {
    return fail(ErrorCode::refused, lowered + ":// sources are not supported; use https:// or file://");
  }
  if (lowered == "file") {
    std::string_view rest = location.substr(7); // after "file://"
    if (rest.rfind("localhost/", 0) == 0) {
      rest.remove_prefix(9);
    }
    if (rest.empty() || rest.front() != '/') {
      return fail(ErrorCode::invalid_argument,
                  "a file:// URL must name an absolute local path (file:///path): " + std::string(location));
    }
    spec.kind = SpecKind::git;
    spec.location = "file://" + std::string(rest);
    spec.identifier = spec.location;
    return spec;
  }
  if (lowered != "https" && lowered != "http") {
    return fail(ErrorCode::refused,
                "unsupported URL scheme \"" + lowered + "://\" (use a local path, file://, https:// or git+https://)");
  }
  auto url = parse_url(location);
  if (!url) {
    return tl::unexpected(url.error());
  }
  if (auto fetchable = check_fetchable(*url); !fetchable) {
    return tl::unexpected(fetchable.error());
  }
  spec.location = url->full();
  spec.identifier = url->without_credentials();
  const std::string_view path = url->path_only();
  if (forced_git) {
    spec.kind = SpecKind::git;
  } else if (names_archive(path)) {
    spec.kind = SpecKind::url_archive;
  } else if (names_skill_file(path)) {
    spec.kind = SpecKind::url_skill_file;
  } else {
    spec.kind = SpecKind::git;
  }
  return spec;
}

} // namespace

const char* spec_kind_name(SpecKind kind) {
  switch (kind) {
  case SpecKind::folder:
    return "folder";
  case SpecKind::archive:
    return "archive";
  case SpecKind::git:
    return "git";
  case SpecKind::url_archive:
    return "url-archive";
  case SpecKind::url_skill_file:
    return "url-skill-file";
  }
  return "folder";
}

Result<SourceSpec> parse_source_spec(std::string_view source, const fs::path& cwd) {
  if (source.empty()) {
    return fail(ErrorCode::invalid_argument, "SOURCE is empty: give a folder, an archive, a git repository or a URL");
  }
  for (const char ch : source) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == 0) {
      return fail(ErrorCode::invalid_argument, "SOURCE holds a NUL byte");
    }
    if (c < 0x20 || c == 0x7f) {
      return fail(ErrorCode::invalid_argument, "SOURCE holds a control character");
    }
  }
  SourceSpec spec;
  std::string_view head = source;
  if (const std::size_t hash = source.find('#'); hash != std::string_view::npos) {
    auto ref = check_ref(source.substr(hash + 1));
    if (!ref) {
      return tl::unexpected(ref.error());
    }
    spec.ref = std::move(*ref);
    head = source.substr(0, hash);
  }
  const std::string_view scheme = scheme_of(head);
  if (const std::size_t split = subdir_separator(head, scheme); split != std::string_view::npos) {
    auto subdir = check_subdir(head.substr(split + 2));
    if (!subdir) {
      return tl::unexpected(subdir.error());
    }
    spec.subdir = std::move(*subdir);
    head = head.substr(0, split);
  }
  if (head.empty()) {
    return fail(ErrorCode::invalid_argument,
                "SOURCE names no folder, archive, repository or URL before //subdir or #ref");
  }

  Result<SourceSpec> parsed;
  if (!scheme.empty()) {
    parsed = parse_url_source(head, scheme, std::move(spec));
  } else if (looks_like_scp(head)) {
    return fail(ErrorCode::refused, "ssh sources (user@host:path) are not supported; use https:// or file://");
  } else {
    fs::path path = fs::path(std::string(head));
    if (path.is_relative()) {
      path = cwd / path;
    }
    path = path.lexically_normal();
    if (!path.has_filename() && path.has_parent_path() && path != path.root_path()) {
      path = path.parent_path();
    }
    spec.location = path.string();
    spec.identifier = spec.location;
    const std::string name = path.filename().string();
    if (names_archive(name)) {
      spec.kind = SpecKind::archive;
    } else if (ends_with_icase(name, ".git") || !spec.ref.empty()) {
      spec.kind = SpecKind::git;
    } else {
      spec.kind = SpecKind::folder;
    }
    parsed = std::move(spec);
  }
  if (parsed && !parsed->ref.empty() && parsed->kind != SpecKind::git) {
    return fail(ErrorCode::invalid_argument, std::string("#ref applies to git sources only; ") +
                                                 spec_kind_name(parsed->kind) + " " + parsed->identifier +
                                                 " has no branches or tags");
  }
  return parsed;
}

std::string canonical_source(const SourceSpec& spec) {
  std::string out = spec.identifier;
  if (spec.kind == SpecKind::git && !scheme_of(out).empty() && lower(scheme_of(out)) != "file") {
    const auto url = parse_url(out);
    const std::string_view path = url ? url->path_only() : std::string_view(out);
    if (names_archive(path) || names_skill_file(path)) {
      out = "git+" + out;
    }
  }
  if (!spec.subdir.empty()) {
    out += "//" + spec.subdir;
  }
  if (!spec.ref.empty()) {
    out += "#" + spec.ref;
  }
  return out;
}

} // namespace skillrt::sources
