// The small, strict JSON reader and string quoting behind the per-user state
// files (memory.json, todo.json). The core links no JSON library (nlohmann
// lives in protocol/ and apps/), and these files need only a strict parser
// plus a writer for strings, so this stays small.
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
  std::string text;                                       // a string's value, or a number's literal
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

// Parses one JSON document: valid UTF-8 only, no duplicate keys, nesting at
// most limits::k_max_state_json_depth, nothing but whitespace after it.
// Errors: parse_error with the byte offset in the message.
Result<StateJson> parse_state_json(std::string_view text);

// `text` (valid UTF-8) as a JSON string literal with its quotes.
std::string quote_json_string(std::string_view text);

} // namespace skillrt::core
