#include "core/guard/structure.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <system_error>

#include "core/limits.hpp"
#include "core/files/path_within.hpp"

namespace skillrt::core {
namespace {

GuardFinding structural(std::string_view rel, const char* id, ThreatSeverity severity, std::string description,
                        ThreatCategory category = ThreatCategory::structural) {
  GuardFinding f;
  f.pattern_id = id;
  f.category = category;
  f.severity = severity;
  f.file = std::string(rel);
  f.description = std::move(description);
  return f;
}

std::string_view base_name(std::string_view rel) {
  const std::size_t slash = rel.rfind('/');
  return slash == std::string_view::npos ? rel : rel.substr(slash + 1);
}

// Lower-case extension with the dot ("" when none; a leading dot is a hidden file, not an extension).
std::string extension_of(std::string_view rel) {
  const std::string_view base = base_name(rel);
  const std::size_t dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0) {
    return {};
  }
  std::string ext(base.substr(dot));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool in_list(std::string_view value, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string kib(std::uint64_t bytes) {
  return std::to_string((bytes + 1023) / 1024) + " KB";
}

bool is_script_extension(std::string_view ext) {
  return in_list(ext, {".sh", ".bash", ".zsh", ".fish", ".py", ".rb", ".pl", ".js", ".mjs", ".cjs", ".ts", ".php",
                       ".ps1", ".r", ".jl", ".lua"});
}

} // namespace

void check_structure(const std::filesystem::path& root, const SkillTree& tree, std::vector<GuardFinding>& out) {
  std::size_t counted = 0;
  std::uint64_t total = 0;
  for (const SkillEntry& entry : tree.entries) {
    switch (entry.type) {
    case SkillEntry::Type::regular: {
      ++counted;
      total += entry.size;
      if (entry.size > limits::k_guard_max_single_file_bytes) {
        out.push_back(structural(entry.rel, "oversized_file", ThreatSeverity::medium,
                                 "File is " + kib(entry.size) + ", above the " +
                                     kib(limits::k_guard_max_single_file_bytes) + " limit"));
      }
      if ((entry.mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0) {
        // Executables belong in scripts/ and should be scripts a reviewer can read.
        const bool in_scripts = starts_with(entry.rel, "scripts/");
        const bool script = is_script_extension(extension_of(entry.rel));
        if (!in_scripts || !script) {
          out.push_back(structural(entry.rel, "unexpected_executable", ThreatSeverity::medium,
                                   !script ? "Executable bit set on a file that is not a script"
                                           : "Executable script outside scripts/"));
        }
      }
      if (entry.links > 1) {
        out.push_back(structural(entry.rel, "hard_link", ThreatSeverity::low,
                                 "File has " + std::to_string(entry.links) +
                                     " hard links: its content may be shared with a file outside the skill"));
      }
      break;
    }
    case SkillEntry::Type::symlink: {
      ++counted;
      std::error_code ec;
      const std::filesystem::path target = std::filesystem::canonical(root / entry.rel, ec);
      if (ec) {
        out.push_back(structural(entry.rel, "broken_symlink", ThreatSeverity::medium,
                                 "Symlink cannot be resolved (broken or circular)", ThreatCategory::traversal));
      } else if (!is_within(target, root)) {
        out.push_back(structural(entry.rel, "symlink_escape", ThreatSeverity::critical,
                                 "Symlink points outside the skill: " + target.string(), ThreatCategory::traversal));
      }
      break;
    }
    case SkillEntry::Type::special:
      out.push_back(structural(entry.rel, "special_file", ThreatSeverity::medium,
                               "FIFO, socket or device file inside the skill (never opened)"));
      break;
    }
  }
  if (counted > limits::k_guard_max_file_count) {
    out.push_back(structural("", "too_many_files", ThreatSeverity::medium,
                             std::to_string(counted) + " files, above the limit of " +
                                 std::to_string(limits::k_guard_max_file_count)));
  }
  if (total > limits::k_guard_max_total_bytes) {
    out.push_back(structural("", "oversized_skill", ThreatSeverity::low,
                             "Skill holds " + kib(total) + ", above " + kib(limits::k_guard_max_total_bytes)));
  }
}

ContentKind classify_content(std::string_view head) {
  if (starts_with(head, "\x7f"
                        "ELF") ||
      starts_with(head, "\xfe\xed\xfa\xce") || starts_with(head, "\xce\xfa\xed\xfe") ||
      starts_with(head, "\xfe\xed\xfa\xcf") || starts_with(head, "\xcf\xfa\xed\xfe") ||
      starts_with(head, "\xca\xfe\xba\xbe")) {
    return ContentKind::native_binary;
  }
  // "MZ" alone starts plenty of text; a PE file also has binary bytes early.
  const std::string_view window = head.substr(0, 8192);
  const bool has_nul = window.find('\0') != std::string_view::npos;
  if (starts_with(head, "MZ") && has_nul) {
    return ContentKind::native_binary;
  }
  if (has_nul || starts_with(head, "\x89PNG") || starts_with(head, "\xff\xd8\xff") || starts_with(head, "GIF8") ||
      starts_with(head, "%PDF") || starts_with(head, "PK\x03\x04") || starts_with(head, "\x1f\x8b") ||
      starts_with(head, "7z\xbc\xaf") || starts_with(head, "BZh") ||
      starts_with(head, "\xfd"
                        "7zXZ")) {
    return ContentKind::other_binary;
  }
  return ContentKind::text;
}

ContentKind check_binary(std::string_view rel, std::string_view head, std::vector<GuardFinding>& out) {
  const ContentKind kind = classify_content(head);
  const std::string ext = extension_of(rel);
  const bool binary_extension =
      in_list(ext, {".exe", ".dll", ".so", ".dylib", ".bin", ".dat", ".com", ".msi", ".dmg", ".app", ".deb", ".rpm"});
  if (kind == ContentKind::native_binary) {
    out.push_back(structural(rel, "binary_file", ThreatSeverity::critical,
                             "Native executable or library: cannot be reviewed and may run as code"));
  } else if (binary_extension) {
    out.push_back(structural(rel, "binary_file", ThreatSeverity::critical,
                             "File type (" + ext + ") of executables, libraries or installers"));
  } else if (kind == ContentKind::other_binary && !starts_with(rel, "assets/")) {
    out.push_back(structural(rel, "binary_content", ThreatSeverity::medium,
                             "Binary file outside assets/: its content was not scanned"));
  }
  return kind;
}

bool is_scannable(std::string_view rel, std::string_view head) {
  const std::string_view base = base_name(rel);
  if (base == "SKILL.md") {
    return true;
  }
  const std::string ext = extension_of(rel);
  if (ext.empty()) {
    return starts_with(head, "#!") ||
           in_list(base, {"Makefile", "makefile", "GNUmakefile", "Dockerfile", "Containerfile", "Justfile", "justfile",
                          "Rakefile", "Gemfile", "Procfile", "Vagrantfile"});
  }
  return in_list(ext, {".md", ".txt", ".py", ".sh", ".bash", ".js", ".ts", ".rb", ".yaml", ".yml", ".json", ".toml",
                       ".cfg", ".ini", ".conf", ".html", ".css", ".xml", ".tex", ".r", ".jl", ".pl", ".php",
                       // Our additions: more languages a skill's scripts are written in.
                       ".mjs", ".cjs", ".jsx", ".tsx", ".zsh", ".fish", ".ps1", ".psm1", ".bat", ".cmd", ".lua", ".go",
                       ".rs", ".mdx", ".ipynb", ".dockerfile", ".mk"});
}

} // namespace skillrt::core
