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

namespace {

// Digits [at, at + count) of `text` as a number; nullopt when any is not a digit.
std::optional<int> digits_at(std::string_view text, std::size_t at, std::size_t count) {
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (i >= text.size() || text[i] < '0' || text[i] > '9') {
      return std::nullopt;
    }
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> parse_iso8601_utc(std::string_view text) {
  using namespace std::chrono;
  // 2026-12-01T07:12:03Z or 2026-12-01T07:12:03.042Z
  if ((text.size() != 20 && text.size() != 24) || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
      text[13] != ':' || text[16] != ':' || text.back() != 'Z') {
    return std::nullopt;
  }
  const auto y = digits_at(text, 0, 4);
  const auto mo = digits_at(text, 5, 2);
  const auto d = digits_at(text, 8, 2);
  const auto h = digits_at(text, 11, 2);
  const auto mi = digits_at(text, 14, 2);
  const auto s = digits_at(text, 17, 2);
  std::optional<int> ms = 0;
  if (text.size() == 24) {
    ms = text[19] == '.' ? digits_at(text, 20, 3) : std::nullopt;
  }
  if (!y || !mo || !d || !h || !mi || !s || !ms || *h > 23 || *mi > 59 || *s > 59) {
    return std::nullopt;
  }
  const year_month_day date{year{*y}, month{static_cast<unsigned>(*mo)}, day{static_cast<unsigned>(*d)}};
  if (!date.ok()) {
    return std::nullopt;
  }
  return sys_days{date} + hours{*h} + minutes{*mi} + seconds{*s} + milliseconds{*ms};
}

}  // namespace skillrt::core
