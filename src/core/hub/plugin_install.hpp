// `plugin install SOURCE` (issue 18): a plugin goes through the skills' own
// gate. Fetch into the plugins folder's quarantine → read the manifest →
// judge every skill it holds (validate, guard scan, signature, policy) and
// the plugin folder as a whole (guard scan of every file, content hash,
// signature, policy) → one rename into <plugins>/<namespace> → lock.json and
// audit.log of that folder's own `.hub/`. Nothing is placed unless every
// part is allowed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/hub/fetcher.hpp"
#include "core/hub/install.hpp"
#include "core/hub/judge.hpp"
#include "core/hub/lock_file.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct PluginInstallRequest {
  std::string source;              // SOURCE[//subdir][#ref], as for skills
  bool force = false;              // reinstall, and override a force-overridable block
  std::optional<TrustLevel> trust; // --trust
  bool require_signature = false;  // --require-signature
  bool shared = false;             // --shared: HOME/plugins even with --user
  bool preview = false;            // judge only; nothing placed or recorded
};

struct PluginInstallOutcome {
  bool success = false;        // placed (a preview: allowed)
  std::optional<Error> error;  // the operation could not run (fetch, manifest, permission, lock...)
  std::filesystem::path root;  // the plugins folder
  std::string identifier;
  std::string name;            // the namespace
  std::string version;
  std::filesystem::path path;  // root/<namespace>
  SkillOutcome outcome = SkillOutcome::failed;
  std::string reason;
  Judgement judgement;                // the plugin folder as a whole
  std::vector<InstallReport> skills;  // each skill's own judgement (outcome allowed or blocked)
  std::optional<LockEntry> entry;
  std::vector<RecoveryNote> recovered;
};

PluginInstallOutcome install_plugin(const Context& ctx, const Config& config, Fetcher& fetcher,
                                    const PluginInstallRequest& request, Progress* progress);

struct PluginUninstallOutcome {
  bool success = false;
  std::optional<Error> error;
  std::string name;            // the namespace
  std::filesystem::path path;  // the folder removed
  std::string message;
  std::vector<RecoveryNote> recovered;
};

// `plugin uninstall NS`: only a plugin its plugins folder's lock.json
// records (never one put there by hand, nor one in skills.plugin_dirs). The
// recorded folder is re-checked (inside the plugins folder, no symlink), leaves
// by one rename into .hub/trash, then the lock entry goes and UNINSTALL is
// audited. With a user in ctx, the user's own plugins folder unless `shared`.
PluginUninstallOutcome uninstall_plugin(const Context& ctx, const std::string& ns, bool shared);

}  // namespace skillrt::core::hub
