// The index block's exact text and its size-limit degradation (spec §2.16 rule 8).
#include "core/prompt/index_render.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "core/discovery/skill_reader.hpp"

namespace skillrt::test {
namespace {

using core::IndexEntry;
using core::IndexRenderOptions;
using core::render_skills_index;

const std::string k_head_web =
    "## Skills\n"
    "Before you reply, scan the skills below. When one matches the task, or is even partly relevant to it, load it "
    "with skill_view(name) and follow it; when unsure, load it. A skill beats working from basic tools such as "
    "web_search or terminal alone, because it records how this user wants the work done.\n"
    "If a skill has issues, fix it with skill_manage(action='patch').\n"
    "After a difficult or many-step task, offer to save the approach as a skill; when a skill you loaded turned out "
    "wrong or incomplete, update it.\n"
    "\n"
    "<available_skills>\n";
const std::string k_tail = "</available_skills>\n"
                           "\n"
                           "Only proceed without loading a skill if genuinely none are relevant to the task.";
const std::string k_names_only_note =
    "\nCategories marked [names only] list their skills without descriptions; skill_view(name) loads any of them.";

std::vector<IndexEntry> sample() {
  return {{"notes", "Take notes.", "general"},
          {"lint", "", "devops"},
          {"deploy", "Ship it.", "devops"},
          {"train", "Fit a model.", "ml/training"}};
}

TEST(IndexRender, NothingVisibleIsEmpty) {
  const auto out = render_skills_index({}, {}, {});
  EXPECT_EQ(out.text, "");
  EXPECT_EQ(out.skills_count, 0u);
}

TEST(IndexRender, ExactBlockText) {
  const auto out = render_skills_index(sample(), {{"devops", "Operations work"}}, {});
  EXPECT_EQ(out.text, k_head_web +
                          "  devops: Operations work\n"
                          "    - deploy: Ship it.\n"
                          "    - lint\n"
                          "  general:\n"
                          "    - notes: Take notes.\n"
                          "  ml/training:\n"
                          "    - train: Fit a model.\n" +
                          k_tail);
  EXPECT_EQ(out.skills_count, 4u);
  EXPECT_EQ(out.categories, (std::vector<std::string>{"devops", "general", "ml/training"}));
  EXPECT_TRUE(out.demoted.empty());
  EXPECT_TRUE(out.elided.empty());
  EXPECT_EQ(out.chars, core::utf8_length(out.text));
}

TEST(IndexRender, TerminalOnlyWithoutWebSearch) {
  IndexRenderOptions options;
  options.mention_web_search = false;
  const auto out = render_skills_index(sample(), {}, options);
  EXPECT_NE(out.text.find("basic tools such as terminal alone"), std::string::npos);
  EXPECT_EQ(out.text.find("web_search"), std::string::npos);
}

TEST(IndexRender, FirstEntryOfANameWins) {
  std::vector<IndexEntry> entries{{"deploy", "[project] Mine.", "tools"}, {"deploy", "Theirs.", "devops"}};
  const auto out = render_skills_index(entries, {}, {});
  EXPECT_EQ(out.text, k_head_web + "  tools:\n    - deploy: [project] Mine.\n" + k_tail);
  EXPECT_EQ(out.skills_count, 1u);
}

TEST(IndexRender, CompactCategoriesMatchTheFirstSegment) {
  IndexRenderOptions options;
  options.compact_categories = {"ml", "devops"};
  const auto out = render_skills_index(sample(), {{"devops", "Operations work"}}, options);
  EXPECT_EQ(out.text, k_head_web +
                          "  devops [names only]: deploy, lint\n"
                          "  general:\n"
                          "    - notes: Take notes.\n"
                          "  ml/training [names only]: train\n" +
                          k_tail + k_names_only_note);
  EXPECT_EQ(out.demoted, (std::vector<std::string>{"devops", "ml/training"}));
}

// Many categories of different sizes, to squeeze.
std::vector<IndexEntry> many() {
  std::vector<IndexEntry> entries;
  for (int c = 0; c < 12; ++c) {
    for (int s = 0; s <= c; ++s) {
      entries.push_back({"skill-" + std::to_string(c) + "-" + std::to_string(s),
                         "A description that takes some room " + std::to_string(s), "cat" + std::to_string(c)});
    }
  }
  return entries;
}

std::size_t listed_lines(const std::string& text) {
  std::size_t count = 0;
  for (std::size_t pos = text.find("    - "); pos != std::string::npos; pos = text.find("    - ", pos + 1)) {
    ++count;
  }
  return count;
}

TEST(IndexRender, MaxCharsDemotesLargestCategoriesFirst) {
  const auto full = render_skills_index(many(), {}, {});
  IndexRenderOptions options;
  options.max_chars = full.chars - 200;
  const auto out = render_skills_index(many(), {}, options);
  EXPECT_LE(out.chars, options.max_chars);
  EXPECT_EQ(out.chars, core::utf8_length(out.text));
  ASSERT_EQ(out.demoted.size(), 1u);
  EXPECT_EQ(out.demoted[0], "cat11"); // the biggest block
  EXPECT_NE(out.text.find("  cat11 [names only]: skill-11-0, skill-11-1,"), std::string::npos);
  EXPECT_TRUE(out.elided.empty());
  EXPECT_NE(out.text.find(k_names_only_note), std::string::npos);
}

TEST(IndexRender, MaxCharsElidesWholeCategoriesAndSaysSo) {
  const auto entries = many();
  IndexRenderOptions options;
  options.max_chars = 1500;
  const auto out = render_skills_index(entries, {}, options);
  EXPECT_LE(out.chars, options.max_chars);
  EXPECT_EQ(out.chars, core::utf8_length(out.text));
  ASSERT_FALSE(out.elided.empty());
  // Every skill is either on a line, in a names-only list, or counted as left out.
  std::size_t shown = listed_lines(out.text);
  for (const std::string& category : out.demoted) {
    const std::size_t line = out.text.find("  " + category + " [names only]: ");
    ASSERT_NE(line, std::string::npos);
    const std::string names = out.text.substr(line, out.text.find('\n', line) - line);
    shown += static_cast<std::size_t>(std::count(names.begin(), names.end(), ',')) + 1;
  }
  std::size_t elided = 0;
  for (const auto& item : out.elided) {
    elided += item.skills;
  }
  EXPECT_EQ(shown + elided, entries.size());
  EXPECT_EQ(out.skills_count, entries.size());
  // The closing line names each category left out with its count, last in the block.
  const std::string last_line = out.text.substr(out.text.rfind('\n') + 1);
  EXPECT_EQ(last_line.rfind("[Not shown, to fit the index size limit: " + std::to_string(elided) + " skills in " +
                                std::to_string(out.elided.size()) + " categories: ",
                            0),
            0u)
      << last_line;
  for (const auto& item : out.elided) {
    EXPECT_NE(last_line.find(item.category + " (" + std::to_string(item.skills) + ")"), std::string::npos);
  }
  EXPECT_NE(last_line.find("Call skills_list to see them.]"), std::string::npos);
}

TEST(IndexRender, ImpossibleLimitStillCountsEverything) {
  IndexRenderOptions options;
  options.max_chars = 10;
  const auto out = render_skills_index(sample(), {}, options);
  EXPECT_GT(out.chars, 10u);
  ASSERT_EQ(out.elided.size(), 3u);
  EXPECT_EQ(out.text.substr(out.text.rfind('\n') + 1),
            "[Not shown, to fit the index size limit: 4 skills in 3 categories: devops (2), general (1), "
            "ml/training (1). Call skills_list to see them.]");
  EXPECT_EQ(out.text.find("[names only]"), std::string::npos);
  EXPECT_EQ(out.chars, core::utf8_length(out.text));
}

TEST(IndexRender, PredictedSizeMatchesAtEveryLimit) {
  // Whatever the limit, the size the degradation computed is the size produced:
  // a result over the limit only happens when everything is already left out.
  const auto entries = many();
  const auto full = render_skills_index(entries, {}, {});
  for (std::size_t limit = 300; limit <= full.chars + 10; limit += 97) {
    IndexRenderOptions options;
    options.max_chars = limit;
    const auto out = render_skills_index(entries, {}, options);
    EXPECT_EQ(out.chars, core::utf8_length(out.text));
    if (out.elided.size() < out.categories.size()) {
      EXPECT_LE(out.chars, limit) << "limit " << limit;
    }
  }
}

} // namespace
} // namespace skillrt::test
