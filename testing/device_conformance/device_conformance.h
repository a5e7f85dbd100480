// The device conformance suite: tests written once against the device
// interface (device/device.h) and run for every backend.
//
// One file per concern of the interface:
//   memory_tests.cc       device_memory.h: allocations, host pointers,
//                         owning addresses
//   copy_tests.cc         device_memory.h: copies, fill, checksum
//   reopen_tests.cc       Device::Reopen and device_memory.h's AllocateAt
//   id_tests.cc           device_ids.h
//   fault_tests.cc        device_health.h: injected faults
//   health_tests.cc       device_health.h: health events
//   backend_tests.cc      device.h's Backend: opening, devices, backup
//   peer_tests.cc         Backend::CopyPeer between two devices
//   concurrency_tests.cc  the thread-safety promise, across concerns
//
// A backend's test file instantiates it with a function returning a
// BackendUnderTest (a name and a factory):
//
//   #include "testing/device_conformance/device_conformance.h"
//
//   namespace mybackend {
//   conformance::BackendUnderTest MyBackendUnderTest() {
//     return {"mine", [](const conformance::BackendOptions& options) {
//               return CreateMyBackend(options.device_count, ...);
//             }};
//   }
//   }  // namespace mybackend
//   ASCEND_INSTANTIATE_DEVICE_CONFORMANCE_SUITE(
//       Mine, ::mybackend::MyBackendUnderTest());
//
// and links //testing/device_conformance (alwayslink, so every test case
// registers) plus gtest_main. One binary may instantiate several backends
// with distinct prefixes.
//
// What a factory gets and must do:
//  * BackendOptions says what the suite would like: at least
//    `device_count` devices of `device_memory_bytes` each. A factory honours
//    what its backend can configure (the sim takes both); tests that need
//    more devices, or a small device to exhaust, skip with the reason when
//    the backend did not provide it.
//  * It returns kUnavailable or kUnimplemented when the backend cannot run
//    here (e.g. its driver library is missing): every test then SKIPS with
//    that status as the reason (never passes silently). Any other error
//    fails every test. A backend reporting zero devices also skips.
//  * A backend that must run wherever the suite builds (one over a stand-in
//    driver built in this repository, such as the npu backend over
//    //testing/fake_driver) is instantiated as RequireAvailable(backend):
//    what would skip above, or fewer devices than `device_count`, then FAILS
//    every test. Skips stay for a real driver that is absent.
//  * Operations a backend does not support return kUnimplemented; the tests
//    that need them (Checksum, AllocateAt, fault injection, peer copy when
//    CanAccessPeer is false) skip with the reason.
//
// Each test makes its own backend with the factory and opens device 0.
#ifndef ASCENDCL_TESTING_DEVICE_CONFORMANCE_DEVICE_CONFORMANCE_H_
#define ASCENDCL_TESTING_DEVICE_CONFORMANCE_DEVICE_CONFORMANCE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/device.h"
#include "gtest/gtest.h"

