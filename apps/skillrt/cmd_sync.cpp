// `skillrt sync [--bundled DIR]`: bring the bundled skills into HOME/skills
// (spec §2.13); `skillrt reset NAME [--restore]`: make one follow upstream again.
// The other operations of §2.13 rule 12 are modes of `sync`, one at a time:
// `--diff NAME`, `--modified`, `--opt-out on|off`, `--prune [--dry-run]`.
#include <iostream>
#include <sstream>

#include "bundled_seed.hpp"
#include "command.hpp"
#include "core/sync/bundled_inspect.hpp"
#include "core/sync/bundled_opt_out.hpp"
#include "core/sync/bundled_prune.hpp"
#include "core/sync/bundled_reset.hpp"
#include "core/sync/bundled_sync.hpp"
#include "progress_line.hpp"
#include "protocol/error_json.hpp"
#include "protocol/sync_json.hpp"

namespace skillrt::app {
namespace {

namespace fs = std::filesystem;

// The --bundled option of sync and reset.
void add_bundled_option(CLI::App& sub, std::string& target) {
  sub.add_option("--bundled", target,
                 "The bundled skills folder (default: $SKILLRT_BUNDLED_DIR, else next to the binary)");
}

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

std::string diff_text(const core::sync::BundledDiff& d) {
  std::ostringstream out;
  out << d.name << ": your copy " << d.path.string() << " against the bundled version " << d.bundled_path.string()
      << '\n';
  if (d.identical) {
    out << "  identical to the bundled version\n";
  } else if (d.state == core::sync::CopyState::pristine) {
    out << "  unchanged by you; the bundled version is newer (skillrt sync updates it)\n";
  } else if (!d.tracked) {
    out << "  not tracked by sync: a skill of your own with the bundled skill's name\n";
  }
  for (const core::diff::FileDiff& f : d.diff.files) {
    out << "  " << core::diff::file_change_name(f.change) << ' ' << f.path << '\n';
  }
  if (!d.identical && d.diff.files.empty()) {
    out << "  (the folders differ only in symlinks or special files, which are not diffed)\n";
  }
  out << d.diff.text;
  return out.str();
}

std::string modified_text(const core::sync::ModifiedReport& r) {
  std::ostringstream out;
  if (r.modified.empty()) {
    out << "No bundled skill was changed by you (" << r.total_bundled << " bundled)\n";
  } else {
    out << r.modified.size() << " bundled skill" << (r.modified.size() == 1 ? " was" : "s were")
        << " changed by you (sync never overwrites them; skillrt sync --diff NAME shows how):\n";
    for (const core::sync::ModifiedSkill& skill : r.modified) {
      out << "  " << skill.name << "  " << skill.path.string()
          << (skill.origin_known ? "" : "  (recorded by an older version; differs from the bundled one)") << '\n';
    }
  }
  list_line(out, "not checked, the copy is a symlink", r.symlinked);
  return out.str();
}

std::string prune_text(const core::sync::PruneResult& r) {
  std::ostringstream out;
  if (r.removed.empty()) {
    out << "No unchanged bundled copy to remove\n";
  } else {
    out << (r.dry_run ? "Would remove " : "Removed ") << r.removed.size() << " unchanged bundled cop"
        << (r.removed.size() == 1 ? "y" : "ies") << " (sync will not bring them back; skillrt reset NAME does):\n";
    for (const core::sync::PrunedSkill& skill : r.removed) {
      out << "  " << skill.name << "  " << skill.path.string() << '\n';
    }
  }
  list_line(out, "kept, they differ from the bundled version", r.kept_differing);
  list_line(out, "not touched, the copy is a symlink", r.symlinked);
  return out.str();
}

// Prints a report for people (errors on stderr) or its JSON; exit by `success`.
Outcome finish_report(const Invocation& inv, const Json& json, const std::string& text,
                      const std::vector<std::string>& errors) {
  if (inv.json) {
    print_json(json);
  } else {
    std::cout << text;
    for (const std::string& error : errors) {
      std::cerr << "error: " << error << '\n';
    }
  }
  return outcome_of(json);
}

class SyncCommand final : public Command {
public:
  const char* name() const override { return "sync"; }
  const char* summary() const override {
    return "Sync the bundled skills into HOME/skills (or --diff NAME, --modified, --opt-out on|off, --prune)";
  }

