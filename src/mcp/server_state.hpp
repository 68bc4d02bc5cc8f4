// Internal to src/mcp: what Server and Session hold, and the signature every
// MCP method handler shares. Transports include server.hpp only.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/activation/match_skills.hpp"
#include "core/commands/skill_commands.hpp"
#include "core/discovery/catalog.hpp"
#include "core/events/event_bus.hpp"
#include "core/search/index_sync.hpp"
#include "core/search/search_skills.hpp"
#include "core/store/skill_store.hpp"
#include "core/usage/usage_tally.hpp"
#include "core/watch/skill_watcher.hpp"
#include "core/watch/tree_fingerprint.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/server.hpp"
#include "mcp/store_pool.hpp"
#include "mcp/view_cache.hpp"
#include "skillrt/result.hpp"

namespace skillrt::mcp {

// What one method answers. Most methods build a result object; a tool call
// hands over its result already serialized (`serialized`, the text of the
// result object), because its payload is written twice (as text content and
// as structuredContent) and a skill body escaped through nested JSON trees
// three times was the largest cost of skill_view (bench/README.md).
struct MethodOutput {
  MethodOutput(Json result) : value(std::move(result)) {}  // NOLINT(google-explicit-constructor)
  static MethodOutput serialized_text(std::string text) {
    MethodOutput out(Json(nullptr));
    out.serialized = std::move(text);
    return out;
  }
  Json value;
  std::optional<std::string> serialized;
};

// What one method answers: its result, or a protocol fault.
using MethodResult = tl::expected<MethodOutput, RpcError>;

// One caller's view of the skills at one moment: the catalog, its slash
// commands and the skill:// paths of the offered skills. Immutable once built
// (except for the skills-extension entry cache, which has its own lock), so
// any number of requests read it at once.
struct Snapshot {
  core::Catalog catalog;
  core::SkillCommands commands;
  // Offered skills in listing order (indices into catalog.records) and the
  // skill path of each (the `<skill-path>` of skill://<skill-path>/<file>).
  std::vector<std::size_t> skills;
  std::vector<std::string> skill_paths;
  std::unordered_map<std::string, std::size_t> by_path;  // skill path → position in `skills`

  // skills/list entries already hashed, by position in `skills`.
  mutable std::mutex entries_mutex;
  mutable std::unordered_map<std::size_t, Json> entries;

  // skill_view answers without file_path, by the name asked for.
  mutable ViewCache views;

  // The search index synced with `catalog` once, and its listed paths.
  mutable core::CatalogSearchMemo search_memo;
  // The listed skills' triggers, compiled on the first match.
  mutable core::CatalogActivationMemo activation_memo;

  explicit Snapshot(std::int64_t view_racy_window_ns) : views(view_racy_window_ns) {}
};

struct Server::Impl {
  ServerOptions options;
  core::EventBus bus;
  core::EventBus::Subscription own_writes;  // drops stale snapshots on every change event (Server's constructor)

  StorePool stores;  // the database connections (store_pool.hpp)

  std::mutex snapshots_mutex;
  std::map<std::string, std::shared_ptr<const Snapshot>> snapshots;  // key: user '\n' org
  std::uint64_t generation = 0;  // bumped by every invalidation

  mutable std::mutex sessions_mutex;
  std::vector<std::weak_ptr<Session::Impl>> sessions;

  // skill_view and prompts/get counts, written in batches (usage_tally.hpp).
  core::UsageTally usage;

  std::unique_ptr<core::SkillWatcher> watcher;
  std::map<std::string, std::string> store_stamps;  // user → change stamp (poller thread only)
  bool store_stamps_known = false;
  std::chrono::steady_clock::time_point next_store_poll{};
  std::chrono::steady_clock::time_point next_sweep{};

  // The stat sweep (options.sweep_interval): the fingerprint of each owner's
  // trees ("" = the shared roots) when last looked at.
  std::mutex sweep_mutex;  // held for a whole sweep of an owner's trees
  std::map<std::string, std::uint64_t> swept;
  std::map<std::string, core::TreeSweeper> sweepers;  // each owner's remembered listings
  bool swept_known = false;
  std::vector<std::filesystem::path> shared_roots;  // set by start_watching
  // ServerOptions::setup_url, replaceable once the listener knows its port.
  mutable std::mutex setup_url_mutex;
  std::string setup_url;
  std::string current_setup_url() const {
    std::lock_guard lock(setup_url_mutex);
    return setup_url;
  }

