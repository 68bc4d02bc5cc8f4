#include "output.hpp"

#include <cstdio>
#include <iostream>

namespace skillrt::app {

int exit_code(Outcome outcome) {
  switch (outcome) {
    case Outcome::ok:
      return 0;
    case Outcome::failed:
      return 1;
    case Outcome::usage:
      return 2;
  }
  return 1;
}

Outcome outcome_of(const protocol::Json& result) {
  const auto it = result.find("success");
  return (it != result.end() && it->is_boolean() && it->get<bool>()) ? Outcome::ok : Outcome::failed;
}

void print_json(const protocol::Json& result) {
  // Invalid UTF-8 from the filesystem must not abort output: replace it.
  std::cout << result.dump(2, ' ', false, protocol::Json::error_handler_t::replace) << '\n';
  std::cout.flush();
}

void print_error_text(const protocol::Json& result) {
  const auto text = [&](const char* key) -> std::string {
    const auto it = result.find(key);
    return (it != result.end() && it->is_string()) ? it->get<std::string>() : std::string();
  };
  std::cerr << "error: " << text("error") << '\n';
  if (const auto it = result.find("matches"); it != result.end() && it->is_array()) {
    for (const auto& match : *it) {
      std::cerr << "  match: " << match.dump(-1, ' ', false, protocol::Json::error_handler_t::replace) << '\n';
    }
  }
  for (const char* key : {"available_skills", "available_files"}) {
    const auto it = result.find(key);
    if (it == result.end() || it->is_null()) {
      continue;
    }
    std::cerr << "  " << key << ": " << it->dump(-1, ' ', false, protocol::Json::error_handler_t::replace) << '\n';
  }
  if (const std::string hint = text("hint"); !hint.empty()) {
    std::cerr << "hint: " << hint << '\n';
  }
}

protocol::Json usage_error_json(const std::string& message) {
  protocol::Json out = protocol::Json::object();
  out["success"] = false;
  out["error"] = message;
  out["usage"] = true;
  return out;
}

Outcome finish_result(bool json, const protocol::Json& result, const std::string& text) {
  if (json) {
    print_json(result);
  } else if (outcome_of(result) == Outcome::ok) {
    std::cout << text;
  } else {
    print_error_text(result);
  }
  return outcome_of(result);
}

Outcome finish_usage(bool json, const std::string& message, const std::string& command) {
  if (json) {
    print_json(usage_error_json(message));
  } else {
    std::cerr << "skillrt: " << message << "\nRun 'skillrt " << command << " --help' for usage.\n";
  }
  return Outcome::usage;
}

}  // namespace skillrt::app
