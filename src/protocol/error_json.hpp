// The one failure shape of the commands that answer `{success:false, error,
// code}` (db, memory, todo): `code` names the ErrorCode so a client can branch
// on the kind of failure without parsing the message.
#pragma once

#include "protocol/yaml_json.hpp"
#include "skillrt/result.hpp"

namespace skillrt::protocol {

// "invalid_argument" | "not_found" | "ambiguous" | "refused" | "parse_error" |
// "limit_exceeded" | "io_error" | "internal"
const char* error_code_name(ErrorCode code);

// {success: false, error: <message>, code: <error_code_name>}
Json error_result_json(const Error& error);

}  // namespace skillrt::protocol