  explicit Impl(ServerOptions opts)
      : options(std::move(opts)),
        stores(options.store, StorePool::Options{options.store_connections, options.store_wait, 256}) {}

  // The context of a caller: the base with the caller's identity and our bus.
  core::Context context_for(const Caller& caller);
  // The caller's current snapshot (cached when watching, else built now).
  std::shared_ptr<const Snapshot> snapshot(const core::Context& ctx);
  // skills_search over ctx's snapshot (Server::search_skills).
  Result<core::SkillSearch> search_skills(const core::Context& ctx, std::string_view query, std::size_t limit);
  // skills_match over ctx's snapshot (Server::match_skills).
  Result<core::SkillMatch> match_skills(const core::Context& ctx, const core::MatchRequest& request);
  // Drops the snapshots of `user` (nullopt: every snapshot).
  void invalidate(const std::optional<std::string>& user);
  // Runs `work` with a store of the pool; the open error or busy otherwise.
  template <typename Work> auto with_store(Work&& work) -> decltype(work(std::declval<core::SkillStore&>()));
  // Live sessions (expired and closed ones are pruned).
  std::vector<std::shared_ptr<Session::Impl>> live_sessions();
  // Tells the sessions `entitled` selects that skills changed.
  void announce(const std::function<bool(const Caller&)>& entitled,
                const std::vector<std::filesystem::path>& paths);
  // What notify_changed does: one `files` event per owner of the paths.
  void files_changed(const std::vector<std::filesystem::path>& paths);
  // The server's own handling of every bus event (own_writes): drops the
  // snapshots it makes stale; for `files` events also tells the entitled
  // sessions (a `skill` event reaches them through their own subscription).
  void on_event(const core::SkillEvent& event);
  // Subscribes `session` to the bus and lists it among the live sessions
  // (what open_session does; a stateless session does it when it listens).
  void attach_events(const std::shared_ptr<Session::Impl>& session);
  void start_watching();
  void poll();  // the watcher thread's periodic work: poll_store and sweep when due
  void poll_store();
  void sweep();
  // The trees of `owner` ("" = the shared roots).
  std::vector<std::filesystem::path> owner_roots(const std::string& owner) const;
  // The fingerprint of `owner`'s trees, noted as seen; the dedupe key of an
  // event about them ("" when sweeping is off).
  std::string observe_owner(const std::string& owner);
  // One owner's step of a sweep, under sweep_mutex: fingerprints its trees
  // (`present` false: they are gone) and returns the change's dedupe key, or
  // nullopt when nothing changed since the fingerprint noted last.
  std::optional<std::string> sweep_owner_locked(const std::string& owner, bool present);
};

template <typename Work>
auto Server::Impl::with_store(Work&& work) -> decltype(work(std::declval<core::SkillStore&>())) {
  auto lease = stores.acquire();
  if (!lease) {
    return tl::unexpected(lease.error());
  }
  return work(**lease);
}

// MCP logging levels, least severe first; -1 = the client asked for none.
int log_level_rank(std::string_view level);  // -1 for an unknown name
inline constexpr int k_log_level_warning = 3;

struct Session::Impl : std::enable_shared_from_this<Session::Impl> {
  std::shared_ptr<Server::Impl> server;
  Caller caller;
  core::Context ctx;

