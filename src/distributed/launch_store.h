// The rendezvous of ranks that torchrun or srun started: c10d's TCPStore at MASTER_ADDR and
// MASTER_PORT, as torch.distributed's env:// makes it (ddp_check.cpp; ddp-worker uses it too).
#pragma once

#include <chrono>

#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>

#include "trainproof/distributed/distributed.h"

namespace trainproof {

// torchrun's agent hosts the store (each restart of the group under its own prefix), else
// rank 0 does; our keys go under a prefix per attempt.
c10::intrusive_ptr<c10d::Store> connect_store(const LaunchEnv& e, std::chrono::milliseconds timeout);

// A Gloo group over `store`: on loopback when every rank is on this host (our launcher, or
// LOCAL_WORLD_SIZE == world), else on the interface this host's name resolves to.
c10::intrusive_ptr<c10d::Backend> make_gloo_group(const c10::intrusive_ptr<c10d::Store>& store, int rank, int world,
                                                  std::chrono::milliseconds timeout);

}  // namespace trainproof
