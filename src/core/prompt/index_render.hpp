// Rendering the skills index block (spec §2.16 rule 8), with a size limit that
// degrades in steps and always says what it left out.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace skillrt::core {

// One visible skill as the index shows it.
struct IndexEntry {
  std::string name;
  std::string description; // already truncated (rule 7) and prefixed ("[project] ") where due
  std::string category;    // full category path; "general" for skills at a root's top
};

struct IndexRenderOptions {
  // Categories whose first path segment is listed render as names only.
  std::vector<std::string> compact_categories;
  // Name web_search beside terminal in the guidance (web_search available, or no tool info).
  bool mention_web_search = true;
  // 0 = no limit; else the block's size in characters (code points) to stay within.
  std::size_t max_chars = 0;
};

struct ElidedCategory {
  std::string category;
  std::size_t skills = 0;
};

struct RenderedIndex {
  std::string text;                    // "" when nothing is visible
  std::size_t skills_count = 0;        // distinct visible skills (shown or elided)
  std::vector<std::string> categories; // every category with a visible skill, sorted
  std::vector<std::string> demoted;    // categories shown as names only (asked for or to fit), sorted
  std::vector<ElidedCategory> elided;  // categories left out to fit, sorted by name
  std::size_t chars = 0;               // code points in text
};

// Renders `entries` (earlier entries win a repeated name). With a max_chars
// limit the block first demotes whole categories to names only, largest
// first, then leaves out whole categories, largest first, and ends with a
// line naming every category left out and its skill count. The result can
// still exceed the limit when even that minimum does not fit.
RenderedIndex render_skills_index(const std::vector<IndexEntry>& entries,
                                  const std::map<std::string, std::string>& category_descriptions,
                                  const IndexRenderOptions& options);

} // namespace skillrt::core
