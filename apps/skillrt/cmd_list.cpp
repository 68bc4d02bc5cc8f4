// `skillrt list [--category C]` = Hermes skills_list, plus `path`, `source`
// and `provenance` (where the skill came from, the folder policy over it).
#include <filesystem>
#include <iostream>
#include <optional>

#include "command.hpp"
#include "core/discovery/catalog.hpp"
#include "core/provenance/provenance.hpp"
#include "protocol/catalog_json.hpp"
#include "tool_answers.hpp"

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
    std::optional<std::string> category;
    if (!m_category.empty()) {
      category = m_category;
    }
    if (inv.json) {
      // Shared with the Python package's skills_list (apps/common/tool_answers.hpp).
      frontend::write_skills_list_json(std::cout, inv.ctx, inv.config, category);
      std::cout.flush();
      return Outcome::ok;
    }
    // skills_list creates the local skills dir (spec §2.6 rule 1); failing to
    // is not an error, the listing simply has no local root.
    std::error_code ec;
    std::filesystem::create_directories(inv.ctx.skills_dir(), ec);
    const core::Catalog catalog = core::build_catalog(inv.ctx, inv.config);
    const core::ProvenanceIndex provenance = core::ProvenanceIndex::load(inv.ctx, inv.config, catalog.roots);
    std::cout << protocol::list_text(catalog, category, inv.color, &provenance);
    if (catalog.roots.untrusted_project) {
      std::cerr << "note: " << catalog.roots.untrusted_project->skill_count << " project skill(s) in "
                << catalog.roots.untrusted_project->root.string()
                << " are not loaded; run `skillrt trust` to trust this project.\n";
    }
    return Outcome::ok;
  }

 private:
  std::string m_category;
};

}  // namespace

std::unique_ptr<Command> make_list_command() { return std::make_unique<ListCommand>(); }

}  // namespace skillrt::app
