// SkillWatcher against the real filesystem and the real inotify: every test
// changes files and waits (with a generous timeout) for the callback it
// expects, rather than sleeping a fixed time.
#include "core/watch/skill_watcher.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/temp_tree.hpp"
#include "support/wait_until.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr auto k_wait = 10s; // generous: the machine may be busy; a passing test never waits this long

// Collects callbacks; tests wait for the one they expect.
class Recorder {
public:
  SkillWatcher::Callback callback() {
    return [this](std::vector<fs::path> changed) {
      std::lock_guard lock(m_mutex);
      ++m_calls;
      for (fs::path& path : changed) {
        m_seen.insert(std::move(path));
      }
      m_callback_thread = std::this_thread::get_id();
      m_changed.notify_all();
    };
  }

  // Waits until `path` was reported; true when it was.
  bool wait_for(const fs::path& path, std::chrono::milliseconds timeout = k_wait) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] { return m_seen.count(path) != 0; });
  }
  bool seen(const fs::path& path) {
    std::lock_guard lock(m_mutex);
    return m_seen.count(path) != 0;
  }
  bool seen_under(const fs::path& dir) {
    std::lock_guard lock(m_mutex);
    return std::any_of(m_seen.begin(), m_seen.end(),
                       [&](const fs::path& path) { return path.string().rfind(dir.string(), 0) == 0; });
  }
  int calls() {
    std::lock_guard lock(m_mutex);
    return m_calls;
  }
  std::thread::id callback_thread() {
    std::lock_guard lock(m_mutex);
    return m_callback_thread;
  }
  void clear() {
    std::lock_guard lock(m_mutex);
    m_seen.clear();
    m_calls = 0;
  }

private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::set<fs::path> m_seen;
  int m_calls = 0;
  std::thread::id m_callback_thread;
};

SkillWatcher::Options fast_options() {
  SkillWatcher::Options options;
  options.debounce = 50ms;
  return options;
}

std::unique_ptr<SkillWatcher> start(std::vector<fs::path> roots, Recorder& recorder,
                                    SkillWatcher::Options options = fast_options()) {
  auto started = SkillWatcher::start(std::move(roots), recorder.callback(), std::move(options));
  EXPECT_TRUE(started) << started.error().message;
  return started ? std::move(*started) : nullptr;
}

void append(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out << text;
}

TEST(SkillWatcher, ReportsCreateModifyRenameDeleteDeepInTheTree) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  tree.mkdir("skills/devops/deploy/nested");
  Recorder recorder;
  auto watcher = start({root}, recorder);
  ASSERT_TRUE(watcher);

  const fs::path skill = root / "devops/deploy/nested/SKILL.md";
  tree.write("skills/devops/deploy/nested/SKILL.md", "---\nname: nested\n---\n");
  ASSERT_TRUE(recorder.wait_for(skill)) << "create";

  recorder.clear();
  append(skill, "more\n");
  ASSERT_TRUE(recorder.wait_for(skill)) << "modify";

  recorder.clear();
  const fs::path renamed = root / "devops/deploy/nested/OTHER.md";
  fs::rename(skill, renamed);
  ASSERT_TRUE(recorder.wait_for(renamed)) << "rename target";
  EXPECT_TRUE(recorder.seen(skill)) << "rename source";

  recorder.clear();
  fs::remove(renamed);
  ASSERT_TRUE(recorder.wait_for(renamed)) << "delete";
}

TEST(SkillWatcher, WatchesDirectoriesCreatedAfterStart) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  Recorder recorder;
  auto watcher = start({root}, recorder);
  ASSERT_TRUE(watcher);

  // Created in one go: the file may exist before the new directories are watched.
  const fs::path skill = tree.write("skills/new/deeper/still/SKILL.md", "first\n");
  ASSERT_TRUE(recorder.wait_for(skill)) << "a file created with its directories";
  EXPECT_TRUE(recorder.seen(root / "new"));

  // The new directories are watched now: a later change there is reported.
  recorder.clear();
  append(skill, "second\n");
  ASSERT_TRUE(recorder.wait_for(skill));
  recorder.clear();
  const fs::path sibling = tree.write("skills/new/deeper/still/references/api.md", "ref\n");
  ASSERT_TRUE(recorder.wait_for(sibling));
}

