#include "core/manage/skill_locator.hpp"

#include "core/view/name_check.hpp"
#include "core/view/resolver.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

ManageResult from_view_failure(ViewFailure failure) {
  ManageResult out = manage_failure(failure.code, std::move(failure.error));
  out.matches = std::move(failure.matches);
  out.available_skills = std::move(failure.available_skills);
  out.hint = std::move(failure.hint);
  return out;
}

} // namespace

std::string active_profile_name(const Context& ctx) {
  const std::filesystem::path home = ctx.home.lexically_normal();
  const std::filesystem::path parent = home.has_filename() ? home.parent_path() : home.parent_path().parent_path();
  if (parent.filename() == "profiles") {
    return home.has_filename() ? home.filename().string() : home.parent_path().filename().string();
  }
  return "default";
}

Catalog manage_catalog(const Context& ctx, const Config& cfg) {
  return build_catalog(ctx, cfg, CatalogOptions{.collect_legacy = true});
}

std::vector<Root> layer_roots(const Catalog& catalog, Layer layer) {
  std::vector<Root> out;
  for (const Root& root : catalog.roots.roots) {
    if (tier_layer(root.tier) == layer) {
      out.push_back(root);
    }
  }
  return out;
}

ManageExpected<ManagedSkill> locate_managed_skill(const Context& ctx, const Catalog& catalog, std::string_view raw_name,
                                                  bool for_write_file, std::optional<Layer> only) {
  auto checked = checked_lookup_name(raw_name);
  if (!checked) {
    return tl::unexpected(from_view_failure(std::move(checked.error())));
  }
  const std::string& name = *checked;
  auto alias = namespace_alias(name);
  if (!alias) {
    return tl::unexpected(from_view_failure(std::move(alias.error())));
  }
  // A plugin's skills ship with the plugin: changed here, they would differ
  // from what its lock entry recorded and be lost on the next install.
  if (const std::size_t colon = name.find(':'); colon != std::string::npos) {
    if (const Plugin* plugin = catalog.roots.plugins.find(std::string_view(name).substr(0, colon))) {
      return tl::unexpected(manage_failure(
          ErrorCode::refused, "Skill '" + sanitize_utf8(name) + "' belongs to the plugin '" + plugin->name() +
                                  "' and cannot be changed with skill_manage. Change the plugin's own files "
                                  "and reinstall it (skillrt plugin install SOURCE --force)."));
    }
  }
  auto resolved = resolve_skill(catalog, name, *alias, only);
  if (!resolved) {
    ViewFailure failure = std::move(resolved.error());
    if (failure.code == ErrorCode::not_found) {
      ManageResult out = from_view_failure(std::move(failure));
      out.error = "Skill '" + sanitize_utf8(name) + "' not found in active profile '" + active_profile_name(ctx) +
                  "'. Use skills_list() to see available skills.";
      if (for_write_file) {
        out.error += " Create it first with action='create'.";
      }
      return tl::unexpected(std::move(out));
    }
    return tl::unexpected(from_view_failure(std::move(failure)));
  }
  if (!resolved->skill_dir) {
    return tl::unexpected(
        manage_failure(ErrorCode::refused,
                       "Skill '" + sanitize_utf8(name) + "' is a legacy flat file (" + resolved->skill_md.string() +
                           "); skill_manage only changes skill folders. Move it to <name>/SKILL.md first."));
  }
  return ManagedSkill{*resolved->skill_dir, resolved->skill_md, resolved->root, resolved->tier};
}

} // namespace skillrt::core
