# fmt's headers for a build without LibTorch (TRAINPROOF_WITH_LIBTORCH=OFF): with LibTorch they come
# from its include folder (fmt 12 in LibTorch 2.14), without it from fmt's own release of that major
# version, fetched at configure time and pinned by commit. Only the headers are used: src/core/fmt.cpp
# compiles fmt's library part, as in the LibTorch build, so both builds format with the same code.
# Offline, point FetchContent at an unpacked fmt 12 source folder:
#   -DFETCHCONTENT_SOURCE_DIR_FMT=/path/to/fmt-12.2.0
# Sets TRAINPROOF_FMT_INCLUDE_DIR, which trainproof_library() adds to every library.
include(FetchContent)
FetchContent_Declare(fmt
  GIT_REPOSITORY https://github.com/fmtlib/fmt.git
  GIT_TAG 1be298e1bd68957e4cd352e1f676f00e07dcfb57  # 12.2.0
  SOURCE_SUBDIR headers-only)  # no such folder: MakeAvailable fetches, and adds no fmt targets
FetchContent_MakeAvailable(fmt)
set(TRAINPROOF_FMT_INCLUDE_DIR "${fmt_SOURCE_DIR}/include")
if(NOT EXISTS "${TRAINPROOF_FMT_INCLUDE_DIR}/fmt/format-inl.h")
  message(FATAL_ERROR "fmt: no include/fmt/format-inl.h in ${fmt_SOURCE_DIR}: not an fmt source folder "
                      "(FETCHCONTENT_SOURCE_DIR_FMT names one)")
endif()
message(STATUS "trainproof: fmt headers from ${TRAINPROOF_FMT_INCLUDE_DIR}")
