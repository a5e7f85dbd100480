// Model runtime instances and the process snapshot (DESIGN.md §5.21):
// captured and built models replay after Lock -> Backup -> device memory
// loss -> Restore -> Unlock; a model still being built refuses the Backup;
// a capture in progress and an execution in flight at the Lock; and the
// gated model calls while locked.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/status_matchers.h"

namespace {

constexpr size_t kBytes = 4096;

void Count(void* arg) { static_cast<std::atomic<int>*>(arg)->fetch_add(1); }

// A host function that waits until released.
struct Gate {
  std::atomic<bool> entered{false};
  std::atomic<bool> released{false};
  std::atomic<int> finished{0};
};

void WaitForRelease(void* arg) {
  auto* gate = static_cast<Gate*>(arg);
  gate->entered = true;
  while (!gate->released) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  gate->finished.fetch_add(1);
}

rtProcessState State() {
  rtProcessState state = RT_PROCESS_STATE_MAX;
  EXPECT_EQ(rtSnapShotProcessGetState(&state), 0);
  return state;
}

class ModelSnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&capture_));
    ASSERT_ACL_OK(aclrtCreateStream(&side_));
    ASSERT_ACL_OK(aclrtCreateStream(&exec_));
    ASSERT_ACL_OK(aclrtCreateEvent(&fork_));
    ASSERT_ACL_OK(aclrtCreateEvent(&join_));
    ASSERT_ACL_OK(aclrtMalloc(&src_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMalloc(&dst_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    pattern_.resize(kBytes);
    for (size_t i = 0; i < kBytes; ++i) {
      pattern_[i] = static_cast<uint8_t>(i * 7 + 3);
    }
    ASSERT_ACL_OK(aclrtMemcpy(src_, kBytes, pattern_.data(), kBytes,
                              ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtMemset(dst_, kBytes, 0, kBytes));
  }
  void TearDown() override {
    (void)aclrtSnapShotProcessUnlock(getpid(), nullptr);
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  std::vector<uint8_t> Dst() {
    std::vector<uint8_t> v(kBytes);
    EXPECT_ACL_OK(
        aclrtMemcpy(v.data(), kBytes, dst_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
  }
  void ClearDst() { ASSERT_ACL_OK(aclrtMemset(dst_, kBytes, 0, kBytes)); }

  // The captured tasks of the fork/join graph: capture_ forks side_, which
  // copies src_ to dst_ and calls Count(&calls_), and joins back.
  void CaptureForkJoin() {
    ASSERT_ACL_OK(aclrtRecordEvent(fork_, capture_));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side_, fork_));
    ASSERT_ACL_OK(aclrtMemcpyAsync(dst_, kBytes, src_, kBytes,
                                   ACL_MEMCPY_DEVICE_TO_DEVICE, side_));
    ASSERT_ACL_OK(aclrtLaunchHostFunc(side_, &Count, &calls_));
    ASSERT_ACL_OK(aclrtRecordEvent(join_, side_));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(capture_, join_));
  }

  std::vector<aclrtStream> Streams(aclmdlRI model) {
    uint32_t n = 0;
    EXPECT_ACL_OK(aclmdlRIGetStreams(model, nullptr, &n));
    std::vector<aclrtStream> streams(n);
    EXPECT_ACL_OK(aclmdlRIGetStreams(model, streams.data(), &n));
    return streams;
  }

  void Replay(aclmdlRI model) {
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, exec_));
    ASSERT_ACL_OK(aclrtSynchronizeStream(exec_));
  }

  static void Snapshot() {
    const int32_t pid = getpid();
    ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
    ASSERT_ACL_OK(aclrtSnapShotProcessBackup(pid, nullptr));
    ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    ASSERT_ACL_OK(aclrtSnapShotProcessRestore(pid, nullptr));
    ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));
  }

  aclrtStream capture_ = nullptr;
  aclrtStream side_ = nullptr;
  aclrtStream exec_ = nullptr;
  aclrtEvent fork_ = nullptr;
  aclrtEvent join_ = nullptr;
  void* src_ = nullptr;
  void* dst_ = nullptr;
  std::vector<uint8_t> pattern_;
  std::atomic<int> calls_{0};
};

