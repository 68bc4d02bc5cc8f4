#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/todo/todo.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

class TodoToolTest : public ::testing::Test {
protected:
  Context context_for(std::optional<std::string> user) const {
    Context ctx;
    ctx.home = m_tree.path();
    ctx.user_id = std::move(user);
    return ctx;
  }
  fs::path todo_file(const std::string& user) const { return m_tree.path() / "users" / user / "todo.json"; }
  static std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
  }

  test::TempTree m_tree;
};

TEST_F(TodoToolTest, NoUserRefused) {
  auto read = todo_read(context_for(std::nullopt));
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code, ErrorCode::refused);
  EXPECT_EQ(read.error().message, "todo needs a user (--user)");
  EXPECT_FALSE(todo_write(context_for(std::nullopt), {TodoUpdate{"1", "x", std::nullopt}}, false));
  EXPECT_FALSE(fs::exists(m_tree.path() / "users"));
}

TEST_F(TodoToolTest, WriteThenReadWithMode0600) {
  const Context ctx = context_for("alice");
  auto empty = todo_read(ctx);
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  ASSERT_TRUE(
      todo_write(ctx, {TodoUpdate{"1", "plan", TodoStatus::completed}, TodoUpdate{"2", "build", std::nullopt}}, false));
  auto merged = todo_write(ctx, {TodoUpdate{"2", std::nullopt, TodoStatus::in_progress}}, true);
  ASSERT_TRUE(merged);
  auto read = todo_read(ctx);
  ASSERT_TRUE(read);
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ((*read)[1].status, TodoStatus::in_progress);
  struct stat info {};
  ASSERT_EQ(::stat(todo_file("alice").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0600u);
}

TEST_F(TodoToolTest, UsersAreIsolated) {
  ASSERT_TRUE(todo_write(context_for("alice"), {TodoUpdate{"1", "alice task", std::nullopt}}, false));
  auto bob = todo_read(context_for("bob"));
  ASSERT_TRUE(bob);
  EXPECT_TRUE(bob->empty());
  ASSERT_TRUE(todo_write(context_for("bob"), {TodoUpdate{"1", "bob task", std::nullopt}}, false));
  auto alice = todo_read(context_for("alice"));
  ASSERT_TRUE(alice);
  ASSERT_EQ(alice->size(), 1u);
  EXPECT_EQ((*alice)[0].content, "alice task");
}

TEST_F(TodoToolTest, CorruptFileIsReportedAndNeverOverwritten) {
  const Context ctx = context_for("alice");
  ASSERT_TRUE(todo_write(ctx, {TodoUpdate{"1", "x", std::nullopt}}, false));
  const std::string garbage = "{\"version\": 1, \"todos\": [{\"id\": 7}]}";
  {
    std::ofstream out(todo_file("alice"), std::ios::binary | std::ios::trunc);
    out << garbage;
  }
  auto read = todo_read(ctx);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code, ErrorCode::parse_error);
  EXPECT_NE(read.error().message.find("todo.json"), std::string::npos);
  // Not even a full replace overwrites it: the user must look first.
  EXPECT_FALSE(todo_write(ctx, {TodoUpdate{"1", "y", std::nullopt}}, false));
  EXPECT_EQ(slurp(todo_file("alice")), garbage);
}

TEST_F(TodoToolTest, FailedWriteLeavesTheFileAlone) {
  const Context ctx = context_for("alice");
  ASSERT_TRUE(todo_write(ctx, {TodoUpdate{"1", "x", std::nullopt}}, false));
  const std::string before = slurp(todo_file("alice"));
  EXPECT_FALSE(todo_write(ctx, {TodoUpdate{"2", "a", std::nullopt}, TodoUpdate{"2", "b", std::nullopt}}, false));
  EXPECT_EQ(slurp(todo_file("alice")), before);
}

TEST_F(TodoToolTest, ConcurrentMergesFromThreadsAndProcessesLoseNothing) {
  constexpr int k_per_writer = 15;
  auto writer = [this](const std::string& tag) {
    const Context ctx = context_for("alice");
    for (int i = 0; i < k_per_writer; ++i) {
      if (!todo_write(ctx, {TodoUpdate{tag + std::to_string(i), "task", std::nullopt}}, true)) {
        return false;
      }
    }
    return true;
  };
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::_exit(writer("proc-") ? 0 : 1);
  }
  bool thread_ok = false;
  std::thread other([&] { thread_ok = writer("thread-"); });
  const bool main_ok = writer("main-");
  other.join();
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_TRUE(thread_ok);
  EXPECT_TRUE(main_ok);
  auto read = todo_read(context_for("alice"));
  ASSERT_TRUE(read);
  EXPECT_EQ(read->size(), 3u * k_per_writer);
}

} // namespace
} // namespace skillrt::core
