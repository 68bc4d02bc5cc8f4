#include "core/provenance/provenance.hpp"

#include <system_error>

#include "core/guard/guard.hpp"
#include "core/sync/bundled_manifest.hpp"

namespace skillrt::core {
namespace fs = std::filesystem;

const char* provenance_kind_name(ProvenanceKind kind) {
  switch (kind) {
    case ProvenanceKind::bundled:
      return "bundled";
    case ProvenanceKind::hub:
      return "hub";
    case ProvenanceKind::agent:
      return "agent";
    case ProvenanceKind::user:
      return "user";
    case ProvenanceKind::external:
      return "external";
    case ProvenanceKind::project:
      return "project";
    case ProvenanceKind::plugin:
      return "plugin";
  }
  return "user";
}

namespace {

// The usage book beside a root: HOME/skills/.usage.json for the shared root,
// HOME/users/<uid>/usage.json for a user's (usage_book.hpp), read without
// creating anything.
fs::path usage_book_beside(Tier tier, const fs::path& root) {
  return tier == Tier::user ? root.parent_path() / "usage.json" : root / ".usage.json";
}

}  // namespace

ProvenanceIndex ProvenanceIndex::load(const Context& ctx, const Config& cfg, const RootSet& roots) {
  ProvenanceIndex index;
  index.m_policies = cfg.folders;
  if (auto manifest = sync::read_bundled_manifest(sync::bundled_manifest_path(ctx))) {
    index.m_bundled = std::move(*manifest);
  }
  std::error_code ec;
  index.m_shared_root = fs::canonical(ctx.skills_dir(), ec);
  if (ec) {
    index.m_shared_root.clear();
  }
  for (const Root& root : roots.roots) {
    index.m_all_roots.push_back(root.path);
    if (is_plugin_tier(root.tier) && root.plugin < roots.plugins.plugins.size()) {
      const Plugin& plugin = roots.plugins.plugins[root.plugin];
      Provenance provenance;
      provenance.kind = ProvenanceKind::plugin;
      provenance.source = plugin.dir.string();
      if (auto lock = hub::read_lock_file(plugin.dir.parent_path() / ".hub" / "lock.json")) {
        const auto entry = lock->installed.find(plugin.name());
        if (entry != lock->installed.end() && entry->second.install_path == plugin.dir.filename().string()) {
          provenance.source = entry->second.identifier;
          if (entry->second.trust_level) {
            provenance.trust = trust_level_name(*entry->second.trust_level);
          }
        }
      }
      index.m_plugin_roots.emplace(root.path, std::move(provenance));
      continue;
    }
    if (root.tier != Tier::local && root.tier != Tier::user) {
      continue;
    }
    RootFacts facts;
    if (auto lock = hub::read_lock_file(root.path / ".hub" / "lock.json")) {
      facts.installed = std::move(lock->installed);
    }
    if (auto book = read_usage_book(usage_book_beside(root.tier, root.path))) {
      for (const auto& [name, record] : book->files) {
        if (record.created_by == SkillAuthor::agent) {
          facts.agent_made.insert(name);
        }
      }
    }
    index.m_roots.emplace(root.path, std::move(facts));
  }
  return index;
}

const ProvenanceIndex::RootFacts* ProvenanceIndex::facts_for(const fs::path& root) const {
  const auto found = m_roots.find(root);
  return found == m_roots.end() ? nullptr : &found->second;
}

Provenance ProvenanceIndex::of(Tier tier, const fs::path& root, const fs::path& skill_dir) const {
  if (is_plugin_tier(tier)) {
    // Folder policies are the skills roots' own; a plugin's skills have none.
    const auto found = m_plugin_roots.find(root);
    return found != m_plugin_roots.end() ? found->second : Provenance{ProvenanceKind::plugin, {}, {}, std::nullopt};
  }
  Provenance out;
  const fs::path relative = skill_dir.lexically_relative(root);
  const std::string rel = relative.empty() || relative.native().starts_with("..") ? std::string() : relative.generic_string();
  if (const FolderPolicy* policy = m_policies.for_skill(rel)) {
    out.policy = *policy;
  }
  if (tier == Tier::external) {
    out.kind = ProvenanceKind::external;
    return out;
  }
  if (tier == Tier::project) {
    out.kind = ProvenanceKind::project;
    return out;
  }
  const std::string name = skill_dir.filename().string();
  if (const RootFacts* facts = facts_for(root)) {
    if (const auto entry = facts->installed.find(name);
        entry != facts->installed.end() && fs::path(entry->second.install_path).lexically_normal() == relative) {
      out.kind = ProvenanceKind::hub;
      out.source = entry->second.identifier;
      if (entry->second.trust_level) {
        out.trust = trust_level_name(*entry->second.trust_level);
      }
      return out;
    }
    if (facts->agent_made.contains(name)) {
      out.kind = ProvenanceKind::agent;
      return out;
    }
  }
  if (tier == Tier::local && root == m_shared_root && m_bundled.contains(name)) {
    out.kind = ProvenanceKind::bundled;
    return out;
  }
  out.kind = ProvenanceKind::user;
  return out;
}

Provenance ProvenanceIndex::of(Tier tier, const fs::path& skill_dir) const {
  const fs::path* best = nullptr;
  for (const fs::path& root : m_all_roots) {
    const fs::path relative = skill_dir.lexically_relative(root);
    if (!relative.empty() && !relative.native().starts_with("..") &&
        (best == nullptr || root.native().size() > best->native().size())) {
      best = &root;
    }
  }
  return best == nullptr ? of(tier, skill_dir.parent_path(), skill_dir) : of(tier, *best, skill_dir);
}

Provenance ProvenanceIndex::of(const Catalog& catalog, const SkillRecord& record) const {
  if (record.root_index >= catalog.roots.roots.size()) {
    return Provenance{};
  }
  return of(record.tier, catalog.roots.roots[record.root_index].path, record.dir.path());
}

}  // namespace skillrt::core