  void configure(CLI::App& sub) override {
    add_bundled_option(sub, m_bundled);
    // Modes rather than subcommands: `sync`'s own flags stay as they are, and
    // every mode reads the same bundled folder (--bundled).
    auto* diff =
        sub.add_option("--diff", m_diff, "Show how your copy of bundled skill NAME differs from the shipped one")
            ->type_name("NAME");
    auto* modified = sub.add_flag("--modified", m_modified, "List the bundled skills you changed");
    auto* opt_out =
        sub.add_option("--opt-out", m_opt_out, "on: install only the essential skill from now on; off: opt back in")
            ->check(CLI::IsMember({"on", "off"}));
    auto* prune = sub.add_flag("--prune", m_prune,
                               "Remove the bundled copies you never changed (a later sync does not bring them back)");
    sub.add_flag("--dry-run", m_dry_run, "With --prune: only report what would be removed")->needs(prune);
    diff->excludes(modified)->excludes(opt_out)->excludes(prune);
    modified->excludes(diff)->excludes(opt_out)->excludes(prune);
    opt_out->excludes(diff)->excludes(modified)->excludes(prune);
    prune->excludes(diff)->excludes(modified)->excludes(opt_out);
  }

  Outcome run(const Invocation& inv) override {
    if (!m_opt_out.empty()) {
      return run_opt_out(inv); // needs no bundled folder
    }
    auto dir = bundled_dir_for(inv, m_bundled);
    if (!dir) {
      return finish_result(inv.json, protocol::error_result_json(dir.error()), "");
    }
    if (!m_diff.empty()) {
      auto diff = core::sync::diff_bundled_skill(inv.ctx, m_diff, *dir);
      if (!diff) {
        return finish_result(inv.json, protocol::error_result_json(diff.error()), "");
      }
      return finish_result(inv.json, protocol::bundled_diff_json(*diff), diff_text(*diff));
    }
    if (m_modified) {
      auto report = core::sync::list_user_modified_bundled_skills(inv.ctx, *dir);
      if (!report) {
        return finish_result(inv.json, protocol::error_result_json(report.error()), "");
      }
      return finish_report(inv, protocol::modified_report_json(*report), modified_text(*report), report->errors);
    }
    if (m_prune) {
      auto pruned = core::sync::remove_pristine_bundled_skills(inv.ctx, *dir, m_dry_run);
      if (!pruned) {
        return finish_result(inv.json, protocol::error_result_json(pruned.error()), "");
      }
      return finish_report(inv, protocol::prune_result_json(*pruned), prune_text(*pruned), pruned->errors);
    }
    return run_sync(inv, *dir);
  }

private:
  Outcome run_opt_out(const Invocation& inv) {
    auto result = core::sync::set_bundled_opt_out(inv.ctx, m_opt_out == "on");
    if (!result) {
      return finish_result(inv.json, protocol::error_result_json(result.error()), "");
    }
    return finish_result(inv.json, protocol::opt_out_result_json(*result), result->message + '\n');
  }

  Outcome run_sync(const Invocation& inv, const fs::path& dir) {
    ProgressLine progress(inv.json);
    core::sync::SyncOptions options;
    options.bundled_dir = dir;
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

  std::string m_bundled;
  std::string m_diff;
  std::string m_opt_out;
  bool m_modified = false;
  bool m_prune = false;
  bool m_dry_run = false;
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
    add_bundled_option(sub, m_bundled);
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
                         result->message + " (" + core::sync::reset_action_name(result->action) + ")\n");
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
