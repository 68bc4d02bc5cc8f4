// Trigger activation at scale: N file skills (default 50,000) written as real
// SKILL.md files under a fresh home, a tenth of them with `triggers` (3-6
// phrases, some with [placeholders]), one in a hundred with a /pattern/ and
// one in a hundred with `paths` globs; most names have two words or more, so
// every skill can fire by its name.
//
//   match_bench [N_SKILLS] [WORK_DIR]
//
// Measures:
//   1. build_catalog (warm listing cache), what every CLI run pays first;
//   2. compiling the listed skills' triggers into the index (a server pays it
//      once per catalog snapshot; the CLI on every run);
//   3. match over 400 messages as the servers run it (the index kept):
//      messages that fire (a trigger phrase in a sentence, a name, a pattern)
//      and off-topic ones; p50 / p99 / mean, and how many fired;
//   4. the same with 20 touched files per message (globs tried);
//   5. `skillrt match` as the CLI runs it (catalog + compile + match), a few runs.
// Deterministic: its own splitmix64 PRNG. The store is SQLite with no
// database skills (those are compiled per request and are few).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "splitmix.hpp"

#include "core/activation/match_skills.hpp"
#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/discovery/catalog.hpp"
#include "store/open_store.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

using Rng = skillrt::bench::SplitMix;

const std::vector<std::string> k_words = {
    "deploy", "kubernetes", "docker", "pipeline", "dataset", "model", "prompt", "agent", "review", "repository",
    "commit", "branch", "release", "rollback", "cluster", "service", "database", "query", "index", "schema",
    "migration", "backup", "restore", "monitor", "alert", "metric", "dashboard", "invoice", "report", "chart",
    "slide", "document", "spreadsheet", "email", "calendar", "meeting", "summary", "translate", "review", "audit",
    "security", "pentest", "scan", "lint", "format", "test", "benchmark", "profile", "trace", "debug", "song",
    "lyrics", "poem", "story", "recipe", "budget", "forecast", "contract", "invoice", "ticket", "incident"};

std::string word(Rng& rng) {
  // Half the words from the domain list, half generated (a long tail).
  if (rng.below(2) == 0) {
    return k_words[rng.below(k_words.size())];
  }
  std::string out;
  const std::size_t length = rng.between(4, 9);
  for (std::size_t i = 0; i < length; ++i) {
    out += static_cast<char>('a' + rng.below(26));
  }
  return out;
}

std::string phrase(Rng& rng, std::size_t min_words, std::size_t max_words) {
  std::string out;
  const std::size_t count = rng.between(min_words, max_words);
  for (std::size_t i = 0; i < count; ++i) {
    out += (i == 0 ? "" : " ") + word(rng);
  }
  return out;
}

struct Generated {
  std::vector<std::string> firing;  // messages that contain a trigger phrase or a name
};