  mutable std::mutex mutex;  // guards the negotiated state below
  bool initialized = false;
  bool closed = false;
  std::string protocol_version;
  int log_level = -1;
  std::map<std::string, std::filesystem::path> subscriptions;  // uri → file
  std::uint64_t state_version = 0;  // bumped whenever the negotiated state above changes
  // The client speaks the stateless 2026-07-28 revision (it sent a request
  // with its envelope): log messages follow each request's _meta logLevel.
  bool modern = false;
  // An open subscriptions/listen (2026-07-28): the request's id and the
  // notifications it asked for. Set once; notifications then go out only
  // as the filter says, each tagged with the id.
  struct Listening {
    Json id;
    bool tools = false;
    bool prompts = false;
    bool resources = false;
  };
  std::optional<Listening> listening;
  // What the client said it can do: initialize's `capabilities` (2025), or
  // the clientCapabilities of the request being answered (2026-07-28).
  Json client_capabilities = Json::object();
  // 2025-11-25: the setup request already offered for a skill in this
  // session (skill → request id): viewing the skill again while it waits
  // sends no second elicitation (setup_elicitation.cpp).
  std::map<std::string, std::string> offered_setups;

  std::mutex sink_mutex;
  std::shared_ptr<const MessageSink> sink;
  std::mutex events_mutex;  // never taken by the event handler itself
  core::EventBus::Subscription events;
  bool events_attached = false;  // attach_events ran (guarded by events_mutex)

  Impl(std::shared_ptr<Server::Impl> owner, Caller who, MessageSink out);

  // Ends the event subscription (waits for a delivery in flight elsewhere).
  void stop_events();
  // Sends one message text through the sink (nothing once closed).
  void send(std::string text);
  // notifications/message at `level` when the client enabled it.
  void log(int level, std::string_view level_name, const std::string& text);
  // list_changed for resources and prompts, and resources/updated for every
  // subscribed file under one of `paths` (empty paths: every subscription).
  void skills_changed(const std::vector<std::filesystem::path>& paths);
  std::optional<std::string> handle(std::string_view message);
  StatelessAnswer handle_stateless(const StatelessRequest& request);
  // A request of the 2026-07-28 revision, parsed.
  StatelessAnswer handle_modern(const RpcCall& call, const StatelessRequest& request);
  // subscriptions/listen: checks the filter, subscribes to what it names
  // and answers with the acknowledgement.
  StatelessAnswer listen(const RpcCall& call);
  // A notification to send: tagged with the listen id when listening.
  std::string notification(std::string_view method, std::optional<Json> params) const;
};

// skill_view of a skill whose required variables are missing, for a client
// that can open a URL-mode elicitation and a server with a setup page
// (setup_elicitation.cpp): a 2026-07-28 request gets an input_required
// result sending the person to the page; a 2025-11-25 session gets an
// elicitation/create request, and the view's setup_note says so. nullopt:
// answer the view as it is (no page, no capable client, or the retry of an
// input_required answer). `payload` is the view's JSON text.
std::optional<MethodOutput> offer_setup(Session::Impl& session, const Json& call_params, const std::string& skill,
                                        const std::string& payload);

// --- method handlers (one file each) ------------------------------------------
Json tool_definitions();
MethodResult call_tool(Session::Impl& session, const Json& params);
MethodResult list_prompts(Session::Impl& session, const Json& params);
MethodResult get_prompt(Session::Impl& session, const Json& params);
MethodResult list_resources(Session::Impl& session, const Json& params);
MethodResult list_resource_templates(Session::Impl& session, const Json& params);
MethodResult read_resource(Session::Impl& session, const Json& params);
MethodResult subscribe_resource(Session::Impl& session, const Json& params);
MethodResult unsubscribe_resource(Session::Impl& session, const Json& params);
MethodResult list_skills_extension(Session::Impl& session, const Json& params);
MethodResult get_skill_extension(Session::Impl& session, const Json& params);
MethodResult read_skill_directory(Session::Impl& session, const Json& params);
MethodResult complete(Session::Impl& session, const Json& params);

// --- params ---------------------------------------------------------------------
// params[key] as a string: nullopt when absent (or null); an invalid-params
// error naming the key when present with another type, or absent but required.
tl::expected<std::optional<std::string>, RpcError> string_param(const Json& params, const char* key, bool required);
RpcError invalid_params(std::string message);
// A pagination cursor: the offset it encodes ("" / absent = 0), or an error.
tl::expected<std::size_t, RpcError> cursor_offset(const Json& params);
std::string make_cursor(std::size_t offset);

}  // namespace skillrt::mcp
