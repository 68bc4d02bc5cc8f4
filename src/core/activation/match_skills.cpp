#include "core/activation/match_skills.hpp"

#include <algorithm>
#include <unordered_set>

#include "core/activation/path_glob.hpp"
#include "core/discovery/activation_fields.hpp"
#include "core/tenancy/layer_precedence.hpp"
#include "core/util/text.hpp"
#include "core/util/utf8.hpp"
#include "core/yaml/frontmatter.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

std::vector<std::string_view> views_of(const std::vector<std::string>& items) {
  return std::vector<std::string_view>(items.begin(), items.end());
}

void build_file_index(const Catalog& catalog, ActivationIndex& index, std::vector<TriggerProblem>& problems) {
  std::vector<std::string_view> triggers;
  std::vector<std::string_view> paths;
  for (const std::size_t at : catalog.listed) {
    const SkillRecord& record = catalog.records[at];
    triggers.clear();
    paths.clear();
    if (const ActivationLists* lists = catalog.activation_of(at)) {
      triggers.assign(lists->triggers.begin(), lists->triggers.end());
      paths.assign(lists->paths.begin(), lists->paths.end());
    }
    TriggerRules rules = compile_trigger_rules(record.name, triggers, paths);
    for (TriggerProblem& problem : rules.problems) {
      problems.push_back(std::move(problem));
    }
    rules.problems.clear();
    if (rules.empty()) {
      continue;
    }
    ActivationCandidate candidate;
    candidate.name = std::string(record.name);
    candidate.source = tier_layer(record.tier);
    candidate.path = record.skill_md.string();
    candidate.record = at;
    candidate.rules = std::move(rules);
    index.add(std::move(candidate));
  }
}

SkillActivation to_activation(const ActivationCandidate& candidate, FiredSkill&& fired, const Catalog* catalog) {
  SkillActivation out;
  out.name = candidate.name;
  out.source = candidate.source;
  out.score = fired.score;
  out.path = candidate.path;
  out.id = candidate.id;
  out.description = catalog != nullptr ? catalog->description(catalog->records[candidate.record]) : candidate.description;
  out.reasons = std::move(fired.reasons);
  return out;
}

}  // namespace

Result<void> check_match_request(const MatchRequest& request) {
  if (request.limit == 0 || request.limit > limits::k_match_max_limit) {
    return fail(ErrorCode::invalid_argument, "limit must be between 1 and " + std::to_string(limits::k_match_max_limit));
  }
  if (request.message.size() > limits::k_max_match_message_bytes) {
    return fail(ErrorCode::limit_exceeded,
                "message is longer than " + std::to_string(limits::k_max_match_message_bytes) + " bytes");
  }
  if (request.paths.size() > limits::k_max_match_paths) {
    return fail(ErrorCode::limit_exceeded,
                "more than " + std::to_string(limits::k_max_match_paths) + " paths in one match");
  }
  const bool any_path = std::any_of(request.paths.begin(), request.paths.end(),
                                    [](const std::string& path) { return !trim_ascii_space(path).empty(); });
  if (trim_ascii_space(request.message).empty() && !any_path) {
    return fail(ErrorCode::invalid_argument, "message is empty (give a message, a path, or both)");
  }
  return {};
}

void CatalogActivationMemo::build(const Catalog& catalog) { build_file_index(catalog, m_index, m_problems); }

const ActivationIndex& CatalogActivationMemo::index(const Catalog& catalog) {
  std::call_once(m_built, [&] { build(catalog); });
  return m_index;
}

const std::vector<TriggerProblem>& CatalogActivationMemo::problems(const Catalog& catalog) {
  std::call_once(m_built, [&] { build(catalog); });
  return m_problems;
}

Result<SkillMatch> match_skills_in(const Context& ctx, const Catalog& catalog, SkillStore& store,
                                   const MatchRequest& request, CatalogActivationMemo* memo) {
  SKILLRT_TRY(check_match_request(request));
  SkillMatch out;
  // The excerpts shown come out of the message: keep them valid UTF-8.
  std::string message = request.message;
  if (find_invalid_utf8(message).has_value()) {
    message = sanitize_utf8(message);
  }
  std::vector<std::string> paths;
  for (const std::string& path : request.paths) {
    if (trim_ascii_space(path).empty()) {
      continue;
    }
    std::string normal = normalize_touched_path(path, ctx.cwd.string());
    paths.push_back(find_invalid_utf8(normal).has_value() ? sanitize_utf8(normal) : std::move(normal));
  }

  CatalogActivationMemo own;
  CatalogActivationMemo& files = memo != nullptr ? *memo : own;
  const ActivationIndex& file_index = files.index(catalog);
  out.problems = files.problems(catalog);

  // The user's database skills, compiled per request: they are few, and they
  // change without the catalog changing.
  ActivationIndex db_index;
  std::unordered_set<std::string> db_names;
  if (ctx.user_id) {
    SKILLRT_TRY_ASSIGN(std::vector<DbSkill> rows, store.list_skills(*ctx.user_id));
    for (DbSkill& row : rows) {
      if (!row.is_active) {
        continue;
      }
      db_names.insert(row.name);
      const Frontmatter fm = parse_frontmatter(row.content);
      const std::vector<std::string> triggers = trigger_items(fm.fields.get("triggers"));
      const std::vector<std::string> globs = path_glob_items(fm.fields.get("paths"));
      TriggerRules rules = compile_trigger_rules(row.name, views_of(triggers), views_of(globs));
      for (TriggerProblem& problem : rules.problems) {
        out.problems.push_back(std::move(problem));
      }
      rules.problems.clear();
      if (rules.empty()) {
        continue;
      }
      ActivationCandidate candidate;
      candidate.name = row.name;
      candidate.source = Layer::database;
      candidate.id = row.id;
      candidate.description = std::move(row.description);
      candidate.rules = std::move(rules);
      db_index.add(std::move(candidate));
    }
  }

  const MessageText text(message);
  for (FiredSkill& fired : db_index.match(text, paths)) {
    const ActivationCandidate& candidate = db_index.candidates()[fired.candidate];
    out.results.push_back(to_activation(candidate, std::move(fired), nullptr));
  }
  for (FiredSkill& fired : file_index.match(text, paths)) {
    const ActivationCandidate& candidate = file_index.candidates()[fired.candidate];
    if (db_names.contains(candidate.name)) {
      continue;  // the user's database skill of that name is the one view would load
    }
    out.results.push_back(to_activation(candidate, std::move(fired), &catalog));
  }
  std::sort(out.results.begin(), out.results.end(), [](const SkillActivation& a, const SkillActivation& b) {
    if (a.score != b.score) {
      return a.score > b.score;
    }
    if (layer_precedence(a.source) != layer_precedence(b.source)) {
      return layer_precedence(a.source) < layer_precedence(b.source);
    }
    return a.name < b.name;
  });
  if (out.results.size() > request.limit) {
    out.results.resize(request.limit);
  }
  return out;
}

}  // namespace skillrt::core
