#include "core/config/learning_config.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "core/util/text.hpp"

namespace skillrt::core {

namespace {

const YamlNode* path_get(const YamlNode& document, std::initializer_list<std::string_view> keys) {
  const YamlNode* node = &document;
  for (std::string_view key : keys) {
    node = node->get(key);
    if (node == nullptr) {
      return nullptr;
    }
  }
  return node;
}

std::string scalar_text(const YamlNode* node) {
  if (node == nullptr || node->is_null() || !node->is_scalar()) {
    return {};
  }
  return std::string(trim_ascii_space(node->text()));
}

// A non-negative integer; anything else keeps `fallback` and says why.
template <typename Int>
Int integer_value(const YamlNode* node, Int fallback, const char* key, std::vector<Error>& problems) {
  if (node == nullptr || node->is_null()) {
    return fallback;
  }
  const std::string text = scalar_text(node);
  unsigned long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (!node->is_scalar() || text.empty() || ec != std::errc() || end != text.data() + text.size() ||
      value > static_cast<unsigned long long>(std::numeric_limits<Int>::max())) {
    problems.push_back(Error{ErrorCode::parse_error,
                             std::string("config.yaml: `") + key + "` must be a non-negative integer; using " +
                                 std::to_string(fallback),
                             node->pos()});
    return fallback;
  }
  return static_cast<Int>(value);
}

WriteApprovalPolicy approval_value(const YamlNode* node, std::vector<Error>& problems) {
  WriteApprovalPolicy policy;
  if (node == nullptr || node->is_null()) {
    return policy;
  }
  if (node->is_sequence()) {
    policy.mode = WriteApprovalMode::listed;
    for (const YamlNode& item : node->items()) {
      std::string name = scalar_text(&item);
      if (!name.empty()) {
        policy.skills.push_back(std::move(name));
      }
    }
    return policy;
  }
  if (node->is_scalar() && node->scalar_type() == YamlNode::ScalarType::boolean) {
    // Hermes' boolean form: on stages every write, off stages none.
    policy.mode = node->as_bool().value_or(false) ? WriteApprovalMode::all : WriteApprovalMode::none;
    return policy;
  }
  const std::string text = scalar_text(node);
  if (text == "all") {
    policy.mode = WriteApprovalMode::all;
  } else if (text == "review") {
    policy.mode = WriteApprovalMode::review;
  } else if (text == "none") {
    policy.mode = WriteApprovalMode::none;
  } else {
    problems.push_back(Error{ErrorCode::parse_error,
                             "config.yaml: `skills.write_approval` must be all, review, none or a list of skill "
                             "names; using review",
                             node->pos()});
  }
  return policy;
}

}  // namespace

const char* write_approval_mode_name(WriteApprovalMode mode) {
  switch (mode) {
    case WriteApprovalMode::all:
      return "all";
    case WriteApprovalMode::review:
      return "review";
    case WriteApprovalMode::none:
      return "none";
    case WriteApprovalMode::listed:
      return "listed";
  }
  return "review";
}

const char* write_origin_name(WriteOrigin origin) {
  switch (origin) {
    case WriteOrigin::person:
      return "user";
    case WriteOrigin::agent:
      return "agent";
    case WriteOrigin::review:
      return "review";
    case WriteOrigin::curator:
      return "curator";
  }
  return "review";
}

std::optional<WriteOrigin> write_origin_from_name(std::string_view name) {
  for (WriteOrigin origin : {WriteOrigin::person, WriteOrigin::agent, WriteOrigin::review, WriteOrigin::curator}) {
    if (name == write_origin_name(origin)) {
      return origin;
    }
  }
  return std::nullopt;
}

bool write_needs_approval(const WriteApprovalPolicy& policy, WriteOrigin origin, const std::string& name) {
  if (origin == WriteOrigin::person) {
    return false;
  }
  if (origin == WriteOrigin::curator) {
    return true;  // a merge rewrites several skills at once: a person always decides
  }
  switch (policy.mode) {
    case WriteApprovalMode::all:
      return true;
    case WriteApprovalMode::review:
      return origin == WriteOrigin::review;
    case WriteApprovalMode::none:
      return false;
    case WriteApprovalMode::listed:
      return origin == WriteOrigin::review ||
             std::find(policy.skills.begin(), policy.skills.end(), name) != policy.skills.end();
  }
  return true;
}

LearningConfig read_learning_config(const YamlNode& document, std::vector<Error>& problems) {
  LearningConfig cfg;
  cfg.creation_nudge_interval = integer_value(path_get(document, {"skills", "creation_nudge_interval"}),
                                              cfg.creation_nudge_interval, "skills.creation_nudge_interval", problems);
  cfg.memory_nudge_interval = integer_value(path_get(document, {"memory", "nudge_interval"}), cfg.memory_nudge_interval,
                                            "memory.nudge_interval", problems);
  cfg.write_approval = approval_value(path_get(document, {"skills", "write_approval"}), problems);

  const YamlNode* review = path_get(document, {"auxiliary", "background_review"});
  if (review == nullptr || !review->is_mapping()) {
    return cfg;
  }
  BackgroundReviewConfig& out = cfg.review;
  if (const YamlNode* enabled = review->get("enabled"); enabled != nullptr && !enabled->is_null()) {
    // Fail-open as Hermes: only an explicit false turns it off.
    out.enabled = enabled->as_bool() != std::optional<bool>(false);
  }
  out.base_url = scalar_text(review->get("base_url"));
  while (!out.base_url.empty() && out.base_url.back() == '/') {
    out.base_url.pop_back();
  }
  out.model = scalar_text(review->get("model"));
  out.api_key = scalar_text(review->get("api_key"));
  if (std::string env = scalar_text(review->get("api_key_env")); !env.empty()) {
    out.api_key_env = std::move(env);
  }
  out.max_input_tokens = integer_value(review->get("max_input_tokens"), out.max_input_tokens,
                                       "auxiliary.background_review.max_input_tokens", problems);
  out.timeout_s = integer_value(review->get("timeout_s"), out.timeout_s, "auxiliary.background_review.timeout_s",
                                problems);
  if (out.timeout_s == 0) {
    out.timeout_s = 1;
  }
  return cfg;
}

}  // namespace skillrt::core
