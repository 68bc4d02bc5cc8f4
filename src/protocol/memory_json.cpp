#include "protocol/memory_json.hpp"

#include "protocol/error_json.hpp"

namespace skillrt::protocol {
namespace {

std::string usage_of(const core::MemoryStores& stores, core::MemoryTarget target) {
  return std::to_string(core::memory_used_chars(stores.entries(target))) + "/" +
         std::to_string(core::memory_char_limit(target));
}

Json entries_json(const core::MemoryStores& stores, core::MemoryTarget target) {
  Json entries = Json::array();
  for (const auto& entry : stores.entries(target)) {
    entries.push_back(entry);
  }
  return entries;
}

} // namespace

Json memory_result_json(const core::MemoryResult& result) {
  Json out = Json::object();
  out["success"] = true;
  out["target"] = core::memory_target_name(result.target);
  out["entries"] = entries_json(result.stores, result.target);
  out["usage"] = usage_of(result.stores, result.target);
  out["message"] = result.message;
  return out;
}

Json memory_overview_json(const core::MemoryStores& stores) {
  Json out = Json::object();
  out["success"] = true;
  Json targets = Json::object();
  for (const auto target : {core::MemoryTarget::memory, core::MemoryTarget::user}) {
    Json store = Json::object();
    store["entries"] = entries_json(stores, target);
    store["usage"] = usage_of(stores, target);
    targets[core::memory_target_name(target)] = std::move(store);
  }
  out["targets"] = std::move(targets);
  return out;
}

Result<core::MemoryRequest> memory_request_from_json(const Json& arguments) {
  if (!arguments.is_object()) {
    return fail(ErrorCode::invalid_argument, "the memory arguments must be a JSON object");
  }
  auto text_field = [&](const char* key, std::string& out, bool required) -> Result<void> {
    const auto it = arguments.find(key);
    if (it == arguments.end() || it->is_null()) {
      if (required) {
        return fail(ErrorCode::invalid_argument, std::string("\"") + key + "\" is required for this action");
      }
      return {};
    }
    if (!it->is_string()) {
      return fail(ErrorCode::invalid_argument, std::string("\"") + key + "\" must be a string");
    }
    out = it->get<std::string>();
    return {};
  };
  std::string action;
  std::string target = "memory";
  if (auto ok = text_field("action", action, true); !ok) {
    return tl::unexpected(ok.error());
  }
  if (auto ok = text_field("target", target, false); !ok) {
    return tl::unexpected(ok.error());
  }
  core::MemoryRequest request;
  const auto parsed_target = core::parse_memory_target(target);
  if (!parsed_target) {
    return fail(ErrorCode::invalid_argument, "unknown target '" + target + "' (expected memory or user)");
  }
  request.target = *parsed_target;
  if (action == "list") {
    request.action = core::MemoryAction::list;
  } else if (action == "add") {
    request.action = core::MemoryAction::add;
  } else if (action == "replace") {
    request.action = core::MemoryAction::replace;
  } else if (action == "remove") {
    request.action = core::MemoryAction::remove;
  } else {
    return fail(ErrorCode::invalid_argument, "unknown action '" + action + "' (expected add, replace, remove or list)");
  }
  const bool needs_content = request.action == core::MemoryAction::add || request.action == core::MemoryAction::replace;
  const bool needs_old = request.action == core::MemoryAction::replace || request.action == core::MemoryAction::remove;
  if (auto ok = text_field("content", request.content, needs_content); !ok) {
    return tl::unexpected(ok.error());
  }
  if (auto ok = text_field("old_text", request.old_text, needs_old); !ok) {
    return tl::unexpected(ok.error());
  }
  return request;
}

} // namespace skillrt::protocol
