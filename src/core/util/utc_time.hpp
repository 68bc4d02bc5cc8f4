// ISO-8601 UTC timestamps, the one formatter for every record the runtime
// writes (database rows, tokens, guard reports, lock.json, audit.log).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace skillrt::core {

enum class TimePrecision : unsigned char { seconds, milliseconds };

// "2026-12-01T07:12:03Z", or "2026-12-01T07:12:03.042Z" with milliseconds.
std::string iso8601_utc(std::chrono::system_clock::time_point at, TimePrecision precision = TimePrecision::seconds);

// iso8601_utc of the current time.
std::string utc_now_iso8601(TimePrecision precision = TimePrecision::seconds);

// The inverse of iso8601_utc: "YYYY-MM-DDTHH:MM:SS[.fff]Z" exactly, with a
// real calendar date; nullopt for anything else (records read back from disk
// are never guessed at).
std::optional<std::chrono::system_clock::time_point> parse_iso8601_utc(std::string_view text);

}  // namespace skillrt::core
