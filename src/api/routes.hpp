// Internal to src/api: each resource's routes, one file each, added to the
// one router by rest_api.cpp.
#pragma once

#include "api/rest_api.hpp"
#include "api/router.hpp"

namespace skillrt::api {

void add_skill_routes(Router& router, const RestApiServices& services);     // skills_routes.cpp
void add_skill_file_routes(Router& router, const RestApiServices& services);  // skill_file_routes.cpp
void add_search_routes(Router& router, const RestApiServices& services);    // search_routes.cpp
void add_match_routes(Router& router, const RestApiServices& services);     // match_routes.cpp
void add_plugin_routes(Router& router, const RestApiServices& services);    // plugin_routes.cpp
void add_setup_routes(Router& router, const RestApiServices& services);     // setup_routes.cpp (the setup page)
void add_proposal_routes(Router& router, const RestApiServices& services);  // proposal_routes.cpp
void add_ledger_routes(Router& router, const RestApiServices& services);    // ledger_routes.cpp
void add_guard_routes(Router& router, const RestApiServices& services);     // guard_routes.cpp (scan, audit)
void add_user_data_routes(Router& router, const RestApiServices& services); // user_data_routes.cpp (memory, todo)
void add_token_routes(Router& router, const RestApiServices& services);     // token_routes.cpp
void add_learning_routes(Router& router, const RestApiServices& services);  // learning_routes.cpp (turns, reviews)
void add_install_routes(Router& router, const RestApiServices& services);   // install_routes.cpp (scan, then confirm)

}  // namespace skillrt::api
