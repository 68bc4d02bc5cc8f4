// /api/v1/install: installing from a source in two steps, so a person reads
// the guard's report before anything is placed.
//   POST   /api/v1/install {source, category?, trust?, force?, shared?}
//          fetches into quarantine, validates and scans every skill, and
//          answers the report with an `install_id`; nothing is installed.
//   POST   /api/v1/install/{id}/confirm   installs what was reviewed
//   DELETE /api/v1/install/{id}           forgets the reviewed scan
// The quarantine is not held between the calls (every hub operation clears
// stale quarantine folders, and a held folder would pin disk for as long as
// a browser tab stays open). Instead the confirm fetches again and installs a
// skill only when its content hash equals the one the person was shown
// (InstallRequest::pinned_hashes), so what goes live is exactly what was read.
// A reviewed scan is the caller's alone and is forgotten after 15 minutes.
#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

#include "api/routes.hpp"
#include "core/events/event_bus.hpp"
#include "core/guard/guard.hpp"
#include "core/hub/install.hpp"
#include "core/util/random_hex.hpp"
#include "protocol/hub_json.hpp"

namespace skillrt::api {
namespace {

constexpr std::chrono::minutes k_review_lifetime{15};
constexpr std::size_t k_max_reviews = 256;

std::string caller_key(const core::Context& ctx) {
  return ctx.org_id + "\n" + ctx.user_id.value_or("") + (ctx.anonymous ? "\n-" : "\n+");
}

// The scans people are reading, until they confirm or discard them.
class ReviewedInstalls {
 public:
  struct Reviewed {
    std::string caller;
    core::hub::InstallRequest request;
    std::chrono::steady_clock::time_point created;
  };

  std::optional<std::string> add(Reviewed reviewed) {
    const std::optional<std::string> id = core::random_hex(16);
    if (!id) {
      return std::nullopt;
    }
    std::lock_guard lock(m_mutex);
    expire(std::chrono::steady_clock::now());
    if (m_reviews.size() >= k_max_reviews) {
      m_reviews.erase(std::min_element(m_reviews.begin(), m_reviews.end(), [](const auto& a, const auto& b) {
        return a.second.created < b.second.created;
      }));
    }
    m_reviews.emplace(*id, std::move(reviewed));
    return id;
  }

  // Takes the caller's reviewed scan out (it is used once), or nullopt.
  std::optional<Reviewed> take(const std::string& id, const std::string& caller) {
    std::lock_guard lock(m_mutex);
    expire(std::chrono::steady_clock::now());
    const auto found = m_reviews.find(id);
    if (found == m_reviews.end() || found->second.caller != caller) {
      return std::nullopt;  // another caller's id is "not found" too
    }
    Reviewed reviewed = std::move(found->second);
    m_reviews.erase(found);
    return reviewed;
  }

 private:
  void expire(std::chrono::steady_clock::time_point now) {
    std::erase_if(m_reviews, [&](const auto& item) { return now - item.second.created > k_review_lifetime; });
  }

