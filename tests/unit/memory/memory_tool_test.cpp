#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/limits.hpp"
#include "core/memory/memory.hpp"
#include "core/memory/user_state_file.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

class MemoryToolTest : public ::testing::Test {
protected:
  Context context_for(std::optional<std::string> user) const {
    Context ctx;
    ctx.home = m_tree.path();
    ctx.user_id = std::move(user);
    return ctx;
  }
  fs::path memory_file(const std::string& user) const { return m_tree.path() / "users" / user / "memory.json"; }
  static std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
  }
  static unsigned mode_of(const fs::path& path) {
    struct stat info {};
    ::lstat(path.c_str(), &info);
    return info.st_mode & 07777;
  }
  static MemoryRequest add(MemoryTarget target, std::string content) {
    MemoryRequest request;
    request.action = MemoryAction::add;
    request.target = target;
    request.content = std::move(content);
    return request;
  }

  test::TempTree m_tree;
};

TEST_F(MemoryToolTest, NoUserRefused) {
  auto result = run_memory(context_for(std::nullopt), add(MemoryTarget::memory, "x"));
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::refused);
  EXPECT_EQ(result.error().message, "memory needs a user (--user)");
  EXPECT_FALSE(fs::exists(m_tree.path() / "users"));
}

TEST_F(MemoryToolTest, ListOfANewUserIsEmpty) {
  auto result = run_memory(context_for("alice"), MemoryRequest{});
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_TRUE(result->stores.memory.empty());
  EXPECT_TRUE(result->stores.user.empty());
  EXPECT_FALSE(fs::exists(memory_file("alice"))); // reading writes nothing
}

TEST_F(MemoryToolTest, WritesPersistWithOwnerOnlyModes) {
  const Context ctx = context_for("alice");
  ASSERT_TRUE(run_memory(ctx, add(MemoryTarget::memory, "repo uses ninja")));
  ASSERT_TRUE(run_memory(ctx, add(MemoryTarget::user, "name is Alice")));
  EXPECT_EQ(mode_of(memory_file("alice")), 0600u);
  EXPECT_EQ(mode_of(memory_file("alice").parent_path()), 0700u);
  auto listed = run_memory(ctx, MemoryRequest{});
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->stores.memory, std::vector<std::string>{"repo uses ninja"});
  EXPECT_EQ(listed->stores.user, std::vector<std::string>{"name is Alice"});
  EXPECT_NE(slurp(memory_file("alice")).find("\"version\": 1"), std::string::npos);
}

TEST_F(MemoryToolTest, LoosenedModeIsTightenedOnWrite) {
  const Context ctx = context_for("alice");
  ASSERT_TRUE(run_memory(ctx, add(MemoryTarget::memory, "a")));
  ::chmod(memory_file("alice").c_str(), 0644);
  ASSERT_TRUE(run_memory(ctx, add(MemoryTarget::memory, "b")));
  EXPECT_EQ(mode_of(memory_file("alice")), 0600u);
}

TEST_F(MemoryToolTest, UsersAreIsolated) {
  ASSERT_TRUE(run_memory(context_for("alice"), add(MemoryTarget::memory, "alice secret")));
  auto bob = run_memory(context_for("bob"), MemoryRequest{});
  ASSERT_TRUE(bob);
  EXPECT_TRUE(bob->stores.memory.empty());
  MemoryRequest remove;
  remove.action = MemoryAction::remove;
  remove.old_text = "alice secret";
  auto removed = run_memory(context_for("bob"), remove);
  ASSERT_FALSE(removed);
  EXPECT_EQ(removed.error().code, ErrorCode::not_found);
  auto alice = run_memory(context_for("alice"), MemoryRequest{});
  ASSERT_TRUE(alice);
  EXPECT_EQ(alice->stores.memory, std::vector<std::string>{"alice secret"});
}

TEST_F(MemoryToolTest, HostileUserIdRefused) {
  for (const char* id : {"../bob", "a/b", "..", ".", "", "a\nb"}) {
    auto result = run_memory(context_for(id), add(MemoryTarget::memory, "x"));
    EXPECT_FALSE(result) << id;
  }
  EXPECT_FALSE(fs::exists(m_tree.path() / "bob"));
}

