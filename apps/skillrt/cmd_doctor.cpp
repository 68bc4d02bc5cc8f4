// `skillrt doctor`: each root with its counts, and why anything is hidden,
// shadowed or skipped; where the offered skills came from and the folder
// policies over them. It also removes what a writer killed mid-write left
// behind (temp files, staging and trash folders), and says so.
#include <iostream>

#include "command.hpp"
#include "core/discovery/catalog.hpp"
#include "core/manage/stray_temp_cleanup.hpp"
#include "core/provenance/provenance.hpp"
#include "core/util/terminal_text.hpp"
#include "protocol/catalog_json.hpp"
#include "protocol/provenance_json.hpp"

namespace skillrt::app {
namespace {

class DoctorCommand final : public Command {
 public:
  const char* name() const override { return "doctor"; }
  const char* summary() const override { return "Explain the catalog: roots, shadowed, skipped and hidden skills"; }
  void configure(CLI::App& /*sub*/) override {}
  Outcome run(const Invocation& inv) override {
    const core::Catalog catalog = core::build_catalog(inv.ctx, inv.config, {.collect_legacy = false, .use_cache = true, .find_decoys = true});
    const core::StraySweep sweep = core::sweep_stray_files(inv.ctx, catalog);
    Json result = protocol::doctor_json(catalog, inv.config);
    const core::ProvenanceIndex provenance = core::ProvenanceIndex::load(inv.ctx, inv.config, catalog.roots);
    result["provenance"] = protocol::provenance_summary_json(catalog, provenance, inv.config.folders);
    result["stray_files_removed"] = {{"temp_files", sweep.temp_files},
                                     {"work_dirs", sweep.work_dirs},
                                     {"busy_skills", sweep.busy_skills}};
    if (inv.json) {
      print_json(result);
    } else {
      std::cout << protocol::doctor_text(catalog, inv.config, inv.color);
      std::cout << "\nProvenance\n" << core::terminal_safe(protocol::provenance_summary_text(catalog, provenance, inv.config.folders), core::TerminalLayout::multi_line);
      if (sweep.temp_files + sweep.work_dirs > 0) {
        std::cout << "Removed leftovers of interrupted writes: " << sweep.temp_files << " temp file(s), "
                  << sweep.work_dirs << " staging/trash folder(s).\n";
      }
    }
    return outcome_of(result);
  }
};

}  // namespace

std::unique_ptr<Command> make_doctor_command() { return std::make_unique<DoctorCommand>(); }

}  // namespace skillrt::app
