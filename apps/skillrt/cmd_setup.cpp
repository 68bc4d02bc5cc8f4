// `skillrt setup NAME [--from-env] [--set-from-file VAR=FILE ...]`: supplies
// the environment variables a skill declares (spec §2.8) and stores them in
// the .env readiness reads — the user's own HOME/users/<uid>/.env with
// --user, else HOME/.env — atomically, mode 0600. Then it reports readiness
// as `view` would.
//
// Without options it asks, on a terminal, for each missing required
// variable with the skill's prompt and help URL, echo off. A value is never
// printed, logged or put in an error message: only variable names are.
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/util/terminal_text.hpp"
#include "core/util/utf8.hpp"
#include "core/view/dotenv_write.hpp"
#include "core/view/readiness.hpp"
#include "core/view/skill_view.hpp"
#include "core/yaml/frontmatter.hpp"
#include "protocol/view_json.hpp"

namespace skillrt::app {
namespace {

// A secret read from a file holds at most this much (a PEM key fits easily).
constexpr std::size_t k_max_secret_bytes = 64 * 1024;

// Turns terminal echo off while alive, and back on when it goes.
class EchoOff {
 public:
  explicit EchoOff(int fd) : m_fd(fd) {
    if (::tcgetattr(fd, &m_saved) == 0) {
      termios quiet = m_saved;
      quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
      m_active = ::tcsetattr(fd, TCSAFLUSH, &quiet) == 0;
    }
  }
  ~EchoOff() {
    if (m_active) {
      ::tcsetattr(m_fd, TCSAFLUSH, &m_saved);
    }
  }
  EchoOff(const EchoOff&) = delete;
  EchoOff& operator=(const EchoOff&) = delete;

 private:
  int m_fd;
  termios m_saved{};
  bool m_active = false;
};

// One line from the terminal without echo; nullopt at end of input.
std::optional<std::string> read_secret_line() {
  std::string line;
  {
    EchoOff quiet(STDIN_FILENO);
    if (!std::getline(std::cin, line)) {
      std::cerr << '\n';
      return std::nullopt;
    }
  }
  std::cerr << '\n';  // the Enter the user typed was not echoed
  if (!line.empty() && line.back() == '\r') {
    line.pop_back();
  }
  return line;
}

Json failure(const std::string& name, const std::string& message) {
  Json out = Json::object();
  out["success"] = false;
  out["name"] = name;
  out["error"] = message;
  return out;
}

class SetupCommand final : public Command {
 public:
  const char* name() const override { return "setup"; }
  const char* summary() const override { return "Supply the environment variables a skill needs"; }
  void configure(CLI::App& sub) override {
    sub.add_option("name", m_name, "Skill name, category/name or ns:name")->required();
    sub.add_flag("--from-env", m_from_env, "Store the declared variables set in this environment");
    sub.add_option("--set-from-file", m_from_files, "VAR=FILE: store FILE's content as VAR (repeatable)");
  }

  Outcome run(const Invocation& inv) override {
    const Json out = setup(inv);
    if (inv.json) {
      print_json(out);
    } else if (out.value("success", false)) {
      std::cout << summary_text(out);
    } else {
      std::cerr << "error: " << out.value("error", std::string("setup failed")) << '\n';
    }
    if (!out.value("success", false) && out.value("usage", false)) {
      return Outcome::usage;
    }
    return out.value("success", false) ? Outcome::ok : Outcome::failed;
  }

