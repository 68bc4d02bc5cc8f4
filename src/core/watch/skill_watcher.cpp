// The inotify implementation of SkillWatcher.
//
// One thread owns every watch: it waits in poll(2) on the inotify descriptor
// and an eventfd (set_roots and shutdown wake it), collects changed paths, and
// calls back once the tree has been quiet for `debounce`.
//
// Symlinks: a root is watched through whatever it resolves to (skills may
// legitimately live in an external directory a root points at), but inside a
// tree symlinked directories are never followed (IN_DONT_FOLLOW, and the scan
// skips them): a link cannot pull a directory outside the root, or a loop,
// into the watch set. Skills that live behind such a link are reached through
// their own root (skills.external_dirs), which is watched in its own right.
// Paths are reported as the root was given plus the names below it, never
// resolved, so callers can compare them with the roots they passed.
#include "core/watch/skill_watcher.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>

#include "core/files/unique_fd.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t k_event_mask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM |
                                       IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

// A burst that never goes quiet (a long copy) is still reported this often,
// in multiples of the debounce.
constexpr int k_max_delay_debounces = 10;

// Past this many distinct paths in one burst (a large copy or checkout) the
// burst is reported like an overflow, as "rescan everything", rather than as
// an ever longer list.
constexpr std::size_t k_max_pending_paths = 10'000;
// A root path deeper than this is not waited for level by level (PATH_MAX / 2).
constexpr std::size_t k_max_establish_rounds = 2048;

// Whether `path` is `base` or lies below it (component-wise, no resolution).
bool is_within(const fs::path& path, const fs::path& base) {
  return std::mismatch(base.begin(), base.end(), path.begin(), path.end()).first == base.end();
}

// Everything the watcher thread works on. Shared with the thread so that a
// watcher destroyed from inside its own callback cannot pull the state out
// from under the running thread.
class WatchState {
public:
  WatchState(files::UniqueFd inotify_fd, files::UniqueFd wake_fd, SkillWatcher::Callback on_change,
             SkillWatcher::Options options)
      : m_inotify(std::move(inotify_fd)), m_wake(std::move(wake_fd)), m_on_change(std::move(on_change)), m_options(std::move(options)) {
    if (m_options.debounce.count() < 0) {
      m_options.debounce = std::chrono::milliseconds(0);
    }
    if (m_options.poll_interval.count() <= 0) {
      m_options.poll_interval = std::chrono::milliseconds(1);
    }
  }

  // Called before the thread starts, and then only on the thread.
  void watch(std::vector<fs::path> roots) {
    m_roots.clear();
    for (fs::path& root : roots) {
      std::error_code ec;
      fs::path absolute = root.is_absolute() ? root : fs::absolute(root, ec);
      if (ec) {
        continue;
      }
      fs::path normal = absolute.lexically_normal();
      if (normal.filename().empty() && normal.has_relative_path()) {
        normal = normal.parent_path(); // "/a/b/" (from "/a/b/.") names /a/b
      }
      m_roots.push_back(std::move(normal));
    }
    std::sort(m_roots.begin(), m_roots.end());
    m_roots.erase(std::unique(m_roots.begin(), m_roots.end()), m_roots.end());
    rebuild(/*report=*/false);
  }

  void request_roots(std::vector<fs::path> roots) {
    {
      std::lock_guard lock(m_mutex);
      m_requested_roots = std::move(roots);
    }
    wake();
  }

  void request_stop() {
    m_stop.store(true);
    wake();
  }

