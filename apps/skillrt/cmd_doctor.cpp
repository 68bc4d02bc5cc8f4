// `skillrt doctor`: each root with its counts, and why anything is hidden,
// shadowed or skipped.
#include <iostream>

#include "command.hpp"
#include "core/discovery/catalog.hpp"
#include "protocol/catalog_json.hpp"

namespace skillrt::app {
namespace {

class DoctorCommand final : public Command {
 public:
  const char* name() const override { return "doctor"; }
  const char* summary() const override { return "Explain the catalog: roots, shadowed, skipped and hidden skills"; }
  void configure(CLI::App& /*sub*/) override {}
  Outcome run(const Invocation& inv) override {
    const core::Catalog catalog = core::build_catalog(inv.ctx, inv.config, {.collect_legacy = false, .use_cache = true, .find_decoys = true});
    const Json result = protocol::doctor_json(catalog, inv.config);
    if (inv.json) {
      print_json(result);
    } else {
      std::cout << protocol::doctor_text(catalog, inv.config, inv.color);
    }
    return outcome_of(result);
  }
};

}  // namespace

std::unique_ptr<Command> make_doctor_command() { return std::make_unique<DoctorCommand>(); }

}  // namespace skillrt::app
