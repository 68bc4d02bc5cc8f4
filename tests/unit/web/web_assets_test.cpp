#include "web/web_assets.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>


namespace skillrt::web {
namespace {

TEST(WebAssets, RequestPathsNameOnlyPlainFiles) {
  EXPECT_EQ(web_asset_name("/").value(), "index.html");
  EXPECT_EQ(web_asset_name("/ui/app.js").value(), "app.js");
  EXPECT_FALSE(web_asset_name("/ui/"));
  EXPECT_FALSE(web_asset_name("/ui/../skillrt.db"));
  EXPECT_FALSE(web_asset_name("/ui/.hidden"));
  EXPECT_FALSE(web_asset_name("/ui/a/b.js"));
  EXPECT_FALSE(web_asset_name("/ui/%2e%2e"));
  EXPECT_FALSE(web_asset_name("/mcp"));
}

TEST(WebAssets, TheBuiltInUiIsComplete) {
  for (const char* name : {"index.html", "app.js", "app.css"}) {
    const auto asset = load_web_asset(name, std::nullopt);
    ASSERT_TRUE(asset) << name;
    EXPECT_FALSE(asset->body.empty()) << name;
    EXPECT_EQ(asset->etag.size(), 34u) << name;
  }
  EXPECT_EQ(load_web_asset("index.html", std::nullopt)->content_type, "text/html; charset=utf-8");
  EXPECT_EQ(load_web_asset("app.js", std::nullopt)->content_type, "text/javascript; charset=utf-8");
  EXPECT_FALSE(load_web_asset("missing.js", std::nullopt));
}

TEST(WebAssets, ThePageHasNoInlineScriptOrStyle) {
  // The CSP forbids them; the page must not depend on them.
  const std::string page = load_web_asset("index.html", std::nullopt)->body;
  for (const char* forbidden : {"<script>", "style=", "onclick=", "onload=", "javascript:", "<style"}) {
    EXPECT_EQ(page.find(forbidden), std::string::npos) << forbidden;
  }
}

TEST(WebAssets, AWebRootIsReadWithoutFollowingSymlinks) {
  const auto root = std::filesystem::temp_directory_path() / ("skillrt-web-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root);
  std::ofstream(root / "app.js") << "console.log(1);\n";
  std::filesystem::create_symlink("/etc/hostname", root / "leak.txt");
  const auto asset = load_web_asset("app.js", root);
  ASSERT_TRUE(asset);
  EXPECT_EQ(asset->body, "console.log(1);\n");
  EXPECT_FALSE(load_web_asset("leak.txt", root));
  EXPECT_FALSE(load_web_asset("index.html", root));
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace skillrt::web
