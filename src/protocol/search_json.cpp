#include "protocol/search_json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "protocol/json_text.hpp"

namespace skillrt::protocol {
namespace {

// Scores are for ordering: six significant digits keep the JSON readable
// without merging the tiny bm25 values of a small catalog into 0.
double rounded_score(double score) {
  if (!std::isfinite(score)) {
    return 0;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", score);
  return std::strtod(text, nullptr);
}

// One line per hit: control characters (a multi-line description) become spaces.
std::string one_line(std::string_view raw) {
  std::string text = json_text(raw);
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      c = ' ';
    }
  }
  return text;
}

}  // namespace

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
    item["score"] = rounded_score(hit.score);
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
    out += one_line(hit.name);
    out += "  [";
    out += core::layer_name(hit.source);
    out += "]";
    if (!hit.description.empty()) {
      out += "  ";
      out += one_line(hit.description);
    }
    out += '\n';
  }
  return out;
}

}  // namespace skillrt::protocol
