#include "core/curator/merge_candidates.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>

#include "core/config/folder_policy.hpp"
#include "core/discovery/catalog.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/usage/usage_book.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

// Words that say nothing about what a skill is for.
constexpr std::array<std::string_view, 40> k_filler = {
    "the",   "and",   "for",  "with", "when",  "this",  "that",   "from",  "into",  "your",
    "you",   "use",   "using", "used", "skill", "skills", "how",  "what",  "are",   "was",
    "can",   "will",  "all",  "any",  "each",  "its",   "via",    "about", "after", "before",
    "then",  "them",  "they", "our",  "not",   "but",   "also",   "more",  "other", "tool"};

bool is_filler(std::string_view word) {
  return std::find(k_filler.begin(), k_filler.end(), word) != k_filler.end();
}

double jaccard(const std::vector<std::string>& a, const std::vector<std::string>& b, std::size_t& shared) {
  std::vector<std::string> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  shared = both.size();
  const std::size_t together = a.size() + b.size() - shared;
  return together == 0 ? 0.0 : static_cast<double>(shared) / static_cast<double>(together);
}

struct Disjoint {
  std::vector<std::size_t> parent;
  explicit Disjoint(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  std::size_t find(std::size_t x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }
  void join(std::size_t a, std::size_t b) { parent[find(a)] = find(b); }
};

}  // namespace

std::vector<std::string> overlap_words(std::string_view name, std::string_view description) {
  std::vector<std::string> words;
  std::string current;
  auto flush = [&] {
    if (current.size() >= 3 && !is_filler(current)) {
      words.push_back(current);
    }
    current.clear();
  };
  for (std::string_view text : {name, description}) {
    for (const char c : text) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        current.push_back(c);
      } else if (c >= 'A' && c <= 'Z') {
        current.push_back(static_cast<char>(c - 'A' + 'a'));
      } else {
        flush();
      }
    }
    flush();
  }
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

Result<std::vector<MergeGroup>> find_merge_groups(const Context& ctx, const Config& cfg, const MergeOptions& options) {
  const Layer layer = ctx.user_id ? Layer::user : Layer::shared;
  SKILLRT_TRY_ASSIGN(fs::path book_path, usage_book_path(ctx, layer));
  SKILLRT_TRY_ASSIGN(UsageBook book, read_usage_book(book_path));
  const auto& records = book.of(layer);

  const Catalog catalog = manage_catalog(ctx, cfg);
  std::vector<MergeCandidate> candidates;
  std::vector<std::vector<std::string>> words;
  for (const SkillRecord& record : catalog.records) {
    if (!(layer == Layer::user ? record.tier == Tier::user : record.tier == Tier::local)) {
      continue;
    }
    const fs::path dir = record.dir.path();
    const std::string name = dir.filename().string();
    const auto usage = records.find(name);
    if (usage == records.end() || usage->second.created_by != SkillAuthor::agent || usage->second.pinned) {
      continue;
    }
    const std::string relative = dir.lexically_relative(catalog.roots.roots[record.root_index].path).generic_string();
    if (relative.starts_with(std::string(k_archive_folder) + "/")) {
      continue;  // archived: out of use, nothing to merge into
    }
    MergeCandidate& candidate = candidates.emplace_back();
    candidate.name = name;
    candidate.description = catalog.description(record);
    candidate.relative = relative;
    words.push_back(overlap_words(candidate.name, candidate.description));
  }

  // Link every close pair; a group is a connected set of links.
  Disjoint sets(candidates.size());
  std::vector<double> best(candidates.size(), 0.0);
  std::vector<std::size_t> degree(candidates.size(), 0);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    for (std::size_t j = i + 1; j < candidates.size(); ++j) {
      std::size_t shared = 0;
      const double overlap = jaccard(words[i], words[j], shared);
      if (overlap >= options.min_overlap && shared >= options.min_shared_words) {
        sets.join(i, j);
        best[i] = std::max(best[i], overlap);
        best[j] = std::max(best[j], overlap);
        ++degree[i];
        ++degree[j];
      }
    }
  }
  std::map<std::size_t, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (degree[i] != 0) {
      members[sets.find(i)].push_back(i);
    }
  }
  std::vector<MergeGroup> groups;
  for (auto& [root, indices] : members) {
    std::sort(indices.begin(), indices.end(), [&](std::size_t a, std::size_t b) {
      return degree[a] != degree[b] ? degree[a] > degree[b] : candidates[a].name < candidates[b].name;
    });
    if (indices.size() > options.max_group_size) {
      indices.resize(options.max_group_size);
    }
    MergeGroup& group = groups.emplace_back();
    for (const std::size_t i : indices) {
      group.overlap = std::max(group.overlap, best[i]);
      group.skills.push_back(candidates[i]);
    }
  }
  std::sort(groups.begin(), groups.end(), [](const MergeGroup& a, const MergeGroup& b) {
    return a.overlap != b.overlap ? a.overlap > b.overlap : a.skills.front().name < b.skills.front().name;
  });
  if (groups.size() > options.max_groups) {
    groups.resize(options.max_groups);
  }
  return groups;
}

}  // namespace skillrt::core
