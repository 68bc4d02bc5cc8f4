# INTERFACE target for build-mode settings: assertions in Debug, sanitizers.
add_library(skillrt_settings INTERFACE)
target_compile_definitions(skillrt_settings INTERFACE $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>)
if(SKILLRT_SANITIZE)
  target_compile_options(skillrt_settings INTERFACE -fsanitize=${SKILLRT_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(skillrt_settings INTERFACE -fsanitize=${SKILLRT_SANITIZE})
endif()