TEST_F(ModelSnapshotTest, ACapturedModelReplaysAfterRestore) {
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(capture_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_NO_FATAL_FAILURE(CaptureForkJoin());
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(capture_, &model));
  EXPECT_EQ(calls_.load(), 0) << "a captured task ran";
  EXPECT_EQ(Dst(), std::vector<uint8_t>(kBytes, 0));
  ASSERT_NO_FATAL_FAILURE(Replay(model));
  EXPECT_EQ(Dst(), pattern_);
  EXPECT_EQ(calls_.load(), 1);
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlRIGetId(model, &id));
  const std::vector<aclrtStream> streams = Streams(model);
  EXPECT_EQ(streams.size(), 2u);

  ASSERT_NO_FATAL_FAILURE(Snapshot());

  uint32_t id_after = 0;
  ASSERT_ACL_OK(aclmdlRIGetId(model, &id_after));
  EXPECT_EQ(id_after, id);
  EXPECT_EQ(Streams(model), streams);
  ClearDst();
  ASSERT_NO_FATAL_FAILURE(Replay(model));
  EXPECT_EQ(Dst(), pattern_);
  EXPECT_EQ(calls_.load(), 2) << "one host function call per replay";
  ASSERT_NO_FATAL_FAILURE(Replay(model));
  EXPECT_EQ(calls_.load(), 3);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

TEST_F(ModelSnapshotTest, BackupRefusesAModelStillBeingBuilt) {
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&model, 0));
  aclrtStream bound = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&bound, 0, ACL_STREAM_PERSISTENT));
  // Flag 0: ACL_MODEL_STREAM_FLAG_HEAD, a head stream.
  ASSERT_ACL_OK(aclmdlRIBindStream(model, bound, 0));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dst_, kBytes, src_, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, bound));
  const int32_t pid = getpid();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
  EXPECT_EQ(aclrtSnapShotProcessBackup(pid, nullptr),
            ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
  // Nothing was lost: the build goes on and the model runs.
  ASSERT_ACL_OK(aclmdlRIEndTask(model, bound));
  ASSERT_ACL_OK(aclmdlRIBuildEnd(model, nullptr));
  EXPECT_EQ(Dst(), std::vector<uint8_t>(kBytes, 0));
  ASSERT_NO_FATAL_FAILURE(Replay(model));
  EXPECT_EQ(Dst(), pattern_);
  // Complete now: a snapshot passes and the model replays after it.
  ASSERT_NO_FATAL_FAILURE(Snapshot());
  ClearDst();
  ASSERT_NO_FATAL_FAILURE(Replay(model));
  EXPECT_EQ(Dst(), pattern_);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  ASSERT_ACL_OK(aclrtDestroyStream(bound));
}

TEST_F(ModelSnapshotTest, ACaptureInProgressSurvivesTheSnapshot) {
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(capture_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtRecordEvent(fork_, capture_));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(side_, fork_));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dst_, kBytes, src_, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, side_));

  ASSERT_NO_FATAL_FAILURE(Snapshot());

  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI capturing = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(capture_, &status, &capturing));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  ASSERT_ACL_OK(aclrtLaunchHostFunc(side_, &Count, &calls_));
  ASSERT_ACL_OK(aclrtRecordEvent(join_, side_));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(capture_, join_));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(capture_, &model));
  EXPECT_EQ(model, capturing);
  EXPECT_EQ(calls_.load(), 0);
  EXPECT_EQ(Dst(), std::vector<uint8_t>(kBytes, 0)) << "a captured task ran";
  // The copy captured before the Lock is part of the model.
  ASSERT_NO_FATAL_FAILURE(Replay(model));
  EXPECT_EQ(Dst(), pattern_);
  EXPECT_EQ(calls_.load(), 1);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

