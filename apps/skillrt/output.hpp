// How commands end: one table maps outcomes to exit codes, and --json prints
// exactly one JSON object on stdout whatever happened.
#pragma once

#include <string>

#include "protocol/yaml_json.hpp"

namespace skillrt::app {
using Json = protocol::Json;
}

namespace skillrt::app {

enum class Outcome { ok, failed, usage };

// The single exit-code table of the CLI: 0 success, 1 the operation failed, 2 usage error.
int exit_code(Outcome outcome);

// Outcome of a Hermes-shaped result: ok when "success" is true.
Outcome outcome_of(const protocol::Json& result);

// Prints `result` as one JSON document followed by a newline.
void print_json(const protocol::Json& result);

// Prints a failed result for people: "error: <error>" and its hint on stderr.
void print_error_text(const protocol::Json& result);

// Wraps a usage problem the way --json callers expect: {"success": false, "error": ..., "usage": true}.
protocol::Json usage_error_json(const std::string& message);

// Ends a command whose answer is a Hermes-shaped result: with --json the
// result itself, else `text` on success or the error on stderr.
Outcome finish_result(bool json, const protocol::Json& result, const std::string& text);

// Ends a command on a usage problem: with --json usage_error_json(message),
// else the message and "Run 'skillrt <command> --help' for usage." on stderr.
Outcome finish_usage(bool json, const std::string& message, const std::string& command);

}  // namespace skillrt::app
