# A CUDA-enabled LibTorch (the default PyTorch wheel) looks for the CUDA toolkit when it
# is configured, even for CPU-only use. Point it at the usual toolkit location and at the
# NVRTC library the wheel brings along, unless the caller already did.
# (An empty CUDA_TOOLKIT_ROOT_DIR, as a preset gives without TRAINPROOF_CUDA_TOOLKIT, is unset.)
if(NOT CUDA_TOOLKIT_ROOT_DIR AND EXISTS "/usr/local/cuda/bin/nvcc")
  set(CUDA_TOOLKIT_ROOT_DIR "/usr/local/cuda" CACHE PATH "CUDA toolkit root" FORCE)
endif()
if(NOT DEFINED CUDAToolkit_ROOT AND CUDA_TOOLKIT_ROOT_DIR)
  set(CUDAToolkit_ROOT "${CUDA_TOOLKIT_ROOT_DIR}")
endif()
# The toolkit's own nvcc, not whichever one is on PATH (tools/bootstrap.sh assembles one).
if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS "${CUDA_TOOLKIT_ROOT_DIR}/bin/nvcc")
  set(CMAKE_CUDA_COMPILER "${CUDA_TOOLKIT_ROOT_DIR}/bin/nvcc" CACHE FILEPATH "CUDA compiler")
endif()
if(NOT CUDA_nvrtc_LIBRARY AND DEFINED Torch_DIR)
  # <site-packages>/torch/share/cmake/Torch -> <site-packages>/nvidia/*/lib
  file(GLOB _trainproof_nvrtc "${Torch_DIR}/../../../../nvidia/*/lib/libnvrtc.so.*"
                              "${CUDA_TOOLKIT_ROOT_DIR}/lib64/libnvrtc.so*")
  list(FILTER _trainproof_nvrtc EXCLUDE REGEX "builtins|alt")
  if(_trainproof_nvrtc)
    list(GET _trainproof_nvrtc 0 _trainproof_nvrtc)
    set(CUDA_nvrtc_LIBRARY "${_trainproof_nvrtc}" CACHE FILEPATH "NVRTC library for LibTorch")
  endif()
endif()
# Without an explicit list, Caffe2's config compiles and runs a probe for installed GPUs
# at configure time; name the architectures instead (Ampere, Hopper).
if(NOT DEFINED TORCH_CUDA_ARCH_LIST AND NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST})
  set(TORCH_CUDA_ARCH_LIST "8.0;9.0" CACHE STRING "CUDA architectures for LibTorch's CUDA flags")
endif()
