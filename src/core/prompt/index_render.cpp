#include "core/prompt/index_render.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "core/discovery/skill_reader.hpp"

namespace skillrt::core {
namespace {

// The fixed text around the index. Wording is ours; the structure and the two
// quoted lines follow spec §2.16 rule 8.
constexpr std::string_view k_heading = "## Skills\n";
constexpr std::string_view k_guidance_before_tools =
    "Before you reply, scan the skills below. When one matches the task, or is even partly relevant to it, "
    "load it with skill_view(name) and follow it; when unsure, load it. A skill beats working from basic tools "
    "such as ";
constexpr std::string_view k_guidance_after_tools = " alone, because it records how this user wants the work done.\n";
constexpr std::string_view k_patch_line = "If a skill has issues, fix it with skill_manage(action='patch').\n";
constexpr std::string_view k_save_line =
    "After a difficult or many-step task, offer to save the approach as a skill; when a skill you loaded "
    "turned out wrong or incomplete, update it.\n";
constexpr std::string_view k_open_tag = "\n<available_skills>\n";
constexpr std::string_view k_close_tag = "</available_skills>\n\n";
constexpr std::string_view k_closing_line =
    "Only proceed without loading a skill if genuinely none are relevant to the task.";
constexpr std::string_view k_names_only_note =
    "\nCategories marked [names only] list their skills without descriptions; skill_view(name) loads any of "
    "them.";
constexpr std::string_view k_elided_before = "\n[Not shown, to fit the index size limit: ";
constexpr std::string_view k_elided_middle = ". Call skills_list to see them.]";

std::string_view first_segment(std::string_view category) {
  return category.substr(0, category.find('/'));
}

struct CategoryBlock {
  std::string name;
  std::vector<const IndexEntry*> entries; // sorted by name
  std::string full;                       // "  cat: desc\n    - name: desc\n..."
  std::string compact;                    // "  cat [names only]: a, b\n"
  std::size_t full_chars = 0;
  std::size_t compact_chars = 0;
  bool demoted = false;
  bool elided = false;

