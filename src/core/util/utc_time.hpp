// ISO-8601 UTC timestamps, the one formatter for every record the runtime
// writes (database rows, tokens, guard reports, lock.json, audit.log).
#pragma once

#include <chrono>
#include <string>

namespace skillrt::core {

enum class TimePrecision : unsigned char { seconds, milliseconds };

// "2026-12-01T07:12:03Z", or "2026-12-01T07:12:03.042Z" with milliseconds.
std::string iso8601_utc(std::chrono::system_clock::time_point at, TimePrecision precision = TimePrecision::seconds);

// iso8601_utc of the current time.
std::string utc_now_iso8601(TimePrecision precision = TimePrecision::seconds);

}  // namespace skillrt::core
