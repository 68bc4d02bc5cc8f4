#include "core/review/review_model.hpp"

#include "core/view/dotenv.hpp"

namespace skillrt::core {

Result<ReviewModelSettings> review_model_settings(const Context& ctx, const Config& cfg) {
  const BackgroundReviewConfig& review = cfg.learning.review;
  if (review.base_url.empty() || review.model.empty()) {
    return fail(ErrorCode::invalid_argument,
                "no model is configured for the background review: set auxiliary.background_review.base_url (an "
                "OpenAI-compatible endpoint such as http://127.0.0.1:8080/v1) and "
                "auxiliary.background_review.model in " +
                    cfg.path.string());
  }
  ReviewModelSettings out;
  out.base_url = review.base_url;
  out.model = review.model;
  out.timeout_s = review.timeout_s;
  out.max_input_tokens = review.max_input_tokens;
  out.api_key = review.api_key;
  if (out.api_key.empty() && !review.api_key_env.empty()) {
    if (auto from_env = ctx.env(review.api_key_env); from_env && !from_env->empty()) {
      out.api_key = *from_env;
    } else {
      const auto dotenv = load_dotenv(ctx.home / ".env");
      if (auto found = dotenv.find(review.api_key_env); found != dotenv.end()) {
        out.api_key = found->second;
      }
    }
  }
  return out;
}

}  // namespace skillrt::core
