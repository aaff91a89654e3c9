# trainproof_library(NAME EXPORT_NAME SOURCES...) and trainproof_reuse_pch(TARGET): how every
# trainproof library is declared. Public headers come from include/ (installed); a source
# may also include the project's internal headers by their path from the project root.
# Every library's common settings: the project root as include root, C++20, the warnings,
# and LibTorch's headers, its own fmt among them (its include folder shadows any system fmt;
# the core compiles fmt's library part once, src/core/fmt.cpp), also for a program that links
# only LibTorch's CPU half (TRAINPROOF_CPU_ONLY); without LibTorch, fmt's own headers. Each
# library builds as unity translation units (TRAINPROOF_UNITY_BUILD): a LibTorch source costs
# seconds of headers and template instantiations before its own code, and batching pays them
# once per batch.
function(trainproof_library name export_name)
  add_library(trainproof_${name} STATIC ${ARGN})
  add_library(trainproof::${export_name} ALIAS trainproof_${name})
  target_include_directories(trainproof_${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                             $<INSTALL_INTERFACE:include>)
  target_include_directories(trainproof_${name} SYSTEM PUBLIC ${TORCH_INCLUDE_DIRS})
  if(TRAINPROOF_FMT_INCLUDE_DIR)  # built without LibTorch: fmt's own headers (TrainproofFmt.cmake)
    target_include_directories(trainproof_${name} SYSTEM PUBLIC $<BUILD_INTERFACE:${TRAINPROOF_FMT_INCLUDE_DIR}>)
  endif()
  target_compile_features(trainproof_${name} PUBLIC cxx_std_20)
  target_link_libraries(trainproof_${name} PRIVATE $<BUILD_INTERFACE:trainproof_warnings>)
  set_target_properties(trainproof_${name} PROPERTIES EXPORT_NAME ${export_name})
  trainproof_unity(trainproof_${name} 8)
endfunction()

# trainproof_unity(TARGET BATCH): TARGET's sources compile BATCH at a time as one translation
# unit (0: all in one). A source that must stay alone sets SKIP_UNITY_BUILD_INCLUSION.
function(trainproof_unity target batch)
  if(TRAINPROOF_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
  endif()
endfunction()

# LibTorch targets reuse trainproof_training's precompiled <torch/torch.h>.
function(trainproof_reuse_pch target)
  if(TRAINPROOF_USE_PCH)
    target_precompile_headers(${target} REUSE_FROM trainproof_training)
  endif()
endfunction()
