// What a hub command's start finished or undid of an interrupted earlier one
// (core/hub/pending_commit.hpp), told on stderr as `note: ...` lines so that
// stdout stays the command's own answer.
#pragma once

#include <iostream>
#include <vector>

#include "core/hub/pending_commit.hpp"

namespace skillrt::app {

inline void print_recovery_notes(const std::vector<core::hub::RecoveryNote>& notes) {
  for (const core::hub::RecoveryNote& note : notes) {
    std::cerr << "note: " << note.message << '\n';
  }
}

}  // namespace skillrt::app
