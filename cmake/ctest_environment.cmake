# Read by ctest before it runs the tests (tests/CMakeLists.txt adds it to TEST_INCLUDE_FILES):
# the environment every test process starts with.
# OpenMP threads that wait sleep instead of spinning. With `ctest -j 2` on 2 cores, two test
# processes of 2 OpenMP threads each spun on each other's cores. It changes no result bit
# (only how a waiting thread waits); a caller's own setting is kept.
if(NOT DEFINED ENV{OMP_WAIT_POLICY})
  set(ENV{OMP_WAIT_POLICY} PASSIVE)
endif()
