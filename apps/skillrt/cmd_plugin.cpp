// `skillrt plugin list | enable NS | disable NS | install SOURCE | uninstall NS`: the plugins
// of the context (core/plugins). A plugin's skills are addressed as
// `ns:skill`; enable and disable write config.yaml's `plugins.*` for the
// shared layer's plugins (owner org only) and the user's own plugins.yaml
// for theirs; install goes through the hub's quarantine, guard and lock file
// (core/hub/plugin_install.hpp), and uninstall removes what install placed.
#include <iostream>

#include "command.hpp"
#include "recovery_notes.hpp"
#include "core/discovery/catalog.hpp"
#include "core/guard/guard.hpp"
#include "core/hub/plugin_install.hpp"
#include "core/plugins/plugin_set.hpp"
#include "core/tenancy/permissions.hpp"
#include "progress_line.hpp"
#include "protocol/error_json.hpp"
#include "protocol/hub_json.hpp"
#include "protocol/plugin_json.hpp"
#include "sources/source_fetcher.hpp"

namespace skillrt::app {
namespace {

namespace fs = std::filesystem;

enum class PluginAction { list, enable, disable, install, uninstall };

class PluginCommand final : public Command {
public:
  const char* name() const override { return "plugin"; }
  const char* summary() const override {
    return "Plugins (ns:skill): list, enable NS, disable NS, install SOURCE, uninstall NS";
  }

  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_list = sub.add_subcommand("list", "List the plugins, whether each is enabled, and their skills");
    m_enable = sub.add_subcommand("enable", "Enable a plugin (config.yaml, or the user's plugins.yaml)");
    m_disable = sub.add_subcommand("disable", "Disable a plugin: its skills are no longer listed or served");
    m_install = sub.add_subcommand("install", "Install a plugin through quarantine, the guard and lock.json");
    m_uninstall = sub.add_subcommand("uninstall", "Remove a plugin that `plugin install` placed");
    for (CLI::App* action : {m_list, m_enable, m_disable, m_install, m_uninstall}) {
      action->fallthrough();  // global flags may follow
    }
    for (CLI::App* action : {m_enable, m_disable, m_uninstall}) {
      action->add_option("namespace", m_namespace, "The plugin's namespace (its manifest's name)")->required();
    }
    m_uninstall->add_flag("--shared", m_shared, "With --user: the shared HOME/plugins (owner org only)");
    m_install->add_option("source", m_source, "SOURCE[//subdir][#ref]: folder, archive, git repository or URL")
        ->required();
    m_install->add_flag("--force", m_force,
                        "Reinstall an installed plugin; install despite a caution verdict (never a dangerous one)");
    m_install->add_option("--trust", m_trust, "Trust level for the scan policy: trusted or community")
        ->check(CLI::IsMember({"trusted", "community"}));
    m_install->add_flag("--require-signature", m_require_signature, "Refuse a plugin without a valid trusted signature");
    m_install->add_flag("--shared", m_shared, "With --user: install into the shared HOME/plugins (owner org only)");
  }

  Outcome run(const Invocation& inv) override {
    switch (chosen_action()) {
    case PluginAction::list:
      return list(inv);
    case PluginAction::enable:
      return switch_plugin(inv, true);
    case PluginAction::disable:
      return switch_plugin(inv, false);
    case PluginAction::install:
      return install(inv);
    case PluginAction::uninstall:
      return uninstall(inv);
    }
    return Outcome::usage;
  }

private:
  PluginAction chosen_action() const {
    if (m_enable->parsed()) {
      return PluginAction::enable;
    }
    if (m_disable->parsed()) {
      return PluginAction::disable;
    }
    if (m_install->parsed()) {
      return PluginAction::install;
    }
    if (m_uninstall->parsed()) {
      return PluginAction::uninstall;
    }
    return PluginAction::list;
  }

  static Outcome list(const Invocation& inv) {
    const core::Catalog catalog = core::build_catalog(inv.ctx, inv.config);
    if (inv.json) {
      print_json(protocol::plugin_list_json(catalog));
      return Outcome::ok;
    }
    std::cout << protocol::plugin_list_text(catalog, inv.color);
    return Outcome::ok;
  }

