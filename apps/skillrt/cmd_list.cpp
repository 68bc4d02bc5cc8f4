// `skillrt list [--category C]` = Hermes skills_list, plus `path` and `source`.
#include <iostream>
#include <optional>

#include "command.hpp"
#include "core/discovery/catalog.hpp"
#include "protocol/catalog_json.hpp"

namespace skillrt::app {
namespace {

class ListCommand final : public Command {
 public:
  const char* name() const override { return "list"; }
  const char* summary() const override { return "List the skills offered to the agent"; }
  void configure(CLI::App& sub) override {
    sub.add_option("--category", m_category, "Only skills of this category");
  }
  Outcome run(const Invocation& inv) override {
    const core::Catalog catalog = core::build_catalog(inv.ctx, inv.config);
    std::optional<std::string> category;
    if (!m_category.empty()) {
      category = m_category;
    }
    const Json result = protocol::list_json(catalog, category);
    if (inv.json) {
      print_json(result);
    } else {
      std::cout << protocol::list_text(catalog, category, inv.color);
      if (catalog.roots.untrusted_project) {
        std::cerr << "note: " << catalog.roots.untrusted_project->skill_count << " project skill(s) in "
                  << catalog.roots.untrusted_project->root.string()
                  << " are not loaded; run `skillrt trust` to trust this project.\n";
      }
    }
    return outcome_of(result);
  }

 private:
  std::string m_category;
};

}  // namespace

std::unique_ptr<Command> make_list_command() { return std::make_unique<ListCommand>(); }

}  // namespace skillrt::app
