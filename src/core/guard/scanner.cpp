// scan_skill / scan_text: walk, structure, content scan, content hash,
// dismissals, verdict and summary (spec §2.12 rules 1-4 and 7).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <set>
#include <system_error>

#include "core/guard/dismissals.hpp"
#include "core/guard/guard.hpp"
#include "core/guard/ignore_rules.hpp"
#include "core/guard/name_lookalike.hpp"
#include "core/guard/pattern_scan.hpp"
#include "core/guard/script_flow.hpp"
#include "core/guard/skill_tree.hpp"
#include "core/guard/structure.hpp"
#include "core/guard/unicode_smuggling.hpp"
#include "core/limits.hpp"
#include "core/files/read_file.hpp"
#include "core/util/sha256.hpp"
#include "core/util/utc_time.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_bom = "\xEF\xBB\xBF";

GuardFinding problem(std::string rel, const char* id, ThreatSeverity severity, std::string description) {
  GuardFinding f;
  f.pattern_id = id;
  f.category = ThreatCategory::structural;
  f.severity = severity;
  f.file = std::move(rel);
  f.description = std::move(description);
  return f;
}

struct FileRead {
  std::string content;    // at most the scan limit
  bool truncated = false; // the file continued past `content` (the rest was only hashed)
  std::string error;      // non-empty: the file could not be read
};

// Reads a regular file without following a final symlink and without
// blocking on a FIFO swapped in after the walk. Everything read goes into
// `hash`; at most limits::k_guard_max_scan_file_bytes are kept, and the whole
// read never exceeds `budget` (decremented).
FileRead read_for_scan(const fs::path& path, Sha256& hash, std::size_t& budget) {
  FileRead r;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    r.error = std::generic_category().message(errno);
    return r;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    r.error = "no longer a regular file";
    return r;
  }
  const std::size_t keep_limit = limits::k_guard_max_scan_file_bytes;
  if (st.st_size > 0) {
    r.content.reserve(std::min(static_cast<std::size_t>(st.st_size), keep_limit));
  }
  char buf[65536];
  std::uint64_t total = 0;
  for (;;) {
    if (budget == 0) {
      // The skill's read budget is spent: whatever the file still holds is unread.
      r.truncated = total < static_cast<std::uint64_t>(st.st_size);
      break;
    }
    const ssize_t n = ::read(fd, buf, std::min(sizeof(buf), budget));
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      r.error = std::generic_category().message(errno);
      break;
    }
    if (n == 0) {
      break;
    }
    const auto got = static_cast<std::size_t>(n);
    budget -= got;
    total += got;
    const std::string_view chunk(buf, got);
    hash.update(chunk);
    const std::size_t room = keep_limit - std::min(keep_limit, r.content.size());
    r.content.append(chunk.substr(0, room));
    if (got > room) {
      r.truncated = true; // hashed, not scanned
    }
  }
  ::close(fd);
  return r;
}

std::string make_summary(const ScanResult& r) {
  if (r.findings.empty()) {
    return r.skill_name + ": clean scan, no threats detected";
  }
  std::set<std::string> categories;
  for (const GuardFinding& f : r.findings) {
    categories.insert(category_name(f.category));
  }
  std::string list;
  for (const std::string& c : categories) {
    list += list.empty() ? c : ", " + c;
  }
  return r.skill_name + ": " + verdict_name(r.verdict) + " \u2014 " + std::to_string(r.findings.size()) +
         " finding(s) in " + list;
}

// Reads a small control file (ignore or dismissal file) at the skill root:
// only a regular file, never through a symlink. nullopt when absent.
std::optional<Result<std::string>> read_control_file(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    return Result<std::string>(fail(ErrorCode::invalid_argument, "not a regular file"));
  }
  return read_regular_file(path, limits::k_guard_max_dismissal_bytes);
}

void scan_content(std::string_view rel, std::string_view bytes, std::vector<GuardFinding>& out) {
  if (bytes.substr(0, k_bom.size()) == k_bom) {
    bytes.remove_prefix(k_bom.size());
  }
  const std::size_t line_findings_from = out.size();
  find_threat_patterns(rel, bytes, out);
  // Flows inside one script (issue 19 item 3): after the line patterns, which it defers to.
  find_script_flows(rel, bytes, out, line_findings_from);
  find_unicode_smuggling(rel, bytes, out);
  if (rel == "SKILL.md") {
    find_lookalike_name(rel, bytes, out);
  }
}

// Scans one regular file's content: binary checks, then the text scan when the file is scannable.
void scan_file_content(std::string_view rel, const FileRead& read, bool always_text, ScanResult& r) {
  r.files_scanned += 1;
  r.bytes_scanned += read.content.size();
  const ContentKind kind = check_binary(rel, read.content, r.findings);
  if (kind == ContentKind::text && (always_text || is_scannable(rel, read.content))) {
    scan_content(rel, read.content, r.findings);
  }
  if (read.truncated) {
    r.findings.push_back(
        problem(std::string(rel), "scan_incomplete", ThreatSeverity::high,
                "Only the first " + std::to_string(read.content.size()) + " bytes of this file were scanned"));
  }
}

