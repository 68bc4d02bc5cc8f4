// The guard's view of a skill folder (see skill_tree.hpp), over the filesystem
// layer's one walker: problems reported instead of failing, links and special
// files recorded (never followed or opened), runtime caches kept (bytecode is
// scanned like anything else), ignore rules applied before anything counts.
#include "core/guard/skill_tree.hpp"

#include <algorithm>

#include "core/files/tree_walk.hpp"
#include "core/limits.hpp"

namespace skillrt::core {
namespace {

GuardFinding walk_problem(std::string rel, const char* id, ThreatSeverity severity, std::string description) {
  GuardFinding f;
  f.pattern_id = id;
  f.category = ThreatCategory::structural;
  f.severity = severity;
  f.file = std::move(rel);
  f.description = std::move(description);
  return f;
}

} // namespace

SkillTree walk_skill_tree(const std::filesystem::path& root, const IgnoreRules& ignore) {
  SkillTree tree;
  files::WalkOptions options;
  // Sizes are the scanner's business (its own read budget), not a reason to stop walking.
  options.limits = files::TreeLimits::unlimited();
  options.limits.max_entries = limits::k_guard_max_entries;
  options.limits.max_depth = limits::k_max_walk_depth;
  options.links = files::LinkPolicy::record;
  options.specials = files::SpecialPolicy::record;
  options.problems = files::ProblemPolicy::report;
  options.skip_runtime_caches = false;
  options.leave_out = [&ignore](const files::WalkEntry& entry) {
    return ignore.ignored(entry.path, entry.kind == files::EntryKind::folder);
  };
  const files::WalkVisitor collect = [&tree](const files::WalkEntry& entry) -> Result<void> {
    if (entry.kind == files::EntryKind::folder) {
      return {};
    }
    SkillEntry out;
    out.rel = std::string(entry.path);
    out.type = entry.kind == files::EntryKind::file   ? SkillEntry::Type::regular
               : entry.kind == files::EntryKind::link ? SkillEntry::Type::symlink
                                                      : SkillEntry::Type::special;
    out.mode = entry.st->st_mode;
    out.links = entry.st->st_nlink;
    out.size = entry.st->st_size > 0 ? static_cast<std::uint64_t>(entry.st->st_size) : 0;
    tree.entries.push_back(std::move(out));
    return {};
  };
  auto report = files::walk_tree(root, options, collect);
  if (!report) {
    tree.problems.push_back(walk_problem("", "unreadable_path", ThreatSeverity::medium,
                                         "The skill folder cannot be read, so it was not scanned: " +
                                             report.error().message));
    return tree;
  }
  for (files::WalkProblem& problem : report->problems) {
    if (problem.kind == files::WalkProblem::Kind::limit && problem.path.empty()) {
      tree.problems.push_back(walk_problem("", "scan_incomplete", ThreatSeverity::high,
                                           "More than " + std::to_string(limits::k_guard_max_entries) +
                                               " entries: the rest of the skill was not scanned"));
    } else if (problem.kind == files::WalkProblem::Kind::limit) {
      tree.problems.push_back(walk_problem(std::move(problem.path), "scan_incomplete", ThreatSeverity::high,
                                           "Nested deeper than " + std::to_string(limits::k_max_walk_depth) +
                                               " directories: not scanned"));
    } else {
      tree.problems.push_back(walk_problem(std::move(problem.path), "unreadable_path", ThreatSeverity::medium,
                                           "Cannot be examined, so it was not scanned: " + problem.message));
    }
  }
  std::sort(tree.entries.begin(), tree.entries.end(),
            [](const SkillEntry& a, const SkillEntry& b) { return a.rel < b.rel; });
  return tree;
}

} // namespace skillrt::core
