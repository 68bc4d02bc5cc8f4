#include "core/files/path_within.hpp"

namespace skillrt::core {

bool is_within(const std::filesystem::path& inner, const std::filesystem::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (i == inner.end() || *i != *o) {
      return false;
    }
  }
  return true;
}

}  // namespace skillrt::core
