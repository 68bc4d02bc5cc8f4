// Server: what every session shares — the options, the event bus, the
// database store, catalog snapshots per (user, org), the registry of open
// sessions, and the watcher that tells them when skills change.
#include <algorithm>
#include <chrono>
#include <exception>
#include <iostream>
#include <set>
#include <system_error>
#include <utility>

#include "core/discovery/roots.hpp"
#include "core/search/search_skills.hpp"
#include "mcp/resource_files.hpp"
#include "mcp/server_state.hpp"
#include "skillrt/try.hpp"

namespace skillrt::mcp {
namespace {

namespace fs = std::filesystem;

std::string snapshot_key(const core::Context& ctx) { return ctx.user_id.value_or("") + '\n' + ctx.org_id; }

std::shared_ptr<const Snapshot> build_snapshot(const core::Context& ctx, const ServerOptions& options) {
  const core::Config& config = options.config;
  // skills_list creates the local skills dir (spec §2.6 rule 1); failing to is
  // not an error, the catalog simply has no local root.
  std::error_code ec;
  fs::create_directories(ctx.skills_dir(), ec);
  auto snapshot = std::make_shared<Snapshot>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(options.view_cache_racy_window).count());
  // With legacy files collected, as view_skill builds it: view_skill_in must
  // answer exactly what view_skill would.
  snapshot->catalog = core::build_catalog(ctx, config, core::CatalogOptions{.collect_legacy = true});
  // A snapshot answers many lookups: index its names once (O(log n) each
  // instead of a scan of every record per skill_view).
  core::index_catalog_names(snapshot->catalog);
  snapshot->commands = core::scan_skill_commands(snapshot->catalog);
  const core::SkillRecord* first = snapshot->catalog.records.data();
  for (const core::SkillRecord* record : snapshot->catalog.sorted_listing(std::nullopt)) {
    std::string path = skill_path_of(snapshot->catalog, *record);
    // Two offered skills cannot share a name, so a clash needs two roots with
    // the same layout and a renamed directory; the first keeps the path.
    if (snapshot->by_path.count(path) != 0) {
      continue;
    }
    snapshot->by_path.emplace(path, snapshot->skills.size());
    snapshot->skills.push_back(static_cast<std::size_t>(record - first));
    snapshot->skill_paths.push_back(std::move(path));
  }
  return snapshot;
}

// The change log's key for "owner's trees went from fingerprint `before` to
// `after`": every replica that sees the same change computes the same key, so
// the log keeps one row. The change, not the state: trees that return to an
// earlier state (a folder added, then removed) are a new change again.
std::string sweep_key(const std::string& owner, std::uint64_t before, std::uint64_t after) {
  return "files:" + owner + ":" + std::to_string(before) + ":" + std::to_string(after);
}

fs::path normal_or_same(const fs::path& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? path.lexically_normal() : canonical;
}

// The user a changed path belongs to: "<uid>" for HOME/users/<uid>/skills
// and below, "" for a shared path, nullopt for anything else of a user
// (memory.json, todo.json, tmp/, the folder HOME/users/<uid> itself).
std::optional<std::string> owner_of(const fs::path& changed, const std::vector<fs::path>& users_dirs) {
  const fs::path path = changed.lexically_normal();
  for (const fs::path& users : users_dirs) {
    const fs::path relative = path.lexically_relative(users);
    if (relative.empty() || *relative.begin() == ".." || relative.is_absolute()) {
      continue;
    }
    auto part = relative.begin();
    if (*part == ".") {
      return std::nullopt;  // HOME/users itself: no skill changed until a user's skills folder does
    }
    std::string uid = part->string();
    ++part;
    // HOME/users/<uid> itself changes on every request of that user (its mode
    // is re-asserted when the roots are computed): reporting it would make
    // reads cause list_changed, and clients that re-list on it would loop.
    // Skills arrive through HOME/users/<uid>/skills, which is reported.
    if (part != relative.end() && *part == "skills") {
      return uid;
    }
    return std::nullopt;
  }
  return std::string();
}

}  // namespace

