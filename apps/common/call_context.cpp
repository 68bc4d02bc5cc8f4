#include "call_context.hpp"

#include <initializer_list>
#include <system_error>

namespace skillrt::frontend {

namespace fs = std::filesystem;

namespace {

fs::path absolute_or_same(const fs::path& path) {
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  return ec ? path : abs.lexically_normal();
}

std::string first_set(const core::EnvLookup& env, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (auto value = env(name); value && !value->empty()) {
      return *value;
    }
  }
  return {};
}

}  // namespace

fs::path resolve_home(const std::string& home, const core::EnvLookup& env) {
  if (!home.empty()) {
    return absolute_or_same(home);
  }
  if (auto hermes_home = env("HERMES_HOME"); hermes_home && !hermes_home->empty()) {
    return absolute_or_same(*hermes_home);
  }
  const std::string user_home = first_set(env, {"HOME"});
  return absolute_or_same((user_home.empty() ? fs::path("/") : fs::path(user_home)) / ".hermes");
}

CallSetup make_call_setup(const ContextOptions& options, const core::EnvLookup& env) {
  CallSetup setup;
  core::Context& ctx = setup.ctx;
  ctx.env = env;
  ctx.home = resolve_home(options.home, env);
  ctx.os = options.os.empty() ? core::detect_os() : options.os;
  ctx.platform = options.platform.empty() ? first_set(env, {"HERMES_PLATFORM", "HERMES_SESSION_PLATFORM"})
                                          : options.platform;
  ctx.session_id = options.session;
  // An invalid id stays in the context, where ensure_user_home and
  // check_permission refuse it (dropping it would fall back to single-user
  // mode, which may write shared skills).
  if (!options.user.empty()) {
    ctx.user_id = options.user;
  }
  ctx.org_id = options.org;
  if (auto terminal_cwd = env("TERMINAL_CWD"); terminal_cwd && !terminal_cwd->empty()) {
    ctx.cwd = absolute_or_same(*terminal_cwd);
  } else {
    std::error_code ec;
    ctx.cwd = fs::current_path(ec);
  }
  const fs::path config_path = options.config.empty() ? ctx.config_path() : absolute_or_same(options.config);
  setup.config = core::load_config(config_path);
  setup.config.path = config_path;
  return setup;
}

}  // namespace skillrt::frontend
