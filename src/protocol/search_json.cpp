#include "protocol/search_json.hpp"

#include "protocol/json_text.hpp"

namespace skillrt::protocol {

// Scores keep six significant digits: the tiny bm25 values of a small
// catalog must not all round to 0.
Json search_json(std::string_view query, const Result<core::SkillSearch>& search) {
  Json out = Json::object();
  out["success"] = search.has_value();
  out["query"] = json_text(query);
  if (!search) {
    out["error"] = json_text(search.error().message);
    return out;
  }
  Json results = Json::array();
  for (const core::SkillSearchResult& hit : search->results) {
    Json item = Json::object();
    item["name"] = json_text(hit.name);
    item["description"] = json_text(hit.description);
    item["source"] = core::layer_name(hit.source);
    item["score"] = rounded_score(hit.score, 6);
    if (hit.path) {
      item["path"] = json_text(*hit.path);
    }
    if (hit.id) {
      item["id"] = *hit.id;
    }
    results.push_back(std::move(item));
  }
  out["results"] = std::move(results);
  out["count"] = search->results.size();
  return out;
}

std::string search_text(const core::SkillSearch& search) {
  std::string out;
  for (const core::SkillSearchResult& hit : search.results) {
    out += one_line_text(hit.name);
    out += "  [";
    out += core::layer_name(hit.source);
    out += "]";
    if (!hit.description.empty()) {
      out += "  ";
      out += one_line_text(hit.description);
    }
    out += '\n';
  }
  return out;
}

}  // namespace skillrt::protocol