TEST(SkillWatcher, ARenamedDirectoryIsWatchedUnderItsNewName) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  tree.write("skills/old/SKILL.md", "x\n");
  Recorder recorder;
  auto watcher = start({root}, recorder);
  ASSERT_TRUE(watcher);

  fs::rename(root / "old", root / "new");
  ASSERT_TRUE(recorder.wait_for(root / "new"));
  EXPECT_TRUE(recorder.seen(root / "old"));
  recorder.clear();
  append(root / "new/SKILL.md", "y\n");
  ASSERT_TRUE(recorder.wait_for(root / "new/SKILL.md")) << "reported under the new name";
  EXPECT_FALSE(recorder.seen(root / "old/SKILL.md")) << "not under the stale one";
}

TEST(SkillWatcher, ARootCreatedAfterStartIsPickedUp) {
  test::TempTree tree;
  const fs::path root = tree.path() / "users/alice/skills"; // none of it exists yet
  Recorder recorder;
  auto watcher = start({root}, recorder);
  ASSERT_TRUE(watcher);

  const fs::path skill = tree.write("users/alice/skills/mine/SKILL.md", "hello\n");
  ASSERT_TRUE(recorder.wait_for(skill));
  recorder.clear();
  append(skill, "again\n");
  ASSERT_TRUE(recorder.wait_for(skill)) << "the new root's tree is watched";
}

TEST(SkillWatcher, ARootDeletedAndRecreatedIsWatchedAgain) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  tree.write("skills/a/SKILL.md", "x\n");
  Recorder recorder;
  auto watcher = start({root}, recorder);
  ASSERT_TRUE(watcher);

  fs::remove_all(root);
  ASSERT_TRUE(recorder.wait_for(root / "a/SKILL.md"));
  recorder.clear();
  const fs::path skill = tree.write("skills/b/SKILL.md", "y\n");
  ASSERT_TRUE(recorder.wait_for(skill));
}

TEST(SkillWatcher, ABurstOfWritesIsOneCallback) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  const fs::path skill = tree.write("skills/busy/SKILL.md", "start\n");
  Recorder recorder;
  auto watcher = start({root}, recorder);
  ASSERT_TRUE(watcher);

  for (int i = 0; i < 200; ++i) {
    append(skill, "line " + std::to_string(i) + "\n");
  }
  ASSERT_TRUE(recorder.wait_for(skill));
  // A marker written well after the burst settles tells when any late
  // callback of the burst would have arrived.
  const fs::path marker = tree.write("skills/marker.md", "m\n");
  ASSERT_TRUE(recorder.wait_for(marker));
  // One for the burst, one for the marker; a stall of the busy machine in the
  // middle of the burst may split it once.
  EXPECT_LE(recorder.calls(), 3);
}

TEST(SkillWatcher, AQueueOverflowIsOneEmptyCallback) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  std::mutex gate_mutex;
  std::condition_variable gate_changed;
  bool release = false;
  std::atomic<int> calls{0};
  std::atomic<int> overflows{0};
  auto started = SkillWatcher::start(
      {root},
      [&](std::vector<fs::path> changed) {
        if (changed.empty()) {
          ++overflows;
        }
        if (calls++ == 0) {
          // Hold the watcher thread so the kernel queue fills up.
          std::unique_lock lock(gate_mutex);
          gate_changed.wait_for(lock, k_wait, [&] { return release; });
        }
      },
      fast_options());
  ASSERT_TRUE(started);
  tree.write("skills/first.md", "1\n");
  ASSERT_TRUE(test::wait_until([&] { return calls.load() > 0; }, k_wait)) << "the first callback holds the thread";
  // Alternating files: the kernel only merges identical consecutive events.
  long queued = 16384;
  std::ifstream("/proc/sys/fs/inotify/max_queued_events") >> queued;
  if (queued > 200'000) {
    {
      std::lock_guard lock(gate_mutex);
      release = true;
    }
    gate_changed.notify_all();
    GTEST_SKIP() << "max_queued_events is " << queued << ": too slow to overflow";
  }
  for (long i = 0; i < queued / 2 + 100; ++i) {
    append(root / (i % 2 == 0 ? "a.md" : "b.md"), "x");
  }
  {
    std::lock_guard lock(gate_mutex);
    release = true;
  }
  gate_changed.notify_all();
  EXPECT_TRUE(test::wait_until([&] { return overflows.load() > 0; }, k_wait));
  EXPECT_EQ(overflows.load(), 1);
  // Watching goes on after the rescan.
  const int before = calls.load();
  tree.write("skills/after/SKILL.md", "z\n");
  EXPECT_TRUE(test::wait_until([&] { return calls.load() > before; }, k_wait));
}

