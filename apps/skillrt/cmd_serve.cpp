// `skillrt serve [--listen HOST:PORT] [--allow-anonymous] [--allowed-host NAME]... [--threads N]
//   [--upstream URL [--upstream-key-env NAME] [--upstream-timeout S]] [--web-root DIR | --no-web-ui]`:
// MCP over Streamable HTTP at http://HOST:PORT/mcp (issue 4/5 item 1). Every
// request names its caller with `Authorization: Bearer <token>` (tokens from
// `skillrt token create`, checked in the skills database); --allow-anonymous
// lets token-less requests in as the anonymous caller, on loopback only.
// Prints `listening http://HOST:PORT/mcp` once bound; SIGINT/SIGTERM stop it.
// The same port serves the REST API at /api/v1 (src/api) with the same tokens.
// With --upstream URL it is also an OpenAI-compatible proxy: agents point
// their base URL at http://HOST:PORT/v1 and use a skillrt token as their API
// key; the calls go to URL with the key from --upstream-key-env, and each one
// moves the caller's nudge counters (proxy_observer.hpp). The proxy's URL is
// printed on stderr (stdout keeps the one listening line scripts parse).
// The web UI is at http://HOST:PORT/ (sign in with a token; src/web), unless
// --no-web-ui; --web-root serves its files from a folder instead of the
// built-in copy.
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/event_feed.hpp"
#include "api/rest_api.hpp"
#include "command.hpp"
#include "sources/source_fetcher.hpp"
#include "core/events/change_relay.hpp"
#include "core/limits.hpp"
#include "core/review/review_scheduler.hpp"
#include "core/view/dotenv.hpp"
#include "mcp/server.hpp"
#include "net/auth_cache.hpp"
#include "net/http_rules.hpp"
#include "net/mcp_http_server.hpp"
#include "net/proxy_rules.hpp"
#include "net/token_authenticator.hpp"
#include "proxy_observer.hpp"
#include "review_runner.hpp"
#include "core/store/skill_store.hpp"
#include "skillrt/try.hpp"
#include "store/open_store.hpp"

namespace skillrt::app {
namespace {


struct ListenAddress {
  std::string host;
  std::uint16_t port = 0;
};

// "HOST:PORT", "[::1]:PORT"; the port may be 0 (any free port).
std::optional<ListenAddress> parse_listen(const std::string& text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size() || text.size() - colon - 1 > 5) {
    return std::nullopt;
  }
  ListenAddress address;
  address.host = text.substr(0, colon);
  if (address.host.front() == '[') {
    if (address.host.size() < 3 || address.host.back() != ']') {
      return std::nullopt;
    }
    address.host = address.host.substr(1, address.host.size() - 2);
  } else if (address.host.find(':') != std::string::npos) {
    return std::nullopt;  // a bare IPv6 address needs brackets
  }
  unsigned long port = 0;
  for (std::size_t i = colon + 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return std::nullopt;
    }
    port = port * 10 + static_cast<unsigned long>(text[i] - '0');
  }
  if (port > 65535) {
    return std::nullopt;
  }
  address.port = static_cast<std::uint16_t>(port);
  return address;
}

std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