core::Context Server::Impl::context_for(const Caller& caller) {
  core::Context ctx = options.base;
  ctx.user_id = caller.user_id;
  ctx.org_id = caller.org_id;
  ctx.anonymous = caller.anonymous;
  ctx.events = &bus;
  return ctx;
}

std::shared_ptr<const Snapshot> Server::Impl::snapshot(const core::Context& ctx) {
  // Without a working watcher nothing would tell us a cached snapshot is
  // stale, so every request reads the disk again.
  if (!options.watch || watcher == nullptr) {
    return build_snapshot(ctx, options);
  }
  const std::string key = snapshot_key(ctx);
  std::uint64_t seen = 0;
  {
    std::lock_guard lock(snapshots_mutex);
    if (const auto found = snapshots.find(key); found != snapshots.end()) {
      return found->second;
    }
    seen = generation;
  }
  auto built = build_snapshot(ctx, options);
  std::lock_guard lock(snapshots_mutex);
  // A change reported while we walked may not be in what we read: serve it
  // to this request, but do not keep it.
  if (generation == seen) {
    snapshots[key] = built;
  }
  return built;
}

Result<core::SkillSearch> Server::Impl::search_skills(const core::Context& ctx, std::string_view query,
                                                     std::size_t limit) {
  // search_skills_in checks the request too; checking first spares a bad
  // request the snapshot (a catalog build when none is kept).
  SKILLRT_TRY(core::check_search_request(query, limit));
  const std::shared_ptr<const Snapshot> kept = snapshot(ctx);
  // A snapshot built for this request alone (no watcher) has a memo of its
  // own too, so then every search checks the files again, as it must.
  return with_store([&](core::SkillStore& store) {
    return core::search_skills_in(ctx, kept->catalog, store, query, limit, &kept->search_memo);
  });
}

Result<core::SkillMatch> Server::Impl::match_skills(const core::Context& ctx, const core::MatchRequest& request) {
  SKILLRT_TRY(core::check_match_request(request));
  const std::shared_ptr<const Snapshot> kept = snapshot(ctx);
  return with_store([&](core::SkillStore& store) {
    return core::match_skills_in(ctx, kept->catalog, store, request, &kept->activation_memo);
  });
}

void Server::Impl::invalidate(const std::optional<std::string>& user) {
  std::lock_guard lock(snapshots_mutex);
  ++generation;
  if (!user) {
    snapshots.clear();
    return;
  }
  const std::string prefix = *user + '\n';
  std::erase_if(snapshots, [&](const auto& entry) { return entry.first.compare(0, prefix.size(), prefix) == 0; });
}

std::vector<std::shared_ptr<Session::Impl>> Server::Impl::live_sessions() {
  std::vector<std::shared_ptr<Session::Impl>> live;
  std::lock_guard lock(sessions_mutex);
  std::erase_if(sessions, [&](const std::weak_ptr<Session::Impl>& weak) {
    auto session = weak.lock();
    if (!session) {
      return true;
    }
    bool closed = false;
    {
      std::lock_guard session_lock(session->mutex);
      closed = session->closed;
    }
    if (!closed) {
      live.push_back(std::move(session));
    }
    return closed;
  });
  return live;
}

void Server::Impl::announce(const std::function<bool(const Caller&)>& entitled,
                            const std::vector<fs::path>& paths) {
  for (const auto& session : live_sessions()) {
    if (entitled(session->caller)) {
      session->skills_changed(paths);
    }
  }
}

