#include "protocol/db_json.hpp"

#include "protocol/error_json.hpp"

namespace skillrt::protocol {
Json db_skill_json(const core::DbSkill& row, bool with_content) {
  Json out = Json::object();
  out["id"] = row.id;
  out["name"] = row.name;
  out["description"] = row.description;
  out["category"] = row.category;
  out["version"] = row.version;
  out["is_active"] = row.is_active;
  out["created_at"] = row.created_at;
  out["updated_at"] = row.updated_at;
  if (with_content) {
    out["content"] = row.content;
  }
  return out;
}

Json db_list_json(const std::vector<core::DbSkill>& rows, const std::string& backend, const std::string& user) {
  Json out = Json::object();
  out["success"] = true;
  out["backend"] = backend;
  out["user"] = user;
  out["count"] = rows.size();
  Json skills = Json::array();
  for (const core::DbSkill& row : rows) {
    skills.push_back(db_skill_json(row, false));
  }
  out["skills"] = std::move(skills);
  return out;
}

Json db_skill_result_json(const core::DbSkill& row, const std::string& backend, const std::string& verb) {
  Json out = Json::object();
  out["success"] = true;
  if (!verb.empty()) {
    out["message"] = "Database skill '" + row.name + "' " + verb + ".";
  }
  out["backend"] = backend;
  out["skill"] = db_skill_json(row, verb != "deleted");
  return out;
}

} // namespace skillrt::protocol