  std::mutex m_mutex;
  std::map<std::string, Reviewed> m_reviews;
};

Result<core::hub::InstallRequest> install_request(const ApiCall& call) {
  SKILLRT_TRY_ASSIGN(const Json body, body_object(call.request));
  for (const auto& [key, value] : body.items()) {
    if (key != "source" && key != "category" && key != "trust" && key != "force" && key != "shared") {
      return fail(ErrorCode::invalid_argument, "unknown member \"" + key +
                                                   "\" (an install takes source, category, trust, force, shared)");
    }
  }
  core::hub::InstallRequest request;
  SKILLRT_TRY_ASSIGN(const std::optional<std::string> source, body_string(body, "source"));
  if (!source || source->empty()) {
    return fail(ErrorCode::invalid_argument, "\"source\" is required: a folder, archive, git repository or https URL");
  }
  request.source = *source;
  SKILLRT_TRY_ASSIGN(const std::optional<std::string> category, body_string(body, "category"));
  request.category = category.value_or("");
  SKILLRT_TRY_ASSIGN(const std::optional<std::string> trust, body_string(body, "trust"));
  if (trust) {
    // Not "builtin": only skills that ship with skillrt have it (as on the CLI).
    if (*trust != "trusted" && *trust != "community") {
      return fail(ErrorCode::invalid_argument, "\"trust\" is \"trusted\" or \"community\"");
    }
    request.trust = core::parse_trust_level(*trust);
  }
  SKILLRT_TRY_ASSIGN(request.force, body_flag(body, "force"));
  SKILLRT_TRY_ASSIGN(request.shared, body_flag(body, "shared"));
  return request;
}

ApiResponse outcome_answer(const core::hub::InstallOutcome& outcome, Json out) {
  if (outcome.error) {
    const unsigned status = http_status_of(outcome.error->code);
    return json_answer(status, out);
  }
  return json_answer(200, out);
}

ApiResponse scan_source(const RestApiServices& services, ReviewedInstalls& reviews, ApiCall& call) {
  auto request = install_request(call);
  if (!request) {
    return error_answer(request.error());
  }
  request->preview = true;
  const std::unique_ptr<core::hub::Fetcher> fetcher = services.make_fetcher();
  const core::hub::InstallOutcome outcome =
      core::hub::install_skills(call.ctx, services.skills->config(), *fetcher, *request, nullptr);
  Json out = protocol::install_outcome_json(outcome);
  if (outcome.error || outcome.skills.empty()) {
    return outcome_answer(outcome, std::move(out));
  }
  // Every skill shown is pinned, allowed or not: a blocked one that --force
  // could override is still installed only as it was shown.
  core::hub::InstallRequest confirm = *request;
  confirm.preview = false;
  for (const core::hub::InstallReport& report : outcome.skills) {
    confirm.pinned_hashes[report.name] = report.content_hash.empty() ? "-" : report.content_hash;
  }
  const std::optional<std::string> id =
      reviews.add({caller_key(call.ctx), std::move(confirm), std::chrono::steady_clock::now()});
  if (!id) {
    return error_answer(500, "the server could not draw a random id");
  }
  out.erase("error");  // "not every skill was installed" does not apply to a scan
  out["install_id"] = *id;
  out["expires_in_s"] = std::chrono::duration_cast<std::chrono::seconds>(k_review_lifetime).count();
  return json_answer(200, out);
}

ApiResponse confirm(const RestApiServices& services, ReviewedInstalls& reviews, ApiCall& call) {
  if (auto body = body_object(call.request); !body) {
    return error_answer(body.error());
  } else if (!body->empty()) {
    return error_answer(400, "confirm takes an empty body: what is installed was fixed by the scan");
  }
  std::optional<ReviewedInstalls::Reviewed> reviewed = reviews.take(call.param("id"), caller_key(call.ctx));
  if (!reviewed) {
    return error_answer(404, "no reviewed install '" + call.param("id") +
                                 "' (it was confirmed or discarded already, expired after 15 minutes, or is "
                                 "another user's): scan the source again");
  }
  const std::unique_ptr<core::hub::Fetcher> fetcher = services.make_fetcher();
  const core::hub::InstallOutcome outcome =
      core::hub::install_skills(call.ctx, services.skills->config(), *fetcher, reviewed->request, nullptr);
  // One event for the whole install (each placed skill has its own skill.created).
  core::SkillEvent event;
  event.subject = core::EventSubject::install;
  event.kind = core::ChangeKind::created;
  event.layer = reviewed->request.shared || !call.ctx.user_id ? core::Layer::shared : core::Layer::user;
  event.owner = event.layer == core::Layer::user ? *call.ctx.user_id : "";
  event.name = outcome.identifier.empty() ? reviewed->request.source : outcome.identifier;
  event.location = call.param("id");
  event.detail = outcome.error ? "failed" : outcome.success ? "installed" : "blocked";
  core::publish_change(call.ctx, std::move(event));
  return outcome_answer(outcome, protocol::install_outcome_json(outcome));
}

ApiResponse discard(ReviewedInstalls& reviews, ApiCall& call) {
  if (!reviews.take(call.param("id"), caller_key(call.ctx))) {
    return error_answer(404, "no reviewed install '" + call.param("id") + "'");
  }
  Json out = Json::object();
  out["success"] = true;
  out["install_id"] = call.param("id");
  return json_answer(200, out);
}

}  // namespace

void add_install_routes(Router& router, const RestApiServices& services) {
  if (!services.make_fetcher) {
    return;  // no sources to fetch from: the routes are 404
  }
  auto reviews = std::make_shared<ReviewedInstalls>();
  router.add("POST", "/api/v1/install",
             [&services, reviews](ApiCall& call) { return scan_source(services, *reviews, call); });
  router.add("POST", "/api/v1/install/{id}/confirm",
             [&services, reviews](ApiCall& call) { return confirm(services, *reviews, call); });
  router.add("DELETE", "/api/v1/install/{id}", [reviews](ApiCall& call) { return discard(*reviews, call); });
}

}  // namespace skillrt::api