void Server::Impl::poll_store() {
  {
    // Polling must not create HOME/skillrt.db in a home that never used the
    // database: no file, no rows, nothing to compare yet.
    const bool absent = !options.store.open || (options.store.exists && !options.store.exists());
    if (!stores.any_open() && absent) {
      store_stamps.clear();
      store_stamps_known = true;  // no rows yet: the first rows will be news
      return;
    }
  }
  auto stamps = with_store([](core::SkillStore& opened) { return opened.user_change_stamps(); });
  if (!stamps) {
    return;  // no database (yet): nothing to compare
  }
  std::map<std::string, std::string> now;
  for (core::DocStamp& stamp : *stamps) {
    now.emplace(std::move(stamp.key), std::move(stamp.stamp));
  }
  std::vector<std::string> changed;
  if (store_stamps_known) {
    for (const auto& [user, stamp] : now) {
      const auto before = store_stamps.find(user);
      if (before == store_stamps.end() || before->second != stamp) {
        changed.push_back(user);
      }
    }
    for (const auto& [user, stamp] : store_stamps) {
      if (now.count(user) == 0) {
        changed.push_back(user);
      }
    }
  }
  store_stamps = std::move(now);
  store_stamps_known = true;
  if (!changed.empty()) {
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    for (const std::string& user : changed) {
      invalidate(user);
    }
    const std::set<std::string> affected(changed.begin(), changed.end());
    // Database rows are no skill:// files: list_changed only.
    for (const auto& session : live_sessions()) {
      if (session->caller.user_id && affected.count(*session->caller.user_id) != 0) {
        session->skills_changed({fs::path("db:")});
      }
    }
  }
}

void Server::Impl::start_watching() {
  const core::RootSet roots = core::compute_roots(options.base, options.config.skills, options.config.plugins);
  shared_roots = {options.base.skills_dir()};
  for (const core::Root& root : roots.roots) {
    shared_roots.push_back(root.path);
  }
  // A plugin added, removed or edited (its manifest) changes the catalog too.
  shared_roots.push_back(core::shared_plugins_dir(options.base));
  for (const fs::path& folder : roots.plugin_folders) {
    shared_roots.push_back(folder);
  }
  std::sort(shared_roots.begin(), shared_roots.end());
  shared_roots.erase(std::unique(shared_roots.begin(), shared_roots.end()), shared_roots.end());
  std::vector<fs::path> watched;
  if (options.inotify) {
    watched = shared_roots;
    watched.push_back(options.base.home / "users");
  }
  // The baselines: a row written (or a file edited) between now and the
  // watcher's first poll is then a change like any later one.
  if (options.poll_database) {
    poll_store();
  }
  if (options.sweep_interval.count() > 0) {
    sweep();
  }
  const auto now = std::chrono::steady_clock::now();
  next_store_poll = now + std::chrono::seconds(1);
  next_sweep = now + options.sweep_interval;
  core::SkillWatcher::Options watch_options;
  watch_options.debounce = std::chrono::milliseconds(options.debounce_ms);
  watch_options.poll = [this] { poll(); };
  // Often enough for the shortest of the two periods above.
  watch_options.poll_interval = std::chrono::milliseconds(
      options.sweep_interval.count() > 0 ? std::min<long long>(options.sweep_interval.count(), 1000) : 1000);
  // The watcher thread calls back until the watcher is destroyed, which
  // ~Server does before this Impl can go away.
  auto started = core::SkillWatcher::start(
      std::move(watched),
      [this](std::vector<fs::path> changed) {
        try {
          files_changed(changed);
        } catch (const std::exception& error) {
          std::cerr << "skillrt mcp: change notification failed: " << error.what() << '\n';
        }
      },
      std::move(watch_options));
  if (!started) {
    // Serving still works: every request then reads the disk again.
    std::cerr << "skillrt mcp: warning: not watching skills for changes: " << started.error().message << '\n';
    return;
  }
  watcher = std::move(*started);
}

