#include "tool_answers.hpp"

#include <filesystem>
#include <system_error>
#include <variant>

#include "core/discovery/catalog.hpp"
#include "core/discovery/roots.hpp"
#include "core/provenance/provenance.hpp"
#include "core/usage/usage_book.hpp"
#include "core/view/view_usage.hpp"
#include "protocol/catalog_json.hpp"
#include "protocol/provenance_json.hpp"
#include "protocol/view_json.hpp"

namespace skillrt::frontend {

void write_skills_list_json(std::ostream& out, const core::Context& ctx, const core::Config& cfg,
                            const std::optional<std::string>& category) {
  // skills_list creates the local skills dir (spec §2.6 rule 1); failing to
  // is not an error, the listing simply has no local root.
  std::error_code ec;
  std::filesystem::create_directories(ctx.skills_dir(), ec);
  const core::Catalog catalog = core::build_catalog(ctx, cfg);
  const core::ProvenanceIndex provenance = core::ProvenanceIndex::load(ctx, cfg, catalog.roots);
  protocol::write_list_json(out, catalog, category, 2, &provenance);
}

SkillViewAnswer answer_skill_view(const core::Context& ctx, const core::Config& cfg, const std::string& name,
                                  const std::optional<std::string>& file_path) {
  SkillViewAnswer out;
  const auto answer = core::view_skill(ctx, cfg, name, file_path, out.warnings);
  if (!answer) {
    out.result = protocol::view_failure_json(answer.error());
    return out;
  }
  if (const auto* doc = std::get_if<core::SkillDocument>(&*answer)) {
    out.result = protocol::skill_document_json(*doc);
    if (doc->skill_dir) {
      const auto roots = core::compute_roots(ctx, cfg.skills, cfg.plugins);
      const core::Provenance provenance = core::ProvenanceIndex::load(ctx, cfg, roots).of(doc->tier, *doc->skill_dir);
      out.result["provenance"] = protocol::provenance_json(provenance);
      out.provenance_note = protocol::provenance_label(provenance);
      if (provenance.policy) {
        out.provenance_note += "; folder " + protocol::folder_policy_text(*provenance.policy);
      }
    }
    if (const auto subject = core::usage_subject(*doc)) {
      // Bookkeeping: a read-only home or a locked book never fails the view.
      (void)core::record_view(ctx, subject->layer, subject->name);
    }
    return out;
  }
  out.result = protocol::skill_file_json(std::get<core::SkillFile>(*answer));
  return out;
}

}  // namespace skillrt::frontend
