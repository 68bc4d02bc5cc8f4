#include "invocation.hpp"

#include <unistd.h>

#include <cstdlib>
#include <utility>

#include "call_context.hpp"
#include "core/tenancy/user_id.hpp"

namespace skillrt::app {

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

Invocation make_invocation(const GlobalOptions& options) {
  // The rule itself lives in apps/common (call_context.hpp), shared with the
  // Python package, so both front ends see the same home and config.
  frontend::CallSetup setup = frontend::make_call_setup(
      {options.home, options.user, options.org, options.os, options.platform, options.session, options.config},
      core::process_env());
  Invocation inv;
  inv.ctx = std::move(setup.ctx);
  inv.config = std::move(setup.config);
  inv.json = options.json;
  inv.color = ::isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr;
  return inv;
}

}  // namespace skillrt::app
