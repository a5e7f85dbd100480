// Test helper: a private Runtime over a small simulated backend and a
// GlobalState of its own, so runtime tests need no process singleton.
//
//   PrivateRuntime rt(/*devices=*/2, /*max_ids_per_kind=*/4);
//   ASSERT_OK(rt->SetDevice(0));
#ifndef ASCENDCL_RUNTIME_PRIVATE_RUNTIME_H_
#define ASCENDCL_RUNTIME_PRIVATE_RUNTIME_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "device/sim/sim_backend.h"
#include "gtest/gtest.h"
#include "runtime/global_state.h"
#include "runtime/memory/memory.h"
#include "runtime/process/families.h"
#include "runtime/runtime.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {

class PrivateRuntime {
 public:
  struct Config {
    int32_t devices = 2;
    uint32_t max_ids_per_kind = 1024;
    uint64_t device_memory_bytes = uint64_t{64} << 20;
  };
  PrivateRuntime() : PrivateRuntime(Config{}) {}
  PrivateRuntime(int32_t devices, uint32_t max_ids_per_kind)
      : PrivateRuntime(MakeConfig(devices, max_ids_per_kind)) {}
  explicit PrivateRuntime(const Config& config)
      : state_(GlobalState::Options{}) {
    device::sim::SimConfig sim;
    sim.device_count = config.devices;
    sim.max_ids_per_kind = config.max_ids_per_kind;
    sim.device_memory_bytes = config.device_memory_bytes;
    auto backend = device::sim::CreateSimBackend(sim);
    EXPECT_TRUE(backend.ok()) << backend.status();
    Runtime::Options options;
    options.state = &state_;
    options.default_device = [] { return std::optional<int32_t>(); };
    options.families = AllFamilies();
    runtime_ = std::make_unique<Runtime>(
        backend.ok() ? *std::move(backend) : nullptr, std::move(options));
  }

  Runtime* operator->() { return runtime_.get(); }
  Runtime& operator*() { return *runtime_; }
  GlobalState& state() { return state_; }
  // The memory family (every private runtime has all of AllFamilies()).
  Memory& memory() { return *Memory::Of(*runtime_); }
  Sync& sync() { return *Sync::Of(*runtime_); }

 private:
  static Config MakeConfig(int32_t devices, uint32_t max_ids_per_kind) {
    Config config;
    config.devices = devices;
    config.max_ids_per_kind = max_ids_per_kind;
    return config;
  }

  GlobalState state_;
  std::unique_ptr<Runtime> runtime_;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_PRIVATE_RUNTIME_H_
