// The three skill layers (DESIGN.md "The three skill layers").
#pragma once

#include <optional>
#include <string_view>

namespace skillrt::core {

enum class Layer : unsigned char {
  shared,    // HOME/skills, external dirs, trusted project dirs: everyone reads, the owner org writes
  user,      // HOME/users/<uid>/skills: that user only
  database,  // the hermes_skills table: rows of that user only
};

const char* layer_name(Layer layer);  // "shared" | "user" | "database"

// The layer `name` spells (layer_name's inverse); nullopt for anything else.
// For the edges that store or receive the name as text.
std::optional<Layer> layer_from_name(std::string_view name);

}  // namespace skillrt::core
