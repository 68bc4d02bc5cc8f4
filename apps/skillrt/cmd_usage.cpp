// `skillrt pin NAME`, `unpin NAME`, `adopt NAME`: a skill's usage record
// (core/usage). A pinned skill is left alone by the curator and the
// background review; an adopted one is treated as agent-made, so both may
// manage it (Hermes' `curator adopt`).
#include "command.hpp"
#include "core/discovery/roots.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/usage/usage_book.hpp"
#include "protocol/error_json.hpp"
#include "protocol/manage_json.hpp"

namespace skillrt::app {
namespace {

class UsageCommand final : public Command {
 public:
  explicit UsageCommand(const char* verb) : m_verb(verb) {}
  const char* name() const override { return m_verb.c_str(); }
  const char* summary() const override {
    if (m_verb == "pin") {
      return "Pin a skill: the curator and the background review leave it alone";
    }
    if (m_verb == "unpin") {
      return "Unpin a skill";
    }
    return "Adopt a skill: let the background review and the curator manage it as agent-made";
  }

  void configure(CLI::App& sub) override { sub.add_option("NAME", m_name, "The skill")->required(); }

  Outcome run(const Invocation& inv) override {
    const core::Catalog catalog = core::manage_catalog(inv.ctx, inv.config);
    auto located = core::locate_managed_skill(inv.ctx, catalog, m_name, false, std::nullopt);
    if (!located) {
      return finish_result(inv.json, protocol::manage_result_json(located.error()), "");
    }
    const core::Layer layer = core::tier_layer(located->tier);
    const std::string key = located->dir.filename().string();
    auto record = core::update_usage(inv.ctx, layer, key, [&](core::UsageRecord& r) {
      if (m_verb == "pin") {
        r.pinned = true;
      } else if (m_verb == "unpin") {
        r.pinned = false;
      } else {
        r.created_by = core::SkillAuthor::agent;
      }
    });
    if (!record) {
      return finish_result(inv.json, protocol::error_result_json(record.error()), "");
    }
    protocol::Json out = protocol::Json::object();
    out["success"] = true;
    out["name"] = key;
    out["layer"] = core::layer_name(layer);
    out["pinned"] = record->pinned;
    out["created_by"] = core::skill_author_name(record->created_by);
    out["state"] = core::skill_lifecycle_name(record->state);
    const std::string done = m_verb == "pin" ? "Pinned" : m_verb == "unpin" ? "Unpinned" : "Adopted";
    return finish_result(inv.json, out, done + " '" + key + "'\n");
  }

 private:
  std::string m_verb;
  std::string m_name;
};

}  // namespace

std::unique_ptr<Command> make_usage_command(const char* verb) { return std::make_unique<UsageCommand>(verb); }

}  // namespace skillrt::app
