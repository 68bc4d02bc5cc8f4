# The skills guard: scanner, structure and Unicode checks, dismissals, policy,
# report. patterns.cpp holds the pattern table; file_context.cpp tracks where a
# line sits and context_judgement.cpp decides what that changes per rule.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/context_judgement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dismissals.cpp
  ${CMAKE_CURRENT_LIST_DIR}/file_context.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ignore_rules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/literal_matcher.cpp
  ${CMAKE_CURRENT_LIST_DIR}/name_lookalike.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pattern_scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/patterns.cpp
  ${CMAKE_CURRENT_LIST_DIR}/policy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rule_help.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rule_help_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scanner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/script_flow.cpp
  ${CMAKE_CURRENT_LIST_DIR}/script_flow_code.cpp
  ${CMAKE_CURRENT_LIST_DIR}/script_flow_lex.cpp
  ${CMAKE_CURRENT_LIST_DIR}/script_flow_paths.cpp
  ${CMAKE_CURRENT_LIST_DIR}/script_flow_shell.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skill_tree.cpp
  ${CMAKE_CURRENT_LIST_DIR}/snippet.cpp
  ${CMAKE_CURRENT_LIST_DIR}/structure.cpp
  ${CMAKE_CURRENT_LIST_DIR}/threat_pattern.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unicode_smuggling.cpp)