void add_dismissal_file(const fs::path& path, std::string origin, bool from_operator, std::string finding_file,
                        const std::string& source, std::vector<DismissalFile>& files, ScanResult& r) {
  std::optional<Result<std::string>> text;
  if (from_operator) {
    text = read_regular_file(path, limits::k_guard_max_dismissal_bytes);
  } else {
    text = read_control_file(path);
    if (!text) {
      return;
    }
  }
  if (!*text) {
    r.findings.push_back(
        problem(std::move(finding_file), "malformed_dismissals", ThreatSeverity::medium,
                "Dismissal file " + origin + " cannot be read: " + text->error().message + "; it dismisses nothing"));
    return;
  }
  auto parsed = parse_dismissal_file(**text, origin, from_operator);
  if (!parsed) {
    GuardFinding f =
        problem(std::move(finding_file), "malformed_dismissals", ThreatSeverity::medium,
                "Dismissal file " + origin + " is malformed (" + parsed.error().message + "); it dismisses nothing");
    f.line = parsed.error().pos.line;
    r.findings.push_back(std::move(f));
    return;
  }
  if (dismissal_applies_to_source(*parsed, source)) {
    files.push_back(std::move(*parsed));
  }
}

void finish(ScanResult& r, const fs::path& skill_dir, const ScanOptions& options, Sha256& hash) {
  r.content_hash = "sha256:" + hash.hex_digest().substr(0, 16);
  std::vector<DismissalFile> files;
  if (!skill_dir.empty()) {
    add_dismissal_file(skill_dir / k_skill_dismissal_file, std::string(k_skill_dismissal_file), false,
                       std::string(k_skill_dismissal_file), options.source, files, r);
  }
  for (const fs::path& path : options.dismissal_files) {
    add_dismissal_file(path, path.string(), true, "", options.source, files, r);
  }
  std::sort(r.findings.begin(), r.findings.end(), [](const GuardFinding& a, const GuardFinding& b) {
    return std::tie(a.file, a.line, a.column, a.pattern_id) < std::tie(b.file, b.line, b.column, b.pattern_id);
  });
  apply_dismissals(files, r.findings, r.dismissed);
  r.verdict = verdict_for(r.findings);
  r.summary = make_summary(r);
  r.scanned_at = utc_now_iso8601();
}

} // namespace

std::vector<GuardFinding> scan_text(std::string_view rel_path, std::string_view bytes) {
  std::vector<GuardFinding> out;
  scan_content(rel_path, bytes, out);
  return out;
}

Result<ScanResult> scan_skill(const fs::path& path, const ScanOptions& options) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    return fail(ErrorCode::not_found, path.string() + " does not exist");
  }
  const fs::path root = fs::canonical(path, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot resolve " + path.string() + ": " + ec.message());
  }
  ScanResult r;
  r.source = options.source;
  r.trust = trust_level_for_source(options.source);
  r.skill_name = root.filename().string();
  Sha256 hash;
  std::size_t budget = limits::k_guard_max_read_bytes;

  if (fs::is_regular_file(status)) {
    // One file: its bytes are the hash; scanned whatever its extension.
    FileRead read = read_for_scan(root, hash, budget);
    if (!read.error.empty()) {
      return fail(ErrorCode::io_error, "cannot read " + path.string() + ": " + read.error);
    }
    scan_file_content(r.skill_name, read, true, r);
    finish(r, {}, options, hash);
    return r;
  }
  if (!fs::is_directory(status)) {
    return fail(ErrorCode::invalid_argument, path.string() + " is neither a file nor a directory");
  }

  IgnoreRules ignore;
  for (const std::string_view name : k_ignore_file_names) {
    if (auto text = read_control_file(root / name)) {
      if (*text) {
        ignore.add_file(**text);
      } else {
        r.findings.push_back(problem(std::string(name), "unreadable_path", ThreatSeverity::medium,
                                     "Ignore file cannot be read: " + text->error().message));
      }
    }
  }
  SkillTree tree = walk_skill_tree(root, ignore);
  r.findings = std::move(tree.problems);
  check_structure(root, tree, r.findings);

  static constexpr std::string_view k_nul("\0", 1);
  for (const SkillEntry& entry : tree.entries) {
    if (entry.type != SkillEntry::Type::regular) {
      continue;
    }
    hash.update(entry.rel);
    hash.update(k_nul);
    FileRead read = read_for_scan(root / entry.rel, hash, budget);
    if (!read.error.empty()) {
      r.findings.push_back(problem(entry.rel, "unreadable_path", ThreatSeverity::medium,
                                   "File cannot be read, so it was not scanned: " + read.error));
      continue;
    }
    scan_file_content(entry.rel, read, false, r);
  }
  if (budget == 0) {
    r.findings.push_back(problem("", "scan_incomplete", ThreatSeverity::high,
                                 "Read limit of " + std::to_string(limits::k_guard_max_read_bytes) +
                                     " bytes reached: the rest of the skill was not scanned"));
  }
  finish(r, root, options, hash);
  return r;
}

} // namespace skillrt::core
