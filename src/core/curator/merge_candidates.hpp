// Which agent-made skills overlap enough that one umbrella skill would likely
// serve them all (the curator's merge pass, issue 2/6 item 5). The grouping
// is cheap and local — word overlap of names and descriptions — and only
// decides what to *ask* a model about; the model reads the skills and, if it
// agrees, proposes the merge, which a person approves. Nothing here writes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct MergeCandidate {
  std::string name;         // folder name (the usage key)
  std::string description;  // listing description
  std::string relative;     // folder relative to its root
};

struct MergeGroup {
  std::vector<MergeCandidate> skills;  // two or more, most connected first
  double overlap = 0;                  // the strongest pair's word overlap (Jaccard, 0..1)
};

struct MergeOptions {
  double min_overlap = 0.4;           // a pair closer than this is not linked
  std::size_t min_shared_words = 3;   // and it must share at least this many words
  std::size_t max_groups = 3;         // model reviews per curator run
  std::size_t max_group_size = 5;
};

// The content words of a skill's name and description: lower-cased ASCII
// letters and digits, three or more long, without common filler words.
std::vector<std::string> overlap_words(std::string_view name, std::string_view description);

// Agent-made, unpinned skills of the writable layer outside archive/, grouped
// by overlap; biggest overlap first, at most options.max_groups groups.
Result<std::vector<MergeGroup>> find_merge_groups(const Context& ctx, const Config& cfg, const MergeOptions& options);

}  // namespace skillrt::core
