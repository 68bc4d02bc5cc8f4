// Internal to src/api: the `layer` a skill route addresses. File layers go
// through skill_manage and skill_view (the catalog); the database layer
// through core/dbskills and the server's store.
#pragma once

#include <optional>

#include "api/api_call.hpp"
#include "core/tenancy/layer.hpp"

namespace skillrt::api {

// ?layer= (or the body's "layer" when `body` is given and has one): nullopt
// when neither names one; an error for a name that is not a layer.
Result<std::optional<core::Layer>> requested_layer(const ApiCall& call, const Json* body = nullptr);

}  // namespace skillrt::api
