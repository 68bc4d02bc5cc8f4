#include "core/proposals/proposal_store.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <random>

#include <nlohmann/json.hpp>

#include "core/events/event_bus.hpp"
#include "core/files/atomic_file.hpp"
#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/tenancy/permissions.hpp"
#include "core/tenancy/user_home.hpp"
#include "core/util/strict_json.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr int k_proposal_version = 1;

std::optional<ManageAction> action_from_name(std::string_view name) {
  for (ManageAction action : {ManageAction::create, ManageAction::edit, ManageAction::patch,
                              ManageAction::remove_skill, ManageAction::write_file, ManageAction::remove_file}) {
    if (name == manage_action_name(action)) {
      return action;
    }
  }
  return std::nullopt;
}

Json optional_text(const std::optional<std::string>& text) { return text ? Json(*text) : Json(nullptr); }

Json request_json(const ManageRequest& request) {
  return Json{{"action", manage_action_name(request.action)},
              {"name", request.name},
              {"content", optional_text(request.content)},
              {"category", optional_text(request.category)},
              {"folder", optional_text(request.folder)},
              {"file_path", optional_text(request.file_path)},
              {"file_content", optional_text(request.file_content)},
              {"old_string", optional_text(request.old_string)},
              {"new_string", optional_text(request.new_string)},
              {"replace_all", request.replace_all},
              {"absorbed_into", optional_text(request.absorbed_into)},
              {"layer", request.layer ? Json(layer_name(*request.layer)) : Json(nullptr)}};
}

// Reads members of a JSON object with typed accessors that fail closed.
class Reader {
 public:
  explicit Reader(const Json& object) : m_object(object) {}
  Result<std::string> text(const char* key) const {
    const auto found = m_object.find(key);
    if (found == m_object.end() || !found->is_string()) {
      return fail(ErrorCode::parse_error, std::string("proposal: `") + key + "` is missing or not a string");
    }
    return found->get<std::string>();
  }
  Result<std::optional<std::string>> maybe_text(const char* key) const {
    const auto found = m_object.find(key);
    if (found == m_object.end() || found->is_null()) {
      return std::optional<std::string>{};
    }
    if (!found->is_string()) {
      return fail(ErrorCode::parse_error, std::string("proposal: `") + key + "` is not a string");
    }
    return std::optional<std::string>(found->get<std::string>());
  }
  Result<bool> flag(const char* key) const {
    const auto found = m_object.find(key);
    if (found == m_object.end() || !found->is_boolean()) {
      return fail(ErrorCode::parse_error, std::string("proposal: `") + key + "` is missing or not a boolean");
    }
    return found->get<bool>();
  }

 private:
  const Json& m_object;
};

Result<ManageRequest> request_from_json(const Json& item) {
  if (!item.is_object()) {
    return fail(ErrorCode::parse_error, "proposal: `request` is not an object");
  }
  const Reader read(item);
  ManageRequest request;
  SKILLRT_TRY_ASSIGN(std::string action, read.text("action"));
  const auto parsed = action_from_name(action);
  if (!parsed) {
    return fail(ErrorCode::parse_error, "proposal: unknown action '" + action + "'");
  }
  request.action = *parsed;
  SKILLRT_TRY_ASSIGN(request.name, read.text("name"));
  SKILLRT_TRY_ASSIGN(request.content, read.maybe_text("content"));
  SKILLRT_TRY_ASSIGN(request.category, read.maybe_text("category"));
  SKILLRT_TRY_ASSIGN(request.folder, read.maybe_text("folder"));
  SKILLRT_TRY_ASSIGN(request.file_path, read.maybe_text("file_path"));
  SKILLRT_TRY_ASSIGN(request.file_content, read.maybe_text("file_content"));
  SKILLRT_TRY_ASSIGN(request.old_string, read.maybe_text("old_string"));
  SKILLRT_TRY_ASSIGN(request.new_string, read.maybe_text("new_string"));
  SKILLRT_TRY_ASSIGN(request.replace_all, read.flag("replace_all"));
  SKILLRT_TRY_ASSIGN(request.absorbed_into, read.maybe_text("absorbed_into"));
  SKILLRT_TRY_ASSIGN(std::optional<std::string> layer, read.maybe_text("layer"));
  if (layer) {
    request.layer = layer_from_name(*layer);
    if (!request.layer) {
      return fail(ErrorCode::parse_error, "proposal: unknown layer '" + *layer + "'");
    }
  }
  return request;
}

