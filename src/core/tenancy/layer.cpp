#include "core/tenancy/layer.hpp"

namespace skillrt::core {

const char* layer_name(Layer layer) {
  switch (layer) {
    case Layer::shared:
      return "shared";
    case Layer::user:
      return "user";
    case Layer::database:
      return "database";
  }
  return "shared";
}

std::optional<Layer> layer_from_name(std::string_view name) {
  for (const Layer layer : {Layer::shared, Layer::user, Layer::database}) {
    if (name == layer_name(layer)) {
      return layer;
    }
  }
  return std::nullopt;
}

}  // namespace skillrt::core