  void run() {
    Clock::time_point next_poll = Clock::now() + m_options.poll_interval;
    while (!m_stop.load()) {
      std::array<pollfd, 2> fds{};
      fds[0] = {m_inotify.get(), POLLIN, 0};
      fds[1] = {m_wake.get(), POLLIN, 0};
      const int got = ::poll(fds.data(), fds.size(), timeout_ms(next_poll));
      if (got < 0 && errno != EINTR) {
        std::cerr << "skillrt: watcher: poll failed: " << std::strerror(errno) << "; no longer watching\n";
        return;
      }
      if (got > 0 && (fds[1].revents & POLLIN) != 0) {
        std::uint64_t count = 0;
        [[maybe_unused]] const ssize_t n = ::read(m_wake.get(), &count, sizeof count);
      }
      if (m_stop.load()) {
        return;
      }
      if (auto roots = take_requested_roots()) {
        watch(std::move(*roots));
      }
      if (got > 0 && (fds[0].revents & POLLIN) != 0) {
        drain_events();
      }
      const Clock::time_point now = Clock::now();
      if (due(now)) {
        flush();
      }
      if (m_options.poll && now >= next_poll && !m_stop.load()) {
        try {
          m_options.poll();
        } catch (const std::exception& error) {
          std::cerr << "skillrt: watcher: poll hook failed: " << error.what() << '\n';
        } catch (...) {
          std::cerr << "skillrt: watcher: poll hook failed\n";
        }
        next_poll = Clock::now() + m_options.poll_interval;
      }
    }
  }

private:
  struct Watch {
    fs::path path;        // as reported: a root as given, plus names below it
    bool tree = false;    // a directory of a watched tree (its changes are reported)
    bool parent = false;  // the nearest existing ancestor of a missing root
    bool is_root = false; // the top of a tree
  };

  void wake() {
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = ::write(m_wake.get(), &one, sizeof one);
  }

  std::optional<std::vector<fs::path>> take_requested_roots() {
    std::lock_guard lock(m_mutex);
    std::optional<std::vector<fs::path>> roots = std::move(m_requested_roots);
    m_requested_roots.reset();
    return roots;
  }

