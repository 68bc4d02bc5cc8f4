// The instructions the background review's model receives (spec §2.17 rule 8),
// in our own words: what to look for, what to prefer, what never to capture.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace skillrt::core {

struct ReviewPromptChoice {
  bool skills = true;
  bool memory = false;
  std::string focus;  // an on-demand review's focus ("" = none)
  // The curator's merge pass: the overlapping skills (name, description) to
  // consider merging; when set, the merge prompt replaces the skill prompt
  // and the conversation is empty.
  std::vector<std::pair<std::string, std::string>> merge;
};

// The user message appended to the conversation snapshot: the skill prompt,
// the memory prompt or both, the focus when given, and the note that only
// the review's tools exist.
std::string review_prompt(const ReviewPromptChoice& choice);

}  // namespace skillrt::core
