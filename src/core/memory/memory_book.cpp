// The memory edits themselves, free of files and locks.
#include <algorithm>

#include "core/util/utf8_prefix.hpp"
#include "core/limits.hpp"
#include "core/memory/memory.hpp"
#include "core/util/text.hpp"
#include "core/util/utf8.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

Result<std::string_view> checked_text(std::string_view raw, std::string_view what) {
  if (find_invalid_utf8(raw)) {
    return fail(ErrorCode::invalid_argument, std::string(what) + " is not valid UTF-8");
  }
  const std::string_view text = trim_ascii_space(raw);
  if (text.empty()) {
    return fail(ErrorCode::invalid_argument, std::string(what) + " must not be empty");
  }
  return text;
}

// The one entry of `entries` containing `old_text`.
Result<std::size_t> find_single_match(const std::vector<std::string>& entries, MemoryTarget target,
                                      std::string_view old_text) {
  std::vector<std::size_t> hits;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].find(old_text) != std::string::npos) {
      hits.push_back(i);
    }
  }
  if (hits.empty()) {
    return fail(ErrorCode::not_found,
                "no entry in " + std::string(memory_target_name(target)) + " matches '" + std::string(old_text) + "'");
  }
  if (hits.size() > 1) {
    return fail(ErrorCode::ambiguous, "'" + std::string(old_text) + "' matches " + std::to_string(hits.size()) +
                                          " entries in " + memory_target_name(target) +
                                          "; give a more specific text that matches only one");
  }
  return hits.front();
}

// Would `entries` with `removed` taken out and `added` put in fit the budget?
Result<void> check_budget(const std::vector<std::string>& entries, MemoryTarget target, std::size_t removed_chars,
                          std::string_view added) {
  const std::size_t limit = memory_char_limit(target);
  const std::size_t used = memory_used_chars(entries) - removed_chars;
  const std::size_t added_chars = utf8_length(added);
  if (used + added_chars > limit) {
    return fail(ErrorCode::limit_exceeded,
                std::string(memory_target_name(target)) + " would hold " + std::to_string(used + added_chars) + "/" +
                    std::to_string(limit) + " characters with this entry (" + std::to_string(added_chars) +
                    " characters; " + std::to_string(used) + " in use); replace or remove entries first");
  }
  return {};
}

tl::unexpected<Error> duplicate_error(MemoryTarget target) {
  return fail(ErrorCode::refused,
              "an identical entry already exists in " + std::string(memory_target_name(target)) + "; nothing added");
}

} // namespace

const char* memory_target_name(MemoryTarget target) {
  return target == MemoryTarget::user ? "user" : "memory";
}

std::optional<MemoryTarget> parse_memory_target(std::string_view name) {
  if (name == "memory") {
    return MemoryTarget::memory;
  }
  if (name == "user") {
    return MemoryTarget::user;
  }
  return std::nullopt;
}

std::size_t memory_char_limit(MemoryTarget target) {
  return target == MemoryTarget::user ? limits::k_memory_user_profile_chars : limits::k_memory_store_chars;
}

std::size_t memory_used_chars(const std::vector<std::string>& entries) {
  std::size_t total = 0;
  for (const auto& entry : entries) {
    total += utf8_length(entry);
  }
  return total;
}

Result<std::string> memory_add_entry(MemoryStores& stores, MemoryTarget target, std::string_view raw_content) {
  SKILLRT_TRY_ASSIGN(const auto content, checked_text(raw_content, "content"));
  auto& entries = stores.entries(target);
  if (std::find(entries.begin(), entries.end(), content) != entries.end()) {
    return duplicate_error(target);
  }
  if (entries.size() >= limits::k_max_memory_entries) {
    return fail(ErrorCode::limit_exceeded, std::string(memory_target_name(target)) + " already holds " +
                                               std::to_string(entries.size()) + " entries (the most allowed is " +
                                               std::to_string(limits::k_max_memory_entries) +
                                               "); replace or remove entries first");
  }
  SKILLRT_TRY(check_budget(entries, target, 0, content));
  entries.emplace_back(content);
  return std::string("Entry added to ") + memory_target_name(target) + ".";
}

Result<std::string> memory_replace_entry(MemoryStores& stores, MemoryTarget target, std::string_view raw_old,
                                         std::string_view raw_content) {
  SKILLRT_TRY_ASSIGN(const auto old_text, checked_text(raw_old, "old_text"));
  SKILLRT_TRY_ASSIGN(const auto content, checked_text(raw_content, "content"));
  auto& entries = stores.entries(target);
  SKILLRT_TRY_ASSIGN(const auto index, find_single_match(entries, target, old_text));
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i != index && entries[i] == content) {
      return duplicate_error(target);
    }
  }
  SKILLRT_TRY(check_budget(entries, target, utf8_length(entries[index]), content));
  entries[index] = std::string(content);
  return std::string("Entry replaced in ") + memory_target_name(target) + ".";
}

Result<std::string> memory_remove_entry(MemoryStores& stores, MemoryTarget target, std::string_view raw_old) {
  SKILLRT_TRY_ASSIGN(const auto old_text, checked_text(raw_old, "old_text"));
  auto& entries = stores.entries(target);
  SKILLRT_TRY_ASSIGN(const auto index, find_single_match(entries, target, old_text));
  entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(index));
  return std::string("Entry removed from ") + memory_target_name(target) + ".";
}

} // namespace skillrt::core
