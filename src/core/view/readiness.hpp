// Readiness of a skill (spec §2.8): the environment variables and credential
// files it declares, and which of them are missing in this home.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/view/readiness_status.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

struct EnvRequirement {
  std::string name;
  std::string prompt; // "Enter value for <NAME>" unless declared
  std::optional<std::string> help;
  std::optional<std::string> required_for;
  bool optional = false;
};

struct Readiness {
  std::vector<EnvRequirement> required_environment_variables;
  std::vector<std::string> missing_required_environment_variables;
  std::vector<std::string> missing_credential_files;
  // Every required credential file that was looked for, as HOME-relative paths
  // (present or not): what a cached answer must re-check (mcp/view_cache).
  std::vector<std::string> credential_files_checked;
  bool setup_needed = false;
  // The CLI has no secret-capture callback, so nothing is ever offered and skipped.
  bool setup_skipped = false;
  ReadinessStatus readiness_status = ReadinessStatus::available; // available or setup_needed
  std::optional<std::string> setup_help;
  std::optional<std::string> setup_note;
};

// Merges required_environment_variables, setup.collect_secrets and legacy
// prerequisites.env_vars (first occurrence of a name wins; names must match
// ^[A-Za-z_][A-Za-z0-9_]*$) into Hermes' normalised entries.
std::vector<EnvRequirement> required_environment_variables(const YamlNode& frontmatter);

// Evaluates frontmatter against ctx: a variable is present when non-empty in
// the first of dotenv_files(ctx) that names it (the user's own .env, then
// ctx.home/.env; a key present there decides alone), else non-empty in ctx.env;
// required_credential_files are checked relative to ctx.home.
Readiness evaluate_readiness(const YamlNode& frontmatter, const Context& ctx);

} // namespace skillrt::core
