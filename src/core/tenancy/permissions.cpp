#include "core/tenancy/permissions.hpp"

#include <string>

#include "core/tenancy/user_id.hpp"

namespace skillrt::core {
namespace {

bool is_write(Operation op) {
  return op == Operation::create || op == Operation::update || op == Operation::remove;
}

Result<void> check_shared(const Context& ctx, Operation op) {
  if (ctx.anonymous && is_write(op)) {
    return fail(ErrorCode::refused, std::string(k_anonymous_write_refused));
  }
  // Single-user mode: the shared layer is the only layer and stays writable
  // exactly as before layers existed.
  if (!ctx.user_id) return {};
  if (!is_write(op)) return {};
  if (ctx.org_id == k_owner_org_id) return {};
  return fail(ErrorCode::refused, std::string(k_shared_write_refused));
}

Result<void> check_owned(const Context& ctx, Layer layer, std::string_view owner) {
  if (!ctx.user_id) {
    if (layer == Layer::database) return fail(ErrorCode::refused, "database skills need a user (--user)");
    return fail(ErrorCode::refused, "per-user skills need a user (--user)");
  }
  // A context built by hand (library callers) may carry an unchecked id.
  if (!check_user_id(*ctx.user_id)) return fail(ErrorCode::refused, "the context's user id is not valid");
  // Same rule for reads and writes: a user's own files and rows are theirs
  // alone, whatever their organisation.
  if (owner.empty() || owner != *ctx.user_id) {
    return fail(ErrorCode::refused, std::string(layer == Layer::database ? "database skill" : "per-user skill") +
                                        " belongs to another user");
  }
  return {};
}

}  // namespace

Result<void> check_permission(const Context& ctx, Operation op, Layer layer, std::string_view owner) {
  switch (layer) {
    case Layer::shared:
      return check_shared(ctx, op);
    case Layer::user:
    case Layer::database:
      return check_owned(ctx, layer, owner);
  }
  return fail(ErrorCode::internal, "unknown layer");
}

}  // namespace skillrt::core
