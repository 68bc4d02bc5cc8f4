#include "api/router.hpp"

#include <algorithm>
#include <optional>

namespace skillrt::api {
namespace {

bool is_parameter(const std::string& segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

std::optional<std::map<std::string, std::string>> match(const std::vector<std::string>& pattern,
                                                        const std::vector<std::string>& path) {
  if (pattern.size() != path.size()) {
    return std::nullopt;
  }
  std::map<std::string, std::string> params;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (is_parameter(pattern[i])) {
      params[pattern[i].substr(1, pattern[i].size() - 2)] = path[i];
    } else if (pattern[i] != path[i]) {
      return std::nullopt;
    }
  }
  return params;
}

}  // namespace

void Router::add(std::string method, std::string_view pattern, Handler handler) {
  Route route{std::move(method), {}, std::move(handler)};
  std::size_t start = 1;
  while (start <= pattern.size()) {
    const std::size_t end = std::min(pattern.find('/', start), pattern.size());
    route.segments.emplace_back(pattern.substr(start, end - start));
    start = end + 1;
  }
  m_routes.push_back(std::move(route));
}

ApiResponse Router::dispatch(const ApiRequest& request, core::Context ctx) const {
  const std::string_view target = request.target;
  const std::size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  auto segments = path_segments(path);
  if (!segments) {
    return error_answer(400, "Bad Request: " + segments.error().message);
  }
  auto query = Query::parse(question == std::string_view::npos ? std::string_view{} : target.substr(question + 1));
  if (!query) {
    return error_answer(400, "Bad Request: " + query.error().message);
  }
  std::string allowed;
  for (const Route& route : m_routes) {
    auto params = match(route.segments, *segments);
    if (!params) {
      continue;
    }
    if (route.method != request.method) {
      if (allowed.find(route.method) == std::string::npos) {
        allowed += (allowed.empty() ? "" : ", ") + route.method;
      }
      continue;
    }
    ApiCall call{request, std::move(ctx), std::move(*params), std::move(*query)};
    return route.handler(call);
  }
  if (!allowed.empty()) {
    ApiResponse refused = error_answer(405, "Method Not Allowed: " + std::string(path) + " takes " + allowed);
    refused.headers.emplace_back("Allow", allowed);
    return refused;
  }
  return error_answer(404, "Not Found: no API route " + std::string(path));
}

}  // namespace skillrt::api
