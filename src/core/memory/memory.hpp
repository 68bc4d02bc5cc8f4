// Per-user memory (the Hermes `memory` tool): two bounded stores of short
// text entries in HOME/users/<uid>/memory.json. Target `memory` holds the
// agent's own notes, target `user` what the agent knows about the user.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

enum class MemoryTarget : unsigned char { memory, user };

const char* memory_target_name(MemoryTarget target); // "memory" | "user"
std::optional<MemoryTarget> parse_memory_target(std::string_view name);
// The store's budget in characters (limits::k_memory_store_chars / k_memory_user_profile_chars).
std::size_t memory_char_limit(MemoryTarget target);

// Refusal when the context has no user: memory is always someone's.
inline constexpr std::string_view k_memory_needs_user = "memory needs a user (--user)";

struct MemoryStores {
  std::vector<std::string> memory; // target memory
  std::vector<std::string> user;   // target user

  std::vector<std::string>& entries(MemoryTarget target) { return target == MemoryTarget::user ? user : memory; }
  const std::vector<std::string>& entries(MemoryTarget target) const {
    return target == MemoryTarget::user ? user : memory;
  }
};

// Characters (code points) a store uses: the sum over its entries.
std::size_t memory_used_chars(const std::vector<std::string>& entries);

// --- The edits, on stores in memory (memory_book.cpp) ---
// `content` and `old_text` are trimmed of surrounding ASCII whitespace first.
// `old_text` must occur in exactly one entry of the target. Each returns the
// success message; on error the stores are unchanged.
Result<std::string> memory_add_entry(MemoryStores& stores, MemoryTarget target, std::string_view content);
Result<std::string> memory_replace_entry(MemoryStores& stores, MemoryTarget target, std::string_view old_text,
                                         std::string_view content);
Result<std::string> memory_remove_entry(MemoryStores& stores, MemoryTarget target, std::string_view old_text);

// --- The file (memory_file.cpp): {"version":1,"memory":[...],"user":[...]} ---
Result<MemoryStores> decode_memory_file(std::string_view text);
std::string encode_memory_file(const MemoryStores& stores);

// --- The tool (memory_tool.cpp) ---
enum class MemoryAction : unsigned char { list, add, replace, remove };

struct MemoryRequest {
  MemoryAction action = MemoryAction::list;
  MemoryTarget target = MemoryTarget::memory;
  std::string content;  // add, replace
  std::string old_text; // replace, remove
};

struct MemoryResult {
  MemoryStores stores; // both stores after the action
  MemoryTarget target = MemoryTarget::memory;
  std::string message;
};

// Runs one action for ctx's user: refused without a user; list reads, the
// others read-modify-write under the user's lock with an atomic 0600 write.
// A file that does not decode is reported (parse_error) and never overwritten.
Result<MemoryResult> run_memory(const Context& ctx, const MemoryRequest& request);

} // namespace skillrt::core