void Server::Impl::files_changed(const std::vector<fs::path>& paths) {
  const fs::path users = options.base.home / "users";
  const std::vector<fs::path> users_dirs{users.lexically_normal(), normal_or_same(users)};
  bool shared = paths.empty();
  std::map<std::string, std::vector<fs::path>> owners;  // "" = shared
  for (const fs::path& path : paths) {
    // The shared usage book (HOME/skills/.usage.json, its lock and its
    // temporary file) changes with every batch of counted views: a count never
    // changes what a skill says, and announcing it would make reads cause
    // list_changed.
    if (const std::string name = path.filename().string();
        name.starts_with(".usage.json") || name.starts_with("..usage.json")) {
      continue;
    }
    const auto owner = owner_of(path, users_dirs);
    if (!owner) {
      continue;
    }
    shared = shared || owner->empty();
    owners[*owner].push_back(path);
  }
  // One `files` event per owner: the server's own subscription (on_event)
  // drops the snapshots and tells the entitled sessions, on this replica and,
  // through the change log, on every other. The REST event push forwards it
  // without paths: a client refetches what it shows.
  const auto publish_files = [&](core::Layer layer, const std::string& owner, const std::vector<fs::path>& changed) {
    core::SkillEvent event;
    event.subject = core::EventSubject::files;
    event.layer = layer;
    event.owner = owner;
    // The folder holding every changed path: resources/updated goes to the
    // subscriptions below it ("" = every subscription the owner may see).
    if (changed.size() == 1) {
      event.location = changed.front().string();
    } else if (!changed.empty()) {
      fs::path common = changed.front().parent_path();
      for (const fs::path& path : changed) {
        while (!common.empty() && path.lexically_relative(common).native().starts_with("..")) {
          common = common.parent_path();
        }
      }
      event.location = common.string();
    }
    event.dedupe_key = observe_owner(owner);
    bus.publish(std::move(event));
  };
  if (shared) {
    // Anything shared changed: every snapshot is stale and every session may see it.
    publish_files(core::Layer::shared, "", paths);
    return;
  }
  for (const auto& [owner, changed] : owners) {
    publish_files(core::Layer::user, owner, changed);
  }
}

void Server::Impl::on_event(const core::SkillEvent& event) {
  if (event.subject != core::EventSubject::skill && event.subject != core::EventSubject::files) {
    return;  // proposals, reviews, installs change no catalog
  }
  const bool shared = event.layer == core::Layer::shared;
  invalidate(shared ? std::nullopt : std::optional<std::string>(event.owner));
  if (event.subject == core::EventSubject::skill) {
    return;  // sessions hear of a skill write through their own subscription
  }
  std::vector<fs::path> paths;
  if (!event.location.empty()) {
    paths.emplace_back(event.location);
  }
  if (shared) {
    announce([](const Caller&) { return true; }, paths);
  } else {
    announce([&](const Caller& caller) { return caller.user_id && *caller.user_id == event.owner; }, paths);
  }
}

std::vector<fs::path> Server::Impl::owner_roots(const std::string& owner) const {
  if (owner.empty()) {
    return shared_roots;
  }
  return {options.base.home / "users" / owner / "skills"};
}

std::string Server::Impl::observe_owner(const std::string& owner) {
  if (options.sweep_interval.count() == 0) {
    return {};
  }
  std::lock_guard lock(sweep_mutex);
  return sweep_owner_locked(owner, /*present=*/true).value_or(std::string());
}

std::optional<std::string> Server::Impl::sweep_owner_locked(const std::string& owner, bool present) {
  std::uint64_t after = 0;
  if (present) {
    after = sweepers[owner].fingerprint(owner_roots(owner), options.sweep_max_entries).value;
  } else {
    sweepers.erase(owner);
  }
  const auto noted = swept.find(owner);
  const std::uint64_t before = noted == swept.end() ? 0 : noted->second;
  if (present) {
    swept[owner] = after;
  } else if (noted != swept.end()) {
    swept.erase(noted);
  }
  if (noted != swept.end() && before == after) {
    return std::nullopt;
  }
  return sweep_key(owner, before, after);
}

