#include "bundled_seed.hpp"

#include <unistd.h>

#include <system_error>

namespace skillrt::app {

namespace fs = std::filesystem;

std::optional<std::string> seed_bundled_skills(const core::Context& ctx, std::size_t& seeded) {
  seeded = 0;
  const auto bundled = ctx.env("SKILLRT_BUNDLED_DIR");
  if (!bundled || bundled->empty()) {
    return std::nullopt;
  }
  std::error_code ec;
  const fs::path target = ctx.skills_dir();
  if (fs::exists(target, ec) || fs::exists(ctx.home / ".no-bundled-skills", ec)) {
    return std::nullopt;
  }
  const fs::path source(*bundled);
  if (!fs::is_directory(source, ec)) {
    return "bundled skills folder not found: " + source.string();
  }
  fs::create_directories(ctx.home, ec);
  if (ec) {
    return "cannot create " + ctx.home.string() + ": " + ec.message();
  }
  const fs::path staging = ctx.home / (".skills.seed-" + std::to_string(::getpid()));
  fs::remove_all(staging, ec);
  fs::copy(source, staging, fs::copy_options::recursive, ec);
  if (ec) {
    fs::remove_all(staging, ec);
    return "cannot copy bundled skills: " + ec.message();
  }
  fs::rename(staging, target, ec);
  if (ec) {
    // Another process seeded first: theirs stands.
    fs::remove_all(staging, ec);
    return std::nullopt;
  }
  for (auto it = fs::recursive_directory_iterator(target, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->path().filename() == "SKILL.md") {
      ++seeded;
    }
  }
  return std::nullopt;
}

}  // namespace skillrt::app
