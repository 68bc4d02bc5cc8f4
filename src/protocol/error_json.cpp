#include "protocol/error_json.hpp"

namespace skillrt::protocol {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_argument:
      return "invalid_argument";
    case ErrorCode::not_found:
      return "not_found";
    case ErrorCode::ambiguous:
      return "ambiguous";
    case ErrorCode::refused:
      return "refused";
    case ErrorCode::parse_error:
      return "parse_error";
    case ErrorCode::limit_exceeded:
      return "limit_exceeded";
    case ErrorCode::io_error:
      return "io_error";
    case ErrorCode::busy:
      return "busy";
    case ErrorCode::internal:
      return "internal";
  }
  return "internal";
}

Json error_result_json(const Error& error) {
  Json out = Json::object();
  out["success"] = false;
  out["error"] = error.message;
  out["code"] = error_code_name(error.code);
  return out;
}

}  // namespace skillrt::protocol
