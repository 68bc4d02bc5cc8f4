// Why discovery keeps its own walker (issue 14 item 2 allows it "if a
// benchmark shows it must"): finds every SKILL.md below ROOT twice per round,
// once with discovery's walk_skill_root and once with the one tree walker of
// core/files (walk_tree) doing the same job — excluded folders left out,
// support folders of a skill not entered, links recorded and not followed —
// and prints the best wall time of each and what each found.
//
//   walk_bench [--repeat N] ROOT      (a generated tree: bench/gen_tree)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/discovery/walker.hpp"
#include "core/files/tree_walk.hpp"
#include "core/limits.hpp"

namespace fs = std::filesystem;
using namespace skillrt::core;
using skillrt::Result;
namespace limits = skillrt::limits;

namespace {

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What discovery needs from a walk, through walk_tree: the SKILL.md files,
// with discovery's pruning. A folder's names come sorted by bytes, so a
// folder's "SKILL.md" is seen before its lower-case support folders.
std::size_t skill_files_by_tree_walk(const fs::path& root) {
  files::WalkOptions options;
  options.limits = files::TreeLimits::unlimited();
  options.limits.max_depth = limits::k_max_walk_depth + 1;
  options.links = files::LinkPolicy::record;
  options.specials = files::SpecialPolicy::record;
  options.problems = files::ProblemPolicy::report;
  options.skip_runtime_caches = false;
  std::set<std::string> skill_dirs; // folders (relative) holding a SKILL.md
  std::size_t found = 0;
  options.leave_out = [](const files::WalkEntry& entry) {
    return entry.kind == files::EntryKind::folder && is_excluded_dir_name(entry.name);
  };
  options.enter = [&](const files::WalkEntry& entry) {
    if (!is_support_dir_name(entry.name)) {
      return true;
    }
    const std::string_view parent =
        entry.depth == 1 ? std::string_view() : entry.path.substr(0, entry.path.size() - entry.name.size() - 1);
    return skill_dirs.count(std::string(parent)) == 0;
  };
  (void)files::walk_tree(root, options, [&](const files::WalkEntry& entry) -> Result<void> {
    if (entry.kind == files::EntryKind::file && entry.name == "SKILL.md") {
      ++found;
      skill_dirs.emplace(entry.depth == 1 ? std::string_view()
                                          : entry.path.substr(0, entry.path.size() - entry.name.size() - 1));
    }
    return {};
  });
  return found;
}

} // namespace

int main(int argc, char** argv) {
  int repeat = 5;
  fs::path root;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      root = argv[i];
    }
  }
  if (root.empty()) {
    std::fprintf(stderr, "usage: walk_bench [--repeat N] ROOT\n");
    return 2;
  }
  double best_discovery = 1e9;
  double best_tree = 1e9;
  std::size_t by_discovery = 0;
  std::size_t by_tree = 0;
  std::size_t dirs = 0;
  for (int round = 0; round < repeat; ++round) {
    best_discovery = std::min(best_discovery, seconds_of([&] {
                                WalkResult result = walk_skill_root(root, default_walk_limits(), false);
                                by_discovery = result.skill_files.size();
                                dirs = result.dirs_visited;
                              }));
    best_tree = std::min(best_tree, seconds_of([&] { by_tree = skill_files_by_tree_walk(root); }));
  }
  std::printf("root %s: %zu folders visited by discovery\n", root.c_str(), dirs);
  std::printf("walk_skill_root   %8.1f ms  %zu SKILL.md\n", best_discovery * 1e3, by_discovery);
  std::printf("files::walk_tree  %8.1f ms  %zu SKILL.md\n", best_tree * 1e3, by_tree);
  return 0;
}
