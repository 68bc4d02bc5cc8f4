#include "protocol/search_json.hpp"

#include "protocol/json_text.hpp"

namespace skillrt::protocol {
namespace {

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
    item["source"] = hit.source;
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
    out += hit.source;
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