  Outcome switch_plugin(const Invocation& inv, bool enabled) const {
    const core::RootSet roots = core::compute_roots(inv.ctx, inv.config.skills, inv.config.plugins);
    const core::Plugin* plugin = roots.plugins.find(m_namespace);
    if (plugin == nullptr) {
      std::string message = "No plugin '" + m_namespace + "'";
      for (const core::PluginProblem& problem : roots.plugins.problems) {
        if (problem.path.filename() == m_namespace) {
          message += " (" + problem.path.string() + ": " + problem.message + ")";
        }
      }
      return finish_result(inv.json,
                           protocol::error_result_json(Error{ErrorCode::not_found,
                                                             message + ". See `skillrt plugin list`.", {}}),
                           "");
    }
    fs::path file;
    if (plugin->layer == core::Layer::user) {
      auto own = core::user_plugins_switch_file(inv.ctx);
      if (!own) {
        return finish_result(inv.json, protocol::error_result_json(own.error()), "");
      }
      file = *own;
    } else {
      // The shared layer's plugins are global config: with a user, only the owner org may switch them.
      if (inv.ctx.user_id) {
        if (auto allowed = core::check_permission(inv.ctx, core::Operation::update, core::Layer::shared); !allowed) {
          return finish_result(inv.json, protocol::error_result_json(allowed.error()), "");
        }
      }
      file = inv.config.path;
    }
    const auto changed = core::write_plugin_switch(file, plugin->name(), enabled);
    if (!changed) {
      Error error = changed.error();
      error.message = "Could not update " + file.string() + ": " + error.message;
      return finish_result(inv.json, protocol::error_result_json(error), "");
    }
    Json result = Json::object();
    result["success"] = true;
    result["name"] = plugin->name();
    result["enabled"] = enabled;
    result["changed"] = *changed;
    result["file"] = file.string();
    result["message"] = std::string(enabled ? "Enabled" : "Disabled") + " plugin '" + plugin->name() + "' in " +
                        file.string() + (*changed ? "" : " (no change)");
    return finish_result(inv.json, result, result["message"].get<std::string>() + "\n");
  }

  Outcome install(const Invocation& inv) const {
    core::hub::PluginInstallRequest request;
    request.source = m_source;
    request.force = m_force;
    if (!m_trust.empty()) {
      request.trust = core::parse_trust_level(m_trust);
    }
    request.require_signature = m_require_signature;
    request.shared = m_shared;
    const auto fetcher = sources::make_source_fetcher();
    ProgressLine progress(inv.json);
    const core::hub::PluginInstallOutcome outcome =
        core::hub::install_plugin(inv.ctx, inv.config, *fetcher, request, &progress);
    progress.finish();
    const Json result = protocol::plugin_install_outcome_json(outcome);
    if (inv.json) {
      print_json(result);
      return outcome_of(result);
    }
    print_recovery_notes(outcome.recovered);
    if (outcome.error) {
      print_error_text(result);
      return Outcome::failed;
    }
    for (const core::hub::InstallReport& r : outcome.skills) {
      const char* verdict = r.judgement.scan ? core::verdict_name(r.judgement.scan->verdict) : "not scanned";
      std::cout << (r.outcome == core::hub::SkillOutcome::blocked ? "  BLOCKED " : "  ok      ") << r.name << " ("
                << verdict << ")\n";
      for (const std::string& e : r.judgement.validation_errors) {
        std::cout << "    validation: " << e << '\n';
      }
      std::cout << protocol::guard_block_text(r.judgement);
    }
    if (outcome.judgement.scan && outcome.judgement.policy) {
      std::cout << core::format_scan_report(*outcome.judgement.scan, *outcome.judgement.policy,
                                            core::ReportDetail::explained)
                << '\n'
                << protocol::guard_block_text(outcome.judgement);
    }
    if (outcome.success) {
      std::cout << (outcome.outcome == core::hub::SkillOutcome::reinstalled ? "Reinstalled" : "Installed")
                << " plugin '" << outcome.name << "'" << (outcome.version.empty() ? "" : " " + outcome.version)
                << " into " << outcome.path.string() << " with " << outcome.skills.size()
                << (outcome.skills.size() == 1 ? " skill" : " skills") << " ("
                << (outcome.entry ? outcome.entry->content_hash : std::string()) << ")\n";
      return Outcome::ok;
    }
    std::cout << "BLOCKED plugin '" << outcome.name << "': " << outcome.reason << '\n';
    return Outcome::failed;
  }

  Outcome uninstall(const Invocation& inv) const {
    const core::hub::PluginUninstallOutcome outcome = core::hub::uninstall_plugin(inv.ctx, m_namespace, m_shared);
    print_recovery_notes(outcome.recovered);
    Json result = Json::object();
    result["success"] = outcome.success;
    result["name"] = outcome.name;
    result["path"] = outcome.path.string();
    if (outcome.error) {
      result = protocol::error_result_json(*outcome.error);
      result["name"] = outcome.name;
    } else {
      result["message"] = outcome.message;
    }
    return finish_result(inv.json, result, outcome.message + "\n");
  }

  CLI::App* m_list = nullptr;
  CLI::App* m_enable = nullptr;
  CLI::App* m_disable = nullptr;
  CLI::App* m_install = nullptr;
  CLI::App* m_uninstall = nullptr;
  std::string m_namespace;
  std::string m_source;
  bool m_force = false;
  std::string m_trust;
  bool m_require_signature = false;
  bool m_shared = false;
};

}  // namespace

std::unique_ptr<Command> make_plugin_command() { return std::make_unique<PluginCommand>(); }

}  // namespace skillrt::app