  int timeout_ms(Clock::time_point next_poll) const {
    std::optional<Clock::time_point> deadline;
    if (has_pending()) {
      deadline =
          std::min(m_last_event + m_options.debounce, m_first_event + m_options.debounce * k_max_delay_debounces);
    }
    if (m_options.poll) {
      deadline = deadline ? std::min(*deadline, next_poll) : next_poll;
    }
    if (!deadline) {
      return -1;
    }
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
    return static_cast<int>(std::clamp<std::int64_t>(left, 0, 60'000));
  }

  bool has_pending() const { return m_overflowed || !m_pending.empty(); }

  bool due(Clock::time_point now) const {
    if (!has_pending()) {
      return false;
    }
    return now >= m_last_event + m_options.debounce ||
           now >= m_first_event + m_options.debounce * k_max_delay_debounces;
  }

  void note(const fs::path& path) {
    const Clock::time_point now = Clock::now();
    if (!has_pending()) {
      m_first_event = now;
    }
    m_last_event = now;
    if (m_overflowed) {
      return; // already "rescan everything"
    }
    m_pending.insert(path);
    if (m_pending.size() > k_max_pending_paths) {
      m_pending.clear();
      m_overflowed = true;
    }
  }

  void note_overflow() {
    const Clock::time_point now = Clock::now();
    if (!has_pending()) {
      m_first_event = now;
    }
    m_last_event = now;
    m_overflowed = true;
    m_pending.clear();
  }

  void flush() {
    std::vector<fs::path> changed;
    if (!m_overflowed) {
      changed.assign(m_pending.begin(), m_pending.end());
    }
    m_pending.clear();
    m_overflowed = false;
    if (m_stop.load()) {
      return;
    }
    try {
      m_on_change(std::move(changed));
    } catch (const std::exception& error) {
      std::cerr << "skillrt: watcher: change callback failed: " << error.what() << '\n';
    } catch (...) {
      std::cerr << "skillrt: watcher: change callback failed\n";
    }
  }

  // Drops every watch and sets them up again from the roots.
  void rebuild(bool report) {
    for (const auto& [wd, watch] : m_watches) {
      ::inotify_rm_watch(m_inotify.get(), wd);
    }
    m_watches.clear();
    m_root_wds.clear();
    m_limit_warned = false;
    for (const fs::path& root : m_roots) {
      establish(root, report);
    }
  }

  // Watches `root`'s tree when it is a directory; else the nearest existing
  // ancestor, so its appearance is noticed. The watch on the ancestor lands
  // after the check that found it nearest, so a directory created between the
  // two (`mkdir -p` racing us) sends no event: look again once the watch is in,
  // and go one level deeper while the path grew. Each round moves at least one
  // component closer to the root, so this ends.
  void establish(const fs::path& root, bool report) {
    for (std::size_t round = 0; round <= k_max_establish_rounds; ++round) {
      if (root_watched(root)) {
        return;
      }
      std::error_code ec;
      if (fs::is_directory(root, ec)) {
        add_tree(root, /*is_root=*/true, report);
        if (root_watched(root)) {
          return;
        }
      }
      // Missing, a file, a symlink loop or unreadable: wait for it one level up.
      const std::optional<fs::path> ancestor = nearest_existing_ancestor(root);
      if (!ancestor) {
        return;
      }
      const int wd = add_watch(*ancestor, /*follow=*/true);
      if (wd < 0) {
        return;
      }
      Watch& watch = m_watches[wd];
      if (watch.path.empty()) {
        watch.path = *ancestor;
      }
      watch.parent = true;
      if (nearest_existing_ancestor(root) == ancestor && !fs::is_directory(root, ec)) {
        return; // nothing grew while the watch went in: its events will tell
      }
    }
  }

  static std::optional<fs::path> nearest_existing_ancestor(const fs::path& root) {
    fs::path ancestor = root.parent_path();
    while (true) {
      std::error_code ec;
      if (fs::is_directory(ancestor, ec)) {
        return ancestor;
      }
      if (ancestor == ancestor.parent_path()) {
        return std::nullopt;
      }
      ancestor = ancestor.parent_path();
    }
  }

  bool root_watched(const fs::path& root) const { return m_root_wds.count(root) != 0; }

  // Erases a watch from the books (the kernel side is the caller's business).
  std::unordered_map<int, Watch>::iterator drop(std::unordered_map<int, Watch>::iterator it) {
    unroot(it);
    return m_watches.erase(it);
  }

  // The watch no longer tops a root's tree.
  void unroot(std::unordered_map<int, Watch>::iterator it) {
    if (!it->second.is_root) {
      return;
    }
    it->second.is_root = false;
    for (auto root = m_root_wds.begin(); root != m_root_wds.end();) {
      root = root->second == it->first ? m_root_wds.erase(root) : std::next(root);
    }
  }

  // inotify_add_watch with the limits applied; -1 when not watched.
  int add_watch(const fs::path& dir, bool follow) {
    if (m_watches.size() >= m_options.max_watches) {
      warn_limit(dir, "the watcher's limit of " + std::to_string(m_options.max_watches) + " directories");
      return -1;
    }
    const std::uint32_t mask = k_event_mask | (follow ? 0U : static_cast<std::uint32_t>(IN_DONT_FOLLOW));
    const int wd = ::inotify_add_watch(m_inotify.get(), dir.c_str(), mask);
    if (wd < 0) {
      if (errno == ENOSPC) {
        warn_limit(dir, "the kernel's fs.inotify.max_user_watches");
      }
      // EACCES, ENOENT, ENOTDIR (gone, or a symlink): not watchable, skip.
      return -1;
    }
    return wd;
  }

  void warn_limit(const fs::path& dir, const std::string& limit) {
    if (m_limit_warned) {
      return;
    }
    m_limit_warned = true;
    std::cerr << "skillrt: watcher: warning: " << limit << " reached; changes under " << dir.string()
              << " and further new directories are not seen until restart\n";
  }

  // Watches `top` and every real directory below it. With `report`, every
  // entry found is noted as changed: they may have been created before the
  // watch landed, and no event will come for them.
  void add_tree(const fs::path& top, bool is_root, bool report) {
    std::vector<fs::path> stack{top};
    bool first = true;
    while (!stack.empty()) {
      const fs::path dir = std::move(stack.back());
      stack.pop_back();
      const bool top_level = std::exchange(first, false);
      const int wd = add_watch(dir, /*follow=*/top_level && is_root);
      if (wd < 0) {
        continue;
      }
      Watch& watch = m_watches[wd];
      if (top_level && is_root) {
        watch.is_root = true;
        m_root_wds[dir] = wd;
      }
      if (watch.tree) {
        continue; // the same directory reached twice (a bind mount, nested roots): once is enough
      }
      if (watch.path.empty() || watch.parent) {
        watch.path = dir;
      }
      watch.tree = true;
      if (report) {
        note(dir);
      }
      for_each_entry(dir, /*follow=*/top_level && is_root, [&](const fs::path& entry, bool is_dir) {
        if (is_dir) {
          stack.push_back(entry);
        } else if (report) {
          note(entry);
        }
      });
    }
  }

  // Calls `visit(path, is_real_directory)` for each entry of `dir`. readdir's
  // d_type spares a stat per entry (a 10k-skill tree has ~50k entries); a
  // symlink is never a directory here. Unreadable directories are skipped.
  template <typename Visit> static void for_each_entry(const fs::path& dir, bool follow, Visit&& visit) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
    if (fd < 0) {
      return;
    }
    DIR* stream = ::fdopendir(fd);
    if (stream == nullptr) {
      ::close(fd);
      return;
    }
    while (const dirent* entry = ::readdir(stream)) {
      const std::string_view name = entry->d_name;
      if (name == "." || name == "..") {
        continue;
      }
      bool is_dir = entry->d_type == DT_DIR;
      if (entry->d_type == DT_UNKNOWN) {
        struct stat info {};
        is_dir = ::fstatat(fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(info.st_mode);
      }
      visit(dir / name, is_dir);
    }
    ::closedir(stream); // closes fd too
  }

  // Stops watching `dir` and everything below it (moved away or gone).
  void forget_tree(const fs::path& dir) {
    for (auto it = m_watches.begin(); it != m_watches.end();) {
      if (it->second.tree && is_within(it->second.path, dir)) {
        if (!it->second.parent) {
          ::inotify_rm_watch(m_inotify.get(), it->first);
          it = drop(it);
          continue;
        }
        it->second.tree = false;
        unroot(it);
      }
      ++it;
    }
  }

  void establish_missing_roots() {
    for (const fs::path& root : m_roots) {
      establish(root, /*report=*/true);
    }
  }

  void drain_events() {
    alignas(inotify_event) std::array<char, 64 * 1024> buffer{};
    while (true) {
      const ssize_t got = ::read(m_inotify.get(), buffer.data(), buffer.size());
      if (got <= 0) {
        return; // EAGAIN: drained (the descriptor is non-blocking)
      }
      std::size_t offset = 0;
      const auto size = static_cast<std::size_t>(got);
      while (offset + sizeof(inotify_event) <= size) {
        inotify_event event{};
        std::memcpy(&event, buffer.data() + offset, sizeof event);
        const char* name_start = buffer.data() + offset + sizeof(inotify_event);
        const std::string name(name_start, ::strnlen(name_start, event.len));
        offset += sizeof(inotify_event) + event.len;
        handle(event, name);
      }
    }
  }

  void handle(const inotify_event& event, const std::string& name) {
    if ((event.mask & IN_Q_OVERFLOW) != 0) {
      // Events were lost, so new directories may be unwatched: start over.
      note_overflow();
      rebuild(/*report=*/false);
      return;
    }
    auto found = m_watches.find(event.wd);
    if (found == m_watches.end()) {
      return; // a watch already dropped (its last events, IN_IGNORED)
    }
    if ((event.mask & IN_IGNORED) != 0) {
      const bool was_root = found->second.is_root;
      const bool was_parent = found->second.parent;
      drop(found);
      if (was_root || was_parent) {
        establish_missing_roots();
      }
      return;
    }
    // Copies: establishing roots may rehash the map.
    const Watch watch = found->second;
    const fs::path path = name.empty() ? watch.path : watch.path / name;
    const bool is_dir = (event.mask & IN_ISDIR) != 0;

    if (watch.tree) {
      note(path);
      if (is_dir && (event.mask & (IN_CREATE | IN_MOVED_TO)) != 0) {
        add_tree(path, /*is_root=*/false, /*report=*/true);
      }
      if (is_dir && (event.mask & IN_MOVED_FROM) != 0) {
        forget_tree(path);
      }
      if (watch.is_root && (event.mask & (IN_MOVE_SELF | IN_DELETE_SELF)) != 0) {
        // The root itself went away: drop its tree, wait for it one level up.
        forget_tree(watch.path);
        establish_missing_roots();
        return;
      }
    }
    if (watch.parent && !name.empty() && (event.mask & (IN_CREATE | IN_MOVED_TO | IN_ATTRIB)) != 0) {
      // Something appeared next to (or on the way to) a missing root.
      establish_missing_roots();
    }
  }

  files::UniqueFd m_inotify;
  files::UniqueFd m_wake;
  SkillWatcher::Callback m_on_change;
  SkillWatcher::Options m_options;
  std::atomic<bool> m_stop{false};

  std::mutex m_mutex; // guards m_requested_roots (set_roots from any thread)
  std::optional<std::vector<fs::path>> m_requested_roots;

  // Watcher thread only.
  std::vector<fs::path> m_roots;
  std::unordered_map<int, Watch> m_watches;
  std::map<fs::path, int> m_root_wds; // the roots whose trees are watched
  bool m_limit_warned = false;
  std::set<fs::path> m_pending;
  bool m_overflowed = false;
  Clock::time_point m_first_event{};
  Clock::time_point m_last_event{};
};

class InotifyWatcher final : public SkillWatcher {
public:
  explicit InotifyWatcher(std::shared_ptr<WatchState> state) : m_state(std::move(state)) {
    m_thread = std::thread([state = m_state] { state->run(); });
  }
  InotifyWatcher(const InotifyWatcher&) = delete;
  InotifyWatcher& operator=(const InotifyWatcher&) = delete;

  ~InotifyWatcher() override {
    m_state->request_stop();
    if (m_thread.get_id() == std::this_thread::get_id()) {
      // Destroyed from its own callback: joining would wait for ourselves.
      // The thread keeps the state alive and ends when the callback returns.
      m_thread.detach();
    } else if (m_thread.joinable()) {
      m_thread.join();
    }
  }

  void set_roots(std::vector<fs::path> roots) override { m_state->request_roots(std::move(roots)); }

private:
  std::shared_ptr<WatchState> m_state;
  std::thread m_thread;
};

} // namespace

Result<std::unique_ptr<SkillWatcher>> SkillWatcher::start(std::vector<fs::path> roots, Callback on_change,
                                                          Options options) {
  files::UniqueFd inotify_fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  if (!inotify_fd) {
    return fail(ErrorCode::io_error, std::string("inotify is unavailable: ") + std::strerror(errno));
  }
  files::UniqueFd wake_fd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
  if (!wake_fd) {
    return fail(ErrorCode::io_error, std::string("eventfd failed: ") + std::strerror(errno));
  }
  if (!on_change) {
    on_change = [](std::vector<fs::path>) {};
  }
  auto state = std::make_shared<WatchState>(std::move(inotify_fd), std::move(wake_fd), std::move(on_change), std::move(options));
  try {
    state->watch(std::move(roots)); // before the thread exists: no lock needed
    return std::unique_ptr<SkillWatcher>(std::make_unique<InotifyWatcher>(std::move(state)));
  } catch (const std::exception& error) {
    // std::thread could not start (or memory ran out while walking the tree).
    return fail(ErrorCode::io_error, std::string("cannot start the watcher: ") + error.what());
  }
}

} // namespace skillrt::core
