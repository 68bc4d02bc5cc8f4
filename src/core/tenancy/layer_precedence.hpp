// Which layer wins when two hold a skill of the same name: the user's
// database skill, then the user's file skill, then a shared one (the order
// view resolves in). Its own header so that the few readers that rank layers
// (search, trigger activation) do not rebuild everything that names a Layer.
#pragma once

#include "core/tenancy/layer.hpp"

namespace skillrt::core {

// Lower is stronger: database 0, user 1, shared 2.
constexpr int layer_precedence(Layer layer) {
  switch (layer) {
  case Layer::database:
    return 0;
  case Layer::user:
    return 1;
  case Layer::shared:
    break;
  }
  return 2;
}

}  // namespace skillrt::core
