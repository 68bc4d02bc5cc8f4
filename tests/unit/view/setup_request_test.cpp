// Setup requests (core/view/setup_request.hpp) on a real home: created with
// no value in them, found by id only while waiting, completed once into the
// right .env with mode 0600, and every refusal naming variables, never values.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <atomic>
#include <thread>

#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/view/setup_request.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

class SetupRequestTest : public ::testing::Test {
protected:
  SetupRequestTest() {
    ctx.home = tree.mkdir("home");
    ctx.env = [](std::string_view) { return std::optional<std::string>(); };
  }

  std::vector<EnvRequirement> variables() const {
    EnvRequirement key;
    key.name = "API_KEY";
    key.prompt = "Your API key";
    key.help = "https://example.com/keys";
    EnvRequirement region;
    region.name = "REGION";
    region.prompt = "Enter value for REGION";
    return {key, region};
  }

  std::string read(const fs::path& path) const {
    auto text = read_regular_file(path, 1 << 20);
    return text ? *text : std::string();
  }

  test::TempTree tree;
  Context ctx;
};

TEST_F(SetupRequestTest, ARequestIsAPrivateFileWithoutValues) {
  ctx.user_id = "alice";
  ctx.org_id = "org1";
  auto request = create_setup_request(ctx, "weather", variables());
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_EQ(request->id.size(), 64u);
  const fs::path file = ctx.home / "setup-requests" / (request->id + ".json");
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat(file.parent_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  auto found = find_setup_request(ctx, request->id);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->skill, "weather");
  EXPECT_EQ(found->user_id, std::optional<std::string>("alice"));
  ASSERT_EQ(found->variables.size(), 2u);
  EXPECT_EQ(found->variables[0].help, std::optional<std::string>("https://example.com/keys"));
  EXPECT_GT(found->expires_at, std::chrono::system_clock::now() + std::chrono::seconds(limits::k_setup_request_ttl_s - 60));
  EXPECT_FALSE(create_setup_request(ctx, "weather", {}));
}

TEST_F(SetupRequestTest, CompletingWritesTheUsersOwnEnvOnce) {
  ctx.user_id = "alice";
  ctx.org_id = "org1";
  auto request = create_setup_request(ctx, "weather", variables());
  ASSERT_TRUE(request);
  Context page = ctx;  // the page's caller is nobody: the request names the user
  page.user_id.reset();
  page.anonymous = true;
  auto done = complete_setup_request(page, request->id, {{"API_KEY", "sk-secret-1"}});
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(done->stored, (std::vector<std::string>{"API_KEY"}));
  const fs::path env = ctx.home / "users" / "alice" / ".env";
  EXPECT_EQ(done->file, env);
  EXPECT_NE(read(env).find("API_KEY='sk-secret-1'"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat(env.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_FALSE(fs::exists(ctx.home / ".env"));
  // Used once: gone, and a second submission is refused.
  EXPECT_FALSE(find_setup_request(page, request->id));
  auto again = complete_setup_request(page, request->id, {{"API_KEY", "sk-other"}});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::not_found);
  EXPECT_NE(read(env).find("sk-secret-1"), std::string::npos);
  EXPECT_TRUE(fs::is_empty(ctx.home / "setup-requests"));
}

TEST_F(SetupRequestTest, WithoutAUserTheHomeEnvIsWritten) {
  auto request = create_setup_request(ctx, "weather", variables());
  ASSERT_TRUE(request);
  ASSERT_TRUE(complete_setup_request(ctx, request->id, {{"REGION", "eu-west-1"}, {"API_KEY", "k"}}));
  EXPECT_NE(read(ctx.home / ".env").find("REGION='eu-west-1'"), std::string::npos);
}

TEST_F(SetupRequestTest, RefusalsNameVariablesNeverValues) {
  auto request = create_setup_request(ctx, "weather", variables());
  ASSERT_TRUE(request);
  auto unknown = complete_setup_request(ctx, request->id, {{"OTHER", "leak-me-1"}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("'OTHER' is not a variable this setup asks for"), std::string::npos);
  auto newline = complete_setup_request(ctx, request->id, {{"API_KEY", "leak\nme-2"}});
  ASSERT_FALSE(newline);
  auto none = complete_setup_request(ctx, request->id, {});
  ASSERT_FALSE(none);
  for (const auto& error : {unknown.error(), newline.error(), none.error()}) {
    EXPECT_EQ(error.message.find("leak"), std::string::npos) << error.message;
  }
  // A refused submission leaves the link usable.
  EXPECT_TRUE(complete_setup_request(ctx, request->id, {{"API_KEY", "fine"}}));
  EXPECT_FALSE(fs::exists(ctx.home / ".env") && read(ctx.home / ".env").find("leak") != std::string::npos);
}

TEST_F(SetupRequestTest, MalformedUnknownAndExpiredIdsAreOneAnswer) {
  for (const std::string& id : std::vector<std::string>{"", "../../etc/passwd", std::string(64, 'g'), std::string(64, 'a')}) {
    auto found = find_setup_request(ctx, id);
    ASSERT_FALSE(found) << id;
    EXPECT_EQ(found.error().message, "This setup link is unknown, already used or expired.");
  }
  auto request = create_setup_request(ctx, "weather", variables());
  ASSERT_TRUE(request);
  // Expire it by rewriting its deadline into the past.
  const fs::path file = ctx.home / "setup-requests" / (request->id + ".json");
  std::string text = read(file);
  const std::size_t at = text.find("\"expires_ms\": ");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, text.find('\n', at) - at, "\"expires_ms\": 1000");
  tree.write("home/setup-requests/" + request->id + ".json", text);
  EXPECT_FALSE(find_setup_request(ctx, request->id));
  EXPECT_FALSE(fs::exists(file));  // swept
}

TEST_F(SetupRequestTest, TwoSubmissionsOfOneLinkNeverBothWrite) {
  ctx.user_id = "alice";
  auto request = create_setup_request(ctx, "weather", variables());
  ASSERT_TRUE(request);
  std::atomic<int> stored{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      if (complete_setup_request(ctx, request->id, {{"API_KEY", "value-" + std::to_string(i)}})) {
        ++stored;
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(stored.load(), 1);
}

TEST_F(SetupRequestTest, AtMostSoManyWaitAtOnce) {
  for (std::size_t i = 0; i < limits::k_max_setup_requests; ++i) {
    ASSERT_TRUE(create_setup_request(ctx, "weather", variables())) << i;
  }
  auto refused = create_setup_request(ctx, "weather", variables());
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::refused);
}

}  // namespace
}  // namespace skillrt::core
