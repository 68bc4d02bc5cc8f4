// `skillrt sync [--bundled DIR]`: bring the bundled skills into HOME/skills
// (spec §2.13); `skillrt reset NAME [--restore]`: make one follow upstream again.
#include <iostream>
#include <sstream>

#include "bundled_seed.hpp"
#include "command.hpp"
#include "core/sync/bundled_reset.hpp"
#include "core/sync/bundled_sync.hpp"
#include "progress_line.hpp"
#include "protocol/error_json.hpp"
#include "protocol/sync_json.hpp"

namespace skillrt::app {
namespace {

namespace fs = std::filesystem;

// --bundled DIR, else find_bundled_dir; an error when neither gives a folder.
Result<fs::path> bundled_dir_for(const Invocation& inv, const std::string& flag) {
  if (!flag.empty()) {
    return fs::absolute(fs::path(flag));
  }
  if (auto found = find_bundled_dir(inv.ctx)) {
    return *found;
  }
  return fail(ErrorCode::not_found,
              "no bundled skills folder found: pass --bundled DIR or set SKILLRT_BUNDLED_DIR (looked for "
              "bundled-skills and ../share/skillrt/bundled-skills beside the skillrt binary)");
}

void list_line(std::ostream& out, const char* label, const std::vector<std::string>& names) {
  if (names.empty()) {
    return;
  }
  out << "  " << label << ":";
  for (const std::string& name : names) {
    out << ' ' << name;
  }
  out << '\n';
}

std::string sync_text(const core::sync::SyncResult& r) {
  std::ostringstream out;
  out << "Bundled skills from " << r.bundled_dir.string() << ": " << r.total_bundled << " bundled, " << r.copied.size()
      << " copied, " << r.updated.size() << " updated, " << r.user_modified.size() << " kept with your changes, "
      << r.skipped << " unchanged\n";
  if (r.skipped_opt_out) {
    out << "  opted out (HOME/.no-bundled-skills): only " << core::sync::k_essential_skill << " is synced\n";
  }
  list_line(out, "copied", r.copied);
  list_line(out, "updated", r.updated);
  list_line(out, "kept with your changes (skillrt reset NAME --restore to take the bundled version)", r.user_modified);
  list_line(out, "moved to their new bundled path", r.relocated);
  list_line(out, "skipped, the destination is a symlink", r.symlinked);
  list_line(out, "skipped, an external skills dir provides them", r.shadowed_by_external);
  list_line(out, "dropped from the manifest (no longer bundled)", r.cleaned);
  list_line(out, "DESCRIPTION.md copied", r.descriptions_copied);
  return out.str();
}

class SyncCommand final : public Command {
public:
  const char* name() const override { return "sync"; }
  const char* summary() const override { return "Sync the bundled skills into HOME/skills"; }

  void configure(CLI::App& sub) override {
    sub.add_option("--bundled", m_bundled,
                   "The bundled skills folder (default: $SKILLRT_BUNDLED_DIR, else next to the binary)");
  }

  Outcome run(const Invocation& inv) override {
    auto dir = bundled_dir_for(inv, m_bundled);
    if (!dir) {
      return finish_result(inv.json, protocol::error_result_json(dir.error()), "");
    }
    ProgressLine progress(inv.json);
    core::sync::SyncOptions options;
    options.bundled_dir = *dir;
    options.progress = &progress;
    auto result = core::sync::sync_bundled_skills(inv.ctx, inv.config, options);
    if (!result) {
      return finish_result(inv.json, protocol::error_result_json(result.error()), "");
    }
    const Json json = protocol::sync_result_json(*result);
    if (inv.json) {
      print_json(json);
    } else {
      std::cout << sync_text(*result);
      for (const std::string& warning : result->warnings) {
        std::cerr << "warning: " << warning << '\n';
      }
      for (const std::string& error : result->errors) {
        std::cerr << "error: " << error << '\n';
      }
    }
    return outcome_of(json);
  }

private:
  std::string m_bundled;
};

class ResetCommand final : public Command {
public:
  const char* name() const override { return "reset"; }
  const char* summary() const override {
    return "Make a bundled skill follow upstream again (--restore: replace your copy)";
  }

  void configure(CLI::App& sub) override {
    sub.add_option("name", m_name, "The bundled skill's name")->required();
    sub.add_flag("--restore", m_restore, "Delete your copy and copy the bundled version fresh (your changes are lost)");
    sub.add_option("--bundled", m_bundled,
                   "The bundled skills folder (default: $SKILLRT_BUNDLED_DIR, else next to the binary)");
  }

  Outcome run(const Invocation& inv) override {
    auto dir = bundled_dir_for(inv, m_bundled);
    if (!dir) {
      return finish_result(inv.json, protocol::error_result_json(dir.error()), "");
    }
    ProgressLine progress(inv.json);
    core::sync::SyncOptions options;
    options.bundled_dir = *dir;
    options.progress = &progress;
    auto result = core::sync::reset_bundled_skill(inv.ctx, inv.config, m_name, m_restore, options);
    if (!result) {
      return finish_result(inv.json, protocol::error_result_json(result.error()), "");
    }
    return finish_result(inv.json, protocol::reset_result_json(*result, m_name),
                         result->message + " (" + result->action + ")\n");
  }

private:
  std::string m_name;
  std::string m_bundled;
  bool m_restore = false;
};

} // namespace

std::unique_ptr<Command> make_sync_command() {
  return std::make_unique<SyncCommand>();
}
std::unique_ptr<Command> make_reset_command() {
  return std::make_unique<ResetCommand>();
}

} // namespace skillrt::app
