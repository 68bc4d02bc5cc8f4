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

}  // namespace skillrt::core
