# The C++ tests are one GoogleTest executable, built as unity batches (a test file that
# includes LibTorch costs seconds of headers before its first test; one link instead of
# fifteen). Its tests are registered in groups, each with its label:
#   trainproof_test_binary(NAME name SRCS ... [DEPS ...])
#   trainproof_test_group(BINARY name FILTER gtest-filter LABEL label [SERIAL] [SHARDS n] [LOCK resource]
#                         [COST seconds])
# A group is discovered per test case at test time (--gtest_list_tests with its filter), or,
# with SHARDS, runs as n CTest tests, each a GoogleTest shard of it.
include(GoogleTest)

function(trainproof_test_binary)
  cmake_parse_arguments(T "" "NAME" "SRCS;DEPS" ${ARGN})
  add_executable(${T_NAME} ${T_SRCS})
  target_link_libraries(${T_NAME} PRIVATE trainproof::harness trainproof_test_support GTest::gtest GTest::gtest_main
                                          ${T_DEPS} trainproof_warnings)
  add_dependencies(${T_NAME} trainproof)  # CLI tests run the binary
  trainproof_reuse_pch(${T_NAME})
  trainproof_unity(${T_NAME} 4)
endfunction()

function(trainproof_test_group)
  cmake_parse_arguments(T "SERIAL" "BINARY;FILTER;LABEL;SHARDS;LOCK;COST" "" ${ARGN})
  set(serial FALSE)
  if(T_SERIAL)
    set(serial TRUE)  # e.g. tests that start several rank processes: alone, not beside others
  endif()
  set(lock "")
  if(T_LOCK)
    set(lock RESOURCE_LOCK ${T_LOCK})  # not beside another test holding it; beside the rest
  endif()
  if(T_COST)
    # Where CTest has no timing of its own: a parameterized test's timing is filed under its name
    # with GoogleTest's "# GetParam() = ..." comment, which it never looks up, so without COST
    # it starts last, and tests sharing a lock then run one by one after everything else.
    list(APPEND lock COST ${T_COST})
  endif()
  # gtest_discover_tests flattens PROPERTIES into one list, so a second label would shift
  # every property after it (ENVIRONMENT was silently lost that way): one label each.
  list(LENGTH T_LABEL n_labels)
  if(NOT n_labels EQUAL 1)
    message(FATAL_ERROR "trainproof_test_group(${T_FILTER}): give exactly one label, not '${T_LABEL}'")
  endif()
  if(T_SHARDS)
    # Short tests in SHARDS processes (GoogleTest's own sharding: every test of the filter runs
    # in exactly one shard, none is lost), not one each: a start of the binary loads LibTorch,
    # 0.7 s, more than most of these tests take. A shard's output names each test and failure.
    math(EXPR last "${T_SHARDS} - 1")
    foreach(i RANGE ${last})
      math(EXPR n "${i} + 1")
      set(name "${T_LABEL}.shard-${n}-of-${T_SHARDS}")
      add_test(NAME ${name} COMMAND bash ${PROJECT_SOURCE_DIR}/tests/support/gtest_shard.sh $<TARGET_FILE:${T_BINARY}>
                                    "--gtest_filter=${T_FILTER}")
      set_tests_properties(${name} PROPERTIES LABELS "${T_LABEL}" WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
        RUN_SERIAL ${serial}
        ENVIRONMENT "TRAINPROOF_BIN=$<TARGET_FILE:trainproof>;GTEST_TOTAL_SHARDS=${T_SHARDS};GTEST_SHARD_INDEX=${i}")
    endforeach()
    return()
  endif()
  # Listing the tests loads LibTorch: under ASan, on a loaded machine with a cold page cache,
  # that took more than the default 5 s and CTest then ran nothing.
  gtest_discover_tests(${T_BINARY}
    TEST_FILTER "${T_FILTER}"
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 300
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES LABELS "${T_LABEL}" ENVIRONMENT "TRAINPROOF_BIN=$<TARGET_FILE:trainproof>" RUN_SERIAL ${serial} ${lock})
endfunction()
