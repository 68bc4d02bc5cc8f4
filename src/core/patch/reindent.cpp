// Re-indentation of new_string for non-exact matches. The spec's original
// rule only swapped the base indent of the first meaningful line (§5.1 item
// 8: a 2-space old/new pair patched into a 4-space file kept 2-space nested
// lines). Here every line is mapped by indentation *level*: the step old/new
// use (e.g. 2 spaces) is converted to the step the matched region uses (e.g.
// 4 spaces or a tab), on top of the region's base indent.
#include <map>

#include "core/patch/fuzzy_detail.hpp"

namespace skillrt::core::fuzzy {

namespace {

constexpr std::size_t kTabWidth = 4;

std::size_t indent_width(std::string_view indent) {
  std::size_t width = 0;
  for (char c : indent) {
    width = c == '\t' ? (width / kTabWidth + 1) * kTabWidth : width + 1;
  }
  return width;
}

const std::string_view* first_meaningful(const std::vector<std::string_view>& lines) {
  for (const auto& line : lines) {
    if (!is_blank(line)) {
      return &line;
    }
  }
  return nullptr;
}

// Collects the positive indentation steps between consecutive non-blank lines.
void add_steps(const std::vector<std::string_view>& lines, std::map<std::size_t, std::size_t>& steps,
               bool& saw_tab) {
  bool have_previous = false;
  std::size_t previous = 0;
  for (const auto& line : lines) {
    if (is_blank(line)) {
      continue;
    }
    const std::string_view indent = leading_indent(line);
    if (indent.find('\t') != std::string_view::npos) {
      saw_tab = true;
    }
    const std::size_t width = indent_width(indent);
    if (have_previous && width != previous) {
      ++steps[width > previous ? width - previous : previous - width];
    }
    previous = width;
    have_previous = true;
  }
}

// The most frequent step (the smaller one on ties), 0 when there is none.
std::size_t most_common_step(const std::map<std::size_t, std::size_t>& steps) {
  std::size_t best = 0;
  std::size_t best_count = 0;
  for (const auto& [step, count] : steps) {
    if (count > best_count) {
      best = step;
      best_count = count;
    }
  }
  return best;
}

IndentUnit unit_from_steps(const std::map<std::size_t, std::size_t>& steps, bool saw_tab) {
  const std::size_t step = most_common_step(steps);
  if (saw_tab && (step == 0 || step % kTabWidth == 0)) {
    return IndentUnit{"\t", kTabWidth};
  }
  if (step == 0) {
    return IndentUnit{};
  }
  return IndentUnit{std::string(step, ' '), step};
}

IndentUnit region_unit(const std::vector<std::string_view>& region_lines,
                       const std::function<IndentUnit()>& file_unit) {
  std::map<std::size_t, std::size_t> steps;
  bool saw_tab = false;
  add_steps(region_lines, steps, saw_tab);
  if (saw_tab) {
    return IndentUnit{"\t", kTabWidth};
  }
  if (steps.empty()) {
    return file_unit();
  }
  return unit_from_steps(steps, false);
}

bool indents_differ(const std::vector<std::string_view>& old_lines, const std::vector<std::string_view>& region_lines) {
  if (old_lines.size() == region_lines.size()) {
    for (std::size_t k = 0; k < old_lines.size(); ++k) {
      if (!is_blank(old_lines[k]) && !is_blank(region_lines[k]) &&
          leading_indent(old_lines[k]) != leading_indent(region_lines[k])) {
        return true;
      }
    }
    return false;
  }
  return leading_indent(*first_meaningful(old_lines)) != leading_indent(*first_meaningful(region_lines));
}

std::string repeat(std::string_view unit, std::size_t times) {
  std::string out;
  out.reserve(unit.size() * times);
  for (std::size_t k = 0; k < times; ++k) {
    out.append(unit);
  }
  return out;
}

}  // namespace

IndentUnit file_indent_unit(std::string_view content) {
  std::map<std::size_t, std::size_t> steps;
  bool saw_tab = false;
  add_steps(split_lines(content), steps, saw_tab);
  return unit_from_steps(steps, saw_tab);
}

std::string reindent(std::string_view old_text, std::string_view new_text, std::string_view region,
                     const std::function<IndentUnit()>& file_unit) {
  const auto old_lines = split_lines(old_text);
  const auto region_lines = split_lines(region);
  const std::string_view* old_first = first_meaningful(old_lines);
  const std::string_view* region_first = first_meaningful(region_lines);
  if (old_first == nullptr || region_first == nullptr || !indents_differ(old_lines, region_lines)) {
    return std::string(new_text);
  }
  const std::string_view old_base = leading_indent(*old_first);
  const std::string_view region_base = leading_indent(*region_first);
  const std::size_t old_base_width = indent_width(old_base);
  const std::size_t region_base_width = indent_width(region_base);

  const auto new_lines = split_lines(new_text);
  std::map<std::size_t, std::size_t> old_steps;
  bool old_tab = false;
  add_steps(old_lines, old_steps, old_tab);
  add_steps(new_lines, old_steps, old_tab);
  const std::size_t old_unit = most_common_step(old_steps);
  IndentUnit unit = region_unit(region_lines, file_unit);
  if (unit.width == 0 && old_unit != 0) {
    unit = IndentUnit{std::string(old_unit, ' '), old_unit};  // nothing to convert to: keep old's step
  }

  std::string out;
  out.reserve(new_text.size() + new_text.size() / 4);
  for (std::size_t k = 0; k < new_lines.size(); ++k) {
    if (k > 0) {
      out.push_back('\n');
    }
    const std::string_view line = new_lines[k];
    if (is_blank(line)) {
      out.append(line);
      continue;
    }
    const std::string_view indent = leading_indent(line);
    const std::string_view body = line.substr(indent.size());
    const std::size_t width = indent_width(indent);
    if (old_unit == 0) {
      // No level structure in old/new: plain base swap, shallower lines anchored to the region's base.
      if (line.substr(0, old_base.size()) == old_base) {
        out.append(region_base);
        out.append(line.substr(old_base.size()));
      } else {
        out.append(region_base);
        out.append(body);
      }
      continue;
    }
    if (width >= old_base_width) {
      const std::size_t levels = (width - old_base_width) / old_unit;
      const std::size_t remainder = (width - old_base_width) % old_unit;
      out.append(region_base);
      out.append(repeat(unit.text, levels));
      out.append(remainder, ' ');
    } else {
      const std::size_t levels = width / old_unit;
      const std::size_t remainder = width % old_unit;
      std::string shallow = repeat(unit.text, levels);
      shallow.append(remainder, ' ');
      out.append(indent_width(shallow) > region_base_width ? std::string(region_base) : shallow);
    }
    out.append(body);
  }
  return out;
}

}  // namespace skillrt::core::fuzzy
