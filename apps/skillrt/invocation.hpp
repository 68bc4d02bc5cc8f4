// The global flags every command shares, and how they become a core::Context.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "core/config/config.hpp"
#include "core/context.hpp"

namespace skillrt::app {

struct GlobalOptions {
  std::string home;      // --home
  std::string user;      // --user: the user whose layer is read and written ("" = single-user mode)
  std::string org;       // --org: the user's organisation ("0" = owner org, may write shared skills)
  std::string os;        // --os linux|darwin|win32
  std::string platform;  // --platform
  std::string session;   // --session
  std::string config;    // --config FILE
  std::string db;        // --db URL: where database skills live (else database.url, else HOME/skillrt.db)
  bool json = false;     // --json
};

// Everything a command needs: the context and the loaded config.
struct Invocation {
  core::Context ctx;
  core::Config config;
  bool json = false;
  bool color = false;  // stdout is a TTY and NO_COLOR is unset
  std::string db;      // --db as given ("" = not given: commands use config.database.url, else HOME/skillrt.db)

  // Where the database lives: --db, else database.url ("" = HOME/skillrt.db).
  const std::string& database_location() const { return !db.empty() ? db : config.database.url; }
};

// CLI11 checks for --user and --org (tenancy/user_id.hpp): a bad id is a
// usage error naming the rule it breaks, before anything touches the disk.
CLI::Validator user_id_validator();
CLI::Validator org_id_validator();

// Builds the Invocation through apps/common's make_call_setup (the rule the
// Python package shares): resolves home (--home, else $HERMES_HOME, else
// ~/.hermes), OS, platform (--platform, else $HERMES_PLATFORM, else
// $HERMES_SESSION_PLATFORM), cwd ($TERMINAL_CWD, else the process cwd), the
// user and org (already checked by the validators above) and loads the config.
Invocation make_invocation(const GlobalOptions& options);

}  // namespace skillrt::app
