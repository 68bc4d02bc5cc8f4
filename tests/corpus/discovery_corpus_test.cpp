// Discovery over the whole real corpus, checked against an independent count.
//
// The catalog is pointed at the eleven real-world sources (every folder of the
// corpus except labeled/, whose security fixtures STATS.md counts separately),
// each configured as an external dir through a real config.yaml. The expected
// set is computed here a second way, with std::filesystem's own recursive
// iterator and the pruning rules restated (excluded names; support dirs beside
// a SKILL.md), so a walker bug does not hide behind itself.
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/config/config.hpp"
#include "core/discovery/catalog.hpp"
#include "core/discovery/skill_reader.hpp"
#include "core/limits.hpp"
#include "protocol/catalog_json.hpp"
#include "support/corpus.hpp"

namespace skillrt::test {
namespace {

namespace fs = std::filesystem;

const fs::path k_corpus = fs::path(SKILLRT_CORPUS_DIR);

const std::set<std::string> k_excluded = {".git",        ".github",      ".hub",          ".archive",   ".venv",
                                          "venv",        "node_modules", "site-packages", "__pycache__", ".tox",
                                          ".nox",        ".pytest_cache", ".mypy_cache",  ".ruff_cache"};
const std::set<std::string> k_support = {"references", "templates", "assets", "scripts"};

std::vector<fs::path> real_sources() {
  std::vector<fs::path> sources;
  for (const auto& entry : fs::directory_iterator(k_corpus)) {
    if (entry.is_directory() && entry.path().filename() != "labeled") {
      sources.push_back(fs::canonical(entry.path()));
    }
  }
  std::sort(sources.begin(), sources.end());
  return sources;
}

struct Expected {
  std::set<std::string> skills;  // SKILL.md paths discovery must find
  std::set<std::string> pruned;  // SKILL.md files our rules leave out
};

// Independent restatement of the pruning rules over a plain recursive listing.
Expected independent_count(const std::vector<fs::path>& sources) {
  Expected out;
  for (const auto& source : sources) {
    for (const auto& entry : fs::recursive_directory_iterator(source)) {
      if (entry.path().filename() != "SKILL.md" || !entry.is_regular_file()) {
        continue;
      }
      fs::path relative_dir = entry.path().parent_path().lexically_relative(source);
      bool pruned = false;
      fs::path prefix = source;
      for (const auto& part : relative_dir) {
        if (part == ".") {
          break;
        }
        if (k_excluded.contains(part.string())) {
          pruned = true;
        }
        if (k_support.contains(part.string()) && fs::exists(prefix / "SKILL.md")) {
          pruned = true;
        }
        prefix /= part;
      }
      (pruned ? out.pruned : out.skills).insert(entry.path().string());
    }
  }
  return out;
}

// The "| **total** | **N** |" figure of the real-world table in STATS.md.
std::size_t stats_total() {
  std::ifstream in(k_corpus / "STATS.md");
  std::string line;
  const std::regex total(R"(^\| \*\*total\*\* \| \*\*(\d+)\*\* \|)");
  while (std::getline(in, line)) {
    std::smatch match;
    if (std::regex_search(line, match, total)) {
      return std::stoul(match[1].str());  // the first table is the real-world one
    }
  }
  return 0;
}

class DiscoveryCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::is_directory(k_corpus)) {
      return;
    }
    std::string pattern = (fs::temp_directory_path() / "skillrt-corpus-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    s_home = new fs::path(pattern);
    s_sources = new std::vector<fs::path>(real_sources());
    std::ofstream config(*s_home / "config.yaml");
    config << "skills:\n  external_dirs:\n";
    for (const auto& source : *s_sources) {
      config << "    - '" << source.string() << "'\n";
    }
    config.close();
    s_config = new core::Config(core::load_config(*s_home / "config.yaml"));
    core::Context ctx;
    ctx.home = *s_home;
    ctx.cwd = *s_home;
    ctx.os = "linux";
    ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
    s_catalog = new core::Catalog(core::build_catalog(ctx, *s_config));
  }
  static void TearDownTestSuite() {
    if (s_home != nullptr) {
      std::error_code ec;
      fs::remove_all(*s_home, ec);
    }
    delete s_catalog;
    delete s_config;
    delete s_sources;
    delete s_home;
  }
  void SetUp() override {
    SKILLRT_REQUIRE_CORPUS_OR_SKIP(s_catalog != nullptr, "corpus not present at " + k_corpus.string());
  }

  static inline fs::path* s_home = nullptr;
  static inline std::vector<fs::path>* s_sources = nullptr;
  static inline core::Config* s_config = nullptr;
  static inline core::Catalog* s_catalog = nullptr;
};

TEST_F(DiscoveryCorpus, EveryRealSourceIsAnExternalRoot) {
  EXPECT_TRUE(s_config->problems.empty());
  ASSERT_EQ(s_config->skills.external_dirs.size(), s_sources->size());
  ASSERT_EQ(s_catalog->roots.roots.size(), s_sources->size());
  EXPECT_EQ(s_sources->size(), 11u);
  for (std::size_t i = 0; i < s_sources->size(); ++i) {
    EXPECT_EQ(s_catalog->roots.roots[i].tier, core::Tier::external);
    EXPECT_EQ(s_catalog->roots.roots[i].path, (*s_sources)[i]);
  }
  EXPECT_TRUE(s_catalog->roots.dropped_external.empty());
}

