// The REST routes: a method and a path pattern ("/api/v1/skills/{name}")
// per handler. A path that matches no pattern is 404; one that matches with
// another method is 405 with the methods it has in Allow.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "api/api_call.hpp"

namespace skillrt::api {

class Router {
 public:
  using Handler = std::function<ApiResponse(ApiCall& call)>;

  // `pattern` segments are literal or "{name}", which matches one non-empty
  // decoded segment; patterns are tried in the order they were added.
  void add(std::string method, std::string_view pattern, Handler handler);

  ApiResponse dispatch(const ApiRequest& request, core::Context ctx) const;

 private:
  struct Route {
    std::string method;
    std::vector<std::string> segments;  // "{name}" for a parameter
    Handler handler;
  };
  std::vector<Route> m_routes;
};

}  // namespace skillrt::api
