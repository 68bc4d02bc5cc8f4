// $ARGUMENTS / $N substitution in a skill body, as Claude Code does for skills
// invoked with arguments: $ARGUMENTS (and $ARGUMENTS[N]... see below) take what
// the user typed after the command.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace skillrt::core {

// The instruction split like a shell splits words: whitespace separates,
// '...' and "..." group (quotes removed), a backslash escapes the next
// character outside single quotes. An unterminated quote runs to the end.
std::vector<std::string> split_arguments(std::string_view instruction);

struct ArgumentSubstitution {
  std::string text;
  bool used_arguments = false; // $ARGUMENTS appeared: the instruction is already in the text
};

// Replaces $ARGUMENTS with the whole instruction (as typed, trimmed),
// $ARGUMENTS[N] and $N with the N-th (0-based) argument of split_arguments.
// A $N or $ARGUMENTS[N] past the last argument stays as written (prose such as
// "costs $5" keeps its meaning when no fifth argument was given). "$$" is left alone.
ArgumentSubstitution substitute_arguments(std::string_view body, std::string_view instruction);

} // namespace skillrt::core
