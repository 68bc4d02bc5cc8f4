// The self-improvement settings (issue 2/6, spec §2.17): the nudge intervals,
// who must approve agent writes, and the model the background review talks to.
//
//   skills.creation_nudge_interval: 10      # tool-calling iterations; 0 = off
//   memory.nudge_interval: 10               # user turns; 0 = off
//   skills.write_approval: review           # all | review | none | [skill names]
//   auxiliary.background_review:
//     enabled: true
//     base_url: http://127.0.0.1:8080/v1    # any OpenAI-compatible endpoint
//     model: some-model
//     api_key: ...                          # else $api_key_env from the environment or HOME/.env
//     api_key_env: OPENAI_API_KEY
//     max_input_tokens: 600000
//     timeout_s: 120
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/yaml/yaml_node.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// Which skill writes wait for a person (a proposal) instead of going live.
enum class WriteApprovalMode : unsigned char {
  all,     // every agent write (background review or a live agent's skill_manage)
  review,  // writes whose origin is the background review (the default)
  none,    // nothing is staged
  listed,  // agent writes to the named skills, and every background-review write
};

// "all" | "review" | "none" | "listed".
const char* write_approval_mode_name(WriteApprovalMode mode);

struct WriteApprovalPolicy {
  WriteApprovalMode mode = WriteApprovalMode::review;
  std::vector<std::string> skills;  // mode listed
};

// Who a skill write comes from, as the approval policy sees it.
enum class WriteOrigin : unsigned char {
  person,  // the CLI or a person's REST call: never staged
  agent,   // a live agent's skill_manage (MCP, proxy)
  review,  // the background review
  curator, // the curator's merge pass: always a proposal, whatever the policy
};

const char* write_origin_name(WriteOrigin origin);  // "user" | "agent" | "review" | "curator"
std::optional<WriteOrigin> write_origin_from_name(std::string_view name);

// True when a write of `origin` to skill `name` must become a proposal.
bool write_needs_approval(const WriteApprovalPolicy& policy, WriteOrigin origin, const std::string& name);

struct BackgroundReviewConfig {
  bool enabled = true;  // Hermes' default: on (fail-open); nothing runs without a model
  std::string base_url;
  std::string model;
  std::string api_key;
  std::string api_key_env = "OPENAI_API_KEY";
  std::uint64_t max_input_tokens = 600'000;
  std::uint32_t timeout_s = 120;
};

struct LearningConfig {
  int creation_nudge_interval = 10;
  int memory_nudge_interval = 10;
  WriteApprovalPolicy write_approval;
  BackgroundReviewConfig review;
};

// Reads the keys above from config.yaml's document. Bad values keep the
// default and are reported in `problems` (doctor shows them).
LearningConfig read_learning_config(const YamlNode& document, std::vector<Error>& problems);

}  // namespace skillrt::core
