// Errors are values: every fallible operation returns Result<T>.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <tl/expected.hpp>

namespace skillrt {

// What went wrong, coarse enough for one mapping table per front end
// (CLI exit code, HTTP status, JSON-RPC code).
enum class ErrorCode : std::uint8_t {
  invalid_argument,  // the caller's input is malformed (bad name, hostile path)
  not_found,         // no such skill / file
  ambiguous,         // more than one skill answers to a name
  refused,           // exists but policy says no (disabled, platform, containment)
  parse_error,       // malformed YAML / JSON
  limit_exceeded,    // a named limit in limits.hpp was hit
  io_error,          // the filesystem said no
  internal,          // a bug
  busy,              // a shared resource (the database connections) is taken by others; try again
};

// A position inside a source file; 1-based, 0 = unknown.
struct SourcePos {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

struct Error {
  ErrorCode code = ErrorCode::internal;
  std::string message;
  SourcePos pos{};
};

template <typename T>
using Result = tl::expected<T, Error>;

// Builds the unexpected value: `return fail(ErrorCode::not_found, "...");`
inline tl::unexpected<Error> fail(ErrorCode code, std::string message, SourcePos pos = {}) {
  return tl::unexpected<Error>(Error{code, std::move(message), pos});
}

}  // namespace skillrt
