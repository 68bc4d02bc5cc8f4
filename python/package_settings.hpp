// The package's module-level configuration (skillrt.configure): the CLI's
// global flags, held for every later call. Each call copies it under a
// mutex, so a configure() racing calls on other threads never tears one.
#pragma once

#include <string>

#include "call_context.hpp"

namespace skillrt::python {

struct PackageSettings {
  frontend::ContextOptions context;  // --home --user --org --os --platform --session --config
  std::string db;                    // --db (kept for parity; the covered tools read no database)
};

// The settings every call starts from.
PackageSettings current_settings();

// Replaces them all (configure() sets every field; unset = "").
void replace_settings(PackageSettings settings);

}  // namespace skillrt::python
