// The global flags every command shares, and how they become a core::Context.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/config/config.hpp"
#include "core/context.hpp"

namespace skillrt::app {

struct GlobalOptions {
  std::string home;      // --home
  std::string user;      // --user (multi-user layers arrive later; accepted now)
  std::string org;       // --org
  std::string os;        // --os linux|darwin|win32
  std::string platform;  // --platform
  std::string session;   // --session
  std::string config;    // --config FILE
  bool json = false;     // --json
};

// Everything a command needs: the context and the loaded config.
struct Invocation {
  core::Context ctx;
  core::Config config;
  bool json = false;
  bool color = false;  // stdout is a TTY and NO_COLOR is unset
};

// Home: --home, else $HERMES_HOME, else ~/.hermes (absolute, not required to exist).
std::filesystem::path resolve_home(const GlobalOptions& options, const core::EnvLookup& env);

// Builds the Invocation: resolves home, OS, platform (--platform, else
// $HERMES_PLATFORM, else $HERMES_SESSION_PLATFORM), cwd ($TERMINAL_CWD, else the
// process cwd) and loads the config.
Invocation make_invocation(const GlobalOptions& options);

}  // namespace skillrt::app
