// The three skill layers (DESIGN.md "The three skill layers").
#pragma once

namespace skillrt::core {

enum class Layer : unsigned char {
  shared,    // HOME/skills, external dirs, trusted project dirs: everyone reads, the owner org writes
  user,      // HOME/users/<uid>/skills: that user only
  database,  // the hermes_skills table: rows of that user only
};

const char* layer_name(Layer layer);  // "shared" | "user" | "database"

}  // namespace skillrt::core