TEST_F(MemoryToolTest, CorruptFileIsReportedAndNeverOverwritten) {
  const Context ctx = context_for("alice");
  ASSERT_TRUE(run_memory(ctx, add(MemoryTarget::memory, "a")));
  const std::string garbage = "{\"version\": 1, \"memory\": [\"cut off";
  {
    std::ofstream out(memory_file("alice"), std::ios::binary | std::ios::trunc);
    out << garbage;
  }
  auto added = run_memory(ctx, add(MemoryTarget::memory, "b"));
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().code, ErrorCode::parse_error);
  EXPECT_NE(added.error().message.find(memory_file("alice").string()), std::string::npos) << added.error().message;
  EXPECT_FALSE(run_memory(ctx, MemoryRequest{}));
  EXPECT_EQ(slurp(memory_file("alice")), garbage);
}

TEST_F(MemoryToolTest, SymlinkedFileRefused) {
  const Context ctx = context_for("alice");
  ASSERT_TRUE(run_memory(ctx, add(MemoryTarget::memory, "a")));
  const fs::path outside = m_tree.write("outside.json", "{\"version\":1}");
  fs::remove(memory_file("alice"));
  fs::create_symlink(outside, memory_file("alice"));
  auto added = run_memory(ctx, add(MemoryTarget::memory, "b"));
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().code, ErrorCode::refused);
  EXPECT_EQ(slurp(outside), "{\"version\":1}");
}

TEST_F(MemoryToolTest, FailedEditLeavesTheFileAlone) {
  const Context ctx = context_for("alice");
  ASSERT_TRUE(run_memory(ctx, add(MemoryTarget::memory, "a")));
  const std::string before = slurp(memory_file("alice"));
  EXPECT_FALSE(run_memory(ctx, add(MemoryTarget::memory, "a")));
  EXPECT_FALSE(run_memory(ctx, add(MemoryTarget::memory, std::string(2200, 'x'))));
  EXPECT_EQ(slurp(memory_file("alice")), before);
}

TEST_F(MemoryToolTest, ConcurrentThreadsLoseNothing) {
  constexpr int k_per_writer = 25;
  auto writer = [this](const std::string& tag) {
    const Context ctx = context_for("alice");
    for (int i = 0; i < k_per_writer; ++i) {
      auto result = run_memory(ctx, add(MemoryTarget::memory, tag + std::to_string(i)));
      ASSERT_TRUE(result) << result.error().message;
    }
  };
  std::thread first(writer, "t1-");
  std::thread second(writer, "t2-");
  first.join();
  second.join();
  auto listed = run_memory(context_for("alice"), MemoryRequest{});
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->stores.memory.size(), 2u * k_per_writer);
}

TEST_F(MemoryToolTest, ConcurrentProcessesLoseNothing) {
  constexpr int k_per_writer = 20;
  std::vector<pid_t> children;
  for (const char* tag : {"p1-", "p2-"}) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const Context ctx = context_for("alice");
      for (int i = 0; i < k_per_writer; ++i) {
        if (!run_memory(ctx, add(MemoryTarget::user, tag + std::to_string(i)))) {
          ::_exit(1);
        }
      }
      ::_exit(0);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto listed = run_memory(context_for("alice"), MemoryRequest{});
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->stores.user.size(), 2u * k_per_writer);
  const std::set<std::string> unique(listed->stores.user.begin(), listed->stores.user.end());
  EXPECT_EQ(unique.size(), 2u * k_per_writer);
}

TEST_F(MemoryToolTest, OversizedFileIsRefusedAndKept) {
  const Context ctx = context_for("alice");
  ASSERT_TRUE(run_memory(ctx, add(MemoryTarget::memory, "a")));
  const std::string huge =
      "{\"version\": 1, \"memory\": [\"" + std::string(limits::k_max_user_state_file_bytes, 'x') + "\"]}";
  {
    std::ofstream out(memory_file("alice"), std::ios::binary | std::ios::trunc);
    out << huge;
  }
  auto added = run_memory(ctx, add(MemoryTarget::memory, "b"));
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(fs::file_size(memory_file("alice")), huge.size());
}

TEST_F(MemoryToolTest, SecondWriterWaitsForTheUsersLock) {
  static_assert(limits::k_user_state_lock_timeout_ms >= 1000, "writers must wait for each other, not fail fast");
  const Context ctx = context_for("alice");
  auto held = UserStateLock::acquire(ctx, "memory");
  ASSERT_TRUE(held) << held.error().message;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    EXPECT_TRUE(run_memory(ctx, add(MemoryTarget::memory, "waited")));
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_FALSE(done.load());
  // Another user's file is not behind this lock.
  EXPECT_TRUE(run_memory(context_for("bob"), add(MemoryTarget::memory, "free")));
  { auto release = std::move(*held); }
  writer.join();
  EXPECT_TRUE(done.load());
}

} // namespace
} // namespace skillrt::core
