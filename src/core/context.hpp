// Who asks and from where: every core operation runs with a Context.
//
// No mutable globals: the host OS, the chat platform, the session, the
// working directory and the process environment all come in through here, so
// tests (and the multi-user server) can set them per call.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace skillrt::core {

class EventBus;  // core/events/event_bus.hpp

// Reads one environment variable; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(std::string_view)>;

// The real process environment.
EnvLookup process_env();

struct Context {
  std::filesystem::path home;   // $HERMES_HOME equivalent (absolute)
  std::string os = "linux";     // host OS tag: linux | darwin | win32 (from --os or detection)
  std::string platform;         // chat/session platform for skills.platform_disabled (may be empty)
  std::string session_id;       // ${HERMES_SESSION_ID}
  std::filesystem::path cwd;    // where project discovery starts (TERMINAL_CWD or the process cwd)
  EnvLookup env = process_env();

  // Who asks (issue 3/5, the three layers). No user: single-user mode, where
  // only the shared layer exists and everything behaves as before layers.
  std::optional<std::string> user_id;  // validated by tenancy/user_id.hpp before it gets here
  std::string org_id;                  // "0" is the owner organisation (may write shared skills)
  // An unauthenticated network caller (`serve --allow-anonymous`): no user,
  // yet not the trusted single-user mode of the CLI. It may read the shared
  // layer only: every write is refused and inline shell never runs.
  bool anonymous = false;

  // Where change events go (core/events); null: nobody listens (one-shot CLI runs).
  EventBus* events = nullptr;

  std::filesystem::path skills_dir() const { return home / "skills"; }
  std::filesystem::path config_path() const { return home / "config.yaml"; }
};

// The OS tag of the running host, as Python's sys.platform spells it.
std::string detect_os();

}  // namespace skillrt::core
