// Regression tests for runtime defects found by the stress and
// fault-injection work of DESIGN.md §7.4 (both fixed; these tests keep them
// fixed).
//
// 1. Events: a record completing on one stream used to satisfy waits on an
//    earlier record of the same event on another stream (Event::Complete
//    kept only the highest completed sequence number), so once record 2 (on
//    an idle stream) completed, a StreamWaitEvent that targeted record 1
//    (still queued behind other work) passed early. acl_rt.h promises "the
//    stream waits until the event's last record has completed" (the record
//    that was last when StreamWaitEvent was called); runtime/event.h now
//    tracks completion per record.
// 2. Restore: a Restore that failed on one device, followed by Unlock (legal
//    from BACKED_UP), left the allocations of the devices after it reserved
//    but not re-created: their pointers stopped being device memory
//    (aclrtMemcpy D2H said 107000 "host-to-host", aclrtFree said 107000, and
//    aclrtMemset wrote to the unmapped address as if it were host memory and
//    crashed). The faults of aclsim no longer fail a Restore after the
//    devices were re-opened (damage is found before, a faulty transfer is
//    copied again), so a participant that refuses after the memory stands
//    in for a failure part-way (a private coordinator).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/global_state.h"
#include "runtime/rt_snapshot.h"
#include "runtime/runtime.h"
#include "snapshot/builtin_participants.h"
#include "snapshot/callback_registry.h"
#include "snapshot/coordinator.h"
#include "snapshot/participant_registry.h"
#include "snapshot/testing_participants.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/host_callbacks.h"
#include "testing/status_matchers.h"

namespace ascend::testing {
namespace {

using ::ascend::testing::HostGate;
using ::ascend::testing::SetFlag;

TEST(KnownIssuesTest, StreamWaitEventIgnoresALaterRecordOnAnotherStream) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream a = nullptr, b = nullptr, c = nullptr;
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&a));
  ASSERT_ACL_OK(aclrtCreateStream(&b));
  ASSERT_ACL_OK(aclrtCreateStream(&c));
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  HostGate gate;
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(a, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtRecordEvent(event, a));      // record 1: behind the gate
  ASSERT_ACL_OK(aclrtStreamWaitEvent(c, event));  // c waits for record 1
  ASSERT_ACL_OK(aclrtLaunchHostFunc(c, &SetFlag, &ran));
  ASSERT_ACL_OK(aclrtRecordEvent(event, b));  // record 2: completes at once
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(ran.load())
      << "stream c ran before the record it waits for (on stream a) completed";
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(c));
  EXPECT_TRUE(ran.load());
  ASSERT_ACL_OK(aclrtSynchronizeStream(a));
  ASSERT_ACL_OK(aclrtSynchronizeStream(b));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  for (aclrtStream s : {a, b, c}) ASSERT_ACL_OK(aclrtDestroyStream(s));
  ASSERT_ACL_OK(aclrtResetDevice(0));
}

TEST(KnownIssuesTest, AllocationsSurviveAFailedRestoreFollowedByUnlock) {
  void* ptrs[2] = {};
  for (int32_t d = 0; d < 2; ++d) {
    ASSERT_ACL_OK(aclrtSetDevice(d));
    ASSERT_ACL_OK(aclrtMalloc(&ptrs[d], 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemset(ptrs[d], 4096, 0x11 * (d + 1), 4096));
  }
  // The built-in participants, and one after the memory that refuses its
  // first Restore (on device 0): the devices are re-opened, the memory
  // restored, then the Restore fails.
  auto participants = std::make_unique<snapshot::ParticipantRegistry>();
  ASSERT_OK(snapshot::RegisterBuiltinParticipants(
      *participants, rt::Runtime::Get(), snapshot::MemoryOptions{}));
  snapshot::testing::CallLog log;
  snapshot::testing::RecordingParticipant::Behaviour refuses;
  refuses.restore_fails = std::make_shared<int>(1);
  ASSERT_OK(participants->RegisterAfter(
      "memory", std::make_unique<snapshot::testing::RecordingParticipant>(
                    "test.refuses", &log, refuses)));
  snapshot::CallbackRegistry callbacks;
  snapshot::Coordinator coordinator(rt::Runtime::Get(), rt::GlobalState::Get(),
                                    callbacks, std::move(participants),
                                    snapshot::Coordinator::Options{});
  ASSERT_OK(coordinator.Lock());
  ASSERT_OK(coordinator.Backup());
  // Written after the Backup (as a kernel would), so that even an
  // incremental Restore copies it back.
  static_cast<uint8_t*>(ptrs[0])[7] = 0x77;
  ASSERT_FALSE(coordinator.Restore().ok());
  // The application gives up on the restore and unlocks (its data may be
  // lost, its allocations must not be).
  ASSERT_OK(coordinator.Unlock());
  for (int32_t d = 0; d < 2; ++d) {
    SCOPED_TRACE(d);
    uint8_t byte = 0;
    EXPECT_ACL_OK(aclrtMemcpy(&byte, 1, ptrs[d], 1, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_ACL_OK(aclrtSetDevice(d));
    EXPECT_ACL_OK(aclrtFree(ptrs[d]));
  }
  for (int32_t d = 0; d < 2; ++d) {
    (void)aclrtResetDeviceForce(d);
  }
}

}  // namespace
}  // namespace ascend::testing
