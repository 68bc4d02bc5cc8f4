#include "core/view/preprocess.hpp"

#include <algorithm>

#include "core/tenancy/user_home.hpp"
#include "core/view/inline_shell.hpp"

namespace skillrt::core {
namespace {

void replace_all(std::string& text, std::string_view token, std::string_view value) {
  std::size_t at = 0;
  while ((at = text.find(token, at)) != std::string::npos) {
    text.replace(at, token.size(), value);
    at += value.size();
  }
}

} // namespace

std::string substitute_template_vars(std::string_view content, const std::optional<std::filesystem::path>& skill_dir,
                                     std::string_view session_id) {
  std::string text(content);
  // Values are inserted in one pass per token, so a value that happens to
  // contain another token is not expanded again.
  if (skill_dir) {
    replace_all(text, "${HERMES_SKILL_DIR}", skill_dir->string());
  }
  if (!session_id.empty()) {
    replace_all(text, "${HERMES_SESSION_ID}", session_id);
  }
  return text;
}

std::string expand_inline_shell(std::string_view content, const std::filesystem::path& cwd, int timeout_s) {
  std::string out;
  out.reserve(content.size());
  std::size_t at = 0;
  while (at < content.size()) {
    const std::size_t open = content.find("!`", at);
    if (open == std::string_view::npos) {
      break;
    }
    const std::size_t close = content.find_first_of("`\n", open + 2);
    if (close == std::string_view::npos || content[close] != '`') {
      // Not a snippet: keep the "!`" and keep scanning after it.
      out.append(content.substr(at, open + 2 - at));
      at = open + 2;
      continue;
    }
    out.append(content.substr(at, open - at));
    const std::string command(content.substr(open + 2, close - open - 2));
    out += run_inline_shell(command, cwd, timeout_s);
    at = close + 1;
  }
  out.append(content.substr(std::min(at, content.size())));
  return out;
}

std::string preprocess_skill_content(std::string_view content, const std::optional<std::filesystem::path>& skill_dir,
                                     const std::filesystem::path& shell_cwd, const Context& ctx,
                                     const SkillsConfig& cfg, Tier tier) {
  std::string text =
      cfg.template_vars ? substitute_template_vars(content, skill_dir, ctx.session_id) : std::string(content);
  // A user's own skill never runs shell: every user runs as the same OS
  // account, so its snippets could read other users' homes. They stay
  // unexpanded, exactly as with inline shell off; shared skills (written by
  // the owner org) still run.
  // Never for an anonymous network caller: its commands would run with the
  // server's rights over every user's files.
  const bool may_run_shell = !ctx.anonymous && (!ctx.user_id || tier_layer(tier) == Layer::shared);
  if (cfg.inline_shell && may_run_shell) {
    if (ctx.user_id) {
      // Run for a user, commands work in that user's own tmp/ (issue 3/5), so
      // whatever they leave behind stays in the user's home. When the home
      // cannot be made safely (a planted symlink), nothing runs at all.
      if (auto home = ensure_user_home(ctx)) {
        text = expand_inline_shell(text, home->tmp, cfg.inline_shell_timeout_s);
      }
    } else {
      text = expand_inline_shell(text, skill_dir ? *skill_dir : shell_cwd, cfg.inline_shell_timeout_s);
    }
  }
  return text;
}

} // namespace skillrt::core
