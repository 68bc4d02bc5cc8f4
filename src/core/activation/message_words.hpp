// The words of a user's message, or of a trigger phrase, cut and folded the
// same way so that a phrase meets the message on equal terms.
//
// A word is a run of ASCII letters and digits and non-ASCII bytes (an
// apostrophe inside a word is kept: "don't"). Folding lowercases ASCII,
// drops a final "'s" and the plural "s" of words longer than three letters
// (not "ss"), so "Songs" meets "song" and "user's" meets "user". Both sides
// fold alike, so a stem that is not a real word ("thi" for "this") does no harm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace skillrt::core {

struct MessageWord {
  std::string folded;        // the word as compared
  std::uint32_t begin = 0;   // its bytes in the text cut
  std::uint32_t end = 0;
};

// Cuts `text` into words. Text longer than 4 GiB is not expected (callers
// bound messages far below).
std::vector<MessageWord> cut_words(std::string_view text);

// One word folded as cut_words folds it (ASCII letters and digits only
// changed; `word` holds no separators).
std::string fold_word(std::string_view word);

// A message cut once, with where each folded word occurs (ascending).
struct MessageText {
  std::string_view text;
  std::vector<MessageWord> words;
  std::unordered_map<std::string_view, std::vector<std::uint32_t>> positions;

  explicit MessageText(std::string_view message);
  MessageText(const MessageText&) = delete;  // positions view `words`
  MessageText& operator=(const MessageText&) = delete;

  const std::vector<std::uint32_t>* find(std::string_view folded) const;
  // The message's bytes from word `first` to word `last` (inclusive),
  // widened to the white space around them less the punctuation at the ends.
  std::string_view span(std::size_t first, std::size_t last) const;
};

}  // namespace skillrt::core