TEST_F(DiscoveryCorpus, EverySkillFolderIsFoundExactlyOnce) {
  const Expected expected = independent_count(*s_sources);
  std::multiset<std::string> found;
  for (const auto& record : s_catalog->records) {
    found.insert(record.skill_md.string());
  }
  std::set<std::string> unique(found.begin(), found.end());
  EXPECT_EQ(unique.size(), found.size()) << "a SKILL.md was recorded twice";
  for (const auto& path : expected.skills) {
    EXPECT_TRUE(unique.contains(path)) << "missed " << path;
  }
  for (const auto& path : unique) {
    EXPECT_TRUE(expected.skills.contains(path)) << "found unexpectedly " << path;
  }
  EXPECT_EQ(unique.size(), expected.skills.size());
}

TEST_F(DiscoveryCorpus, CountsAgreeWithStatsMd) {
  // STATS.md counts every folder holding a SKILL.md; discovery prunes the few
  // that sit under an excluded dir (.github) or a support dir beside a SKILL.md.
  const Expected expected = independent_count(*s_sources);
  const std::size_t total = stats_total();
  ASSERT_EQ(total, 2267u);
  EXPECT_EQ(expected.skills.size() + expected.pruned.size(), total);
  EXPECT_EQ(s_catalog->records.size() + expected.pruned.size(), total);
  for (const auto& path : expected.pruned) {
    std::cout << "[ pruned   ] " << fs::path(path).lexically_relative(fs::canonical(k_corpus)).string() << "\n";
  }
  EXPECT_LE(expected.pruned.size(), 5u);  // today: two under .github/, one under templates/
}

TEST_F(DiscoveryCorpus, NothingIsReadFromSupportDirsOrExcludedDirs) {
  for (const auto& record : s_catalog->records) {
    const fs::path& root = s_catalog->roots.roots[record.root_index].path;
    EXPECT_FALSE(core::is_skill_support_path(record.skill_md.path(), root)) << record.skill_md;
    for (const auto& part : record.skill_md.path().lexically_relative(root)) {
      EXPECT_FALSE(k_excluded.contains(part.string())) << record.skill_md;
    }
  }
}

TEST_F(DiscoveryCorpus, EveryFileReadsCleanly) {
  for (const auto& skip : s_catalog->skipped) {
    // Walker prunes are expected; read failures are not.
    EXPECT_TRUE(skip.reason == core::SkipReason::excluded || skip.reason == core::SkipReason::support_dir ||
                skip.reason == core::SkipReason::bad_frontmatter)
        << core::skip_reason_name(skip.reason) << " " << skip.path << ": " << skip.detail;
  }
  std::size_t bad_frontmatter = 0;
  for (const auto& skip : s_catalog->skipped) {
    bad_frontmatter += skip.reason == core::SkipReason::bad_frontmatter ? 1 : 0;
  }
  // PyYAML accepts every real frontmatter; our strict reader may refuse a few
  // constructs (duplicate keys, anchors) and list those through the fallback.
  EXPECT_LE(bad_frontmatter, 10u);
}

TEST_F(DiscoveryCorpus, NamesAndDescriptionsRespectTheCaps) {
  std::size_t truncated = 0;
  for (const auto& record : s_catalog->records) {
    EXPECT_FALSE(record.name.empty()) << record.skill_md;
    EXPECT_LE(core::utf8_length(record.name), limits::k_max_name_length);
    const std::string description = s_catalog->description(record);
    EXPECT_LE(core::utf8_length(description), limits::k_max_description_length);
    EXPECT_FALSE(description.empty()) << record.skill_md;
    if (description.ends_with("...") && description.size() >= limits::k_max_description_length) {
      ++truncated;
    }
  }
  // STATS.md: two real descriptions exceed 1024 characters.
  EXPECT_EQ(truncated, 2u);
}

TEST_F(DiscoveryCorpus, ListAndDoctorJsonSerialise) {
  protocol::Json list = protocol::list_json(*s_catalog, std::nullopt);
  EXPECT_EQ(list["count"].get<std::size_t>(), s_catalog->listed.size());
  std::string dumped;
  ASSERT_NO_THROW(dumped = list.dump());
  EXPECT_GT(dumped.size(), 100000u);
  ASSERT_NO_THROW((void)protocol::doctor_json(*s_catalog, *s_config).dump());
  std::ostringstream streamed;
  protocol::write_list_json(streamed, *s_catalog, std::nullopt, 2);
  EXPECT_EQ(streamed.str(), list.dump(2));
  // Duplicate names across aggregators: exactly one listed per name.
  std::set<std::string> names;
  for (const auto& skill : list["skills"]) {
    EXPECT_TRUE(names.insert(skill["name"].get<std::string>()).second);
  }
  EXPECT_LT(s_catalog->listed.size(), s_catalog->records.size());
}

}  // namespace
}  // namespace skillrt::test