void Server::Impl::sweep() {
  // Who has trees now: the shared roots, and every HOME/users/<uid>/skills.
  std::set<std::string> owners{""};
  std::error_code ec;
  for (fs::directory_iterator it(options.base.home / "users", ec), end; !ec && it != end; it.increment(ec)) {
    std::string uid = it->path().filename().string();
    if (!uid.starts_with('.') && fs::is_directory(it->path() / "skills", ec)) {
      owners.insert(std::move(uid));
    }
    ec.clear();
  }
  std::vector<std::pair<std::string, std::string>> changed;  // owner, dedupe key
  {
    std::lock_guard lock(sweep_mutex);
    // The first sweep only sets the baselines.
    const bool baseline = !swept_known;
    swept_known = true;
    std::set<std::string> gone;
    for (const auto& [owner, value] : swept) {
      if (owners.count(owner) == 0) {
        gone.insert(owner);
      }
    }
    for (const std::string& owner : owners) {
      if (auto key = sweep_owner_locked(owner, true); key && !baseline) {
        changed.emplace_back(owner, std::move(*key));
      }
    }
    for (const std::string& owner : gone) {
      if (auto key = sweep_owner_locked(owner, false)) {
        changed.emplace_back(owner, std::move(*key));  // the owner's tree went away
      }
    }
  }
  for (const auto& [owner, key] : changed) {
    core::SkillEvent event;
    event.subject = core::EventSubject::files;
    event.layer = owner.empty() ? core::Layer::shared : core::Layer::user;
    event.owner = owner;
    event.dedupe_key = key;
    bus.publish(std::move(event));
  }
}

void Server::Impl::poll() {
  const auto now = std::chrono::steady_clock::now();
  if (options.poll_database && now >= next_store_poll) {
    next_store_poll = now + std::chrono::seconds(1);
    poll_store();
  }
  if (options.sweep_interval.count() > 0 && now >= next_sweep) {
    next_sweep = now + options.sweep_interval;
    sweep();
  }
}

Server::Server(ServerOptions options) : m_impl(std::make_shared<Impl>(std::move(options))) {
  m_impl->setup_url = m_impl->options.setup_url;
  // Writes made through this server (MCP tools, the REST API) drop the cached
  // snapshots they make stale before any session hears of them: the next
  // request sees the write whether or not the watcher reports it later.
  std::weak_ptr<Impl> weak = m_impl;
  m_impl->own_writes = m_impl->bus.subscribe_every_owner([weak](const core::SkillEvent& event) {
    if (auto impl = weak.lock()) {
      impl->on_event(event);
    }
  });
  if (m_impl->options.watch) {
    m_impl->start_watching();
  }
}

Server::~Server() {
  // Stop the watcher thread first: sessions may keep the Impl alive, but no
  // callback may run once the Server is gone.
  m_impl->watcher.reset();
  for (const auto& session : m_impl->live_sessions()) {
    session->stop_events();
  }
}

std::shared_ptr<Session> Server::open_session(Caller caller, MessageSink sink) {
  auto impl = std::make_shared<Session::Impl>(m_impl, std::move(caller), std::move(sink));
  m_impl->attach_events(impl);
  return std::make_shared<Session>(std::move(impl));
}

std::shared_ptr<Session> Server::open_stateless_session(Caller caller, MessageSink sink) {
  auto impl = std::make_shared<Session::Impl>(m_impl, std::move(caller), std::move(sink));
  impl->modern = true;
  impl->protocol_version = "2026-07-28";
  return std::make_shared<Session>(std::move(impl));
}

