#include "package_settings.hpp"

#include <mutex>
#include <utility>

namespace skillrt::python {
namespace {

// The one piece of process-wide state of the package, as configure() is
// Hermes-style module configuration; the core itself keeps none.
std::mutex g_settings_mutex;
PackageSettings g_settings;

}  // namespace

PackageSettings current_settings() {
  const std::lock_guard<std::mutex> lock(g_settings_mutex);
  return g_settings;
}

void replace_settings(PackageSettings settings) {
  const std::lock_guard<std::mutex> lock(g_settings_mutex);
  g_settings = std::move(settings);
}

}  // namespace skillrt::python
