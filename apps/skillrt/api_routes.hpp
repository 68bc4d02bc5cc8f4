// The /api/ routes of `skillrt serve` (net/api_handler.hpp): for now the
// learning loop's — POST /api/v1/turns (an agent reports a finished turn;
// the nudge counters decide whether a background review starts) and
// GET /api/v1/reviews (the caller's finished reviews).
#pragma once

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/review/review_scheduler.hpp"
#include "net/api_handler.hpp"

namespace skillrt::app {

// `base` is the server's context (home, OS, env); each request gets the
// caller's user and organisation on top of it. `scheduler` must outlive the
// handler.
net::ApiHandler make_api_handler(core::Context base, core::Config config, core::ReviewScheduler& scheduler);

}  // namespace skillrt::app
