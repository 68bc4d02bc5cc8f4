// JSON of database skills (`skillrt --json db …`).
#pragma once

#include <string>
#include <vector>

#include "core/store/skill_store.hpp"
#include "protocol/yaml_json.hpp"

namespace skillrt::protocol {

// {id, name, description, category, version, is_active, created_at, updated_at[, content]}
Json db_skill_json(const core::DbSkill& row, bool with_content);

// {success, backend, user, count, skills:[db_skill_json without content]}
Json db_list_json(const std::vector<core::DbSkill>& rows, const std::string& backend, const std::string& user);

// {success, message, backend, skill: db_skill_json} — `verb` is "created" | "updated" | "deleted" | "" (get).
Json db_skill_result_json(const core::DbSkill& row, const std::string& backend, const std::string& verb);

} // namespace skillrt::protocol
