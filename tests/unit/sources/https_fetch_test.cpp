// Downloads with libcurl from a real local HTTP server the test starts
// (tests/support/http_fixture_server): bodies, statuses, redirects, size caps,
// timeouts and the loopback-only rule for plain http.
#include "sources/https_fetch.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/http_fixture_server.hpp"

namespace skillrt::sources {
namespace {

using ::skillrt::test::HttpFixtureServer;
using ::skillrt::test::HttpResponse;

HttpResponse body(std::string text) {
  HttpResponse response;
  response.body = std::move(text);
  return response;
}

class RecordingProgress final : public core::hub::Progress {
public:
  void update(std::string_view phase, std::uint64_t done, std::uint64_t) override {
    phases.emplace_back(phase);
    last = done;
  }
  void finish() override {}
  std::vector<std::string> phases;
  std::uint64_t last = 0;
};

TEST(HttpsFetch, DownloadsTheBodyAndReportsProgress) {
  HttpFixtureServer server(HttpFixtureServer::routes({{"/b.tar.gz", body("archive bytes")}}));
  RecordingProgress progress;
  auto got = download(server.url("/b.tar.gz"), &progress, {});
  ASSERT_TRUE(got.has_value()) << got.error().message;
  EXPECT_EQ(got->bytes, "archive bytes");
  EXPECT_EQ(got->final_url, server.url("/b.tar.gz"));
  ASSERT_FALSE(progress.phases.empty());
  EXPECT_EQ(progress.phases.back(), "fetch");
  EXPECT_EQ(progress.last, 13u);
}

TEST(HttpsFetch, HttpErrorStatusIsNamed) {
  HttpFixtureServer server(HttpFixtureServer::routes({}));
  const auto missing = download(server.url("/missing.zip"), nullptr, {});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message, "HTTP 404 from " + server.url("/missing.zip"));
  HttpResponse broken = body("oops");
  broken.status = 500;
  HttpFixtureServer failing(HttpFixtureServer::routes({{"/x", broken}}));
  EXPECT_EQ(download(failing.url("/x"), nullptr, {}).error().message, "HTTP 500 from " + failing.url("/x"));
}

TEST(HttpsFetch, RedirectsAreFollowedUpToTheLimit) {
  std::map<std::string, HttpResponse> routes;
  for (int i = 0; i < 6; ++i) {
    routes["/r" + std::to_string(i)] =
        HttpFixtureServer::redirect("/r" + std::to_string(i + 1), i % 2 == 0 ? 302 : 301);
  }
  routes["/r6"] = body("arrived");
  HttpFixtureServer server(HttpFixtureServer::routes(routes));
  // r1 → … → r6: five redirects, allowed.
  auto five = download(server.url("/r1"), nullptr, {});
  ASSERT_TRUE(five.has_value()) << five.error().message;
  EXPECT_EQ(five->bytes, "arrived");
  EXPECT_EQ(five->final_url, server.url("/r6"));
  // r0 → … → r6: six, one too many.
  const auto six = download(server.url("/r0"), nullptr, {});
  ASSERT_FALSE(six.has_value());
  EXPECT_EQ(six.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(six.error().message, "too many redirects (more than 5) from " + server.url("/r0"));
}

TEST(HttpsFetch, RedirectToNonLoopbackHttpIsRefused) {
  HttpFixtureServer server(
      HttpFixtureServer::routes({{"/go", HttpFixtureServer::redirect("http://example.com/evil.zip")},
                                 {"/ftp", HttpFixtureServer::redirect("ftp://127.0.0.1/x.zip")}}));
  EXPECT_EQ(download(server.url("/go"), nullptr, {}).error().message,
            "redirect from " + server.url("/go") +
                " refused: http:// is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost); use https:// for "
                "example.com");
  EXPECT_EQ(download(server.url("/ftp"), nullptr, {}).error().message,
            "redirect from " + server.url("/ftp") + " refused: unsupported URL scheme \"ftp://\" (use https://)");
}

TEST(HttpsFetch, NonLoopbackHttpIsRefusedBeforeAnyRequest) {
  const auto refused = download("http://example.com/b.zip", nullptr, {});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::refused);
  EXPECT_EQ(refused.error().message,
            "http:// is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost); use https:// for example.com");
}

TEST(HttpsFetch, OversizedBodyIsCutWhileStreaming) {
  HttpResponse huge;
  huge.generated_bytes = 2 * 1024 * 1024;
  huge.omit_content_length = true; // nothing announced: only streaming can tell
  HttpFixtureServer server(HttpFixtureServer::routes({{"/huge.zip", huge}}));
  DownloadLimits limits;
  limits.max_bytes = 1024 * 1024;
  const auto result = download(server.url("/huge.zip"), nullptr, limits);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(result.error().message, "the download " + server.url("/huge.zip") + " is larger than 1048576 bytes");
}

TEST(HttpsFetch, DefaultCapHoldsOnAStreamedBody) {
  HttpResponse huge;
  huge.generated_bytes = limits::k_max_download_bytes + 1;
  huge.omit_content_length = true;
  HttpFixtureServer server(HttpFixtureServer::routes({{"/huge.tgz", huge}}));
  EXPECT_EQ(download(server.url("/huge.tgz"), nullptr, {}).error().message,
            "the download " + server.url("/huge.tgz") + " is larger than 67108864 bytes");
}

TEST(HttpsFetch, AnnouncedLengthOverTheCapFailsBeforeTheBody) {
  HttpResponse lying;
  lying.body = "small";
  lying.content_length = limits::k_max_download_bytes + 1;
  HttpFixtureServer server(HttpFixtureServer::routes({{"/big.zip", lying}}));
  const auto result = download(server.url("/big.zip"), nullptr, {});
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message, "the download " + server.url("/big.zip") + " is larger than 67108864 bytes");
}

