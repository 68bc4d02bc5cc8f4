// Compiled triggers against messages: phrases with placeholders, words near
// each other, /patterns/ (linear-time, even for patterns that make a
// backtracking engine take exponential time), names, and the problems an
// unusable trigger reports.
#include "core/activation/trigger_rules.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/activation/activation_index.hpp"
#include "core/activation/message_words.hpp"

namespace skillrt::test {
namespace {

using Views = std::vector<std::string_view>;

// The reasons `message` fires for one skill named `name`, as "kind:matched".
std::vector<std::string> fire(std::string_view name, const Views& triggers, std::string_view message,
                              const std::vector<std::string>& paths = {}, const Views& globs = {}) {
  core::ActivationIndex index;
  core::ActivationCandidate candidate;
  candidate.name = std::string(name);
  candidate.rules = core::compile_trigger_rules(name, triggers, globs);
  index.add(std::move(candidate));
  const core::MessageText text(message);
  std::vector<std::string> out;
  for (const core::FiredSkill& fired : index.match(text, paths)) {
    for (const core::ActivationReason& reason : fired.reasons) {
      out.push_back(std::string(core::activation_kind_name(reason.kind)) + ":" + reason.matched);
    }
  }
  return out;
}

using Reasons = std::vector<std::string>;

TEST(MessageWords, CutAndFold) {
  const std::vector<core::MessageWord> words = core::cut_words("Write SONGS, don't stop: user's résumé!");
  std::vector<std::string> folded;
  for (const auto& word : words) {
    folded.push_back(word.folded);
  }
  EXPECT_EQ(folded, (std::vector<std::string>{"write", "song", "don't", "stop", "user", "résumé"}));
  EXPECT_EQ(core::fold_word("process"), "process");  // "ss" is not a plural
  EXPECT_EQ(core::fold_word("its"), "its");          // too short to fold
}

TEST(TriggerRules, PhraseFiresOnItsWordsInOrder) {
  EXPECT_EQ(fire("songwriter", {"song lyrics"}, "Help me with the song lyrics please"), (Reasons{"phrase:song lyrics"}));
  // Case and plural do not matter.
  EXPECT_EQ(fire("songwriter", {"song lyrics"}, "SONGS LYRICS"), (Reasons{"phrase:SONGS LYRICS"}));
  EXPECT_TRUE(fire("songwriter", {"song lyrics"}, "what is the weather in Paris").empty());
}

TEST(TriggerRules, PlaceholdersTakeOneToEightWords) {
  const Views triggers{"pentest [URL]"};
  // What the trigger met is shown to whole words of the message.
  EXPECT_EQ(fire("webpentest", triggers, "please pentest https://shop.example.com/login, now"),
            (Reasons{"phrase:pentest https://shop.example.com/login"}));
  // The placeholder needs a word: "pentest" alone is not the phrase (but it
  // has only one content word, so no `words` reason either).
  EXPECT_TRUE(fire("webpentest", triggers, "pentest").empty());
  // Placeholders in the middle bridge up to eight words.
  const Views middle{"test [URL] for vulnerabilities"};
  EXPECT_EQ(fire("webpentest", middle, "test https://a.example/b for vulnerabilities"),
            (Reasons{"phrase:test https://a.example/b for vulnerabilities"}));
  // Nine words are one too many for a placeholder, and "test" and
  // "vulnerabilities" are then too far apart for the words-near reason.
  EXPECT_TRUE(fire("webpentest", middle, "test one two three four five six seven eight nine for vulnerabilities")
                  .empty());
}

TEST(TriggerRules, WordsNearEachOtherFireWhenThePhraseDoesNot) {
  EXPECT_EQ(fire("songwriter", {"song lyrics"}, "lyrics for the song"), (Reasons{"words:lyrics for the song"}));
  // Too far apart: nothing.
  EXPECT_TRUE(fire("songwriter", {"song lyrics"}, "lyrics are words; a long time ago someone wrote a song").empty());
  // Every content word is needed ("a" is a stop word, "create" and "ui" are not).
  EXPECT_TRUE(fire("ui-maker", {"create a UI"}, "create something").empty());
  EXPECT_EQ(fire("ui-maker", {"create a UI"}, "create a new UI"), (Reasons{"words:create a new UI"}));
}

TEST(TriggerRules, PatternsAreCaseInsensitiveRe2) {
  EXPECT_EQ(fire("deployer", {"/deploy(ing)? to (prod|staging)/"}, "We are DEPLOYING to Staging today"),
            (Reasons{"pattern:DEPLOYING to Staging"}));
  EXPECT_TRUE(fire("deployer", {"/deploy(ing)? to (prod|staging)/"}, "deploy to mars").empty());
}

TEST(TriggerRules, CatastrophicPatternRunsInLinearTime) {
  // (a+)+$ against a long run of a's followed by a mismatch takes a
  // backtracking engine 2^n steps; RE2 answers at once. A hang here fails
  // the test by its timeout.
  const std::string message = std::string(60000, 'a') + "!";
  EXPECT_TRUE(fire("evil", {"/(a+)+$/", "/(x+x+)+y/"}, message).empty());
  EXPECT_EQ(fire("evil", {"/(a|aa)+b/"}, std::string(30000, 'a') + "b").size(), 1U);
}

TEST(TriggerRules, UnusableTriggersBecomeProblems) {
  const core::TriggerRules rules = core::compile_trigger_rules(
      "x", Views{"/unclosed(/", "[URL]", "ok phrase", "/(?P<n>a)\\1/"}, Views{"src/[abc"});
  ASSERT_EQ(rules.problems.size(), 4U);
  EXPECT_EQ(rules.problems[0].rule, "/unclosed(/");
  EXPECT_NE(rules.problems[0].message.find("pattern does not compile"), std::string::npos);
  EXPECT_EQ(rules.problems[1].message, "trigger has no words to look for");
  EXPECT_EQ(rules.problems[2].rule, "/(?P<n>a)\\1/");  // backreferences are not linear-time: refused
  EXPECT_EQ(rules.problems[3].rule, "src/[abc");
  std::size_t from_triggers = 0;
  for (const core::PhraseRule& phrase : rules.phrases) {
    from_triggers += phrase.from_name ? 0 : 1;
  }
  EXPECT_EQ(from_triggers, 1U);  // "ok phrase"
}

TEST(TriggerRules, NamesFireAsPhrasesOrBesideTheWordSkill) {
  EXPECT_EQ(fire("code-review", {}, "can you do a code review of this diff"), (Reasons{"name:code review"}));
  EXPECT_EQ(fire("pdf", {}, "use the PDF skill on this"), (Reasons{"name:PDF skill"}));
  EXPECT_EQ(fire("pdf", {}, "the skill pdf"), (Reasons{"name:skill pdf"}));
  // Not beside each other: a topic, not a request for the skill.
  EXPECT_TRUE(fire("pdf", {}, "which skills handle pdf").empty());
  EXPECT_TRUE(fire("pdf", {}, "convert this pdf to text").empty());
}

TEST(TriggerRules, PathsFireAndLimit) {
  const Views globs{"src/**/*.ts"};
  EXPECT_EQ(fire("ts", {}, "", {"src/a/b.ts"}, globs), (Reasons{"path:src/a/b.ts"}));
  // A phrase fires without files; with files outside the globs the skill is out.
  EXPECT_EQ(fire("ts", {"type check"}, "type check it", {}, globs), (Reasons{"phrase:type check"}));
  EXPECT_TRUE(fire("ts", {"type check"}, "type check it", {"README.md"}, globs).empty());
}

}  // namespace
}  // namespace skillrt::test
