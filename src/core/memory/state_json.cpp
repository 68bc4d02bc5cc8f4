#include "core/memory/state_json.hpp"

#include <nlohmann/json.hpp>

#include "core/limits.hpp"
#include "core/util/strict_json.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

StateJson copy_tree(const nlohmann::ordered_json& value) {
  StateJson out;
  switch (value.type()) {
  case nlohmann::ordered_json::value_t::boolean:
    out.kind = StateJson::Kind::boolean;
    out.boolean = value.get<bool>();
    break;
  case nlohmann::ordered_json::value_t::number_integer:
  case nlohmann::ordered_json::value_t::number_unsigned:
  case nlohmann::ordered_json::value_t::number_float:
    out.kind = StateJson::Kind::number;
    out.text = value.dump();
    break;
  case nlohmann::ordered_json::value_t::string:
    out.kind = StateJson::Kind::string;
    out.text = value.get<std::string>();
    break;
  case nlohmann::ordered_json::value_t::array:
    out.kind = StateJson::Kind::array;
    for (const auto& item : value) {
      out.items.push_back(copy_tree(item));
    }
    break;
  case nlohmann::ordered_json::value_t::object:
    out.kind = StateJson::Kind::object;
    for (const auto& [key, member] : value.items()) {
      out.members.push_back(StateJsonMember{key, copy_tree(member)});
    }
    break;
  default:
    break;
  }
  return out;
}

} // namespace

const StateJson* StateJson::find(std::string_view key) const {
  for (const auto& [name, value] : members) {
    if (name == key) {
      return &value;
    }
  }
  return nullptr;
}

Result<StateJson> parse_state_json(std::string_view text) {
  SKILLRT_TRY(check_strict_json(text, limits::k_max_state_json_depth));
  return copy_tree(nlohmann::ordered_json::parse(text, nullptr, false));
}

std::string quote_json_string(std::string_view text) {
  return json_quoted(text);
}

} // namespace skillrt::core