namespace ascend::device::conformance {

// What the suite asks of a backend made for it.
struct BackendOptions {
  int32_t device_count = 2;
  uint64_t device_memory_bytes = uint64_t{64} << 20;
};

using BackendFactory = std::function<absl::StatusOr<std::unique_ptr<Backend>>(
    const BackendOptions&)>;

struct BackendUnderTest {
  // The test-name suffix: letters, digits and '_' only.
  std::string name;
  BackendFactory factory;
};

// `backend` with a factory for which "cannot run here" is an error: it
// turns kUnavailable / kUnimplemented into kFailedPrecondition (with the
// original status in the message) and fails when the backend made reports
// fewer than BackendOptions::device_count devices, so no test of the suite
// skips for want of the backend. For backends over stand-ins we build.
BackendUnderTest RequireAvailable(BackendUnderTest backend);

// gtest parameter names and printing.
std::string BackendName(const ::testing::TestParamInfo<BackendUnderTest>& info);
void PrintTo(const BackendUnderTest& backend, std::ostream* os);

// Fixture shared by every test of the suite.
class DeviceConformanceTest
    : public ::testing::TestWithParam<BackendUnderTest> {
 protected:
  // Makes the backend (skipping or failing as described above) and opens
  // device 0 into `device_`.
  void SetUp() override;
  void TearDown() override;

  Backend& backend() { return *backend_; }
  Device& device() { return *device_; }
  const BackendOptions& options() const { return options_; }

  BackendOptions options_;
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<Device> device_;
};

// Test groups (one gtest suite each, all sharing the fixture).
class BackendConformanceTest : public DeviceConformanceTest {};
class MemoryConformanceTest : public DeviceConformanceTest {};
class CopyConformanceTest : public DeviceConformanceTest {};
class IdConformanceTest : public DeviceConformanceTest {};
class ReopenConformanceTest : public DeviceConformanceTest {};
class PeerConformanceTest : public DeviceConformanceTest {};
class FaultConformanceTest : public DeviceConformanceTest {};
class HealthConformanceTest : public DeviceConformanceTest {};
class ConcurrencyConformanceTest : public DeviceConformanceTest {};

// Helpers for the tests.

// `size` bytes of a deterministic pseudo-random pattern depending on `seed`.
std::vector<unsigned char> Pattern(size_t size, uint32_t seed);
// The device bytes [addr, addr + size), read with CopyFromDevice.
absl::StatusOr<std::vector<unsigned char>> ReadBack(Device& device,
                                                    DeviceAddr addr,
                                                    uint64_t size);

}  // namespace ascend::device::conformance

// Skips the current test when `status` says the backend lacks the operation.
#define ASCEND_SKIP_IF_UNIMPLEMENTED(status)                                \
  do {                                                                      \
    const ::absl::Status ascend_skip_status_ = (status);                    \
    if (ascend_skip_status_.code() == ::absl::StatusCode::kUnimplemented) { \
      GTEST_SKIP() << "not supported by this backend: "                     \
                   << ascend_skip_status_;                                  \
    }                                                                       \
  } while (false)

#define ASCEND_DEVICE_CONFORMANCE_INSTANTIATE_ONE_(prefix, suite, backend) \
  INSTANTIATE_TEST_SUITE_P(prefix, suite, ::testing::Values(backend),      \
                           ::ascend::device::conformance::BackendName)

// Instantiates every test of the suite for one backend, at namespace scope.
// `prefix` is an identifier unique in the test binary; `backend` a fully
// qualified BackendUnderTest expression (it is evaluated inside namespace
// ascend::device::conformance; parenthesise it if it contains commas).
#define ASCEND_INSTANTIATE_DEVICE_CONFORMANCE_SUITE(prefix, backend)         \
  namespace ascend::device::conformance {                                    \
  ASCEND_DEVICE_CONFORMANCE_INSTANTIATE_ONE_(prefix, BackendConformanceTest, \
                                             backend);                       \
  ASCEND_DEVICE_CONFORMANCE_INSTANTIATE_ONE_(prefix, MemoryConformanceTest,  \
                                             backend);                       \
  ASCEND_DEVICE_CONFORMANCE_INSTANTIATE_ONE_(prefix, CopyConformanceTest,    \
                                             backend);                       \
  ASCEND_DEVICE_CONFORMANCE_INSTANTIATE_ONE_(prefix, IdConformanceTest,      \
                                             backend);                       \
  ASCEND_DEVICE_CONFORMANCE_INSTANTIATE_ONE_(prefix, ReopenConformanceTest,  \
                                             backend);                       \
  ASCEND_DEVICE_CONFORMANCE_INSTANTIATE_ONE_(prefix, PeerConformanceTest,    \
                                             backend);                       \
  ASCEND_DEVICE_CONFORMANCE_INSTANTIATE_ONE_(prefix, FaultConformanceTest,   \
                                             backend);                       \
  ASCEND_DEVICE_CONFORMANCE_INSTANTIATE_ONE_(prefix, HealthConformanceTest,  \
                                             backend);                       \
  ASCEND_DEVICE_CONFORMANCE_INSTANTIATE_ONE_(prefix,                         \
                                             ConcurrencyConformanceTest,     \
                                             backend);                       \
  }  // namespace ascend::device::conformance

#endif  // ASCENDCL_TESTING_DEVICE_CONFORMANCE_DEVICE_CONFORMANCE_H_
