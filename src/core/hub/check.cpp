// Checking installed skills against disk and upstream (see check.hpp).
#include "core/hub/check.hpp"

#include <map>
#include <optional>
#include <system_error>

#include "core/files/pristine.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/hub/hub_session.hpp"
#include "core/hub/lock_file.hpp"
#include "core/hub/placement.hpp"
#include "core/hub/quarantine.hpp"
#include "core/files/private_temp_dir.hpp"

namespace skillrt::core::hub {

namespace fs = std::filesystem;

const char* upstream_status_name(UpstreamStatus status) {
  switch (status) {
  case UpstreamStatus::up_to_date:
    return "up_to_date";
  case UpstreamStatus::update_available:
    return "update_available";
  case UpstreamStatus::unavailable:
    return "unavailable";
  case UpstreamStatus::not_checked:
    return "not_checked";
  }
  return "not_checked";
}

const char* check_status_name(CheckStatus status) {
  switch (status) {
    case CheckStatus::invalid_install:
      return "invalid_install";
    case CheckStatus::missing:
      return "missing";
    case CheckStatus::locally_modified:
      return "locally_modified";
    case CheckStatus::update_available:
      return "update_available";
    case CheckStatus::up_to_date:
      return "up_to_date";
    case CheckStatus::unavailable:
      return "unavailable";
  }
  return "unknown";
}

CheckOutcome check_installed(const Context& ctx, Fetcher& fetcher, const std::optional<std::string>& name, bool shared,
                             bool fetch_upstream, Progress* progress) {
  CheckOutcome out;
  auto session = open_hub_session(ctx, shared, Operation::read);
  if (!session) {
    out.error = session.error();
    return out;
  }
  const HubPaths& paths = session->paths;
  out.recovered = session->recovered;
  LockFile* lock = &session->lock_file;
  if (name && lock->installed.find(*name) == lock->installed.end()) {
    out.error = Error{ErrorCode::not_found, "'" + *name + "' is not a hub-installed skill", {}};
    return out;
  }
  // A reader who may not write this root (outside the owner org, checking
  // the shared root) fetches into a private temporary folder instead of the
  // root's quarantine: a check must not write into a layer it cannot write.
  HubPaths fetch_paths = paths;
  std::optional<PrivateTempDir> private_quarantine;
  if (fetch_upstream && !session->lock) {
    auto made = PrivateTempDir::create("skillrt-check");
    if (!made) {
      out.error = made.error();
      return out;
    }
    private_quarantine.emplace(std::move(*made));
    fetch_paths.quarantine = private_quarantine->path();
  }
  // One fetch per SOURCE, however many skills came from it. Declared after
  // the private folder, so its bundles are removed before it is.
  std::map<std::string, Result<FetchedBundle>> fetched;
  std::size_t done = 0;
  for (const auto& [skill, entry] : lock->installed) {
    if (name && skill != *name) {
      continue;
    }
    CheckRow row;
    row.name = skill;
    row.install_path = entry.install_path;
    row.source_spec = entry.source_spec;
    row.recorded_hash = entry.content_hash;
    auto target = recorded_target(paths, skill, entry);
    std::error_code ec;
    if (!target) {
      row.invalid_install = true;
      row.message = target.error().message;
    } else if (!fs::is_directory(fs::symlink_status(*target, ec))) {
      row.missing = true;
      row.message = "the folder " + target->string() + " is gone";
    } else {
      const auto current = bundle_content_hash(*target);
      row.locally_modified = !files::is_pristine(current, entry.content_hash);
      if (current) {
        row.current_hash = *current;
      } else {
        row.message = "cannot hash the installed folder: " + current.error().message;
      }
    }
    if (fetch_upstream && !row.invalid_install) {
      if (progress != nullptr) {
        progress->update("fetch", done, lock->installed.size());
      }
      if (entry.source_spec.empty()) {
        row.upstream = UpstreamStatus::unavailable;
        row.message += (row.message.empty() ? "" : "; ") + std::string("no source recorded");
      } else {
        auto it = fetched.find(entry.source_spec);
        if (it == fetched.end()) {
          it = fetched.emplace(entry.source_spec, fetch_into_quarantine(fetch_paths, fetcher, entry.source_spec, nullptr))
                   .first;
        }
        const Result<FetchedBundle>& bundle = it->second;
        const StagedSkill* match = nullptr;
        if (bundle) {
          for (const StagedSkill& s : bundle->skills) {
            match = s.name == skill ? &s : match;
          }
        }
        if (!bundle) {
          row.upstream = UpstreamStatus::unavailable;
          row.message += (row.message.empty() ? "" : "; ") + std::string("upstream: ") + bundle.error().message;
        } else if (match == nullptr) {
          row.upstream = UpstreamStatus::unavailable;
          row.message += (row.message.empty() ? "" : "; ") + std::string("upstream no longer has this skill");
        } else if (auto latest = build_bundle_manifest(match->dir); !latest) {
          row.upstream = UpstreamStatus::unavailable;
          row.message += (row.message.empty() ? "" : "; ") + std::string("upstream: ") + latest.error().message;
        } else {
          row.latest_hash = latest->content_hash;
          row.upstream = latest->content_hash == entry.content_hash ? UpstreamStatus::up_to_date
                                                                    : UpstreamStatus::update_available;
        }
      }
    }
    ++done;
    row.status = row.invalid_install                                ? CheckStatus::invalid_install
                 : row.missing                                      ? CheckStatus::missing
                 : row.locally_modified                             ? CheckStatus::locally_modified
                 : row.upstream == UpstreamStatus::update_available ? CheckStatus::update_available
                 : row.upstream == UpstreamStatus::unavailable      ? CheckStatus::unavailable
                                                                    : CheckStatus::up_to_date;
    out.rows.push_back(std::move(row));
  }
  out.success = true;
  return out;
}

} // namespace skillrt::core::hub
