#include "api/rest_api.hpp"

#include "api/routes.hpp"

namespace skillrt::api {

extern const std::string_view k_openapi_document;  // openapi_document.cpp, generated

std::string_view openapi_document() { return k_openapi_document; }

namespace {

// What the handler keeps: the routes capture `services` by reference.
struct RestApi {
  RestApiServices services;
  Router router;
};

}  // namespace

ApiHandler make_rest_api(RestApiServices services) {
  auto api = std::make_shared<RestApi>();
  api->services = std::move(services);
  Router* router = &api->router;
  const RestApiServices& kept = api->services;
  router->add("GET", "/api/v1/openapi.json", [](ApiCall&) {
    return ApiResponse{200, std::string(k_openapi_document), "application/json", {}};
  });
  add_skill_routes(*router, kept);
  add_skill_file_routes(*router, kept);
  add_search_routes(*router, kept);
  add_match_routes(*router, kept);
  add_plugin_routes(*router, kept);
  add_setup_routes(*router, kept);
  add_proposal_routes(*router, kept);
  add_ledger_routes(*router, kept);
  add_guard_routes(*router, kept);
  add_user_data_routes(*router, kept);
  add_token_routes(*router, kept);
  add_learning_routes(*router, kept);
  add_install_routes(*router, kept);
  return [api](const ApiRequest& request) {
    return api->router.dispatch(request, api->services.skills->context_for(request.caller));
  };
}

}  // namespace skillrt::api
