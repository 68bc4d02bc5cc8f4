// `skillrt promote NAME --to FOLDER`: moves a skill to another top-level
// folder of its root (generated/ once an agent skill has proven itself, back
// out of archive/, into a team folder) after it validates and the guard finds
// nothing dangerous; one durable rename. --to . moves it to the top level.
#include "command.hpp"
#include "core/curator/skill_move.hpp"
#include "protocol/error_json.hpp"

namespace skillrt::app {
namespace {

class PromoteCommand final : public Command {
 public:
  const char* name() const override { return "promote"; }
  const char* summary() const override {
    return "Move a skill to another top-level folder (after it validates and scans clean)";
  }
  void configure(CLI::App& sub) override {
    sub.add_option("NAME", m_name, "The skill")->required();
    sub.add_option("--to", m_folder, "The top-level folder (e.g. generated, archive; . = the top level)")->required();
  }

  Outcome run(const Invocation& inv) override {
    auto moved = core::move_skill_to_folder(inv.ctx, inv.config, m_name, m_folder);
    if (!moved) {
      return finish_result(inv.json, protocol::error_result_json(moved.error()), "");
    }
    protocol::Json out = protocol::Json::object();
    out["success"] = true;
    out["name"] = moved->name;
    out["from"] = moved->from.string();
    out["to"] = moved->to.string();
    out["verdict"] = moved->verdict;
    return finish_result(inv.json, out, "Moved '" + moved->name + "' to " + moved->to.string() + "\n");
  }

 private:
  std::string m_name;
  std::string m_folder;
};

}  // namespace

std::unique_ptr<Command> make_promote_command() { return std::make_unique<PromoteCommand>(); }

}  // namespace skillrt::app
