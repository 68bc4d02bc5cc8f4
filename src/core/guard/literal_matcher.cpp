#include "core/guard/literal_matcher.hpp"

#include <map>

namespace skillrt::core {

LiteralMatcher::LiteralMatcher(const std::vector<std::string>& literals) {
  // Byte classes: every byte used by a literal gets its own class (upper-case
  // ASCII shares its lower-case letter's); everything else is class 0.
  for (const std::string& literal : literals) {
    for (const char c : literal) {
      const auto b = static_cast<unsigned char>(c);
      if (m_class[b] == 0) {
        m_class[b] = static_cast<std::uint16_t>(m_classes++);
      }
    }
  }
  for (int c = 'A'; c <= 'Z'; ++c) {
    m_class[c] = m_class[c - 'A' + 'a'];
  }
  // Out-of-range classes mark the bytes the scan loop handles itself; no
  // literal contains them (literals are ASCII without "\n").
  for (const unsigned char special :
       {static_cast<unsigned char>('\n'), static_cast<unsigned char>(0xC5), static_cast<unsigned char>(0xE2)}) {
    m_class[special] = static_cast<std::uint16_t>(m_classes);
  }

  // The trie.
  std::vector<std::map<std::uint32_t, std::uint32_t>> children(1);
  std::vector<std::vector<std::uint32_t>> own(1);
  for (std::uint32_t id = 0; id < literals.size(); ++id) {
    std::uint32_t state = 0;
    for (const char c : literals[id]) {
      const std::uint32_t cls = m_class[static_cast<unsigned char>(c)];
      auto it = children[state].find(cls);
      if (it == children[state].end()) {
        const auto next = static_cast<std::uint32_t>(children.size());
        children[state].emplace(cls, next);
        children.emplace_back();
        own.emplace_back();
        state = next;
      } else {
        state = it->second;
      }
    }
    own[state].push_back(id);
  }

  // Breadth-first failure links, filling the dense table as we go.
  const std::size_t states = children.size();
  m_next.assign(states * m_classes, 0);
  std::vector<std::uint32_t> fail(states, 0);
  m_outputs.assign(states, k_no_output);
  std::vector<std::uint32_t> queue;
  queue.reserve(states);
  for (std::uint32_t cls = 0; cls < m_classes; ++cls) {
    auto it = children[0].find(cls);
    if (it != children[0].end()) {
      m_next[cls] = it->second;
      queue.push_back(it->second);
    }
  }
  auto link_outputs = [&](std::uint32_t state) {
    // Own literals first, then everything the failure state reports.
    std::uint32_t head = m_outputs[fail[state]];
    for (auto it = own[state].rbegin(); it != own[state].rend(); ++it) {
      m_out_literal.push_back(*it);
      m_out_next.push_back(head);
      head = static_cast<std::uint32_t>(m_out_literal.size() - 1);
    }
    m_outputs[state] = head;
  };
  for (std::size_t qi = 0; qi < queue.size(); ++qi) {
    const std::uint32_t state = queue[qi];
    link_outputs(state);
    for (std::uint32_t cls = 0; cls < m_classes; ++cls) {
      auto it = children[state].find(cls);
      if (it != children[state].end()) {
        fail[it->second] = state == 0 ? 0 : m_next[fail[state] * m_classes + cls];
        m_next[state * m_classes + cls] = it->second;
        queue.push_back(it->second);
      } else {
        m_next[state * m_classes + cls] = m_next[fail[state] * m_classes + cls];
      }
    }
  }
  // Flag transitions into reporting states (targets are all below 2^31).
  for (std::uint32_t& target : m_next) {
    if (m_outputs[target] != k_no_output) {
      target |= k_has_output;
    }
  }
}

} // namespace skillrt::core
