// Who asks and with which home and config, the same way for every front end
// that runs the core in-process: the CLI (apps/skillrt, from its global
// flags) and the Python package (python/, from skillrt.configure). Kept here,
// not in apps/skillrt/invocation.cpp, so both resolve the home, the platform,
// the cwd and the config file by one rule and cannot drift apart.
#pragma once

#include <filesystem>
#include <string>

#include "core/config/config.hpp"
#include "core/context.hpp"

namespace skillrt::frontend {

// What a caller chose; "" = not chosen (the environment or the default applies).
struct ContextOptions {
  std::string home;      // else $HERMES_HOME, else ~/.hermes
  std::string user;      // the user whose layer is read and written ("" = single-user mode)
  std::string org;       // the user's organisation ("0" = owner org, may write shared skills)
  std::string os;        // linux | darwin | win32, else the host's
  std::string platform;  // else $HERMES_PLATFORM, else $HERMES_SESSION_PLATFORM
  std::string session;   // ${HERMES_SESSION_ID}
  std::string config;    // config file, else HOME/config.yaml
};

// A context and the config it loaded, ready for one core call.
struct CallSetup {
  core::Context ctx;
  core::Config config;
};

// Home: `home`, else $HERMES_HOME, else $HOME/.hermes (absolute, not required to exist).
std::filesystem::path resolve_home(const std::string& home, const core::EnvLookup& env);

// Resolves the home, OS, platform, cwd ($TERMINAL_CWD, else the process cwd),
// user and org from `options` and `env`, and loads the config. Ids are not
// checked here (tenancy/user_id.hpp is the front end's job before the call);
// an invalid one still fails closed: it stays in the context, where
// ensure_user_home and check_permission refuse it.
CallSetup make_call_setup(const ContextOptions& options, const core::EnvLookup& env);

}  // namespace skillrt::frontend
