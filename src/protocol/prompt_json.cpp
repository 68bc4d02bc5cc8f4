#include "protocol/prompt_json.hpp"

namespace skillrt::protocol {

Json prompt_json(const core::RenderedIndex& index) {
  Json out = Json::object();
  out["success"] = true;
  out["prompt"] = index.text;
  out["skills_count"] = index.skills_count;
  out["categories"] = index.categories;
  out["demoted"] = index.demoted;
  Json elided = Json::array();
  for (const core::ElidedCategory& item : index.elided) {
    elided.push_back(Json{{"category", item.category}, {"skills", item.skills}});
  }
  out["elided"] = std::move(elided);
  out["chars"] = index.chars;
  return out;
}

} // namespace skillrt::protocol
