#include "review_runner.hpp"

#include "core/review/review_model.hpp"
#include "core/review/review_session.hpp"
#include "core/review/review_snapshot.hpp"
#include "llm/openai_chat_client.hpp"
#include "protocol/review_toolbox.hpp"

namespace skillrt::app {

core::ReviewReport run_review_job(const core::ReviewJob& job, const core::Config& config, std::stop_token stop) {
  auto settings = core::review_model_settings(job.ctx, config);
  if (!settings) {
    core::ReviewReport report;
    report.ending = core::ReviewEnding::model_error;
    report.error = settings.error().message;
    return report;
  }
  llm::OpenAiChatOptions options;
  options.base_url = settings->base_url;
  options.api_key = settings->api_key;
  options.request_timeout_ms = settings->timeout_s * 1000;
  llm::OpenAiChatClient model(options);

  core::ReviewSession session(job.ctx, config, core::skills_viewed_in(job.messages), job.conversation_id,
                              job.origin);
  const bool memory = job.prompt.memory && job.ctx.user_id.has_value();
  protocol::ReviewTools tools(session, memory);
  core::ReviewInput input;
  input.conversation = job.messages;
  input.conversation_model = job.conversation_model;
  input.prompt = job.prompt;
  input.prompt.memory = memory;
  core::ReviewOptions review_options;
  review_options.model = settings->model;
  review_options.max_input_tokens = settings->max_input_tokens;
  return core::run_review(model, tools, input, review_options, stop);
}

}  // namespace skillrt::app
