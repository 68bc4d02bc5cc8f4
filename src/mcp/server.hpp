// The MCP server, transport-free: one Server per process holds what every
// session shares (config, the database store, catalog snapshots, the change
// feed); one Session per connected client holds what MCP negotiates
// (protocol version, log level, resource subscriptions) and who is calling.
// Transports (apps/skillrt/cmd_mcp.cpp for stdio, src/net for Streamable
// HTTP) only move message text in and out.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/store/store_source.hpp"
#include "core/tenancy/layer.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {
struct Catalog;
class EventBus;
struct SkillSearch;
struct SkillMatch;
struct MatchRequest;
}

namespace skillrt::mcp {

// Who is calling: from --user/--org on stdio, from a bearer token over HTTP.
// No user = single-user mode (shared layer only), as on the CLI.
struct Caller {
  std::optional<std::string> user_id;
  std::string org_id;
  // No token on `serve --allow-anonymous`: read-only, shared layer only
  // (core::Context::anonymous). stdio without --user is single-user mode instead.
  bool anonymous = false;
};

// Where a session's server-to-client messages go (notifications; one JSON-RPC
// message text, no trailing newline). Called from any thread (the watcher,
// other sessions' requests); must be thread-safe and must not block for long.
using MessageSink = std::function<void(std::string message)>;

struct ServerOptions {
  core::Context base;         // home, os, platform, cwd, env; user and org come from each session's Caller
  core::Config config;
  // The database, opened on first use. The server never picks or opens one
  // itself: apps/ composes it (store::store_source), tests hand in theirs.
  core::SkillStoreSource store;
  // Stores (database connections) opened at most, shared by all requests;
  // how long a request waits for a free one before it is refused as busy.
  std::size_t store_connections = 1;
  std::chrono::milliseconds store_wait{2000};
  std::string transport = "stdio";  // "stdio" | "http": only informs serverInfo/instructions
  // When true the server starts the inotify watcher and the database poller
  // itself (core/watch) and keeps catalog snapshots until they report a
  // change; when false every request rebuilds what it reads (tests, fuzzing).
  bool watch = true;
  // Debounce window of the watcher before list_changed goes out.
  std::uint32_t debounce_ms = 150;
  // A skill_view answer is cached only when every file it was computed from
  // is older than this (see ViewCache). Tests that write a skill and read it
  // at once set 0 instead of waiting the window out.
  std::chrono::milliseconds view_cache_racy_window{2000};
  // Poll the database's per-user change stamps (SkillStore::user_change_stamps)
  // every second for rows written by other processes. Replicas over a shared
  // change log turn it off: every write there arrives as a logged event.
  bool poll_database = true;
  // Replicas on a shared volume (issue 4/6): sweep the skill trees this often
  // for edits another machine made (inotify sees only this machine's); 0 =
  // no sweep. At most `sweep_max_entries` entries per sweep.
  std::chrono::milliseconds sweep_interval{0};
  // False: no inotify watches, only the sweep (a shared volume where inotify
  // would see this machine's writes only, and the watches cost kernel memory).
  bool inotify = true;
  std::size_t sweep_max_entries = 1'000'000;
  // The setup page of `skillrt serve` (`http://HOST:PORT/ui/setup.html`): a
  // client that supports URL-mode elicitation is sent there when skill_view
  // finds required variables missing (setup_elicitation.cpp). "" = no page
  // (stdio without --setup-url): clients get the setup note instead.
  std::string setup_url;
};

// What a session negotiated, to carry it to another replica (the 2025
// revisions keep state per session; net/ stores it in the shared database).
struct SessionState {
  std::string protocol_version;  // "" before initialize
  int log_level = -1;            // -1: the client asked for no log messages
  std::vector<std::pair<std::string, std::string>> subscriptions;  // resource uri, the file it names
};

// One request of the stateless 2026-07-28 revision, as a transport got it:
// the message and, over HTTP, the standard headers (SEP-2243) that must
// agree with it. Absent headers are nullopt.
struct StatelessRequest {
  std::string_view body;
  bool http = true;  // false on stdio: no headers to check
  std::optional<std::string_view> protocol_version;  // MCP-Protocol-Version
  std::optional<std::string_view> method;            // Mcp-Method
  std::optional<std::string_view> name;              // Mcp-Name
};

// Its answer. `text` is nullopt for a notification (HTTP 202). A refused
// envelope, version or header is 400 and an unknown method 404, as the
// revision says; every other answer, errors from handlers included, is 200.
struct StatelessAnswer {
  std::optional<std::string> text;
  int http_status = 200;
  // subscriptions/listen was accepted: `text` is the acknowledgement, and
  // the session now sends the notifications the filter asked for through
  // its sink until it is closed (the transport keeps the stream open).
  bool listening = false;
};

class Session;

class Server {
 public:
  // Never throws for bad configuration: problems surface as tool errors.
  explicit Server(ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // A new session for `caller`; its notifications go to `sink` (replaceable
  // with Session::set_sink). Thread-safe.
  std::shared_ptr<Session> open_session(Caller caller, MessageSink sink);
  // A session that another replica (or this one before a restart) started:
  // initialized, with `state`'s protocol version, log level and subscriptions.
  std::shared_ptr<Session> resume_session(Caller caller, MessageSink sink, const SessionState& state);

  // A session for one request of the 2026-07-28 revision (no initialize,
  // nothing kept): it hears no events unless the request is
  // subscriptions/listen. Cheaper than open_session. Thread-safe.
  std::shared_ptr<Session> open_stateless_session(Caller caller, MessageSink sink);

  // Number of sessions still open (for tests and the HTTP /health page).
  std::size_t session_count() const;
  // skill_view answers served from the view caches of the snapshots kept now
  // (a dropped snapshot takes its count with it); for tests and diagnostics.
  std::uint64_t view_cache_hits() const;

  // Drops every cached snapshot and tells every entitled session that
  // skills changed. `paths` are what changed on disk (empty = unknown, e.g.
  // the database); a path under HOME/users/<uid>/ concerns only <uid>.
  // Called by the watcher; public so tests can drive it without inotify.
  void notify_changed(const std::vector<std::filesystem::path>& paths);
  // The database changed for these users (from the poller or our own writes).
  void notify_store_changed(const std::vector<std::string>& user_ids);

  // --- What the REST API (src/api) shares with the sessions ------------------
  // The same caches, database and event bus as the MCP tools, so a write made
  // over one is seen at once over the other.

  // The base context with the caller's identity and this server's event bus.
  core::Context context_for(const Caller& caller) const;
  // The caller's catalog, as skills_list reads it: kept until the watcher or
  // a write reports a change (built on every call without a watcher).
  std::shared_ptr<const core::Catalog> catalog(const core::Context& ctx);
  // Runs `work` with the database (opened on first use) under its lock.
  Result<void> with_store(const std::function<Result<void>(core::SkillStore&)>& work);
  // skills_search over the caller's catalog: the search index is synced once
  // per kept catalog, not on every search (core/search/index_sync.hpp).
  Result<core::SkillSearch> search_skills(const core::Context& ctx, std::string_view query, std::size_t limit);
  // skills_match over the caller's catalog: its triggers are compiled once
  // per kept catalog (core/activation/match_skills.hpp).
  Result<core::SkillMatch> match_skills(const core::Context& ctx, const core::MatchRequest& request);
  // Counts a successful view in the caller's usage record, batched as skill_view's are.
  void note_view(const core::Context& ctx, core::Layer layer, const std::string& name);
  // The server's configuration (config.yaml as read at start).
  const core::Config& config() const;
  // The setup page finished request `id` of `user`: their open sessions get
  // notifications/elicitation/complete (2025-11-25's URL-mode close).
  void setup_completed(const std::optional<std::string>& user, const std::string& id);
  // Sets ServerOptions::setup_url once the listening address is known.
  void set_setup_url(std::string url);
  // The bus every write through this server publishes on (and the watcher's
  // file changes, as EventSubject::files): the REST event push subscribes.
  core::EventBus& events();

  struct Impl;

 private:
  std::shared_ptr<Impl> m_impl;
};

class Session {
 public:
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Handles one incoming JSON-RPC message text (one stdio line, one POST
  // body). Returns the response text for a request, or a JSON-RPC error
  // response for a malformed message; nullopt for notifications and for
  // responses from the client. Never throws.
  std::optional<std::string> handle(std::string_view message);

  // Handles one request of the 2026-07-28 revision (see StatelessRequest).
  // Never throws. handle() also takes such requests (a message whose
  // params._meta names the revision), answering them as this does.
  StatelessAnswer handle_stateless(const StatelessRequest& request);

  // True once `initialize` succeeded.
  bool initialized() const;
  // The negotiated protocol version ("" before initialize).
  std::string protocol_version() const;
  // What it negotiated so far, and a number that changes whenever that does
  // (initialize, logging/setLevel, resources/subscribe and unsubscribe).
  SessionState state() const;
  std::uint64_t state_version() const;
  const Caller& caller() const;

  void set_sink(MessageSink sink);
  // Sends what a client that missed notifications needs to catch up: both
  // list_changed and resources/updated for every subscription (a stream
  // resumed where its missed messages cannot be replayed).
  void resync();
  // No more notifications; later handle() calls still answer.
  void close();

  struct Impl;
  explicit Session(std::shared_ptr<Impl> impl);

 private:
  friend class Server;  // resume_session sets the negotiated state
  std::shared_ptr<Impl> m_impl;
};

// The 2025 protocol versions we speak, newest first; initialize picks the
// client's when listed, else the first. The HTTP transport accepts any of
// them in the MCP-Protocol-Version header of a session's requests.
const std::vector<std::string>& supported_protocol_versions();
// Every version we speak, the stateless 2026-07-28 first (server/discover's
// supportedVersions).
const std::vector<std::string>& all_protocol_versions();
// True for 2026-07-28 (the revisions without initialize and sessions).
bool is_stateless_protocol_version(std::string_view version);

}  // namespace skillrt::mcp
