// The permission matrix of the three layers, enforced here and nowhere else:
//
// | operation      | shared             | user                  | database              |
// |----------------|--------------------|-----------------------|-----------------------|
// | list, read     | every actor        | that user only        | that user's rows only |
// | create/update/ | owner org only     | that user only        | that user's rows only |
// | delete         | (org_id == "0")    |                       |                       |
//
// With no user in the context (single-user mode) only the shared layer exists,
// and it is writable as it always was (issues 1-2).
#pragma once

#include <string_view>

#include "core/context.hpp"
#include "core/tenancy/layer.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

enum class Operation : unsigned char { list, read, create, update, remove };

// The refusal text for a shared write by someone outside the owner org, in
// the product's two languages.
inline constexpr std::string_view k_shared_write_refused =
    "共享技能仅允许所有者机构用户修改 (shared skills can only be modified by users of the owner organisation)";

// The refusal for any write by an anonymous network caller (Context::anonymous).
inline constexpr std::string_view k_anonymous_write_refused =
    "anonymous callers may only read shared skills; connect with a token (skillrt token create) to change skills";

// May ctx's actor perform `op` on `layer`, on something owned by `owner`
// (the user id of a per-user file or a database row; ignored for shared)?
// Ok, or ErrorCode::refused with a clear message.
Result<void> check_permission(const Context& ctx, Operation op, Layer layer, std::string_view owner = {});

}  // namespace skillrt::core
