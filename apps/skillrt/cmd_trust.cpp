// `skillrt trust [DIR]` / `skillrt untrust [DIR]`: add or remove a project in
// skills.trusted_project_dirs. DIR defaults to the git root found from the cwd.
#include <iostream>

#include "command.hpp"
#include "core/discovery/roots.hpp"
#include "core/tenancy/permissions.hpp"

namespace skillrt::app {
namespace {

namespace fs = std::filesystem;

class TrustCommand final : public Command {
 public:
  explicit TrustCommand(bool trust) : m_trust(trust) {}
  const char* name() const override { return m_trust ? "trust" : "untrust"; }
  const char* summary() const override {
    return m_trust ? "Trust a project's .hermes/skills and .agents/skills" : "Stop trusting a project's skills";
  }
  void configure(CLI::App& sub) override {
    sub.add_option("dir", m_dir, "Project directory (default: the git root of the working directory)");
  }
  Outcome run(const Invocation& inv) override {
    // The trusted projects are global config that decides which skills every
    // user sees, so with a user only the owner org may change them.
    if (inv.ctx.user_id) {
      if (auto allowed = core::check_permission(inv.ctx, core::Operation::update, core::Layer::shared); !allowed) {
        return finish(inv, failure(allowed.error().message));
      }
    }
    std::optional<fs::path> root;
    if (!m_dir.empty()) {
      std::error_code ec;
      fs::path dir = fs::absolute(m_dir, ec);
      if (ec || !fs::is_directory(dir, ec)) {
        return finish(inv, failure("Not a directory: " + m_dir));
      }
      // A directory inside a project means that project.
      core::Context at_dir = inv.ctx;
      at_dir.cwd = dir.lexically_normal();
      root = core::find_project_root(at_dir).value_or(at_dir.cwd);
    } else {
      root = core::find_project_root(inv.ctx);
      if (!root) {
        return finish(inv, failure("No project found: no directory with .git above " + inv.ctx.cwd.string() +
                                   ". Pass the project directory explicitly."));
      }
    }
    const fs::path identity = core::project_identity(*root);
    const auto changed = core::set_project_trust(inv.config.path, identity.string(), m_trust);
    if (!changed) {
      return finish(inv, failure("Could not update " + inv.config.path.string() + ": " + changed.error().message));
    }
    Json result = Json::object();
    result["success"] = true;
    result["project"] = identity.string();
    result["trusted"] = m_trust;
    result["changed"] = *changed;
    result["config"] = inv.config.path.string();
    result["message"] = std::string(m_trust ? "Trusted " : "Untrusted ") + identity.string() +
                        (*changed ? "" : " (no change)");
    return finish(inv, result);
  }

 private:
  static Json failure(const std::string& message) {
    Json out = Json::object();
    out["success"] = false;
    out["error"] = message;
    return out;
  }
  static Outcome finish(const Invocation& inv, const Json& result) {
    if (inv.json) {
      print_json(result);
    } else if (outcome_of(result) == Outcome::ok) {
      std::cout << result["message"].get<std::string>() << '\n';
    } else {
      print_error_text(result);
    }
    return outcome_of(result);
  }

  bool m_trust;
  std::string m_dir;
};

}  // namespace

std::unique_ptr<Command> make_trust_command(bool trust) { return std::make_unique<TrustCommand>(trust); }

}  // namespace skillrt::app
