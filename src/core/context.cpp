#include "core/context.hpp"

#include <cstdlib>

namespace skillrt::core {

EnvLookup process_env() {
  return [](std::string_view name) -> std::optional<std::string> {
    const std::string key(name);
    if (const char* value = std::getenv(key.c_str())) {
      return std::string(value);
    }
    return std::nullopt;
  };
}

std::string detect_os() {
#if defined(__APPLE__)
  return "darwin";
#elif defined(_WIN32)
  return "win32";
#else
  return "linux";
#endif
}

}  // namespace skillrt::core
