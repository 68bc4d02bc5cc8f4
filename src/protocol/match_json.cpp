#include "protocol/match_json.hpp"

#include "core/util/utf8_prefix.hpp"
#include "protocol/json_text.hpp"

namespace skillrt::protocol {
namespace {

constexpr std::size_t k_echoed_message_chars = 200;

}  // namespace

Json match_json(std::string_view message, const Result<core::SkillMatch>& match, bool with_problems) {
  Json out = Json::object();
  out["success"] = match.has_value();
  out["message"] = json_text(core::utf8_prefix(json_text(message), k_echoed_message_chars));
  if (!match) {
    out["error"] = json_text(match.error().message);
    return out;
  }
  Json results = Json::array();
  for (const core::SkillActivation& hit : match->results) {
    Json item = Json::object();
    item["name"] = json_text(hit.name);
    item["description"] = json_text(hit.description);
    item["source"] = core::layer_name(hit.source);
    item["score"] = rounded_score(hit.score, 4);
    if (hit.path) {
      item["path"] = json_text(*hit.path);
    }
    if (hit.id) {
      item["id"] = *hit.id;
    }
    Json reasons = Json::array();
    for (const core::ActivationReason& reason : hit.reasons) {
      reasons.push_back(Json{{"kind", core::activation_kind_name(reason.kind)},
                             {"trigger", json_text(reason.trigger)},
                             {"matched", json_text(reason.matched)}});
    }
    item["reasons"] = std::move(reasons);
    results.push_back(std::move(item));
  }
  out["results"] = std::move(results);
  out["count"] = match->results.size();
  if (with_problems && !match->problems.empty()) {
    Json problems = Json::array();
    for (const core::TriggerProblem& problem : match->problems) {
      problems.push_back(Json{{"name", json_text(problem.skill)},
                              {"trigger", json_text(problem.rule)},
                              {"error", json_text(problem.message)}});
    }
    out["problems"] = std::move(problems);
  }
  return out;
}

std::string match_text(const core::SkillMatch& match) {
  std::string out;
  for (const core::SkillActivation& hit : match.results) {
    out += one_line_text(hit.name);
    out += "  [";
    out += core::layer_name(hit.source);
    out += "]";
    if (!hit.description.empty()) {
      out += "  ";
      out += one_line_text(hit.description);
    }
    out += '\n';
    for (const core::ActivationReason& reason : hit.reasons) {
      out += "    ";
      out += core::activation_kind_name(reason.kind);
      out += " \"";
      out += one_line_text(reason.trigger);
      out += "\" <- ";
      out += one_line_text(reason.matched);
      out += '\n';
    }
  }
  return out;
}

}  // namespace skillrt::protocol
