// Which parts of LibTorch this process has loaded. trainproof-cpu links only LibTorch's CPU
// half (libtorch_cpu, c10); a library that names the whole of it, libtorch.so, as AOTInductor's
// compiled models do, needs it loaded first.
#pragma once

namespace trainproof {

// Loads libtorch.so (and with it, in a CUDA build, libtorch_cuda) from the folder libtorch_cpu
// was loaded from, unless it is loaded already. Throws std::runtime_error naming the file and
// dlerror() where it cannot.
void load_whole_libtorch();

}  // namespace trainproof
