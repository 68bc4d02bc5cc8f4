#include "core/util/strict_json.hpp"

#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

// A SAX visitor that builds nothing: it only remembers, per open object, the
// member names seen so far, and how deep the document is.
class StrictnessCheck {
public:
  explicit StrictnessCheck(std::size_t max_depth) : m_max_depth(max_depth) {}

  bool null() { return true; }
  bool boolean(bool /*value*/) { return true; }
  bool number_integer(nlohmann::json::number_integer_t /*value*/) { return true; }
  bool number_unsigned(nlohmann::json::number_unsigned_t /*value*/) { return true; }
  bool number_float(nlohmann::json::number_float_t /*value*/, const std::string& /*literal*/) { return true; }
  bool string(std::string& /*value*/) { return true; }
  bool binary(nlohmann::json::binary_t& /*value*/) { return true; }

  bool start_object(std::size_t /*elements*/) {
    m_keys.emplace_back();
    return open();
  }
  bool key(std::string& name) {
    if (!m_keys.back().insert(name).second) {
      m_problem = "duplicate member \"" + name + "\"";
      return false;
    }
    return true;
  }
  bool end_object() {
    m_keys.pop_back();
    --m_depth;
    return true;
  }
  bool start_array(std::size_t /*elements*/) { return open(); }
  bool end_array() {
    --m_depth;
    return true;
  }

  bool parse_error(std::size_t position, const std::string& /*last_token*/, const nlohmann::json::exception& error) {
    // nlohmann's own message ("[json.exception.parse_error.101] parse error
    // at line 1, column 5: syntax error ...") without its bracketed id.
    std::string what = error.what();
    if (const auto close = what.find("] "); what.starts_with("[json.exception.") && close != std::string::npos) {
      what.erase(0, close + 2);
    }
    m_problem = what + " at byte " + std::to_string(position);
    return false;
  }

  const std::string& problem() const { return m_problem; }

private:
  bool open() {
    if (++m_depth > m_max_depth) {
      m_problem = "nesting deeper than " + std::to_string(m_max_depth);
      return false;
    }
    return true;
  }

  std::size_t m_max_depth;
  std::size_t m_depth = 0;
  std::vector<std::set<std::string>> m_keys; // one per open object
  std::string m_problem;
};

} // namespace

Result<void> check_strict_json(std::string_view text, std::size_t max_depth) {
  // nlohmann refuses ill-formed UTF-8 too, but this says where, plainly.
  if (auto bad = find_invalid_utf8(text)) {
    return fail(ErrorCode::parse_error, "not valid UTF-8 at byte " + std::to_string(*bad));
  }
  StrictnessCheck check(max_depth);
  if (!nlohmann::json::sax_parse(text, &check)) {
    return fail(ErrorCode::parse_error, check.problem().empty() ? "malformed JSON" : check.problem());
  }
  return {};
}

std::string json_quoted(std::string_view text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace skillrt::core
