# trainproof_cc_test(NAME name SRCS ... [DEPS ...] LABELS label [TORCH] [SERIAL])
# Registers one GoogleTest executable in one line, discovered per test case at test time.
include(GoogleTest)

function(trainproof_cc_test)
  cmake_parse_arguments(T "TORCH;SERIAL" "NAME" "SRCS;DEPS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SRCS})
  target_link_libraries(${T_NAME} PRIVATE trainproof::harness trainproof_test_support GTest::gtest GTest::gtest_main ${T_DEPS})
  target_link_libraries(${T_NAME} PRIVATE trainproof_warnings)
  add_dependencies(${T_NAME} trainproof)  # CLI tests run the binary
  if(T_TORCH AND TRAINPROOF_USE_PCH)
    target_precompile_headers(${T_NAME} REUSE_FROM trainproof_training)
  endif()
  set(serial FALSE)
  if(T_SERIAL)
    set(serial TRUE)  # e.g. tests that start several rank processes: alone, not beside others
  endif()
  # gtest_discover_tests flattens PROPERTIES into one list, so a second label would shift
  # every property after it (ENVIRONMENT was silently lost that way): one label each.
  list(LENGTH T_LABELS n_labels)
  if(NOT n_labels EQUAL 1)
    message(FATAL_ERROR "trainproof_cc_test(${T_NAME}): give exactly one label, not '${T_LABELS}'")
  endif()
  set(labels ${T_LABELS})
  gtest_discover_tests(${T_NAME}
    DISCOVERY_MODE PRE_TEST
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES LABELS "${labels}" ENVIRONMENT "TRAINPROOF_BIN=$<TARGET_FILE:trainproof>" RUN_SERIAL ${serial})
endfunction()
