#include "api/skill_layer.hpp"

namespace skillrt::api {

Result<std::optional<core::Layer>> requested_layer(const ApiCall& call, const Json* body) {
  std::optional<std::string> name = call.query.get("layer");
  if (body != nullptr) {
    if (const auto given = body->find("layer"); given != body->end() && !given->is_null()) {
      if (!given->is_string()) {
        return fail(ErrorCode::invalid_argument, "'layer' must be a string: shared, user or database");
      }
      name = given->get<std::string>();
    }
  }
  if (!name) {
    return std::optional<core::Layer>{};
  }
  const std::optional<core::Layer> layer = core::layer_from_name(*name);
  if (!layer) {
    return fail(ErrorCode::invalid_argument, "unknown layer '" + *name + "': shared, user or database");
  }
  return layer;
}

}  // namespace skillrt::api
