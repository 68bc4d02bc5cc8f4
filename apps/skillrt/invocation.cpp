#include "invocation.hpp"

#include <unistd.h>

#include <cstdlib>
#include <system_error>

#include "core/tenancy/user_id.hpp"

namespace skillrt::app {

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

CLI::Validator user_id_validator() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        auto ok = core::check_user_id(value);
        return ok ? std::string() : ok.error().message;
      },
      "USER_ID", "user id");
}

CLI::Validator org_id_validator() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        auto ok = core::check_org_id(value);
        return ok ? std::string() : ok.error().message;
      },
      "ORG_ID", "org id");
}

fs::path resolve_home(const GlobalOptions& options, const core::EnvLookup& env) {
  if (!options.home.empty()) {
    return absolute_or_same(options.home);
  }
  if (auto hermes_home = env("HERMES_HOME"); hermes_home && !hermes_home->empty()) {
    return absolute_or_same(*hermes_home);
  }
  const std::string user_home = first_set(env, {"HOME"});
  return absolute_or_same((user_home.empty() ? fs::path("/") : fs::path(user_home)) / ".hermes");
}

Invocation make_invocation(const GlobalOptions& options) {
  Invocation inv;
  inv.ctx.env = core::process_env();
  inv.ctx.home = resolve_home(options, inv.ctx.env);
  inv.ctx.os = options.os.empty() ? core::detect_os() : options.os;
  inv.ctx.platform = options.platform.empty()
                         ? first_set(inv.ctx.env, {"HERMES_PLATFORM", "HERMES_SESSION_PLATFORM"})
                         : options.platform;
  inv.ctx.session_id = options.session;
  // The validators refused bad ids at parse time. A caller that skipped them
  // still fails closed: an invalid user id stays in the context, where
  // ensure_user_home and check_permission refuse it (dropping it would fall
  // back to single-user mode, which may write shared skills).
  if (!options.user.empty()) {
    inv.ctx.user_id = options.user;
  }
  inv.ctx.org_id = options.org;
  if (auto terminal_cwd = inv.ctx.env("TERMINAL_CWD"); terminal_cwd && !terminal_cwd->empty()) {
    inv.ctx.cwd = absolute_or_same(*terminal_cwd);
  } else {
    std::error_code ec;
    inv.ctx.cwd = fs::current_path(ec);
  }
  const fs::path config_path = options.config.empty() ? inv.ctx.config_path() : absolute_or_same(options.config);
  inv.config = core::load_config(config_path);
  inv.config.path = config_path;
  inv.json = options.json;
  inv.color = ::isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr;
  return inv;
}

}  // namespace skillrt::app