// Ids become file names: only what new_proposal_id makes is accepted.
bool valid_id(std::string_view id) {
  if (id.size() != 18 || !id.starts_with("p-")) {
    return false;
  }
  return std::all_of(id.begin() + 2, id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

Result<std::vector<Proposal>> read_inbox(const fs::path& dir, std::vector<std::string>* problems) {
  std::vector<Proposal> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return out;
  }
  fs::directory_iterator it(dir, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot read " + dir.string() + ": " + ec.message());
  }
  std::size_t seen = 0;
  for (const fs::directory_entry& entry : it) {
    const std::string file = entry.path().filename().string();
    if (!file.ends_with(".json") || !valid_id(file.substr(0, file.size() - 5))) {
      continue;  // temp files of interrupted writes, anything else
    }
    if (++seen > limits::k_max_proposals_listed) {
      if (problems != nullptr) {
        problems->push_back(dir.string() + ": more than " + std::to_string(limits::k_max_proposals_listed) +
                            " proposals; the rest are not listed");
      }
      break;
    }
    Result<std::string> text = read_regular_file(entry.path(), limits::k_max_proposal_bytes);
    Result<Proposal> proposal = text ? parse_proposal(*text) : tl::unexpected(text.error());
    if (!proposal) {
      if (problems != nullptr) {
        problems->push_back(entry.path().string() + ": " + proposal.error().message);
      }
      continue;
    }
    out.push_back(std::move(*proposal));
  }
  return out;
}

bool may_see_shared(const Context& ctx) {
  // Shared-layer proposals are changes to shared skills: only those who may
  // write shared skills (the owner organisation) see or decide them.
  return static_cast<bool>(check_permission(ctx, Operation::update, Layer::shared));
}

}  // namespace

Result<fs::path> proposal_inbox(const Context& ctx, Layer layer) {
  if (layer == Layer::shared) {
    return ctx.home / "pending" / "skills";
  }
  SKILLRT_TRY_ASSIGN(UserHome home, ensure_user_home(ctx));
  return home.root / "pending";
}

std::string new_proposal_id() {
  std::random_device device;
  std::array<char, 17> hex{};
  const std::uint64_t value = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  std::snprintf(hex.data(), hex.size(), "%016llx", static_cast<unsigned long long>(value));
  return std::string("p-") + hex.data();
}

std::string render_proposal(const Proposal& p) {
  const Json doc{{"version", k_proposal_version},
                 {"id", p.id},
                 {"state", proposal_state_name(p.state)},
                 {"origin", write_origin_name(p.origin)},
                 {"user_id", p.user_id},
                 {"layer", layer_name(p.layer)},
                 {"skill", p.skill},
                 {"request", request_json(p.request)},
                 {"before_hash", p.before_hash},
                 {"after_hash", p.after_hash},
                 {"skill_path", p.skill_path},
                 {"verdict", p.verdict},
                 {"scan_report", p.scan_report},
                 {"guard_asks", p.guard_asks},
                 {"diff", p.diff},
                 {"gist", p.gist},
                 {"conversation", p.conversation},
                 {"created_at", p.created_at},
                 {"decided_at", p.decided_at},
                 {"reason", p.reason}};
  return doc.dump(2) + "\n";
}

Result<Proposal> parse_proposal(std::string_view text) {
  SKILLRT_TRY(check_strict_json(text, limits::k_max_json_depth));
  const Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return fail(ErrorCode::parse_error, "proposal: not a JSON object");
  }
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || version->get<int>() != k_proposal_version) {
    return fail(ErrorCode::parse_error, "proposal: not a version-1 proposal");
  }
  const Reader read(doc);
  Proposal p;
  SKILLRT_TRY_ASSIGN(p.id, read.text("id"));
  if (!valid_id(p.id)) {
    return fail(ErrorCode::parse_error, "proposal: malformed id");
  }
  SKILLRT_TRY_ASSIGN(std::string state, read.text("state"));
  const auto parsed_state = proposal_state_from_name(state);
  if (!parsed_state) {
    return fail(ErrorCode::parse_error, "proposal: unknown state '" + state + "'");
  }
  p.state = *parsed_state;
  SKILLRT_TRY_ASSIGN(std::string origin, read.text("origin"));
  const auto parsed_origin = write_origin_from_name(origin);
  if (!parsed_origin) {
    return fail(ErrorCode::parse_error, "proposal: unknown origin '" + origin + "'");
  }
  p.origin = *parsed_origin;
  SKILLRT_TRY_ASSIGN(p.user_id, read.text("user_id"));
  SKILLRT_TRY_ASSIGN(std::string layer, read.text("layer"));
  const auto parsed_layer = layer_from_name(layer);
  if (!parsed_layer) {
    return fail(ErrorCode::parse_error, "proposal: unknown layer '" + layer + "'");
  }
  p.layer = *parsed_layer;
  const auto request = doc.find("request");
  if (request == doc.end()) {
    return fail(ErrorCode::parse_error, "proposal: `request` is missing");
  }
  SKILLRT_TRY_ASSIGN(p.request, request_from_json(*request));
  SKILLRT_TRY_ASSIGN(p.skill, read.text("skill"));
  SKILLRT_TRY_ASSIGN(p.before_hash, read.text("before_hash"));
  SKILLRT_TRY_ASSIGN(p.after_hash, read.text("after_hash"));
  SKILLRT_TRY_ASSIGN(p.skill_path, read.text("skill_path"));
  SKILLRT_TRY_ASSIGN(p.verdict, read.text("verdict"));
  SKILLRT_TRY_ASSIGN(p.scan_report, read.text("scan_report"));
  SKILLRT_TRY_ASSIGN(p.guard_asks, read.flag("guard_asks"));
  SKILLRT_TRY_ASSIGN(p.diff, read.text("diff"));
  SKILLRT_TRY_ASSIGN(p.gist, read.text("gist"));
  SKILLRT_TRY_ASSIGN(p.conversation, read.text("conversation"));
  SKILLRT_TRY_ASSIGN(p.created_at, read.text("created_at"));
  SKILLRT_TRY_ASSIGN(p.decided_at, read.text("decided_at"));
  SKILLRT_TRY_ASSIGN(p.reason, read.text("reason"));
  return p;
}

