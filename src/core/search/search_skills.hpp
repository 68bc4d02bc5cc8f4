// Relevant-skill search over the three layers (issue 3/5 item 4): the user's
// database skills, the user's file skills and the shared skills, ranked by
// the store's full-text engine (BM25 over name, description, tags, triggers
// and body) and deduplicated by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/search/index_sync.hpp"
#include "core/store/skill_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct SkillSearchResult {
  std::string name;
  std::string description;
  Layer source = Layer::shared;
  double score = 0;                  // the store's relevance, higher is better
  std::optional<std::string> path;   // absolute SKILL.md path of a file skill
  std::optional<std::int64_t> id;    // hermes_skills.id of a database skill
};

struct SkillSearch {
  std::vector<SkillSearchResult> results;  // best first, at most the limit
  IndexSyncStats sync;                     // what keeping the index current cost
};

// Checks a query and a limit as search_skills does: invalid_argument for an
// empty or all-whitespace query or a limit outside 1..k_search_max_limit,
// limit_exceeded for a query longer than k_max_search_query_bytes.
Result<void> check_search_request(std::string_view query, std::size_t limit);

// Syncs the file documents of ctx (sync_search_index), then asks the store and
// keeps, per name, the hit of the highest layer: database > user > shared.
// Only skills ctx lists are returned (hidden and shadowed file skills never),
// and only ctx's user's own documents and rows (none without a user).
Result<SkillSearch> search_skills(const Context& ctx, const Config& config, SkillStore& store, std::string_view query,
                                  std::size_t limit);

// What a host that keeps a catalog keeps beside it for its searches: whether
// the index was synced with it (index_sync.hpp says when once is enough), and
// the set of its listed SKILL.md paths that every hit is checked against
// (50,000 paths copied and hashed: ~10 ms a search at that size otherwise).
class CatalogSearchMemo {
 public:
  IndexSyncMemo index;
  // The listed paths of `catalog` (always the same catalog), built once.
  const std::unordered_set<std::string_view>& listed(const Catalog& catalog);

 private:
  std::once_flag m_built;
  std::vector<std::string> m_keys;
  std::unordered_set<std::string_view> m_listed;
};

// The same over an already built catalog of ctx (a host that keeps one),
// with the memo kept beside that catalog when there is one.
Result<SkillSearch> search_skills_in(const Context& ctx, const Catalog& catalog, SkillStore& store,
                                     std::string_view query, std::size_t limit, CatalogSearchMemo* memo = nullptr);

}  // namespace skillrt::core