Generated generate(const fs::path& skills, std::size_t count) {
  Rng rng(42);
  Generated out;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t name_words = rng.between(1, 3);
    std::string name;
    for (std::size_t w = 0; w < name_words; ++w) {
      name += (w == 0 ? "" : "-") + word(rng);
    }
    name += "-" + std::to_string(i);
    std::string frontmatter = "name: " + name + "\ndescription: Helps with " + phrase(rng, 3, 8) + ".\n";
    if (i % 10 == 0) {
      frontmatter += "triggers:\n";
      const std::size_t triggers = rng.between(3, 6);
      for (std::size_t t = 0; t < triggers; ++t) {
        std::string text = phrase(rng, 2, 4);
        if (rng.below(4) == 0) {
          text += " [URL]";
        }
        frontmatter += "  - \"" + text + "\"\n";
        if (out.firing.size() < 300 && rng.below(20) == 0) {
          std::string message = "could you please " + text + " for the team today";
          if (text.ends_with("[URL]")) {
            message.replace(message.find("[URL]"), 5, "https://example.test/a");
          }
          out.firing.push_back(message);
        }
      }
    }
    if (i % 100 == 3) {
      frontmatter += "triggers: [\"/" + word(rng) + "(ing|ed)? (the|a) " + word(rng) + "/\"]\n";
    }
    if (i % 100 == 7) {
      frontmatter += "paths: [\"src/" + word(rng) + "/**/*.{ts,tsx}\", \"*." + word(rng).substr(0, 3) + "\"]\n";
    }
    if (out.firing.size() < 350 && rng.below(400) == 0) {
      std::string spoken = name;
      std::replace(spoken.begin(), spoken.end(), '-', ' ');
      out.firing.push_back("run the " + spoken + " checks again");
    }
    const fs::path dir = skills / ("c" + std::to_string(i % 97)) / name;
    fs::create_directories(dir);
    std::ofstream(dir / "SKILL.md") << "---\n" << frontmatter << "---\n# " << name << "\n\nSteps.\n";
  }
  return out;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void report(const char* what, std::vector<double> times, std::size_t fired) {
  std::sort(times.begin(), times.end());
  double sum = 0;
  for (double t : times) {
    sum += t;
  }
  const auto at = [&](double q) { return times[std::min(times.size() - 1, static_cast<std::size_t>(q * times.size()))]; };
  std::printf("%-44s n=%zu p50 %.3f ms  p99 %.3f ms  mean %.3f ms  fired %zu\n", what, times.size(), at(0.5), at(0.99),
              sum / static_cast<double>(times.size()), fired);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace skillrt;
  const std::size_t count = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 50000;
  const fs::path work = argc > 2 ? fs::path(argv[2]) : fs::temp_directory_path() / "skillrt-match-bench";
  fs::remove_all(work);
  const fs::path home = work / "home";
  fs::create_directories(home / "skills");
  fs::create_directories(work / "cwd");
  std::printf("generating %zu skills under %s\n", count, home.c_str());
  const Generated generated = generate(home / "skills", count);

  core::Context ctx;
  ctx.home = home;
  ctx.cwd = work / "cwd";
  ctx.os = "linux";
  ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
  const core::Config config = core::load_config(ctx.config_path());
  auto store = store::open_store((home / "skillrt.db").string(), ctx);
  if (!store) {
    std::fprintf(stderr, "store: %s\n", store.error().message.c_str());
    return 1;
  }

  (void)core::build_catalog(ctx, config);  // fills the listing cache
  Clock::time_point start = Clock::now();
  const core::Catalog catalog = core::build_catalog(ctx, config);
  std::printf("build_catalog, warm listing cache: %.1f ms (%zu listed)\n", ms_since(start), catalog.listed.size());

  core::CatalogActivationMemo memo;
  start = Clock::now();
  const core::ActivationIndex& index = memo.index(catalog);
  std::printf("compile triggers into the index: %.1f ms (%zu candidates)\n", ms_since(start),
              index.candidates().size());

  std::vector<std::string> off_topic;
  Rng rng(7);
  for (int i = 0; i < 100; ++i) {
    off_topic.push_back("what is the " + k_words[rng.below(k_words.size())] + " like in " +
                        (i % 2 == 0 ? "Lisbon tomorrow" : "the office today") + "?");
  }
  std::vector<std::string> messages = generated.firing;
  messages.insert(messages.end(), off_topic.begin(), off_topic.end());

  auto run = [&](const char* what, const std::vector<std::string>& batch, const std::vector<std::string>& paths) {
    std::vector<double> times;
    std::size_t fired = 0;
    for (const std::string& message : batch) {
      const Clock::time_point t = Clock::now();
      auto found = core::match_skills_in(ctx, catalog, **store, core::MatchRequest{message, paths, 5}, &memo);
      times.push_back(ms_since(t));
      if (!found) {
        std::fprintf(stderr, "match: %s\n", found.error().message.c_str());
        std::exit(1);
      }
      fired += found->results.empty() ? 0 : 1;
    }
    report(what, times, fired);
  };
  run("match, kept index: messages that fire", generated.firing, {});
  run("match, kept index: off-topic messages", off_topic, {});
  std::vector<std::string> paths;
  for (int i = 0; i < 20; ++i) {
    paths.push_back("src/" + k_words[rng.below(k_words.size())] + "/part" + std::to_string(i) + "/view.tsx");
  }
  run("match, kept index, 20 files per message", messages, paths);

  std::vector<double> cli;
  for (int i = 0; i < 5; ++i) {
    const Clock::time_point t = Clock::now();
    const core::Catalog fresh = core::build_catalog(ctx, config);
    auto found = core::match_skills_in(ctx, fresh, **store, core::MatchRequest{messages[static_cast<std::size_t>(i)], {}, 5});
    cli.push_back(ms_since(t));
    if (!found) {
      return 1;
    }
  }
  report("as the CLI runs it (catalog + compile + match)", cli, 0);
  return 0;
}