  std::size_t chars() const { return elided ? 0 : demoted ? compact_chars : full_chars; }
};

void build_blocks(CategoryBlock& block, const std::map<std::string, std::string>& descriptions) {
  block.full = "  " + block.name + ":";
  if (auto found = descriptions.find(block.name); found != descriptions.end() && !found->second.empty()) {
    block.full += " " + found->second;
  }
  block.full += "\n";
  block.compact = "  " + block.name + " [names only]: ";
  bool first = true;
  for (const IndexEntry* entry : block.entries) {
    block.full += "    - " + entry->name;
    if (!entry->description.empty()) {
      block.full += ": " + entry->description;
    }
    block.full += "\n";
    if (!first) {
      block.compact += ", ";
    }
    block.compact += entry->name;
    first = false;
  }
  block.compact += "\n";
  block.full_chars = utf8_length(block.full);
  block.compact_chars = utf8_length(block.compact);
}

// "N skills in M categories: a (1), b (2)" with its length kept incrementally.
std::string elided_summary(const std::vector<ElidedCategory>& elided) {
  std::size_t skills = 0;
  for (const ElidedCategory& item : elided) {
    skills += item.skills;
  }
  std::string out = std::to_string(skills) + (skills == 1 ? " skill in " : " skills in ") +
                    std::to_string(elided.size()) + (elided.size() == 1 ? " category: " : " categories: ");
  for (std::size_t i = 0; i < elided.size(); ++i) {
    if (i > 0) {
      out += ", ";
    }
    out += elided[i].category + " (" + std::to_string(elided[i].skills) + ")";
  }
  return out;
}

std::size_t digits(std::size_t value) {
  return std::to_string(value).size();
}

} // namespace

RenderedIndex render_skills_index(const std::vector<IndexEntry>& entries,
                                  const std::map<std::string, std::string>& category_descriptions,
                                  const IndexRenderOptions& options) {
  RenderedIndex out;
  // One entry per distinct name, the first given winning (spec §5.1 item 1).
  std::unordered_set<std::string_view> seen;
  std::map<std::string, CategoryBlock> by_category;
  for (const IndexEntry& entry : entries) {
    if (!seen.insert(entry.name).second) {
      continue;
    }
    CategoryBlock& block = by_category[entry.category];
    block.name = entry.category;
    block.entries.push_back(&entry);
    ++out.skills_count;
  }
  if (by_category.empty()) {
    return out;
  }
  std::vector<CategoryBlock*> blocks;
  for (auto& [name, block] : by_category) {
    std::sort(block.entries.begin(), block.entries.end(),
              [](const IndexEntry* a, const IndexEntry* b) { return a->name < b->name; });
    block.demoted = std::find(options.compact_categories.begin(), options.compact_categories.end(),
                              first_segment(name)) != options.compact_categories.end();
    build_blocks(block, category_descriptions);
    out.categories.push_back(name);
    blocks.push_back(&block);
  }

  const std::string_view tools_hint = options.mention_web_search ? "web_search or terminal" : "terminal";
  std::string head;
  head.append(k_heading).append(k_guidance_before_tools).append(tools_hint).append(k_guidance_after_tools);
  head.append(k_patch_line).append(k_save_line).append(k_open_tag);
  const std::size_t fixed_chars = utf8_length(head) + utf8_length(k_close_tag) + utf8_length(k_closing_line);

  std::size_t body_chars = 0;
  std::size_t visible_demoted = 0;
  for (const CategoryBlock* block : blocks) {
    body_chars += block->chars();
    visible_demoted += block->demoted ? 1 : 0;
  }
  // The elision line, measured without building it: its items are
  // "<cat> (<n>)" joined by ", ".
  std::size_t elided_items_chars = 0;
  std::size_t elided_count = 0;
  std::size_t elided_skills = 0;
  const auto elided_line_chars = [&]() -> std::size_t {
    if (elided_count == 0) {
      return 0;
    }
    const std::size_t summary = digits(elided_skills) + (elided_skills == 1 ? 10 : 11) + digits(elided_count) +
                                (elided_count == 1 ? 11 : 13) + elided_items_chars + 2 * (elided_count - 1);
    return utf8_length(k_elided_before) + summary + utf8_length(k_elided_middle);
  };
  const auto total = [&]() {
    return fixed_chars + body_chars + (visible_demoted > 0 ? utf8_length(k_names_only_note) : 0) + elided_line_chars();
  };

  if (options.max_chars > 0 && total() > options.max_chars) {
    // Step 1: names only, largest full block first.
    std::vector<CategoryBlock*> order = blocks;
    std::stable_sort(order.begin(), order.end(),
                     [](const CategoryBlock* a, const CategoryBlock* b) { return a->full_chars > b->full_chars; });
    for (CategoryBlock* block : order) {
      if (total() <= options.max_chars) {
        break;
      }
      if (!block->demoted) {
        body_chars -= block->full_chars;
        block->demoted = true;
        body_chars += block->compact_chars;
        ++visible_demoted;
      }
    }
    // Step 2: leave out whole categories, largest first.
    std::stable_sort(order.begin(), order.end(), [](const CategoryBlock* a, const CategoryBlock* b) {
      return a->compact_chars > b->compact_chars;
    });
    for (CategoryBlock* block : order) {
      if (total() <= options.max_chars) {
        break;
      }
      body_chars -= block->chars();
      block->elided = true;
      visible_demoted -= block->demoted ? 1 : 0;
      ++elided_count;
      elided_skills += block->entries.size();
      elided_items_chars += utf8_length(block->name) + 3 + digits(block->entries.size());
    }
  }

  std::string& text = out.text;
  text.reserve(head.size() + body_chars * 2 + 256);
  text = head;
  for (const CategoryBlock* block : blocks) {
    if (block->elided) {
      out.elided.push_back(ElidedCategory{block->name, block->entries.size()});
      continue;
    }
    if (block->demoted) {
      out.demoted.push_back(block->name);
    }
    text += block->demoted ? block->compact : block->full;
  }
  text.append(k_close_tag).append(k_closing_line);
  if (!out.demoted.empty()) {
    text.append(k_names_only_note);
  }
  if (!out.elided.empty()) {
    text.append(k_elided_before).append(elided_summary(out.elided)).append(k_elided_middle);
  }
  out.chars = utf8_length(text);
  return out;
}

} // namespace skillrt::core
