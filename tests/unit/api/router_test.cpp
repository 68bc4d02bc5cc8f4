#include "api/router.hpp"

#include <gtest/gtest.h>

namespace skillrt::api {
namespace {

ApiRequest request(std::string method, std::string target) {
  ApiRequest out;
  out.method = std::move(method);
  out.target = std::move(target);
  return out;
}

Router sample_router() {
  Router router;
  router.add("GET", "/api/v1/skills", [](ApiCall& call) {
    return ApiResponse{200, "list " + call.query.get("limit").value_or("-"), "text/plain", {}};
  });
  router.add("POST", "/api/v1/skills", [](ApiCall&) { return ApiResponse{201, "create", "text/plain", {}}; });
  router.add("GET", "/api/v1/skills/{name}", [](ApiCall& call) {
    return ApiResponse{200, "view " + call.param("name"), "text/plain", {}};
  });
  router.add("GET", "/api/v1/skills/{name}/file", [](ApiCall& call) {
    return ApiResponse{200, "file " + call.param("name") + " " + call.query.get("path").value_or(""), "text/plain", {}};
  });
  return router;
}

TEST(Router, MatchesMethodAndPatternAndDecodesParameters) {
  const Router router = sample_router();
  EXPECT_EQ(router.dispatch(request("GET", "/api/v1/skills?limit=3"), {}).body, "list 3");
  EXPECT_EQ(router.dispatch(request("POST", "/api/v1/skills"), {}).status, 201u);
  EXPECT_EQ(router.dispatch(request("GET", "/api/v1/skills/ops%2Fdeploy"), {}).body, "view ops/deploy");
  EXPECT_EQ(router.dispatch(request("GET", "/api/v1/skills/a/file?path=references/x.md"), {}).body,
            "file a references/x.md");
}

TEST(Router, UnknownPathsAre404AndOtherMethods405WithAllow) {
  const Router router = sample_router();
  const ApiResponse missing = router.dispatch(request("GET", "/api/v1/nothing"), {});
  EXPECT_EQ(missing.status, 404u);
  EXPECT_NE(missing.body.find("\"success\":false"), std::string::npos);
  const ApiResponse wrong = router.dispatch(request("DELETE", "/api/v1/skills"), {});
  EXPECT_EQ(wrong.status, 405u);
  ASSERT_EQ(wrong.headers.size(), 1u);
  EXPECT_EQ(wrong.headers[0].first, "Allow");
  EXPECT_EQ(wrong.headers[0].second, "GET, POST");
}

TEST(Router, MalformedTargetsAre400BeforeAnyHandlerRuns) {
  const Router router = sample_router();
  for (const char* target : {"/api/v1/skills?limit=1&limit=2", "/api/v1/skills/%zz", "/api//v1/skills",
                             "/api/v1/skills/a%00b", "/api/v1/skills?q=%"}) {
    EXPECT_EQ(router.dispatch(request("GET", target), {}).status, 400u) << target;
  }
}

}  // namespace
}  // namespace skillrt::api
