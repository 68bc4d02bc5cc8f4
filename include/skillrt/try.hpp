// Early return on failure, for a function that itself returns a Result<U>:
//
//   SKILLRT_TRY(write_lock_file(path, lock));                      // Result<void>
//   SKILLRT_TRY_ASSIGN(auto text, read_regular_file(path, limit)); // Result<T>
//
// SKILLRT_TRY evaluates `expr` once and, when it failed, returns its Error
// unchanged; a value it holds is dropped. SKILLRT_TRY_ASSIGN moves the value
// into `var`, which may be a declaration (`auto text`) or an existing
// variable; it expands to several statements, so it cannot be the body of an
// unbraced if. Plain macros over if-statements rather than GCC
// statement-expressions: we build with gcc and clang only, so either would do,
// but these stay standard C++. To add context to a message, keep the explicit
// `if (!r) { return fail(r.error().code, "...: " + r.error().message); }`.
//
// A header of its own beside result.hpp, not inside it: result.hpp reaches
// every translation unit, and only the files that use these should rebuild
// when they change.
#pragma once

#include <utility>

#include "skillrt/result.hpp"

#define SKILLRT_TRY_CONCAT_INNER(a, b) a##b
#define SKILLRT_TRY_CONCAT(a, b) SKILLRT_TRY_CONCAT_INNER(a, b)

#define SKILLRT_TRY(expr)                                                                    \
  do {                                                                                       \
    if (auto&& skillrt_try_result = (expr); !skillrt_try_result) {                           \
      return ::tl::unexpected<::skillrt::Error>(std::move(skillrt_try_result).error());      \
    }                                                                                        \
  } while (false)

#define SKILLRT_TRY_ASSIGN(var, expr) SKILLRT_TRY_ASSIGN_IMPL(SKILLRT_TRY_CONCAT(skillrt_try_, __LINE__), var, expr)
#define SKILLRT_TRY_ASSIGN_IMPL(tmp, var, expr)                                              \
  auto tmp = (expr);                                                                         \
  if (!tmp) {                                                                                \
    return ::tl::unexpected<::skillrt::Error>(std::move(tmp).error());                       \
  }                                                                                          \
  var = std::move(*tmp)
