#include "core/util/utc_time.hpp"

#include <array>
#include <cstdio>
#include <ctime>

namespace skillrt::core {

std::string iso8601_utc(std::chrono::system_clock::time_point at, TimePrecision precision) {
  using namespace std::chrono;
  const auto since = floor<milliseconds>(at.time_since_epoch());
  const std::time_t secs = static_cast<std::time_t>(floor<seconds>(since).count());
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  std::array<char, 40> buf{};
  std::size_t n = std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (precision == TimePrecision::milliseconds) {
    const auto ms = static_cast<int>((since - floor<seconds>(since)).count());
    n += static_cast<std::size_t>(std::snprintf(buf.data() + n, buf.size() - n, ".%03d", ms));
  }
  std::string out(buf.data(), n);
  out += 'Z';
  return out;
}

std::string utc_now_iso8601(TimePrecision precision) {
  return iso8601_utc(std::chrono::system_clock::now(), precision);
}

}  // namespace skillrt::core
