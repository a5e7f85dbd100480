// The fixture of the simulator's virtual memory tests (sim_vmm_test.cc,
// sim_vmm_access_test.cc): a two-device simulator with 64 MiB each, device 0
// open, its memory mappable.
#ifndef ASCENDCL_DEVICE_SIM_SIM_VMM_TEST_FIXTURE_H_
#define ASCENDCL_DEVICE_SIM_SIM_VMM_TEST_FIXTURE_H_

#include <cstdint>
#include <memory>

#include "device/device.h"
#include "device/sim/sim_backend.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::sim {

constexpr uint64_t kMiB = 1024 * 1024;
constexpr uint64_t kGranule = 2 * kMiB;

class SimVmmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SimConfig config;
    config.device_count = 2;
    config.device_memory_bytes = 64 * kMiB;
    ASSERT_OK_AND_ASSIGN(backend_, CreateSimBackend(config));
    ASSERT_OK_AND_ASSIGN(device_, backend_->Open(0));
    ASSERT_EQ(device_->PhysicalGranularity(), kGranule)
        << "the host refused a memfd";
  }

  // Mapped memory read directly, as a kernel on the simulated cores does
  // (the simulator's device addresses are host addresses).
  static unsigned char* Bytes(DeviceAddr addr) {
    return reinterpret_cast<unsigned char*>(addr);
  }

  std::unique_ptr<Backend> backend_;
  std::unique_ptr<Device> device_;
};

}  // namespace ascend::device::sim

#endif  // ASCENDCL_DEVICE_SIM_SIM_VMM_TEST_FIXTURE_H_