Result<void> save_proposal(const Context& ctx, const Proposal& proposal) {
  if (!valid_id(proposal.id)) {
    return fail(ErrorCode::invalid_argument, "malformed proposal id '" + proposal.id + "'");
  }
  SKILLRT_TRY_ASSIGN(fs::path inbox, proposal_inbox(ctx, proposal.layer));
  std::error_code ec;
  fs::create_directories(inbox, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot create " + inbox.string() + ": " + ec.message());
  }
  fs::permissions(inbox, fs::perms::owner_all, fs::perm_options::replace, ec);
  SKILLRT_TRY(write_file_atomic(inbox / (proposal.id + ".json"), render_proposal(proposal)));
  // Tell the event push. The bus delivers by user, not organisation, so a
  // shared-layer proposal is announced to the user who acted on it only:
  // the rest of the owner organisation sees it when they next list.
  if (ctx.user_id) {
    SkillEvent event;
    event.subject = EventSubject::proposal;
    event.kind = proposal.state == ProposalState::pending ? ChangeKind::created : ChangeKind::updated;
    event.layer = Layer::user;
    event.owner = *ctx.user_id;
    event.name = proposal.skill;
    event.location = proposal.id;
    event.detail = proposal_state_name(proposal.state);
    publish_change(ctx, std::move(event));
  }
  return {};
}

Result<std::vector<Proposal>> list_proposals(const Context& ctx, std::vector<std::string>* problems) {
  std::vector<Proposal> out;
  if (ctx.user_id) {
    SKILLRT_TRY_ASSIGN(fs::path inbox, proposal_inbox(ctx, Layer::user));
    SKILLRT_TRY_ASSIGN(out, read_inbox(inbox, problems));
  }
  if (may_see_shared(ctx)) {
    SKILLRT_TRY_ASSIGN(fs::path inbox, proposal_inbox(ctx, Layer::shared));
    SKILLRT_TRY_ASSIGN(std::vector<Proposal> shared, read_inbox(inbox, problems));
    out.insert(out.end(), std::make_move_iterator(shared.begin()), std::make_move_iterator(shared.end()));
  }
  std::sort(out.begin(), out.end(), [](const Proposal& a, const Proposal& b) {
    return a.created_at != b.created_at ? a.created_at > b.created_at : a.id < b.id;
  });
  return out;
}

Result<Proposal> load_proposal(const Context& ctx, const std::string& id) {
  if (!valid_id(id)) {
    return fail(ErrorCode::not_found, "no proposal '" + id + "'");
  }
  std::vector<fs::path> inboxes;
  if (ctx.user_id) {
    SKILLRT_TRY_ASSIGN(fs::path inbox, proposal_inbox(ctx, Layer::user));
    inboxes.push_back(inbox);
  }
  if (may_see_shared(ctx)) {
    SKILLRT_TRY_ASSIGN(fs::path inbox, proposal_inbox(ctx, Layer::shared));
    inboxes.push_back(inbox);
  }
  for (const fs::path& inbox : inboxes) {
    Result<std::string> text = read_regular_file(inbox / (id + ".json"), limits::k_max_proposal_bytes);
    if (!text) {
      if (text.error().code == ErrorCode::not_found) {
        continue;
      }
      return tl::unexpected(text.error());
    }
    return parse_proposal(*text);
  }
  return fail(ErrorCode::not_found, "no proposal '" + id + "'");
}

}  // namespace skillrt::core
