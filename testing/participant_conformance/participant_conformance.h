// The snapshot participant conformance suite: written once against the
// participant registry and a private runtime, and run for every registered
// participant over every device backend (sim, and npu over the stand-in
// driver). For each participant it checks that
//   * save -> device memory loss -> restore brings back exactly what
//     Describe showed before the backup;
//   * a restore that fails after the participant restored (an injected
//     failure in the participant after it) can be retried and then does the
//     same;
//   * a second backup replaces the first: restore brings back the second.
//
// A backend's test file instantiates it:
//
//   ASCEND_INSTANTIATE_PARTICIPANT_CONFORMANCE_SUITE(
//       Sim, ::ascend::snapshot::conformance::BackendUnderTest{
//                "sim", [] { return CreateSimBackend(...); }});
//
// A factory that cannot make its backend FAILS every test (the backends
// used here are ours: the simulator and the in-tree stand-in driver).
//
// Kernels: every device used gets the kernel binary named by
// $ACLSIM_TEST_KERNELS (//testing/kernels:test_kernels.so; the test FAILS
// without it), a function and an argument list of it, and, where the
// backend runs kernels (not npu), launches of its `count` kernel, which
// adds to the binary's device global `counter`.
//
// Models: every device used gets a captured model and a built one (with a
// label, a label switch, a bound persistent stream and a condition handle);
// Change and the checks after each restore execute them, on every backend
// (the npu backend runs their copies through the stand-in driver).
#ifndef ASCENDCL_TESTING_PARTICIPANT_CONFORMANCE_PARTICIPANT_CONFORMANCE_H_
#define ASCENDCL_TESTING_PARTICIPANT_CONFORMANCE_PARTICIPANT_CONFORMANCE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "runtime/global_state.h"
#include "runtime/memory/memory.h"
#include "runtime/runtime.h"
#include "runtime/sync/sync.h"
#include "snapshot/backup_image.h"
#include "snapshot/participant_registry.h"

namespace ascend::snapshot::conformance {

struct BackendUnderTest {
  // Test-name suffix: letters, digits and '_' only.
  std::string name;
  // Makes a backend with at least two devices.
  std::function<absl::StatusOr<std::unique_ptr<device::Backend>>()> factory;
};

std::string BackendName(const ::testing::TestParamInfo<BackendUnderTest>& i);
void PrintTo(const BackendUnderTest& backend, std::ostream* os);

// Every participant's Describe of every device (and of the process), keyed
// "participant/device".
using Descriptions = std::map<std::string, std::string>;

class ParticipantConformanceTest
    : public ::testing::TestWithParam<BackendUnderTest> {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A fresh registry of the built-in participants over runtime(); when
  // `fail_after` names one, a participant that fails its first
  // `failures` restores is registered right after it.
  std::unique_ptr<ParticipantRegistry> Registry(const std::string& fail_after,
                                                int failures = 0);
  // Names of the built-in participants, in order.
  std::vector<std::string> ParticipantNames();

  // Opens devices 0 and 1 and gives each streams, events (recorded),
  // notifies (one recorded), allocations holding a pattern of `seed` and a
  // loaded kernel binary.
  void Populate(uint32_t seed);
  // New contents for every allocation, new records on every event, and
  // (where kernels run) a launch of `count` over seed blocks on every
  // device, so that its device global `counter` changes.
  void Change(uint32_t seed);
  // Executes every device's two models (outputs cleared first) and checks
  // what they wrote and that each ran its host function once.
  void ReplayModels();
  // Populate's models of `device` (the current device).
  void BuildModels(int32_t device);
  // What the restore must undo: every allocation overwritten, the device's
  // memory-loss fault where the backend has one, every event recorded and
  // every notify recorded again.
  void Damage();
  Descriptions Describe(const ParticipantRegistry& registry);
  // image.Restore(), then what the coordinator does after a success: the
  // restored devices are healthy again.
  absl::Status Restore(BackupImage& image);

  rt::Runtime& runtime() { return *runtime_; }
  rt::Memory& memory() { return *rt::Memory::Of(*runtime_); }
  rt::Sync& sync() { return *rt::Sync::Of(*runtime_); }

  std::unique_ptr<rt::GlobalState> state_;
  // Participants whose objects the backend cannot make (Populate skipped
  // them: no kernel modules, no VMM).
  std::set<std::string> unsupported_;
  std::unique_ptr<rt::Runtime> runtime_;
  std::vector<void*> allocations_;
  std::vector<size_t> sizes_;
  std::vector<void*> events_;
  std::vector<void*> notifies_;
  std::vector<void*> cnt_notifies_;
  std::vector<void*> streams_;
  // Per device used: the loaded kernel binary and its `count` function,
  // and whether the backend runs kernels there.
  std::vector<void*> binaries_;
  std::vector<void*> count_functions_;
  std::vector<bool> runs_kernels_;
  // Per device used (DESIGN.md §5.21): a captured model (a fork/join over
  // two streams copying model_src_ to model_dst_ and calling a host
  // function, with a condition handle) and a built one (a persistent bound
  // stream copying model_src_ to built_dst_, a label switch over the
  // copy-back it skips), the stream they execute on, and the bytes
  // model_src_ holds.
  std::vector<void*> captured_models_;
  std::vector<void*> built_models_;
  std::vector<void*> model_streams_;
  std::vector<void*> model_src_;
  std::vector<void*> model_dst_;
  std::vector<void*> built_dst_;
  std::vector<std::vector<uint8_t>> model_bytes_;
  // Host function calls of the captured models' executions.
  std::atomic<int> host_calls_{0};
};

}  // namespace ascend::snapshot::conformance

#define ASCEND_INSTANTIATE_PARTICIPANT_CONFORMANCE_SUITE(prefix, backend) \
  namespace ascend::snapshot::conformance {                               \
  INSTANTIATE_TEST_SUITE_P(prefix, ParticipantConformanceTest,            \
                           ::testing::Values(backend),                    \
                           ::ascend::snapshot::conformance::BackendName); \
  }  // namespace ascend::snapshot::conformance

#endif  // ASCENDCL_TESTING_PARTICIPANT_CONFORMANCE_PARTICIPANT_CONFORMANCE_H_
