// GET /api/v1/plugins: the plugins of the caller's context (the shared
// layer's and the caller's own), whether each is enabled and what switched
// it, their skills as the listing offers them, and every plugin folder left
// out with why, as `skillrt --json plugin list` answers. Read-only: enabling,
// disabling and installing plugins are operator actions of the CLI.
#include "api/routes.hpp"
#include "protocol/plugin_json.hpp"

namespace skillrt::api {
namespace {

ApiResponse list_plugins(const RestApiServices& services, ApiCall& call) {
  const std::shared_ptr<const core::Catalog> catalog = services.skills->catalog(call.ctx);
  return json_answer(200, protocol::plugin_list_json(*catalog));
}

}  // namespace

void add_plugin_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/plugins", [&services](ApiCall& call) { return list_plugins(services, call); });
}

}  // namespace skillrt::api
