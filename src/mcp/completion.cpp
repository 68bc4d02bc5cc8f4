// completion/complete: suggestions for the resource templates' arguments
// (skill paths, and a skill's files once its path is known). A prompt's
// free-text instruction, or a reference we do not know, gets no suggestions.
#include <string>
#include <vector>

#include "mcp/resource_files.hpp"
#include "mcp/server_state.hpp"
#include "protocol/json_text.hpp"

namespace skillrt::mcp {
namespace {

// The protocol caps one completion answer at 100 values.
constexpr std::size_t k_max_values = 100;

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

Json completion_result(const std::vector<std::string>& matches) {
  Json values = Json::array();
  for (std::size_t i = 0; i < matches.size() && i < k_max_values; ++i) {
    values.push_back(protocol::json_text(matches[i]));
  }
  Json completion = Json::object();
  completion["values"] = std::move(values);
  completion["total"] = matches.size();
  completion["hasMore"] = matches.size() > k_max_values;
  Json result = Json::object();
  result["completion"] = std::move(completion);
  return result;
}

std::vector<std::string> complete_resource(Session::Impl& session, std::string_view argument, const std::string& value,
                                           const Json& params) {
  std::vector<std::string> matches;
  const auto snapshot = session.server->snapshot(session.ctx);
  if (argument == "skill_path") {
    for (const std::string& path : snapshot->skill_paths) {
      if (starts_with(path, value)) {
        matches.push_back(path);
      }
    }
    return matches;
  }
  if (argument != "file_path") {
    return matches;
  }
  // The files of the skill the client already chose, when it says which.
  const auto context = params.find("context");
  if (context == params.end() || !context->is_object()) {
    return matches;
  }
  const auto arguments = context->find("arguments");
  if (arguments == context->end() || !arguments->is_object()) {
    return matches;
  }
  const auto skill_path = arguments->find("skill_path");
  if (skill_path == arguments->end() || !skill_path->is_string()) {
    return matches;
  }
  const auto found = snapshot->by_path.find(skill_path->get<std::string>());
  if (found == snapshot->by_path.end()) {
    return matches;
  }
  const core::SkillRecord& record = snapshot->catalog.records[snapshot->skills[found->second]];
  for (const std::string& file : skill_files(record.dir.path())) {
    if (starts_with(file, value)) {
      matches.push_back(file);
    }
  }
  return matches;
}

}  // namespace

MethodResult complete(Session::Impl& session, const Json& params) {
  const auto ref = params.find("ref");
  if (ref == params.end() || !ref->is_object()) {
    return tl::unexpected(invalid_params("Invalid params: \"ref\" must be an object"));
  }
  auto type = string_param(*ref, "type", true);
  if (!type) {
    return tl::unexpected(invalid_params("Invalid params: \"ref.type\" must be a string"));
  }
  const auto argument = params.find("argument");
  if (argument == params.end() || !argument->is_object()) {
    return tl::unexpected(invalid_params("Invalid params: \"argument\" must be an object"));
  }
  auto name = string_param(*argument, "name", true);
  if (!name) {
    return tl::unexpected(invalid_params("Invalid params: \"argument.name\" must be a string"));
  }
  auto value = string_param(*argument, "value", true);
  if (!value) {
    return tl::unexpected(invalid_params("Invalid params: \"argument.value\" must be a string"));
  }
  if (**type == "ref/resource") {
    return completion_result(complete_resource(session, **name, **value, params));
  }
  if (**type != "ref/prompt") {
    return tl::unexpected(invalid_params("Invalid params: \"ref.type\" must be \"ref/prompt\" or \"ref/resource\""));
  }
  // Prompts take one free-text argument: nothing to suggest.
  return completion_result({});
}

}  // namespace skillrt::mcp
