#include "core/curator/curate.hpp"

#include <map>

#include "core/curator/skill_move.hpp"
#include "core/discovery/catalog.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/usage/usage_book.hpp"
#include "core/util/utc_time.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

SkillLifecycle due_state(int idle_days, const CurateOptions& options) {
  if (idle_days >= options.archive_days) {
    return SkillLifecycle::archived;
  }
  if (idle_days >= options.stale_days) {
    return SkillLifecycle::stale;
  }
  return SkillLifecycle::active;
}

}  // namespace

Result<CurateReport> curate_skills(const Context& ctx, const Config& cfg, const CurateOptions& options) {
  const Layer layer = ctx.user_id ? Layer::user : Layer::shared;
  CurateReport report;
  report.dry_run = options.dry_run;
  SKILLRT_TRY_ASSIGN(fs::path book_path, usage_book_path(ctx, layer));
  SKILLRT_TRY_ASSIGN(UsageBook book, read_usage_book(book_path));

  // The skills of the writable root, by folder name (the usage key).
  const Catalog catalog = manage_catalog(ctx, cfg);
  std::map<std::string, std::string> rel_of;  // folder name -> path relative to its root
  for (const SkillRecord& record : catalog.records) {
    const Tier tier = record.tier;
    if (!(layer == Layer::user ? tier == Tier::user : tier == Tier::local)) {
      continue;
    }
    const fs::path dir = record.dir.path();
    const fs::path root = catalog.roots.roots[record.root_index].path;
    rel_of.emplace(dir.filename().string(), dir.lexically_relative(root).generic_string());
  }

  for (const auto& [name, record] : book.of(layer)) {
    if (record.created_by != SkillAuthor::agent) {
      continue;
    }
    const auto where = rel_of.find(name);
    if (where == rel_of.end()) {
      continue;  // the record outlived its skill
    }
    ++report.examined;
    if (record.pinned) {
      ++report.skipped_pinned;
      continue;
    }
    const std::string& since_text = record.last_used.empty() ? record.created_at : record.last_used;
    const auto since = parse_iso8601_utc(since_text);
    if (!since) {
      continue;  // no age to judge by
    }
    const int idle_days = static_cast<int>(
        std::chrono::duration_cast<std::chrono::hours>(options.now - *since).count() / 24);
    const bool in_archive = where->second.starts_with(std::string(k_archive_folder) + "/");
    SkillLifecycle to = due_state(idle_days, options);
    if (in_archive) {
      to = SkillLifecycle::archived;  // brought back only by `promote`
    }
    if (to == record.state && (to != SkillLifecycle::archived || in_archive)) {
      continue;
    }
    CurateChange change;
    change.name = name;
    change.from = record.state;
    change.to = to;
    change.idle_days = idle_days;
    if (to == SkillLifecycle::archived && !in_archive) {
      change.moved_to = std::string(k_archive_folder) + "/" + name;
      if (!options.dry_run) {
        MoveOptions move_options;
        move_options.scan = false;  // out of sight, not into trust
        move_options.actor = LedgerActor::curator;
        move_options.action = LedgerAction::curate;
        if (auto moved = move_skill_to_folder(ctx, cfg, name, std::string(k_archive_folder), move_options); !moved) {
          change.error = moved.error().message;
        }
      }
    }
    report.changes.push_back(std::move(change));
  }

  if (options.dry_run) {
    return report;
  }
  // Record the new states of the changes that were made, in one locked update.
  SKILLRT_TRY(update_usage_book(ctx, layer, [&](UsageBook& locked) {
    bool changed = false;
    for (const CurateChange& change : report.changes) {
      if (!change.error.empty()) {
        continue;
      }
      auto found = locked.of(layer).find(change.name);
      if (found == locked.of(layer).end() || found->second.pinned) {
        continue;  // forgotten or pinned meanwhile
      }
      found->second.state = change.to;
      found->second.state_since = iso8601_utc(options.now);
      changed = true;
    }
    return changed;
  }));
  return report;
}

}  // namespace skillrt::core
