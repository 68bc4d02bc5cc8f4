// Every SKILL.md of the shared corpus must split into a fenced, mapping
// frontmatter that our strict parser accepts (PyYAML accepts all of them).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include "core/yaml/frontmatter.hpp"
#include "support/corpus.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct CorpusCounts {
  std::size_t files = 0;
  std::size_t fenced = 0;
  std::size_t clean = 0;  // fenced, no YAML error, name and description present
};

// Walks `dir` (not following symlinks) and checks each SKILL.md; failures are
// reported per file. `require_all` is false for the labeled fixtures, some of
// which deliberately lack frontmatter.
CorpusCounts check_tree(const fs::path& dir, bool require_all, const fs::path& skip) {
  CorpusCounts counts;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!skip.empty() && it->path() == skip) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().filename() != "SKILL.md" || !it->is_regular_file(ec)) {
      continue;
    }
    ++counts.files;
    std::string text = read_all(it->path());
    Frontmatter fm = parse_frontmatter(text);
    if (!fm.fenced) {
      EXPECT_FALSE(require_all) << it->path() << ": no frontmatter fence";
      continue;
    }
    ++counts.fenced;
    EXPECT_FALSE(fm.yaml_error.has_value())
        << it->path() << ":" << fm.yaml_error->pos.line << ":" << fm.yaml_error->pos.column << ": "
        << fm.yaml_error->message;
    const YamlNode* name = fm.fields.get("name");
    const YamlNode* description = fm.fields.get("description");
    bool ok = !fm.yaml_error && name != nullptr && name->truthy() && description != nullptr &&
              description->truthy();
    if (require_all) {
      EXPECT_TRUE(ok) << it->path() << ": missing name or description";
    }
    counts.clean += ok ? 1 : 0;
    EXPECT_LE(fm.body_offset, text.size());
  }
  EXPECT_FALSE(ec) << dir << ": " << ec.message();
  return counts;
}

TEST(CorpusFrontmatterTest, EveryRealSkillParsesStrictly) {
  fs::path corpus = SKILLRT_CORPUS_DIR;
  SKILLRT_REQUIRE_CORPUS_OR_SKIP(fs::is_directory(corpus), "corpus not found at " + corpus.string());
  CorpusCounts counts = check_tree(corpus, true, corpus / "labeled");
  // The corpus statistics: 2,267 real skills, all with a mapping frontmatter.
  EXPECT_EQ(counts.files, 2267U);
  EXPECT_EQ(counts.fenced, 2267U);
  EXPECT_EQ(counts.clean, 2267U);
}

TEST(CorpusFrontmatterTest, LabeledFixturesParse) {
  fs::path labeled = fs::path(SKILLRT_CORPUS_DIR) / "labeled";
  SKILLRT_REQUIRE_CORPUS_OR_SKIP(fs::is_directory(labeled), "labeled corpus not found at " + labeled.string());
  CorpusCounts counts = check_tree(labeled, false, {});
  EXPECT_EQ(counts.files, 394U);
  EXPECT_EQ(counts.fenced, 390U);
  EXPECT_EQ(counts.clean, 390U);
}

}  // namespace
}  // namespace skillrt::core
