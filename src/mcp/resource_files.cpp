#include "mcp/resource_files.hpp"

#include <array>
#include <system_error>

#include "core/limits.hpp"
#include "core/files/containment.hpp"
#include "core/files/read_file.hpp"
#include "core/view/file_serving.hpp"
#include "core/view/linked_files.hpp"
#include "core/util/percent_encoding.hpp"
#include "core/util/utf8.hpp"
#include "mcp/server_state.hpp"

namespace skillrt::mcp {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_scheme = "skill://";

bool unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

void append_encoded_segment(std::string& out, std::string_view segment) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  for (const char ch : segment) {
    const auto c = static_cast<unsigned char>(ch);
    if (unreserved(c)) {
      out += ch;
    } else {
      out += '%';
      out += k_hex[c >> 4];
      out += k_hex[c & 0x0F];
    }
  }
}

// Encodes each '/'-separated segment, keeping the separators.
void append_encoded_path(std::string& out, std::string_view path) {
  std::size_t begin = 0;
  while (true) {
    const std::size_t slash = path.find('/', begin);
    append_encoded_segment(out, path.substr(begin, slash == std::string_view::npos ? slash : slash - begin));
    if (slash == std::string_view::npos) {
      return;
    }
    out += '/';
    begin = slash + 1;
  }
}

}  // namespace

std::string skill_path_of(const core::Catalog& catalog, const core::SkillRecord& record) {
  const std::string name(record.name);
  if (record.root_index >= catalog.roots.roots.size()) {
    return name;
  }
  const fs::path relative = record.dir.path().lexically_relative(catalog.roots.roots[record.root_index].path);
  const fs::path parent = relative.parent_path();
  if (relative.empty() || parent.empty() || *relative.begin() == "..") {
    return name;
  }
  return parent.generic_string() + "/" + name;
}

std::string skill_uri(std::string_view skill_path, std::string_view file) {
  std::string out(k_scheme);
  append_encoded_path(out, skill_path);
  out += '/';
  append_encoded_path(out, file);
  return out;
}

std::optional<UriTarget> resolve_skill_uri(const Snapshot& snapshot, std::string_view uri) {
  if (uri.size() > limits::k_max_path_length || uri.substr(0, k_scheme.size()) != k_scheme) {
    return std::nullopt;
  }
  std::vector<std::string> segments;
  std::string_view rest = uri.substr(k_scheme.size());
  while (true) {
    const std::size_t slash = rest.find('/');
    auto decoded = core::percent_decode(rest.substr(0, slash), false);
    // A decoded '/' or NUL inside a segment would change what the path means.
    if (!decoded || decoded->empty() || decoded->find('/') != std::string::npos ||
        decoded->find('\0') != std::string::npos) {
      return std::nullopt;
    }
    segments.push_back(std::move(*decoded));
    if (slash == std::string_view::npos) {
      break;
    }
    rest = rest.substr(slash + 1);
  }
  // The longest skill path that is a prefix wins: skills may nest.
  for (std::size_t split = segments.size() - 1; split >= 1; --split) {
    std::string prefix;
    for (std::size_t i = 0; i < split; ++i) {
      prefix += (i == 0 ? "" : "/") + segments[i];
    }
    const auto found = snapshot.by_path.find(prefix);
    if (found == snapshot.by_path.end()) {
      continue;
    }
    UriTarget target;
    target.skill = found->second;
    for (std::size_t i = split; i < segments.size(); ++i) {
      target.file += (i == split ? "" : "/") + segments[i];
    }
    return target;
  }
  return std::nullopt;
}

std::vector<std::string> skill_files(const fs::path& skill_dir) {
  std::vector<std::string> files{"SKILL.md"};
  for (const auto& [group, names] : core::collect_linked_files(skill_dir)) {
    for (const std::string& name : names) {
      if (files.size() >= k_max_resources_per_skill) {
        return files;
      }
      files.push_back(name);
    }
  }
  return files;
}

std::string mime_type_for(std::string_view file) {
  struct Entry {
    std::string_view extension;
    std::string_view type;
  };
  static constexpr std::array<Entry, 24> k_types{{
      {".md", "text/markdown"},         {".markdown", "text/markdown"},  {".txt", "text/plain"},
      {".py", "text/x-python"},         {".sh", "text/x-shellscript"},   {".bash", "text/x-shellscript"},
      {".js", "text/javascript"},       {".mjs", "text/javascript"},     {".ts", "text/x-typescript"},
      {".json", "application/json"},    {".yaml", "application/yaml"},   {".yml", "application/yaml"},
      {".toml", "application/toml"},    {".html", "text/html"},          {".css", "text/css"},
      {".csv", "text/csv"},             {".xml", "application/xml"},     {".svg", "image/svg+xml"},
      {".png", "image/png"},            {".jpg", "image/jpeg"},          {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},            {".pdf", "application/pdf"},     {".zip", "application/zip"},
  }};
  const std::size_t slash = file.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? file : file.substr(slash + 1);
  const std::size_t dot = base.rfind('.');
  if (dot != std::string_view::npos && dot > 0) {
    std::string extension(base.substr(dot));
    for (char& c : extension) {
      c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
    for (const Entry& entry : k_types) {
      if (entry.extension == extension) {
        return std::string(entry.type);
      }
    }
  }
  return "application/octet-stream";
}

Result<std::string> read_skill_file(const fs::path& skill_dir, std::string_view file) {
  auto checked = core::check_file_path(file);
  if (!checked) {
    return tl::unexpected(Error{checked.error().code, checked.error().error});
  }
  // The one containment rule: a link out of the skill is refused before
  // anything is opened, and the resolved path is what is read.
  auto resolved = core::resolve_inside(skill_dir, *checked);
  if (!resolved) {
    if (resolved.error().code != ErrorCode::refused) {
      return tl::unexpected(Error{ErrorCode::not_found, "skill directory is gone: " + skill_dir.string()});
    }
    return tl::unexpected(Error{ErrorCode::refused, "path escapes the skill directory: " + *checked});
  }
  return core::read_regular_file(*resolved, limits::k_max_served_file_bytes);
}

std::string base64_encode(std::string_view bytes) {
  static constexpr char k_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const auto n = (static_cast<unsigned>(static_cast<unsigned char>(bytes[i])) << 16) |
                   (static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 1])) << 8) |
                   static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 2]));
    out += k_alphabet[(n >> 18) & 63];
    out += k_alphabet[(n >> 12) & 63];
    out += k_alphabet[(n >> 6) & 63];
    out += k_alphabet[n & 63];
  }
  const std::size_t left = bytes.size() - i;
  if (left > 0) {
    unsigned n = static_cast<unsigned>(static_cast<unsigned char>(bytes[i])) << 16;
    if (left == 2) {
      n |= static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    }
    out += k_alphabet[(n >> 18) & 63];
    out += k_alphabet[(n >> 12) & 63];
    out += left == 2 ? k_alphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

bool is_text(std::string_view bytes) {
  return bytes.find('\0') == std::string_view::npos && !core::find_invalid_utf8(bytes).has_value();
}

}  // namespace skillrt::mcp