TEST(SkillWatcher, NoCallbackAfterTheDestructorReturns) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  std::atomic<bool> destroyed{false};
  std::atomic<int> late{0};
  std::atomic<int> calls{0};
  SkillWatcher::Options options;
  options.debounce = 1ms;
  auto started = SkillWatcher::start(
      {root},
      [&](std::vector<fs::path>) {
        ++calls;
        std::this_thread::sleep_for(2ms); // widen the window a late callback would need
        if (destroyed.load()) {
          ++late;
        }
      },
      options);
  ASSERT_TRUE(started);
  std::unique_ptr<SkillWatcher> watcher = std::move(*started);
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      append(root / ("f" + std::to_string(i % 50) + ".md"), "x");
      if (i % 7 == 0) {
        fs::create_directories(root / ("d" + std::to_string(i % 20)) / "sub");
      }
    }
  });
  EXPECT_TRUE(test::wait_until([&] { return calls.load() >= 3; }, k_wait));
  watcher.reset();
  destroyed = true;
  // A window in which nothing may happen: a late callback would count.
  std::this_thread::sleep_for(50ms);
  stop = true;
  writer.join();
  EXPECT_GE(calls.load(), 1);
  EXPECT_EQ(late.load(), 0);
}

TEST(SkillWatcher, CanBeDestroyedFromItsOwnCallback) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  std::mutex mutex;
  std::condition_variable done_changed;
  bool done = false;
  std::unique_ptr<SkillWatcher> watcher;
  auto started = SkillWatcher::start(
      {root},
      [&](std::vector<fs::path>) {
        std::lock_guard lock(mutex);
        watcher.reset();
        done = true;
        done_changed.notify_all();
      },
      fast_options());
  ASSERT_TRUE(started);
  {
    std::lock_guard lock(mutex);
    watcher = std::move(*started);
  }
  tree.write("skills/SKILL.md", "x\n");
  std::unique_lock lock(mutex);
  ASSERT_TRUE(done_changed.wait_for(lock, k_wait, [&] { return done; }));
  EXPECT_EQ(watcher, nullptr);
}

TEST(SkillWatcher, PollHookRunsOnTheWatcherThread) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  Recorder recorder;
  std::mutex mutex;
  std::condition_variable polled;
  int polls = 0;
  std::thread::id poll_thread;
  SkillWatcher::Options options = fast_options();
  options.poll_interval = 20ms;
  options.poll = [&] {
    std::lock_guard lock(mutex);
    ++polls;
    poll_thread = std::this_thread::get_id();
    polled.notify_all();
  };
  auto watcher = start({root}, recorder, options);
  ASSERT_TRUE(watcher);
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(polled.wait_for(lock, k_wait, [&] { return polls >= 3; }));
  }
  const fs::path skill = tree.write("skills/SKILL.md", "x\n");
  ASSERT_TRUE(recorder.wait_for(skill));
  std::lock_guard lock(mutex);
  EXPECT_NE(poll_thread, std::this_thread::get_id());
  EXPECT_EQ(poll_thread, recorder.callback_thread()) << "poll and callbacks share the watcher thread";
}

