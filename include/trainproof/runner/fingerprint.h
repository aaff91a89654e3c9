// This process's environment fingerprint for a device: the host's (verdict/fingerprint.h), and on
// a GPU its runtime, cuDNN, name, compute capability and driver.
#pragma once

#include <c10/core/Device.h>

#include "trainproof/verdict/fingerprint.h"

namespace trainproof {

Fingerprint current_fingerprint(c10::Device device);

}  // namespace trainproof