void Server::Impl::attach_events(const std::shared_ptr<Session::Impl>& impl) {
  std::weak_ptr<Session::Impl> weak = impl;
  auto subscription = bus.subscribe(impl->caller.user_id, [weak](const core::SkillEvent& event) {
    auto session = weak.lock();
    // Only skill writes: file changes reach sessions through the server's
    // own on_event, proposals and reviews not at all.
    if (!session || event.subject != core::EventSubject::skill) {
      return;
    }
    // The server's own subscription (made first) already dropped the stale snapshots.
    if (event.layer == core::Layer::database) {
      session->skills_changed({fs::path("db:")});
    } else {
      session->skills_changed({fs::path(event.location).parent_path()});
    }
  });
  {
    std::lock_guard lock(impl->events_mutex);
    impl->events = std::move(subscription);
    impl->events_attached = true;
  }
  {
    std::lock_guard lock(sessions_mutex);
    // Forget sessions that are gone: a weak_ptr keeps the memory of a
    // make_shared object, so the registry must not grow with every client.
    std::erase_if(sessions, [](const std::weak_ptr<Session::Impl>& entry) { return entry.expired(); });
    sessions.push_back(impl);
  }
}

std::shared_ptr<Session> Server::resume_session(Caller caller, MessageSink sink, const SessionState& state) {
  std::shared_ptr<Session> session = open_session(std::move(caller), std::move(sink));
  Session::Impl& impl = *session->m_impl;
  std::lock_guard lock(impl.mutex);
  impl.initialized = true;
  impl.protocol_version = state.protocol_version;
  impl.log_level = state.log_level;
  for (const auto& [uri, file] : state.subscriptions) {
    impl.subscriptions.emplace(uri, fs::path(file));
  }
  impl.state_version = 1;
  return session;
}

std::size_t Server::session_count() const { return m_impl->live_sessions().size(); }

void Server::notify_changed(const std::vector<fs::path>& paths) { m_impl->files_changed(paths); }

core::Context Server::context_for(const Caller& caller) const { return m_impl->context_for(caller); }

std::shared_ptr<const core::Catalog> Server::catalog(const core::Context& ctx) {
  std::shared_ptr<const Snapshot> snapshot = m_impl->snapshot(ctx);
  // Aliasing: the catalog keeps its whole snapshot alive.
  return {snapshot, &snapshot->catalog};
}

Result<void> Server::with_store(const std::function<Result<void>(core::SkillStore&)>& work) {
  return m_impl->with_store(work);
}

Result<core::SkillSearch> Server::search_skills(const core::Context& ctx, std::string_view query, std::size_t limit) {
  return m_impl->search_skills(ctx, query, limit);
}

Result<core::SkillMatch> Server::match_skills(const core::Context& ctx, const core::MatchRequest& request) {
  return m_impl->match_skills(ctx, request);
}

void Server::note_view(const core::Context& ctx, core::Layer layer, const std::string& name) {
  m_impl->usage.note(ctx, layer, name, core::UsageEvent::view);
}

const core::Config& Server::config() const { return m_impl->options.config; }

void Server::set_setup_url(std::string url) {
  std::lock_guard lock(m_impl->setup_url_mutex);
  m_impl->setup_url = std::move(url);
}

void Server::setup_completed(const std::optional<std::string>& user, const std::string& id) {
  Json params = Json::object();
  params["elicitationId"] = id;
  for (const auto& session : m_impl->live_sessions()) {
    if (session->caller.user_id == user) {
      session->send(session->notification("notifications/elicitation/complete", params));
    }
  }
}

core::EventBus& Server::events() { return m_impl->bus; }

std::uint64_t Server::view_cache_hits() const {
  std::lock_guard lock(m_impl->snapshots_mutex);
  std::uint64_t hits = 0;
  for (const auto& [key, snapshot] : m_impl->snapshots) {
    hits += snapshot->views.hits();
  }
  return hits;
}

void Server::notify_store_changed(const std::vector<std::string>& user_ids) {
  const std::set<std::string> affected(user_ids.begin(), user_ids.end());
  for (const std::string& user : affected) {
    m_impl->invalidate(user);
  }
  for (const auto& session : m_impl->live_sessions()) {
    if (session->caller.user_id && affected.count(*session->caller.user_id) != 0) {
      session->skills_changed({fs::path("db:")});
    }
  }
}

}  // namespace skillrt::mcp
