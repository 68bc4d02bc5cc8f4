// Which model the background review talks to, from
// auxiliary.background_review (core/config/learning_config.hpp): the endpoint,
// the model, and the API key from the config, else the environment variable
// it names, else the same variable in HOME/.env (as Hermes reads secrets).
#pragma once

#include <cstdint>
#include <string>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct ReviewModelSettings {
  std::string base_url;
  std::string model;
  std::string api_key;  // "" = none (a local server)
  std::uint32_t timeout_s = 120;
  std::uint64_t max_input_tokens = 600'000;
};

// Fails (invalid_argument) with the config keys to set when no endpoint or
// model is configured.
Result<ReviewModelSettings> review_model_settings(const Context& ctx, const Config& cfg);

}  // namespace skillrt::core
