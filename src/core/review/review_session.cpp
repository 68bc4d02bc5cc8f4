#include "core/review/review_session.hpp"

#include <system_error>

#include "core/hub/hub_paths.hpp"
#include "core/hub/lock_file.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/proposals/approval_gate.hpp"
#include "core/sync/bundled_manifest.hpp"
#include "core/tenancy/user_home.hpp"
#include "core/usage/usage_book.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

std::string canonical_text(const fs::path& path) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  return (ec ? path : canonical).lexically_normal().string();
}

bool touches_existing(ManageAction action) { return action != ManageAction::create; }

}  // namespace

ReviewSession::ReviewSession(Context ctx, Config cfg, const std::vector<ViewedSkill>& conversation_views,
                             std::string conversation, WriteOrigin origin)
    : m_ctx(std::move(ctx)), m_cfg(std::move(cfg)), m_conversation(std::move(conversation)), m_origin(origin) {
  for (const ViewedSkill& viewed : conversation_views) {
    note_view(viewed.name, viewed.file_path);
  }
}

void ReviewSession::note_view(const std::string& name, const std::optional<std::string>& file_path) {
  const Catalog catalog = manage_catalog(m_ctx, m_cfg);
  auto located = locate_managed_skill(m_ctx, catalog, name, false, std::nullopt);
  if (!located) {
    return;
  }
  if (!file_path || *file_path == "SKILL.md") {
    m_read_skills.insert(canonical_text(located->dir));
    m_read_files.insert(canonical_text(located->skill_md));
  } else {
    m_read_files.insert(canonical_text(located->dir / *file_path));
  }
}

void ReviewSession::note_file_read(const fs::path& path) {
  m_read_files.insert(canonical_text(path));
  if (path.filename() == "SKILL.md") {
    m_read_skills.insert(canonical_text(path.parent_path()));
  }
}

std::vector<fs::path> ReviewSession::readable_roots() const {
  if (m_ctx.user_id) {
    if (auto home = user_home_paths(m_ctx); home) {
      return {home->skills};
    }
    return {};
  }
  return {m_ctx.skills_dir()};
}

std::string ReviewSession::protected_reason(const fs::path& dir, const fs::path& root, int tier,
                                            const std::string& name) const {
  const Tier where = static_cast<Tier>(tier);
  if (where == Tier::external) {
    return "it lives in an external skills directory";
  }
  if (where == Tier::project) {
    return "it lives in a project's skills directory";
  }
  const Layer layer = tier_layer(where);
  const std::string folder = dir.filename().string();
  Result<std::optional<UsageRecord>> usage = find_usage(m_ctx, layer, folder);
  if (!usage) {
    return "its usage record cannot be read (" + usage.error().message + ")";
  }
  if (*usage && (*usage)->pinned) {
    return "it is pinned";
  }
  if (layer == Layer::shared) {
    if (auto manifest = sync::read_bundled_manifest(sync::bundled_manifest_path(m_ctx));
        manifest && manifest->count(folder) != 0) {
      return "it is a bundled skill (skillrt sync keeps it)";
    }
  }
  if (auto lock = hub::read_lock_file(root / ".hub" / "lock.json"); lock) {
    const std::string rel = dir.lexically_relative(root).generic_string();
    for (const auto& [installed, entry] : lock->installed) {
      if (installed == folder || entry.install_path == rel) {
        return "it was installed from the hub (skillrt update keeps it)";
      }
    }
  }
  if (!*usage || (*usage)->created_by != SkillAuthor::agent) {
    return "a person wrote it, not the agent (to let the review manage it: skillrt adopt " + sanitize_utf8(name) +
           ")";
  }
  return {};
}

