// `ns:skill` (spec §2.7 rules 2 and 20): a plugin's skill, found only under
// its qualified name in the catalog's plugin roots, and the bundle banner its
// content is served with.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/discovery/catalog.hpp"
#include "core/plugins/plugin_set.hpp"
#include "core/view/failure.hpp"
#include "core/view/resolver.hpp"

namespace skillrt::core {

// The skill `qualified` ("ns:bare") of `plugin`, one of catalog.roots.plugins.
// Errors, as Hermes words them: the plugin is disabled ("Plugin '<ns>' is
// disabled. Re-enable with: skillrt plugin enable <ns>"), the skill is
// disabled or not for this platform, or the plugin has no such skill ("Skill
// '<bare>' not found in plugin '<ns>'." with its skills in available_skills
// and a hint counting them).
ViewResult<ResolvedSkill> resolve_plugin_skill(const Catalog& catalog, const Plugin& plugin,
                                               const std::string& qualified, std::string_view bare);

// "[Bundle context: This skill is part of the '<ns>' plugin. Other skills in
// it: ns:a, ns:b.]": what an agent reading one skill of a bundle should know
// about the rest (the first limits::k_not_found_suggestions siblings by name).
std::string plugin_bundle_banner(const Catalog& catalog, const Plugin& plugin, std::string_view qualified);

}  // namespace skillrt::core
