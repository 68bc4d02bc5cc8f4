#include "core/chat/chat_model.hpp"

namespace skillrt::core {

const char* chat_role_name(ChatRole role) {
  switch (role) {
  case ChatRole::system:
    return "system";
  case ChatRole::user:
    return "user";
  case ChatRole::assistant:
    return "assistant";
  case ChatRole::tool:
    return "tool";
  }
  return "user";
}

} // namespace skillrt::core
