// Text into JSON: JSON strings must be valid UTF-8, while names, paths and
// file contents need not be. One place for the sanitising and for the fast
// string writer the streamed outputs (list, commands) share.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace skillrt::protocol {

// `raw` as valid UTF-8 (ill-formed bytes replaced, as print_json would).
std::string json_text(std::string_view raw);

// Each item through json_text, as a JSON array.
nlohmann::ordered_json json_text_list(const std::vector<std::string>& items);

// Appends the characters of `value` (valid UTF-8) escaped exactly as
// nlohmann's dump() escapes them (ensure_ascii off), without quotes.
void append_json_chars(std::string& out, std::string_view value);

// Appends `value` as a quoted JSON string; ill-formed UTF-8 is replaced first.
void append_json_string(std::string& out, std::string_view value);

// A score for ordering, kept to `significant` digits so the JSON stays
// readable (0 for NaN and infinities).
double rounded_score(double score, int significant);

// `raw` (through json_text) on one line for a text listing: control
// characters (a multi-line description) become spaces.
std::string one_line_text(std::string_view raw);

}  // namespace skillrt::protocol
