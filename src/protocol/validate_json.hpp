// JSON and text results of `validate`, and the one entry point the CLI calls.
#pragma once

#include <string>
#include <vector>

#include "core/validate/finding.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {success, valid, error_count, warning_count, info_count, results:[{path, skill_md,
// valid, error_count, warning_count, findings:[{rule, severity, line, column, message}]}]}.
// success == valid (no error anywhere); when false, "error" summarises the count.
// line/column are null for file-level findings.
Json validate_json(const std::vector<core::ValidationReport>& reports);

struct ValidateOutcome {
  Json json;        // validate_json of the reports
  std::string text; // compiler-style findings plus a summary line
  bool ok = true;   // no error in any report (the CLI exits 1 otherwise)
};

// Validates every path (default or strict mode) and renders both forms.
ValidateOutcome run_validate(const std::vector<std::string>& paths, bool strict, bool color);

} // namespace skillrt::protocol
