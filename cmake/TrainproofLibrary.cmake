# trainproof_library(NAME EXPORT_NAME SOURCES...) and trainproof_reuse_pch(TARGET): how every
# trainproof library is declared. Public headers come from include/ (installed); a source
# may also include the project's internal headers by their path from the project root.
# Every library's common settings: the project root as include root, C++20, the warnings,
# and LibTorch's own fmt, header-only (its include folder shadows any system fmt).
list(GET TORCH_INCLUDE_DIRS 0 _torch_include)
function(trainproof_library name export_name)
  add_library(trainproof_${name} STATIC ${ARGN})
  add_library(trainproof::${export_name} ALIAS trainproof_${name})
  target_include_directories(trainproof_${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                             $<INSTALL_INTERFACE:include>)
  target_include_directories(trainproof_${name} SYSTEM PUBLIC ${_torch_include})
  target_compile_features(trainproof_${name} PUBLIC cxx_std_20)
  target_compile_definitions(trainproof_${name} PUBLIC FMT_HEADER_ONLY=1)
  target_link_libraries(trainproof_${name} PRIVATE $<BUILD_INTERFACE:trainproof_warnings>)
  set_target_properties(trainproof_${name} PROPERTIES EXPORT_NAME ${export_name})
endfunction()

# LibTorch targets reuse trainproof_training's precompiled <torch/torch.h>.
function(trainproof_reuse_pch target)
  if(TRAINPROOF_USE_PCH)
    target_precompile_headers(${target} REUSE_FROM trainproof_training)
  endif()
endfunction()
