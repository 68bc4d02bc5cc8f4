#include "core/hub/vendor_folder.hpp"

#include <vector>

#include "core/config/folder_policy.hpp"

namespace skillrt::core::hub {

namespace {

constexpr std::size_t k_max_vendor_bytes = 64;

// Lower-case letters and digits kept, '.', '_' and '-' kept between them,
// anything else one '-'.
std::string folder_slug(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      out.push_back(c);
    } else if (c >= 'A' && c <= 'Z') {
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else if ((c == '.' || c == '_' || c == '-') && !out.empty()) {
      out.push_back(c);
    } else if (!out.empty() && out.back() != '-') {
      out.push_back('-');
    }
  }
  if (out.size() > k_max_vendor_bytes) {
    out.resize(k_max_vendor_bytes);
  }
  while (!out.empty() && (out.back() == '-' || out.back() == '.' || out.back() == '_')) {
    out.pop_back();
  }
  return out.empty() ? std::string("unknown") : out;
}

std::vector<std::string_view> path_segments(std::string_view path) {
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    if (end > start) {
      segments.push_back(path.substr(start, end - start));
    }
    start = end + 1;
  }
  return segments;
}

std::string_view without_git_suffix(std::string_view name) {
  return name.ends_with(".git") ? name.substr(0, name.size() - 4) : name;
}

}  // namespace

std::string vendor_folder(SourceKind kind, std::string_view identifier) {
  std::string_view host;
  std::string_view path = identifier;
  if (const std::size_t scheme = identifier.find("://"); scheme != std::string_view::npos) {
    const std::string_view rest = identifier.substr(scheme + 3);
    const std::size_t slash = rest.find('/');
    host = rest.substr(0, slash);
    if (const std::size_t at = host.rfind('@'); at != std::string_view::npos) {
      host = host.substr(at + 1);  // never a user name as the vendor
    }
    if (const std::size_t colon = host.find(':'); colon != std::string_view::npos) {
      host = host.substr(0, colon);
    }
    path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  } else if (const std::size_t colon = identifier.find(':');
             kind == SourceKind::git && colon != std::string_view::npos && colon > 0 &&
             identifier.substr(0, colon).find('/') == std::string_view::npos) {
    // scp-like git address: [user@]host:OWNER/repo.git
    host = identifier.substr(0, colon);
    if (const std::size_t at = host.rfind('@'); at != std::string_view::npos) {
      host = host.substr(at + 1);
    }
    path = identifier.substr(colon + 1);
  }
  const std::vector<std::string_view> segments = path_segments(path);
  if (kind == SourceKind::git && !host.empty() && segments.size() >= 2) {
    return folder_slug(segments.front());  // github.com/OWNER/repo
  }
  if (kind == SourceKind::url && !host.empty()) {
    return folder_slug(host);
  }
  if (segments.empty()) {
    return folder_slug(host);
  }
  std::string_view last = without_git_suffix(segments.back());
  if (kind == SourceKind::archive) {
    for (const std::string_view suffix : {".tar.gz", ".tgz", ".zip"}) {
      if (last.ends_with(suffix)) {
        last.remove_suffix(suffix.size());
        break;
      }
    }
  }
  return folder_slug(last);
}

std::string default_install_category(SourceKind kind, std::string_view identifier) {
  return std::string(k_third_party_folder) + "/" + vendor_folder(kind, identifier);
}

}  // namespace skillrt::core::hub
