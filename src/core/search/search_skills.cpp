#include "core/search/search_skills.hpp"

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/discovery/catalog.hpp"
#include "core/limits.hpp"
#include "core/search/stop_words.hpp"
#include "core/tenancy/layer_precedence.hpp"
#include "core/util/text.hpp"
#include "core/util/utf8.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

constexpr std::string_view k_db_key_prefix = "db:";

std::optional<std::int64_t> db_id_of(std::string_view key) {
  if (key.substr(0, k_db_key_prefix.size()) != k_db_key_prefix) {
    return std::nullopt;
  }
  key.remove_prefix(k_db_key_prefix.size());
  std::int64_t id = 0;
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), id);
  if (ec != std::errc() || end != key.data() + key.size()) {
    return std::nullopt;
  }
  return id;
}

// May ctx see this hit? The store already scopes by user; this also drops
// file documents ctx does not list (hidden, shadowed, another context's
// project) and anything not owned by ctx's user or shared.
bool visible(const SearchHit& hit, const Context& ctx, const std::unordered_set<std::string_view>& listed) {
  const bool own = ctx.user_id.has_value() && hit.owner == *ctx.user_id;
  if (hit.source == Layer::database) {
    return own && db_id_of(hit.key).has_value();
  }
  if (!hit.owner.empty() && !own) {
    return false;
  }
  return listed.contains(hit.key);
}

SkillSearchResult to_result(SearchHit&& hit) {
  SkillSearchResult out;
  out.name = std::move(hit.name);
  out.description = std::move(hit.description);
  out.score = hit.score;
  if (hit.source == Layer::database) {
    out.id = db_id_of(hit.key);
  } else {
    out.path = std::move(hit.key);
  }
  out.source = hit.source;
  return out;
}

// Does the query hold anything a full-text engine can look for? Both adapters
// cut queries into runs of ASCII letters and digits and non-ASCII bytes, and
// refuse a query with none; for a caller, "(" or "%_%" simply matches nothing.
bool has_words(std::string_view query) {
  return std::any_of(query.begin(), query.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x80 || (byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z');
  });
}

}  // namespace

Result<void> check_search_request(std::string_view query, std::size_t limit) {
  if (limit == 0 || limit > limits::k_search_max_limit) {
    return fail(ErrorCode::invalid_argument,
                "limit must be between 1 and " + std::to_string(limits::k_search_max_limit));
  }
  if (query.size() > limits::k_max_search_query_bytes) {
    return fail(ErrorCode::limit_exceeded,
                "search query is longer than " + std::to_string(limits::k_max_search_query_bytes) + " bytes");
  }
  if (trim_ascii_space(query).empty()) {
    return fail(ErrorCode::invalid_argument, "search query is empty");
  }
  return {};
}

namespace {

void collect_listed(const Catalog& catalog, std::vector<std::string>& keys,
                    std::unordered_set<std::string_view>& listed) {
  keys.reserve(catalog.listed.size());
  for (std::size_t index : catalog.listed) {
    keys.push_back(catalog.records[index].skill_md.string());
  }
  listed.reserve(keys.size());
  listed.insert(keys.begin(), keys.end());
}

}  // namespace

const std::unordered_set<std::string_view>& CatalogSearchMemo::listed(const Catalog& catalog) {
  std::call_once(m_built, [&] { collect_listed(catalog, m_keys, m_listed); });
  return m_listed;
}

Result<SkillSearch> search_skills_in(const Context& ctx, const Catalog& catalog, SkillStore& store,
                                     std::string_view query, std::size_t limit, CatalogSearchMemo* memo) {
  SKILLRT_TRY(check_search_request(query, limit));
  // The engines take text; PostgreSQL refuses ill-formed UTF-8 outright.
  std::string text(trim_ascii_space(query));
  if (find_invalid_utf8(text).has_value()) {
    text = sanitize_utf8(text);
  }

  SkillSearch out;
  if (!has_words(text)) {
    return out;
  }
  text = without_stop_words(text);
  auto synced = memo != nullptr ? memo->index.sync(ctx, catalog, store) : sync_search_index(ctx, catalog, store);
  if (!synced) {
    return tl::unexpected(synced.error());
  }
  out.sync = *synced;

  std::vector<std::string> own_keys;
  std::unordered_set<std::string_view> own_listed;
  if (memo == nullptr) {
    collect_listed(catalog, own_keys, own_listed);
  }
  const std::unordered_set<std::string_view>& listed = memo != nullptr ? memo->listed(catalog) : own_listed;

  std::optional<std::string_view> user;
  if (ctx.user_id) {
    user = *ctx.user_id;
  }

  // Hits that ctx may not see or that a stronger layer shadows take places in
  // the store's answer, so ask for more than the limit and widen the window
  // while it came back full and the limit is not met.
  std::size_t window = std::min(limit * 4 + 16, limits::k_search_max_candidates);
  for (;;) {
    auto hits = store.search(user, text, window);
    if (!hits) {
      return tl::unexpected(hits.error());
    }
    const bool full = hits->size() >= window;

    // Per name, the hit of the strongest layer; among equals the best ranked.
    std::unordered_map<std::string, std::size_t> chosen;  // name -> index into *hits
    for (std::size_t i = 0; i < hits->size(); ++i) {
      const SearchHit& hit = (*hits)[i];
      if (!visible(hit, ctx, listed)) {
        continue;
      }
      auto [slot, inserted] = chosen.try_emplace(hit.name, i);
      if (!inserted && layer_precedence(hit.source) < layer_precedence((*hits)[slot->second].source)) {
        slot->second = i;
      }
    }
    std::vector<std::size_t> order;
    order.reserve(chosen.size());
    for (const auto& [name, index] : chosen) {
      order.push_back(index);
    }
    std::sort(order.begin(), order.end());  // the store's order: best first

    if (order.size() >= limit || !full || window >= limits::k_search_max_candidates) {
      if (order.size() > limit) {
        order.resize(limit);
      }
      out.results.reserve(order.size());
      for (std::size_t index : order) {
        out.results.push_back(to_result(std::move((*hits)[index])));
      }
      return out;
    }
    window = std::min(window * 4, limits::k_search_max_candidates);
  }
}

Result<SkillSearch> search_skills(const Context& ctx, const Config& config, SkillStore& store, std::string_view query,
                                  std::size_t limit) {
  SKILLRT_TRY(check_search_request(query, limit));
  const Catalog catalog = build_catalog(ctx, config);
  return search_skills_in(ctx, catalog, store, query, limit);
}

}  // namespace skillrt::core
