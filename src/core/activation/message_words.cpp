#include "core/activation/message_words.hpp"

namespace skillrt::core {
namespace {

bool is_word_byte(unsigned char byte) {
  return byte >= 0x80 || (byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z');
}

}  // namespace

std::string fold_word(std::string_view word) {
  std::string out(word);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  if (out.size() > 2 && out.ends_with("'s")) {
    out.resize(out.size() - 2);
  } else if (out.size() > 3 && out.back() == 's' && out[out.size() - 2] != 's' && out[out.size() - 2] != '\'') {
    out.pop_back();
  }
  return out;
}

std::vector<MessageWord> cut_words(std::string_view text) {
  std::vector<MessageWord> words;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_word_byte(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    const std::size_t begin = i;
    while (i < text.size()) {
      const auto byte = static_cast<unsigned char>(text[i]);
      if (is_word_byte(byte)) {
        ++i;
      } else if (byte == '\'' && i + 1 < text.size() && is_word_byte(static_cast<unsigned char>(text[i + 1]))) {
        i += 2;  // an apostrophe between letters belongs to the word
      } else {
        break;
      }
    }
    words.push_back(MessageWord{fold_word(text.substr(begin, i - begin)), static_cast<std::uint32_t>(begin),
                                static_cast<std::uint32_t>(i)});
  }
  return words;
}

MessageText::MessageText(std::string_view message) : text(message), words(cut_words(message)) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    positions[words[i].folded].push_back(static_cast<std::uint32_t>(i));
  }
}

const std::vector<std::uint32_t>* MessageText::find(std::string_view folded) const {
  const auto found = positions.find(folded);
  return found == positions.end() ? nullptr : &found->second;
}

std::string_view MessageText::span(std::size_t first, std::size_t last) const {
  // Widened to the white space around (a URL a placeholder met shows whole),
  // then without the punctuation of the sentence around it.
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  std::size_t begin = words[first].begin;
  std::size_t end = words[last].end;
  while (begin > 0 && !space(text[begin - 1])) {
    --begin;
  }
  while (end < text.size() && !space(text[end])) {
    ++end;
  }
  const std::string_view opening = "([{\"'`<";
  const std::string_view closing = ".,;:!?)]}\"'`>";
  while (begin < words[first].begin && opening.find(text[begin]) != std::string_view::npos) {
    ++begin;
  }
  while (end > words[last].end && closing.find(text[end - 1]) != std::string_view::npos) {
    --end;
  }
  return text.substr(begin, end - begin);
}

}  // namespace skillrt::core
