# fmt's headers for a build without LibTorch (TRAINPROOF_WITH_LIBTORCH=OFF): with LibTorch they come
# from its include folder (fmt 12 in LibTorch 2.14); without it from third_party/fmt, the same
# headers as the torch==2.14.1 wheel bundles them, vendored with their license (its README says
# why): a source build fetches nothing at configure time. Only the headers are used:
# src/core/fmt.cpp compiles fmt's library part, as in the LibTorch build, so both builds format
# with the same code. -DTRAINPROOF_FMT_INCLUDE_DIR=DIR takes another copy's include folder.
# Sets TRAINPROOF_FMT_INCLUDE_DIR, which trainproof_library() adds to every library.
set(TRAINPROOF_FMT_INCLUDE_DIR "${PROJECT_SOURCE_DIR}/third_party/fmt/include" CACHE PATH
    "fmt's include folder for a build without LibTorch (default: the vendored third_party/fmt)")
if(NOT EXISTS "${TRAINPROOF_FMT_INCLUDE_DIR}/fmt/format-inl.h")
  message(FATAL_ERROR "fmt: no fmt/format-inl.h in ${TRAINPROOF_FMT_INCLUDE_DIR} "
                      "(TRAINPROOF_FMT_INCLUDE_DIR must name the include folder of fmt 12's sources)")
endif()
message(STATUS "trainproof: fmt headers from ${TRAINPROOF_FMT_INCLUDE_DIR}")