TEST(SkillWatcher, SetRootsMovesTheWatch) {
  test::TempTree tree;
  const fs::path first = tree.mkdir("first");
  const fs::path second = tree.mkdir("second");
  Recorder recorder;
  auto watcher = start({first}, recorder);
  ASSERT_TRUE(watcher);
  ASSERT_TRUE(recorder.wait_for(tree.write("first/a.md", "x")));

  watcher->set_roots({second});
  // set_roots is asynchronous: write to the new root until it is seen.
  const fs::path probe = second / "probe.md";
  bool seen = false;
  for (int i = 0; i < 100 && !seen; ++i) {
    append(probe, "x");
    seen = recorder.wait_for(probe, 100ms);
  }
  ASSERT_TRUE(seen);
  // Ordering, not sleeping: a change to the old root, then one to the new;
  // once the second is reported the first would have been too.
  recorder.clear();
  append(first / "a.md", "old root");
  const fs::path later = tree.write("second/later.md", "x");
  ASSERT_TRUE(recorder.wait_for(later));
  EXPECT_FALSE(recorder.seen_under(first));
}

TEST(SkillWatcher, HostileRootsDoNotStopTheOthers) {
  test::TempTree tree;
  const fs::path good = tree.mkdir("good");
  const fs::path file_root = tree.write("a-file", "not a directory");
  tree.symlink("loop", "loop"); // a symlink to itself
  const fs::path loop_root = tree.path() / "loop";
  tree.mkdir("locked/inner");
  tree.chmod("locked", 0);
  Recorder recorder;
  auto watcher = start({file_root, loop_root, tree.path() / "locked/inner", good}, recorder);
  tree.chmod("locked", 0755);
  ASSERT_TRUE(watcher);
  const fs::path skill = tree.write("good/SKILL.md", "x");
  ASSERT_TRUE(recorder.wait_for(skill));

  // The file root becomes a directory: it is watched from then on.
  recorder.clear();
  fs::remove(file_root);
  fs::create_directory(file_root);
  const fs::path inside = file_root / "SKILL.md";
  bool seen = false;
  for (int i = 0; i < 50 && !seen; ++i) {
    append(inside, "x");
    seen = recorder.wait_for(inside, 200ms);
  }
  EXPECT_TRUE(seen);
}

TEST(SkillWatcher, SymlinkedDirectoriesInsideATreeAreNotFollowed) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  const fs::path outside = tree.mkdir("outside");
  tree.symlink(outside, "skills/linked");
  tree.symlink(tree.path() / "skills", "skills/self"); // a loop through the tree
  Recorder recorder;
  auto watcher = start({root}, recorder);
  ASSERT_TRUE(watcher);

  append(outside / "SKILL.md", "not ours");
  const fs::path marker = tree.write("skills/marker.md", "x");
  ASSERT_TRUE(recorder.wait_for(marker));
  EXPECT_FALSE(recorder.seen(root / "linked/SKILL.md"));
}

TEST(SkillWatcher, ASymlinkedRootIsWatchedThroughItsTargetAndReportedUnderItsName) {
  test::TempTree tree;
  const fs::path external = tree.mkdir("external/skills");
  tree.symlink(external, "home/skills");
  const fs::path root = tree.path() / "home/skills";
  Recorder recorder;
  auto watcher = start({root}, recorder);
  ASSERT_TRUE(watcher);
  tree.write("external/skills/tool/SKILL.md", "x");
  ASSERT_TRUE(recorder.wait_for(root / "tool/SKILL.md"));
}

TEST(SkillWatcher, TheWatchCapWarnsAndKeepsWorking) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  for (int i = 0; i < 10; ++i) {
    tree.mkdir("skills/d" + std::to_string(i));
  }
  Recorder recorder;
  SkillWatcher::Options options = fast_options();
  options.max_watches = 3;
  ::testing::internal::CaptureStderr();
  auto watcher = start({root}, recorder, options);
  const std::string warning = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(watcher);
  EXPECT_NE(warning.find("limit of 3 directories"), std::string::npos) << warning;
  const fs::path top = tree.write("skills/top.md", "x");
  ASSERT_TRUE(recorder.wait_for(top)) << "the root itself is still watched";
}

TEST(SkillWatcher, RelativeAndDuplicateRootsAreFine) {
  test::TempTree tree;
  const fs::path root = tree.mkdir("skills");
  Recorder recorder;
  auto watcher = start({root, root, root / ".", root / "sub/.."}, recorder);
  ASSERT_TRUE(watcher);
  const fs::path skill = tree.write("skills/SKILL.md", "x");
  ASSERT_TRUE(recorder.wait_for(skill));
}

} // namespace
} // namespace skillrt::core
