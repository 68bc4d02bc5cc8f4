#include "core/activation/path_glob.hpp"

#include <algorithm>

namespace skillrt::core {
namespace {

void append_literal(std::string& out, char c) {
  // RE2 treats every ASCII punctuation character escaped as itself.
  const auto byte = static_cast<unsigned char>(c);
  if (byte < 0x80 && c != '/' && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) {
    out += '\\';
  }
  out += c;
}

// Copies the class starting at glob[i] == '[' and returns the index past its
// closing ']', or npos when it does not close.
std::size_t append_class(std::string_view glob, std::size_t i, std::string& out) {
  std::size_t j = i + 1;
  std::string body;
  if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) {
    body += '^';
    ++j;
  }
  bool first = true;
  for (; j < glob.size(); ++j) {
    const char c = glob[j];
    if (c == ']' && !first) {
      out += '[';
      out += body;
      out += ']';
      return j + 1;
    }
    first = false;
    if (c == '/') {
      return std::string_view::npos;  // a class never spans a separator
    }
    if (c == '\\' || c == '[' || c == ']' || c == '^') {
      body += '\\';
    }
    body += c;
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<std::string> glob_to_regex(std::string_view glob, std::string& problem) {
  while (glob.starts_with("./")) {
    glob.remove_prefix(2);
  }
  const bool rooted = glob.starts_with('/');
  if (rooted) {
    glob.remove_prefix(1);
  }
  std::string text(glob);
  if (text.empty()) {
    problem = "empty glob";
    return std::nullopt;
  }
  if (text.back() == '/') {
    text += "**";  // a folder: everything under it
  }
  std::string out;
  // No slash (and not anchored with one): the name in any folder.
  if (!rooted && text.find('/') == std::string::npos) {
    out += "(?:.*/)?";
  }
  int braces = 0;
  std::string_view g = text;
  for (std::size_t i = 0; i < g.size();) {
    const char c = g[i];
    if (c == '*') {
      if (i + 1 < g.size() && g[i + 1] == '*') {
        const bool segment_start = i == 0 || g[i - 1] == '/';
        std::size_t after = i + 2;
        while (after < g.size() && g[after] == '*') {
          ++after;
        }
        if (segment_start && after < g.size() && g[after] == '/') {
          out += "(?:[^/]*/)*";  // "**/": zero or more whole folders
          i = after + 1;
          continue;
        }
        if (segment_start && after == g.size() && !out.empty() && out.back() == '/') {
          out.pop_back();  // "dir/**": the folder's contents (the "/" moves into the group)
          out += "(?:/.*)?";
          i = after;
          continue;
        }
        out += ".*";
        i = after;
        continue;
      }
      out += "[^/]*";
      ++i;
    } else if (c == '?') {
      out += "[^/]";
      ++i;
    } else if (c == '[') {
      const std::size_t next = append_class(g, i, out);
      if (next == std::string_view::npos) {
        problem = "unclosed '[' in glob";
        return std::nullopt;
      }
      i = next;
    } else if (c == '{') {
      ++braces;
      out += "(?:";
      ++i;
    } else if (c == '}' && braces > 0) {
      --braces;
      out += ')';
      ++i;
    } else if (c == ',' && braces > 0) {
      out += '|';
      ++i;
    } else if (c == '\\' && i + 1 < g.size()) {
      append_literal(out, g[i + 1]);
      i += 2;
    } else {
      append_literal(out, c);
      ++i;
    }
  }
  if (braces > 0) {
    problem = "unclosed '{' in glob";
    return std::nullopt;
  }
  return out;
}

std::string normalize_touched_path(std::string_view path, std::string_view project_root) {
  std::string out(path);
  std::replace(out.begin(), out.end(), '\\', '/');
  std::string_view root = project_root;
  while (root.size() > 1 && root.back() == '/') {
    root.remove_suffix(1);
  }
  if (!root.empty() && root != "/" && out.size() > root.size() && out.compare(0, root.size(), root) == 0 &&
      out[root.size()] == '/') {
    out.erase(0, root.size() + 1);
  }
  while (out.starts_with("./")) {
    out.erase(0, 2);
  }
  return out;
}

}  // namespace skillrt::core
