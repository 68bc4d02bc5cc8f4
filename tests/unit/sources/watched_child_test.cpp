// run_watched_child with real forked children: results, errors and progress
// cross the pipe; a silent, an endless, a crashing and a mute child each end
// with their own clear error, and none is left running.
#include "sources/watched_child.hpp"

#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "support/temp_tree.hpp"

namespace skillrt::sources {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr ChildDeadlines k_relaxed{10s, 30s};

// The pid a child wrote to `file`, to prove afterwards that it is gone.
pid_t read_pid(const fs::path& file) {
  std::ifstream in(file);
  pid_t pid = 0;
  in >> pid;
  return pid;
}

void write_own_pid(const fs::path& file) {
  std::ofstream(file) << ::getpid();
}

bool process_gone(pid_t pid) {
  return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
}

TEST(WatchedChild, SuccessAndItsFilesReachTheParent) {
  ::skillrt::test::TempTree tree;
  const fs::path out = tree.path() / "out.txt";
  auto result = run_watched_child(
      [&](ChildChannel&) -> Result<void> {
        std::ofstream(out) << "written by the child";
        return {};
      },
      k_relaxed, {});
  ASSERT_TRUE(result.has_value()) << result.error().message;
  std::ifstream in(out);
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "written by the child");
}

TEST(WatchedChild, ProgressIsRelayedInOrder) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;
  auto result = run_watched_child(
      [](ChildChannel& channel) -> Result<void> {
        for (std::uint64_t done = 1; done <= 3; ++done) {
          channel.progress(done, 3);
          std::this_thread::sleep_for(80ms); // past the 50 ms coalescing window
        }
        return {};
      },
      k_relaxed, [&](std::uint64_t done, std::uint64_t total) { seen.emplace_back(done, total); });
  ASSERT_TRUE(result.has_value()) << result.error().message;
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected{{1, 3}, {2, 3}, {3, 3}};
  EXPECT_EQ(seen, expected);
}

TEST(WatchedChild, ReportsComingFasterThanTheWindowAreCoalesced) {
  std::vector<std::uint64_t> seen;
  auto result = run_watched_child(
      [](ChildChannel& channel) -> Result<void> {
        for (std::uint64_t done = 1; done <= 100'000; ++done) {
          channel.progress(done, 100'000);
        }
        return {};
      },
      k_relaxed, [&](std::uint64_t done, std::uint64_t) { seen.push_back(done); });
  ASSERT_TRUE(result.has_value()) << result.error().message;
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front(), 1u);
  EXPECT_EQ(seen.back(), 100'000u); // the last figures are never coalesced away
  EXPECT_LT(seen.size(), 1000u);
}

TEST(WatchedChild, TheChildsErrorKeepsItsCodeAndMessage) {
  auto result = run_watched_child(
      [](ChildChannel&) -> Result<void> { return fail(ErrorCode::not_found, "ref \"v9\" not found"); }, k_relaxed,
      {});
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::not_found);
  EXPECT_EQ(result.error().message, "ref \"v9\" not found");
}

TEST(WatchedChild, AHugeErrorMessageIsCut) {
  auto result = run_watched_child(
      [](ChildChannel&) -> Result<void> { return fail(ErrorCode::io_error, std::string(100'000, 'x')); }, k_relaxed,
      {});
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::io_error);
  EXPECT_EQ(result.error().message, std::string(2048, 'x'));
}

TEST(WatchedChild, AnExceptionInTheChildIsAnInternalError) {
  auto result = run_watched_child([](ChildChannel&) -> Result<void> { throw std::runtime_error("boom"); },
                                  k_relaxed, {});
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::internal);
  EXPECT_EQ(result.error().message, "unexpected exception: boom");
}

TEST(WatchedChild, ASilentChildIsKilledAtTheStallDeadline) {
  ::skillrt::test::TempTree tree;
  const fs::path pid_file = tree.path() / "pid";
  const auto started = std::chrono::steady_clock::now();
  auto result = run_watched_child(
      [&](ChildChannel&) -> Result<void> {
        write_own_pid(pid_file);
        std::this_thread::sleep_for(60s);
        return {};
      },
      ChildDeadlines{300ms, 60s}, {});
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::io_error);
  EXPECT_EQ(result.error().message, "no progress for 300 ms");
  EXPECT_LT(took, 30s);
  EXPECT_TRUE(process_gone(read_pid(pid_file)));
}

TEST(WatchedChild, ABusyChildIsKilledAtTheTotalDeadline) {
  ::skillrt::test::TempTree tree;
  const fs::path pid_file = tree.path() / "pid";
  std::uint64_t heartbeats_seen = 0;
  auto result = run_watched_child(
      [&](ChildChannel& channel) -> Result<void> {
        write_own_pid(pid_file);
        for (std::uint64_t beat = 0;; ++beat) {
          channel.heartbeat();
          channel.progress(beat, 0);
          std::this_thread::sleep_for(60ms);
        }
      },
      ChildDeadlines{2s, 1s}, [&](std::uint64_t, std::uint64_t) { ++heartbeats_seen; });
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message, "not finished after 1 s");
  EXPECT_GT(heartbeats_seen, 0u);
  EXPECT_TRUE(process_gone(read_pid(pid_file)));
}

TEST(WatchedChild, ACrashIsNamedBySignal) {
  auto result = run_watched_child(
      [](ChildChannel&) -> Result<void> {
        ::raise(SIGKILL);
        return {};
      },
      k_relaxed, {});
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::io_error);
  EXPECT_EQ(result.error().message.rfind("the worker process ended by signal 9 (", 0), 0u) << result.error().message;
}

TEST(WatchedChild, AChildThatExitsWithoutAResultIsAnError) {
  auto result = run_watched_child(
      [](ChildChannel&) -> Result<void> {
        ::_exit(0);
      },
      k_relaxed, {});
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message, "the worker process ended without a result");
}

} // namespace
} // namespace skillrt::sources
