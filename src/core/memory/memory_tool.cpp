// run_memory: the memory tool for one user, on the user's memory.json.
#include "core/memory/memory.hpp"
#include "core/memory/user_state_file.hpp"
#include "core/tenancy/user_home.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

// The stores in `path`; empty ones when the file does not exist yet. A file
// that does not decode is an error naming it: it is never replaced silently.
Result<MemoryStores> load_stores(const std::filesystem::path& path) {
  SKILLRT_TRY_ASSIGN(const std::optional<std::string> bytes, read_user_state_file(path));
  if (!bytes) {
    return MemoryStores{};
  }
  auto stores = decode_memory_file(*bytes);
  if (!stores) {
    return fail(ErrorCode::parse_error, path.string() + " is not a valid memory file (" + stores.error().message +
                                            "); it was left untouched: fix or remove it");
  }
  return stores;
}

Result<std::string> apply(MemoryStores& stores, const MemoryRequest& request) {
  switch (request.action) {
  case MemoryAction::add:
    return memory_add_entry(stores, request.target, request.content);
  case MemoryAction::replace:
    return memory_replace_entry(stores, request.target, request.old_text, request.content);
  case MemoryAction::remove:
    return memory_remove_entry(stores, request.target, request.old_text);
  case MemoryAction::list:
    break;
  }
  return std::string{};
}

} // namespace

Result<MemoryResult> run_memory(const Context& ctx, const MemoryRequest& request) {
  if (!ctx.user_id) {
    return fail(ErrorCode::refused, std::string(k_memory_needs_user));
  }
  SKILLRT_TRY_ASSIGN(const UserHome home, ensure_user_home(ctx));
  MemoryResult result;
  result.target = request.target;
  if (request.action == MemoryAction::list) {
    SKILLRT_TRY_ASSIGN(result.stores, load_stores(home.memory));
    const std::size_t count = result.stores.entries(request.target).size();
    result.message =
        std::to_string(count) + (count == 1 ? " entry in " : " entries in ") + memory_target_name(request.target) + ".";
    return result;
  }

  SKILLRT_TRY_ASSIGN(const UserStateLock lock, UserStateLock::acquire(ctx, "memory"));
  SKILLRT_TRY_ASSIGN(result.stores, load_stores(home.memory));
  SKILLRT_TRY_ASSIGN(result.message, apply(result.stores, request));
  SKILLRT_TRY(write_user_state_file(home.memory, encode_memory_file(result.stores)));
  return result;
}

} // namespace skillrt::core