class ServeCommand final : public Command {
 public:
  const char* name() const override { return "serve"; }
  const char* summary() const override { return "Serve the skills over MCP Streamable HTTP (at /mcp)"; }
  void configure(CLI::App& sub) override {
    sub.add_option("--listen", m_listen, "Address to listen on, HOST:PORT (default 127.0.0.1:8787; port 0 = any free)");
    sub.add_option("--public-url", m_public_url,
                   "The origin people reach this server at (https://skills.example.com), for the links it hands "
                   "out such as the setup page (default http://HOST:PORT of --listen)")
        ->check([](const std::string& url) {
          const bool scheme = url.starts_with("http://") || url.starts_with("https://");
          return scheme && !url.ends_with("/") ? std::string() : std::string("an http(s) origin without a trailing /");
        });
    sub.add_flag("--allow-anonymous", m_allow_anonymous,
                 "Let requests without a bearer token in as the anonymous caller (loopback addresses only)");
    sub.add_option("--allowed-host", m_allowed_hosts,
                   "Host name accepted in Host/Origin besides the loopback names (repeatable)");
    sub.add_option("--threads", m_threads, "I/O threads (default 2)")->check(CLI::Range(1u, 64u));
    sub.add_option("--upstream", m_upstream,
                   "Also serve an OpenAI-compatible proxy at /v1 relaying to this chat-completions base URL "
                   "(http://HOST:PORT/v1); each call counts towards the background review");
    sub.add_option("--upstream-key-env", m_upstream_key_env,
                   "Environment variable (or HOME/.env entry) holding the upstream's API key (default OPENAI_API_KEY)");
    sub.add_option("--upstream-timeout", m_upstream_timeout_s,
                   "Seconds to wait for the upstream's answer, and at most between two pieces of a stream (default 600)")
        ->check(CLI::Range(1u, 86'400u));
    sub.add_option("--web-root", m_web_root,
                   "Serve the web UI's files from this folder instead of the built-in copy (UI development)")
        ->check(CLI::ExistingDirectory);
    sub.add_flag("--no-web-ui", m_no_web_ui, "Do not serve the web UI at / (nor sign-in cookies)");
    sub.add_option("--db-connections", m_db_connections,
                   "Database connections the requests share (default 4 over PostgreSQL, 1 on SQLite); the "
                   "replica also keeps up to 4 more (tokens, change log, its listener, MCP sessions)")
        ->check(CLI::Range(1u, 256u));
    sub.add_option("--db-wait-ms", m_db_wait_ms,
                   "How long a request waits for a free database connection before it is refused as busy "
                   "(503 with Retry-After on the REST API; default 2000)")
        ->check(CLI::Range(1u, 60'000u));
    sub.add_option("--auth-cache-ms", m_auth_cache_ms,
                   "Reuse a successful token check this long: the longest a token revoked anywhere (another "
                   "replica, the CLI) keeps working here (default 750; 0 = check every request)")
        ->check(CLI::Range(0u, 3'600'000u));
    sub.add_option("--max-connections", m_max_connections,
                   "Open sockets (requests, event streams, WebSockets) at most (default 1024)")
        ->check(CLI::Range(1u, 1'000'000u));
    sub.add_option("--sweep-interval-ms", m_sweep_interval_ms,
                   "Over PostgreSQL (replicas on a shared volume): look for skill files another machine changed "
                   "this often (default 2000; 0 = never, when every replica is on this machine)")
        ->check(CLI::Range(0u, 3'600'000u));
    sub.add_option("--drain-seconds", m_drain_seconds,
                   "On SIGTERM or SIGINT: stop accepting, fail /readyz, close streams and sockets (1001), and "
                   "let requests in flight finish for at most this long (default 10; 0 = stop at once)")
        ->check(CLI::Range(0u, 3'600u));
    sub.add_flag("--no-inotify", m_no_inotify,
                 "Find skill file changes by the sweep alone (needs --sweep-interval-ms > 0): on a shared volume "
                 "inotify sees this machine's writes only");
    sub.add_option("--max-connections-per-ip", m_max_connections_per_ip,
                   "Open sockets from one address at most (default 256; behind a proxy every client shares its address)")
        ->check(CLI::Range(1u, 1'000'000u));
  }

  Outcome run(const Invocation& inv) override {
    const std::optional<ListenAddress> address = parse_listen(m_listen);
    if (!address) {
      return finish_usage(inv.json, "--listen wants HOST:PORT (e.g. 127.0.0.1:8787 or [::1]:0), not '" + m_listen + "'",
                          "serve");
    }
    if (m_allow_anonymous && !net::is_loopback_host(address->host)) {
      return finish_usage(inv.json,
                          "--allow-anonymous only works on a loopback address (127.0.0.1, ::1, localhost), not " +
                              address->host,
                          "serve");
    }

    if (!m_upstream.empty()) {
      if (auto upstream = net::parse_upstream_url(m_upstream); !upstream) {
        return finish_usage(inv.json, "--upstream: " + upstream.error().message, "serve");
      }
    }

    const std::string& location = inv.database_location();
    auto tokens = store::open_token_store(location, inv.ctx);
    if (!tokens) {
      std::cerr << "error: " << tokens.error().message << '\n';
      return Outcome::failed;
    }

    // Every connection and GET stream is a descriptor; the usual soft limit
    // (1024) is below what the connection caps allow, so use the hard limit.
    if (rlimit files{}; getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
      files.rlim_cur = files.rlim_max;
      setrlimit(RLIMIT_NOFILE, &files);
    }

    // Signals become an orderly stop: block them in every thread (the ones
    // the MCP and HTTP servers start inherit the mask) and wait for them below.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    // Over PostgreSQL this process is one replica of many: changes travel
    // through the database's change log, and the skill trees are swept for
    // edits another machine made on the shared volume (docs/deploy.md).
    const bool replicated = store::is_postgres_location(location);
    mcp::ServerOptions server_options;
    server_options.base = inv.ctx;
    server_options.config = inv.config;
    server_options.store = store::store_source(location, inv.ctx);
    // SQLite serializes writers anyway, and one connection keeps one search
    // cache; PostgreSQL serves requests side by side.
    server_options.store_connections = m_db_connections != 0 ? m_db_connections : (replicated ? 4 : 1);
    server_options.store_wait = std::chrono::milliseconds(m_db_wait_ms);
    server_options.transport = "http";
    if (replicated) {
      server_options.poll_database = false;
      server_options.sweep_interval = std::chrono::milliseconds(m_sweep_interval_ms);
    }
    if (m_no_inotify) {
      if (server_options.sweep_interval.count() == 0) {
        return finish_usage(inv.json,
                            "--no-inotify needs the sweep: a PostgreSQL database and --sweep-interval-ms above 0",
                            "serve");
      }
      server_options.inotify = false;
    }
    mcp::Server mcp_server(std::move(server_options));

    std::unique_ptr<core::ChangeRelay> relay;
    if (replicated) {
      auto log = store::open_change_log(location);
      auto signal = store::make_change_signal(location);
      if (!log || !signal) {
        std::cerr << "error: " << (!log ? log.error().message : signal.error().message) << '\n';
        return Outcome::failed;
      }
      auto started = core::ChangeRelay::start(mcp_server.events(), std::move(*log), std::move(*signal), {});
      if (!started) {
        std::cerr << "error: " << started.error().message << '\n';
        return Outcome::failed;
      }
      relay = std::move(*started);
    }

    // Background reviews of the turns agents report (POST /api/v1/turns).
    core::ReviewScheduler reviews(
        [config = inv.config](const core::ReviewJob& job, std::stop_token stop) {
          return run_review_job(job, config, stop);
        });

    // The live events of /api/v1/events: every change on the server's bus.
    api::EventFeed event_feed(mcp_server.events(), limits::k_api_event_history);
    if (relay) {
      event_feed.follow_change_log(relay->status().delivered);
    }

    net::HttpOptions http_options;
    http_options.events = &event_feed;
    api::RestApiServices rest;
    rest.skills = &mcp_server;
    rest.reviews = &reviews;
    rest.open_tokens = [location, ctx = inv.ctx]() { return store::open_token_store(location, ctx); };
    rest.make_fetcher = [] { return sources::make_source_fetcher(); };
    http_options.api = api::make_rest_api(std::move(rest));
    http_options.listen_host = address->host;
    http_options.port = address->port;
    http_options.threads = m_threads;
    http_options.allowed_hosts = m_allowed_hosts;
    http_options.allow_anonymous = m_allow_anonymous;
    http_options.web_ui = !m_no_web_ui;
    http_options.max_connections = m_max_connections;
    // Ready when the skills database answers a query and, on a replica, the
    // change listener is connected and has read the log to its end.
    http_options.readiness = [&mcp_server, &relay]() -> Result<void> {
      auto reachable = mcp_server.with_store([](core::SkillStore& store) -> Result<void> {
        SKILLRT_TRY(store.user_change_stamps());
        return {};
      });
      if (!reachable) {
        return reachable;
      }
      if (relay) {
        const core::ChangeRelay::Status status = relay->status();
        if (!status.caught_up) {
          return fail(ErrorCode::io_error, "the change listener is " +
                                               std::string(status.listening ? "catching up" : "not connected") +
                                               (status.last_error.empty() ? "" : ": " + status.last_error));
        }
      }
      return {};
    };
    http_options.max_connections_per_ip = m_max_connections_per_ip;
    if (replicated) {
      // MCP sessions of the 2025 revisions survive a move to another replica.
      auto sessions = store::open_session_store(location);
      if (!sessions) {
        std::cerr << "error: " << sessions.error().message << '\n';
        return Outcome::failed;
      }
      http_options.session_store = std::move(*sessions);
    }
    if (!m_web_root.empty()) {
      http_options.web_root = std::filesystem::absolute(m_web_root);
    }
    if (!m_upstream.empty()) {
      net::ProxyOptions proxy;
      proxy.upstream_url = m_upstream;
      proxy.api_key = upstream_key(inv);
      proxy.response_timeout_ms = m_upstream_timeout_s * 1000;
      proxy.idle_timeout_ms = m_upstream_timeout_s * 1000;
      // skills.match_injection: the users whose turns get the skills their
      // message triggers, matched over this server's kept catalogs.
      proxy.observer = make_proxy_observer(
          inv.ctx, inv.config, reviews,
          [&mcp_server](const core::Context& ctx, const core::MatchRequest& request) {
            return mcp_server.match_skills(ctx, request);
          });
      http_options.proxy = std::move(proxy);
    }

    auto http = net::McpHttpServer::start(std::move(http_options), mcp_server,
                                          net::cache_authentications(net::token_store_authenticator(std::move(*tokens)),
                                                                     std::chrono::milliseconds(m_auth_cache_ms)));
    if (!http) {
      std::cerr << "error: " << http.error().message << '\n';
      pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
      return Outcome::failed;
    }
    std::cout << "listening http://" << url_host(address->host) << ':' << (*http)->bound_port() << "/mcp"
              << std::endl;
    if (!m_no_web_ui) {
      // Where MCP clients send a person to type a skill's secrets (URL-mode elicitation).
      const std::string origin = !m_public_url.empty()
                                     ? m_public_url
                                     : "http://" + url_host(address->host) + ":" + std::to_string((*http)->bound_port());
      mcp_server.set_setup_url(origin + "/ui/setup.html");
    }
    if (!m_no_web_ui) {
      std::cerr << "skillrt serve: web UI at http://" << url_host(address->host) << ':' << (*http)->bound_port()
                << "/ (sign in with a token from `skillrt token create`)" << std::endl;
    }
    if (!m_upstream.empty()) {
      std::cerr << "skillrt serve: OpenAI-compatible proxy at http://" << url_host(address->host) << ':'
                << (*http)->bound_port() << "/v1 (relaying to " << m_upstream << ")" << std::endl;
    }

    int received = 0;
    while (sigwait(&stop_signals, &received) != 0) {
    }
    std::cerr << "skillrt serve: " << (received == SIGINT ? "SIGINT" : "SIGTERM") << ", stopping\n";
    if (m_drain_seconds > 0) {
      (*http)->drain(std::chrono::seconds(m_drain_seconds));
    }
    (*http)->stop();
    (*http)->wait();
    http->reset();
    return Outcome::ok;
  }

 private:
  std::string m_listen = "127.0.0.1:8787";
  std::string m_public_url;
  bool m_allow_anonymous = false;
  std::vector<std::string> m_allowed_hosts;
  unsigned m_threads = 2;
  std::string m_upstream;
  std::string m_upstream_key_env = "OPENAI_API_KEY";
  unsigned m_upstream_timeout_s = 600;
  std::string m_web_root;
  bool m_no_web_ui = false;
  // How long a successful token check is reused: the longest a revoked token
  // keeps working on a running server (docs/compat.md). Every replica reads
  // revocations from the one database, so this bounds them all.
  unsigned m_auth_cache_ms = 750;
  unsigned m_db_connections = 0;  // 0: 4 over PostgreSQL, 1 on SQLite
  unsigned m_db_wait_ms = 2000;
  unsigned m_sweep_interval_ms = 2000;
  bool m_no_inotify = false;
  unsigned m_drain_seconds = 10;
  std::size_t m_max_connections = 1024;
  std::size_t m_max_connections_per_ip = 256;

  // The upstream's key: the environment variable, else the same name in
  // HOME/.env (as Hermes reads secrets); "" sends no Authorization (a local server).
  std::string upstream_key(const Invocation& inv) const {
    if (m_upstream_key_env.empty()) {
      return {};
    }
    if (auto from_env = inv.ctx.env(m_upstream_key_env); from_env && !from_env->empty()) {
      return *from_env;
    }
    const auto dotenv = core::load_dotenv(inv.ctx.home / ".env");
    if (const auto found = dotenv.find(m_upstream_key_env); found != dotenv.end() && !found->second.empty()) {
      return found->second;
    }
    std::cerr << "skillrt serve: no " << m_upstream_key_env
              << " in the environment or HOME/.env: upstream requests carry no Authorization\n";
    return {};
  }
};

}  // namespace

std::unique_ptr<Command> make_serve_command() { return std::make_unique<ServeCommand>(); }

}  // namespace skillrt::app
