// One background review with the real adapters, as every front end runs it
// (`skillrt review` now, `skillrt serve`'s scheduler in the background): the
// OpenAI-compatible client for the configured model, the review session of
// the job's user and the review's toolbox.
#pragma once

#include <stop_token>

#include "core/config/config.hpp"
#include "core/review/review_engine.hpp"
#include "core/review/review_scheduler.hpp"

namespace skillrt::app {

// Runs `job` with `config`'s auxiliary.background_review model. A missing
// model configuration is a model_error report naming the keys to set.
core::ReviewReport run_review_job(const core::ReviewJob& job, const core::Config& config, std::stop_token stop);

}  // namespace skillrt::app