 private:
  Json setup(const Invocation& inv) {
    std::vector<std::string> warnings;
    auto viewed = core::view_skill(inv.ctx, inv.config, m_name, std::nullopt, warnings);
    if (!viewed) {
      return protocol::view_failure_json(viewed.error());
    }
    const auto* doc = std::get_if<core::SkillDocument>(&*viewed);
    if (doc == nullptr) {
      return failure(m_name, "setup takes a skill, not one of its files");
    }
    const core::Readiness& before = doc->readiness;
    const auto declared = [&](const std::string& var) -> const core::EnvRequirement* {
      for (const core::EnvRequirement& entry : before.required_environment_variables) {
        if (entry.name == var) {
          return &entry;
        }
      }
      return nullptr;
    };

    std::vector<std::pair<std::string, std::string>> values;
    const auto put = [&](const std::string& var, std::string value) {
      auto at = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == var; });
      if (at != values.end()) {
        at->second = std::move(value);
      } else {
        values.emplace_back(var, std::move(value));
      }
    };
    for (const std::string& spec : m_from_files) {
      const std::size_t eq = spec.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
        Json out = failure(doc->name, "--set-from-file takes VAR=FILE, got '" + spec.substr(0, eq) + "...'");
        out["usage"] = true;
        return out;
      }
      const std::string var = spec.substr(0, eq);
      if (declared(var) == nullptr) {
        return failure(doc->name, "setup: " + var + " is not a variable " + doc->name + " declares");
      }
      auto text = core::read_regular_file(spec.substr(eq + 1), k_max_secret_bytes);
      if (!text) {
        return failure(doc->name, "setup: reading the value of " + var + ": " + text.error().message);
      }
      // A file's one final line break is the file's, not the secret's.
      if (!text->empty() && text->back() == '\n') {
        text->pop_back();
        if (!text->empty() && text->back() == '\r') {
          text->pop_back();
        }
      }
      put(var, std::move(*text));
    }
    if (m_from_env) {
      for (const core::EnvRequirement& entry : before.required_environment_variables) {
        const std::optional<std::string> value = inv.ctx.env ? inv.ctx.env(entry.name) : std::nullopt;
        if (value && !value->empty() &&
            std::none_of(values.begin(), values.end(), [&](const auto& v) { return v.first == entry.name; })) {
          put(entry.name, *value);
        }
      }
    }
    if (m_from_files.empty() && !m_from_env) {
      if (before.missing_required_environment_variables.empty()) {
        return report(*doc, before, {}, "");
      }
      if (::isatty(STDIN_FILENO) != 1) {
        Json out = failure(doc->name, "setup: standard input is not a terminal; use --from-env or --set-from-file "
                                      "VAR=FILE for " +
                                          join(before.missing_required_environment_variables));
        out["usage"] = true;
        return out;
      }
      for (const std::string& var : before.missing_required_environment_variables) {
        const core::EnvRequirement* entry = declared(var);
        std::cerr << core::terminal_safe(entry != nullptr ? entry->prompt : "Enter value for " + var,
                                         core::TerminalLayout::single_line);
        if (entry != nullptr && entry->help) {
          std::cerr << " (" << core::terminal_safe(*entry->help, core::TerminalLayout::single_line) << ')';
        }
        std::cerr << ": " << std::flush;
        std::optional<std::string> line = read_secret_line();
        if (!line) {
          break;
        }
        if (!line->empty()) {  // Enter alone skips the variable
          put(var, std::move(*line));
        }
      }
    }
    if (values.empty()) {
      return report(*doc, before, {}, "");
    }
    auto file = core::dotenv_file_for_writes(inv.ctx);
    if (!file) {
      return failure(doc->name, "setup: " + file.error().message);
    }
    // HOME/.env may be the operator's symlink to a secrets mount; below
    // HOME/users/ nothing is followed.
    if (auto stored = core::store_dotenv_values(*file, values, !inv.ctx.user_id.has_value()); !stored) {
      return failure(doc->name, "setup: " + stored.error().message);
    }
    std::vector<std::string> names;
    for (const auto& [var, value] : values) {
      names.push_back(var);
    }
    auto now = readiness_now(inv, *doc);
    if (!now) {
      return failure(doc->name, "setup: stored " + join(names) + ", then could not read the skill again: " +
                                    now.error().message);
    }
    return report(*doc, *now, names, file->string());
  }

  // Readiness after the write: the frontmatter `view` just read, evaluated
  // again against the .env files (no second catalog build).
  static Result<core::Readiness> readiness_now(const Invocation& inv, const core::SkillDocument& doc) {
    auto bytes = core::read_regular_file(doc.source_path, limits::k_max_skill_file_bytes);
    if (!bytes) {
      return tl::unexpected(bytes.error());
    }
    const std::string text(core::strip_bom(core::sanitize_utf8(*bytes)));
    return core::evaluate_readiness(core::parse_frontmatter(text).fields, inv.ctx);
  }

  static Json report(const core::SkillDocument& doc, const core::Readiness& now, const std::vector<std::string>& stored,
                     const std::string& file) {
    Json out = Json::object();
    out["success"] = true;
    out["name"] = doc.name;
    out["stored"] = stored;
    if (!file.empty()) {
      out["file"] = file;
    }
    out["readiness_status"] = std::string(core::readiness_status_name(now.readiness_status));
    out["missing_required_environment_variables"] = now.missing_required_environment_variables;
    out["missing_credential_files"] = now.missing_credential_files;
    if (now.setup_note) {
      out["setup_note"] = *now.setup_note;
    }
    return out;
  }

  static std::string join(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) {
      text += (text.empty() ? "" : ", ") + name;
    }
    return text;
  }

  static std::string summary_text(const Json& out) {
    std::string text;
    const auto stored = out["stored"].get<std::vector<std::string>>();
    if (!stored.empty()) {
      text += "stored " + join(stored) + " in " + out.value("file", std::string()) + '\n';
    }
    text += out["name"].get<std::string>() + ": " + out["readiness_status"].get<std::string>() + '\n';
    const auto missing = out["missing_required_environment_variables"].get<std::vector<std::string>>();
    if (!missing.empty()) {
      text += "still missing: " + join(missing) + '\n';
    }
    return core::terminal_safe(text, core::TerminalLayout::multi_line);
  }

  std::string m_name;
  bool m_from_env = false;
  std::vector<std::string> m_from_files;
};

}  // namespace

std::unique_ptr<Command> make_setup_command() { return std::make_unique<SetupCommand>(); }

}  // namespace skillrt::app