std::optional<std::string> ReviewSession::read_before_write_error(const ManageRequest& request,
                                                                   const fs::path& dir) const {
  const std::string skill = canonical_text(dir);
  auto need = [&](const std::string& what) {
    return "Read before write: the review has not read " + what + " of skill '" + sanitize_utf8(request.name) +
           "'. Call skill_view(name='" + sanitize_utf8(request.name) + "'" +
           (request.file_path && *request.file_path != "SKILL.md"
                ? ", file_path='" + sanitize_utf8(*request.file_path) + "'"
                : std::string()) +
           ") first, then repeat the change.";
  };
  switch (request.action) {
    case ManageAction::edit:
    case ManageAction::remove_skill:
    case ManageAction::remove_file:
      if (m_read_skills.count(skill) == 0) {
        return need("SKILL.md");
      }
      return std::nullopt;
    case ManageAction::patch:
    case ManageAction::write_file: {
      const std::string file = request.file_path ? *request.file_path : "SKILL.md";
      if (file == "SKILL.md") {
        if (m_read_skills.count(skill) == 0) {
          return need("SKILL.md");
        }
        return std::nullopt;
      }
      std::error_code ec;
      const fs::path target = dir / file;
      if (request.action == ManageAction::write_file && !fs::exists(target, ec)) {
        // A new support file: the skill it joins must have been read.
        if (m_read_skills.count(skill) == 0) {
          return need("SKILL.md");
        }
        return std::nullopt;
      }
      if (m_read_files.count(canonical_text(target)) == 0) {
        return need(file);
      }
      return std::nullopt;
    }
    case ManageAction::create:
      return std::nullopt;
  }
  return std::nullopt;
}

ReviewWriteOutcome ReviewSession::write(ManageRequest request) {
  ReviewWriteOutcome outcome;
  request.confirm = false;  // the review never confirms a guard "ask" itself
  request.layer.reset();    // the review writes its user's own layer (the shared one without a user)
  request.actor = LedgerActor::review;
  request.actor_id.clear();
  if (request.action == ManageAction::create) {
    // The review's new skills land in generated/ until a person promotes them.
    request.folder = std::string(k_generated_folder);
  }
  if (touches_existing(request.action)) {
    const Catalog catalog = manage_catalog(m_ctx, m_cfg);
    auto located = locate_managed_skill(m_ctx, catalog, request.name, request.action == ManageAction::write_file,
                                        manage_target_layer(m_ctx, request));
    if (!located) {
      outcome.result = located.error();
      return outcome;
    }
    if (std::string reason = protected_reason(located->dir, located->root, static_cast<int>(located->tier),
                                              request.name);
        !reason.empty()) {
      outcome.result = manage_failure(ErrorCode::refused, "Refusing background curator " +
                                                              std::string(manage_action_name(request.action)) +
                                                              " of skill '" + sanitize_utf8(request.name) +
                                                              "': " + reason + ".");
      return outcome;
    }
    if (auto error = read_before_write_error(request, located->dir)) {
      outcome.result = manage_failure(ErrorCode::refused, *error);
      return outcome;
    }
  }

  GatedWrite gated = gated_write(m_ctx, m_cfg, request, m_origin, m_conversation);
  outcome.result = std::move(gated.result);
  outcome.proposal = std::move(gated.proposal);
  outcome.applied = gated.applied;
  if (!outcome.applied) {
    return outcome;
  }
  const Layer layer = manage_target_layer(m_ctx, request);
  if (request.action == ManageAction::create) {
    // §2.10 step 4: a create by the review marks the skill agent-made.
    const std::string folder =
        outcome.result.skill_md ? fs::path(*outcome.result.skill_md).parent_path().filename().string() : request.name;
    if (auto marked = update_usage(m_ctx, layer, folder,
                                   [](UsageRecord& record) { record.created_by = SkillAuthor::agent; });
        !marked) {
      outcome.result.warnings.push_back("the usage record was not updated: " + marked.error().message);
    }
  } else if (request.action == ManageAction::remove_skill) {
    (void)forget_usage(m_ctx, layer, request.name);
  } else {
    (void)update_usage(m_ctx, layer, request.name, [](UsageRecord& record) { ++record.patches; });
  }
  return outcome;
}

}  // namespace skillrt::core