TEST(HttpsFetch, ALengthClaimedTooSmallOnlyYieldsThatMuch) {
  HttpResponse lying;
  lying.body = "hello, and a lot more than announced";
  lying.content_length = 5;
  HttpFixtureServer server(HttpFixtureServer::routes({{"/short", lying}}));
  auto result = download(server.url("/short"), nullptr, {});
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->bytes, "hello");
}

TEST(HttpsFetch, SlowServerTimesOut) {
  HttpResponse slow = body("late");
  slow.delay = std::chrono::milliseconds(3000);
  HttpFixtureServer server(HttpFixtureServer::routes({{"/slow.zip", slow}}));
  DownloadLimits limits;
  limits.timeout_s = 1;
  const auto result = download(server.url("/slow.zip"), nullptr, limits);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message, "downloading " + server.url("/slow.zip") + " timed out after 1 s");
}

TEST(HttpsFetch, UrlCredentialsAreSentButNeverShown) {
  HttpFixtureServer server(HttpFixtureServer::routes({{"/private.zip", body("secret bundle")}}));
  const std::string url = "http://user:pw@127.0.0.1:" + std::to_string(server.port()) + "/private.zip";
  auto result = download(url, nullptr, {});
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->final_url, server.url("/private.zip"));
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].header("Authorization"), "Basic dXNlcjpwdw==");
  const auto missing = download("http://user:pw@127.0.0.1:" + std::to_string(server.port()) + "/nope", nullptr, {});
  EXPECT_EQ(missing.error().message, "HTTP 404 from " + server.url("/nope"));
}

TEST(SkillFolderName, FromTheFrontmatter) {
  EXPECT_EQ(skill_folder_name("---\nname: deploy-tool\ndescription: x\n---\nbody\n").value(), "deploy-tool");
  EXPECT_EQ(skill_folder_name("# no frontmatter\n").error().message,
            "the downloaded SKILL.md has no frontmatter `name`, which would name its folder");
  EXPECT_EQ(skill_folder_name("---\ndescription: x\n---\n").error().message,
            "the downloaded SKILL.md has no frontmatter `name`, which would name its folder");
  const std::string unsafe_tail =
      " is not a safe folder name (letters, digits, '.', '_', '-'; at most 64 bytes; not starting with '.' or '-')";
  EXPECT_EQ(skill_folder_name("---\nname: ../evil\n---\n").error().message,
            "the downloaded SKILL.md's name \"../evil\"" + unsafe_tail);
  EXPECT_EQ(skill_folder_name("---\nname: a/b\n---\n").error().message,
            "the downloaded SKILL.md's name \"a/b\"" + unsafe_tail);
  EXPECT_EQ(skill_folder_name("---\nname: .hub\n---\n").error().message,
            "the downloaded SKILL.md's name \".hub\"" + unsafe_tail);
  EXPECT_FALSE(skill_folder_name("---\nname: " + std::string(65, 'a') + "\n---\n").has_value());
}

} // namespace
} // namespace skillrt::sources
