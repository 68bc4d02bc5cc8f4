// A failed skill_view, carrying the extra fields Hermes attaches to its error
// objects (matches, available_skills, available_files, readiness_status, hint).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/view/readiness_status.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// Files of a skill grouped by kind, in output order; empty groups are absent.
using FileGroups = std::vector<std::pair<std::string, std::vector<std::string>>>;

struct ViewFailure {
  ErrorCode code = ErrorCode::internal;
  std::string error;                                        // the message, worded as Hermes words it
  std::optional<std::vector<std::string>> matches;          // ambiguity: absolute SKILL.md paths
  std::optional<std::vector<std::string>> available_skills; // not found: first names in list order
  std::optional<FileGroups> available_files;                // file not found: what the skill holds
  std::optional<ReadinessStatus> readiness_status;          // platform refusal: unsupported
  std::optional<std::string> hint;
};

// A failure with only a code, a message and an optional hint.
inline ViewFailure view_failure(ErrorCode code, std::string error, std::optional<std::string> hint = std::nullopt) {
  ViewFailure failure;
  failure.code = code;
  failure.error = std::move(error);
  failure.hint = std::move(hint);
  return failure;
}

template <typename T> using ViewResult = tl::expected<T, ViewFailure>;

} // namespace skillrt::core
