// The answers of Hermes' skill tools as the CLI's --json prints them, for
// every in-process front end (apps/skillrt's list and view, the Python
// package's skills_list and skill_view). What they add to the protocol layer
// is front-end policy the two must share: skills_list creates the local skills
// folder and shows provenance; skill_view shows provenance and counts a view
// in the usage book.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::frontend {

// skills_list (spec §2.6) with each skill's provenance: exactly what
// `skillrt --json list [--category C]` prints (indent 2, no newline at the
// end), streamed because a 50k-skill tree would triple peak memory.
void write_skills_list_json(std::ostream& out, const core::Context& ctx, const core::Config& cfg,
                            const std::optional<std::string>& category);

struct SkillViewAnswer {
  protocol::Json result;                 // Hermes' skill_view object (+ provenance)
  std::string provenance_note;           // one line for people ("" when there is none)
  std::vector<std::string> warnings;     // security notes: never in the JSON, never blocking
};

// skill_view (spec §2.7) as `skillrt --json view NAME [--file PATH]` answers:
// a main document also carries `provenance`, and a document that is ready
// counts as a view in its usage record (bookkeeping that never fails the view).
SkillViewAnswer answer_skill_view(const core::Context& ctx, const core::Config& cfg, const std::string& name,
                                  const std::optional<std::string>& file_path);

}  // namespace skillrt::frontend