TEST_F(ModelSnapshotTest, BackupDrainsAnExecutionInFlightAtTheLock) {
  Gate gate;
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(capture_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(capture_, &WaitForRelease, &gate));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dst_, kBytes, src_, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, capture_));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(capture_, &model));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, exec_));
  while (!gate.entered)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));

  const int32_t pid = getpid();
  // The execution is stream work: the Lock does not wait for it.
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
  EXPECT_EQ(gate.finished.load(), 0);
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    gate.released = true;
  });
  // Backup drains it: the execution has ended when the Backup saves.
  const aclError backed_up = aclrtSnapShotProcessBackup(pid, nullptr);
  release.join();
  ASSERT_ACL_OK(backed_up);
  // (Memory reads are gated: the bytes are checked after the Unlock.)
  EXPECT_EQ(gate.finished.load(), 1);
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(exec_));
  // The copy after the host function ran before the Backup saved: the
  // restore brings its bytes back.
  EXPECT_EQ(Dst(), pattern_) << "the Backup saved before the execution ended";
  ClearDst();
  ASSERT_NO_FATAL_FAILURE(Replay(model));  // released: runs straight through
  EXPECT_EQ(gate.finished.load(), 2);
  EXPECT_EQ(Dst(), pattern_);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

// aclmdlRIExecute is a gated call that waits for its execution: a Lock
// waits for it to return, as for any gated call in progress.
TEST_F(ModelSnapshotTest, LockWaitsForASynchronousExecute) {
  Gate gate;
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&model, 0));
  aclrtStream bound = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&bound, 0, ACL_STREAM_PERSISTENT));
  ASSERT_ACL_OK(aclmdlRIBindStream(model, bound, 0));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(bound, &WaitForRelease, &gate));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dst_, kBytes, src_, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, bound));
  ASSERT_ACL_OK(aclmdlRIEndTask(model, bound));
  ASSERT_ACL_OK(aclmdlRIBuildEnd(model, nullptr));
  std::atomic<bool> returned{false};
  std::atomic<aclError> executed{-1};
  std::thread execute([&] {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    executed = aclmdlRIExecute(model, -1);
    returned = true;
  });
  while (!gate.entered) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    gate.released = true;
  });
  const int32_t pid = getpid();
  const aclError locked = aclrtSnapShotProcessLock(pid, nullptr);
  // (Its host function ended before aclmdlRIExecute left the gate; the
  // thread's flag below may still lag the gate's exit.)
  const int finished_at_lock = gate.finished.load();
  release.join();
  execute.join();
  ASSERT_ACL_OK(locked);
  EXPECT_EQ(finished_at_lock, 1)
      << "Lock returned with aclmdlRIExecute running";
  EXPECT_TRUE(returned.load());
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));
  EXPECT_ACL_OK(executed.load());
  EXPECT_EQ(gate.finished.load(), 1);
  EXPECT_EQ(Dst(), pattern_);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  ASSERT_ACL_OK(aclrtDestroyStream(bound));
}

TEST_F(ModelSnapshotTest, ExecuteAndCaptureBeginAreGatedWhileLocked) {
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(capture_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_NO_FATAL_FAILURE(CaptureForkJoin());
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(capture_, &model));
  aclrtStream other = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&other));

  const int32_t pid = getpid();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
  std::atomic<int> returned{0};
  std::atomic<aclError> executed{-1};
  std::atomic<aclError> began{-1};
  std::thread execute([&] {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    executed = aclmdlRIExecuteAsync(model, exec_);
    returned.fetch_add(1);
  });
  std::thread begin([&] {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    began = aclmdlRICaptureBegin(other, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    returned.fetch_add(1);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(returned.load(), 0) << "a gated model call ran while locked";
  EXPECT_EQ(calls_.load(), 0);
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));
  execute.join();
  begin.join();
  EXPECT_ACL_OK(executed.load());
  EXPECT_ACL_OK(began.load());
  ASSERT_ACL_OK(aclrtSynchronizeStream(exec_));
  EXPECT_EQ(calls_.load(), 1);
  EXPECT_EQ(Dst(), pattern_);
  aclmdlRI second = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(other, &second));
  ASSERT_ACL_OK(aclmdlRIDestroy(second));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

}  // namespace
