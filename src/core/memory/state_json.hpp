// DEPRECATED, kept only for src/core/hub/pending_commit.cpp and
// src/core/sync/bundled_sync.cpp until their rewrite onto core/files lands
// (issue 14); new code reads JSON with nlohmann::json inside its .cpp after
// core/util/strict_json's check, and quotes strings with json_quoted.
// No hand-written parser is left behind this header: parse_state_json is
// check_strict_json + nlohmann, copied into the small tree below.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

struct StateJsonMember;

struct StateJson {
  enum class Kind : unsigned char { null, boolean, number, string, array, object };

  Kind kind = Kind::null;
  bool boolean = false;
  std::string text;                                       // a string's value, or a number as nlohmann writes it
  std::vector<StateJson> items;                           // array elements
  std::vector<StateJsonMember> members;                    // object members, in file order

  // The member named `key` of an object; nullptr when absent (or not an object).
  const StateJson* find(std::string_view key) const;
};

// A named member of an object. A struct of its own, not a std::pair: a pair
// may not hold a type that is still incomplete, and StateJson holds these.
struct StateJsonMember {
  std::string key;
  StateJson value;
};

// Parses one JSON document under check_strict_json's rules with
// limits::k_max_state_json_depth. Errors: parse_error.
Result<StateJson> parse_state_json(std::string_view text);

// json_quoted(text) under its old name.
std::string quote_json_string(std::string_view text);

} // namespace skillrt::core
