// The REST API of `skillrt serve` under /api/v1 (issue 3/6), transport-free:
// skills (list with layer/category filters and paging, view, support files,
// create, edit, patch, delete, scan), search, the approval inbox, the
// ledger, audit, memory and todo (read), tokens (owner organisation only),
// the learning loop's turns and reviews, two-step installs, and the OpenAPI 3.1 document that
// describes all of it (openapi.json, served at /api/v1/openapi.json).
// Bodies are the JSON the CLI's --json and the MCP tools give; failures are
// {"success": false, "error": ...} with a fitting status.
#pragma once

#include <functional>
#include <memory>

#include "api/http_exchange.hpp"
#include "core/hub/fetcher.hpp"
#include "core/review/review_scheduler.hpp"
#include "core/store/token_store.hpp"
#include "mcp/server.hpp"

namespace skillrt::api {

struct RestApiServices {
  // The skills as /mcp serves them: snapshots, the database, the event bus,
  // the usage tally and the configuration. Required; must outlive the handler.
  mcp::Server* skills = nullptr;
  // The background reviews of reported turns. Required; must outlive the handler.
  core::ReviewScheduler* reviews = nullptr;
  // Opens the API token store (the tokens routes); unset: those routes are 404.
  std::function<Result<std::unique_ptr<core::TokenStore>>()> open_tokens;
  // A fetcher of install sources (folders, archives, git, https); unset:
  // the install routes are 404.
  std::function<std::unique_ptr<core::hub::Fetcher>()> make_fetcher;
};

ApiHandler make_rest_api(RestApiServices services);

// The OpenAPI 3.1 document (openapi.json, embedded at build time).
std::string_view openapi_document();

}  // namespace skillrt::api
