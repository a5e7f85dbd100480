// Devices, contexts and peer access through the ACL C API, on the default
// simulator (8 devices). Every test releases the devices it opened, so the
// process runtime is back to "nothing open" between tests.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "testing/host_callbacks.h"
#include "testing/status_matchers.h"

namespace {

using ::ascend::testing::HostGate;
using ::ascend::testing::OnNewThread;
using ::ascend::testing::SetFlag;

constexpr int32_t kDeviceCount = 8;

using Clock = std::chrono::steady_clock;

void SleepThenSetFlag(void* flag) {
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  SetFlag(flag);
}

class DeviceApiTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (int32_t id = 0; id < kDeviceCount; ++id) {
      (void)aclrtResetDeviceForce(id);
    }
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }
};

TEST_F(DeviceApiTest, GetDeviceCount) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(nullptr));
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, static_cast<uint32_t>(kDeviceCount));
}

TEST_F(DeviceApiTest, SetDeviceRejectsOutOfRangeIdsAndChangesNothing) {
  OnNewThread([] {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(-1));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                     aclrtSetDevice(kDeviceCount));
    int32_t device = -1;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&device));
    EXPECT_EQ(device, -1);
  });
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(-1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtResetDevice(kDeviceCount));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtResetDeviceForce(kDeviceCount));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceForce(-7));
}

TEST_F(DeviceApiTest, ResetOfADeviceThatIsNotSetFails) {
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(3));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceForce(3));
}

TEST_F(DeviceApiTest, GetDeviceNeedsACurrentContext) {
  OnNewThread([] {
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDevice(nullptr));
    int32_t device = 42;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&device));
    EXPECT_EQ(device, 42);
    ASSERT_ACL_OK(aclrtSetDevice(5));
    ASSERT_ACL_OK(aclrtGetDevice(&device));
    EXPECT_EQ(device, 5);
  });
}

TEST_F(DeviceApiTest, ResetDeviceDropsOneReferencePerSet) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  void* buffer = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&buffer, 4096, ACL_MEM_MALLOC_HUGE_FIRST));

  // One reference left: the device and everything on it stay.
  ASSERT_ACL_OK(aclrtResetDevice(0));
  aclrtStreamStatus status;
  EXPECT_ACL_OK(aclrtStreamQuery(stream, &status));
  int32_t device = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);
  EXPECT_ACL_OK(aclrtMemset(buffer, 4096, 1, 4096));

  // The last reference closes the device and releases its resources.
  ASSERT_ACL_OK(aclrtResetDevice(0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamQuery(stream, &status));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&device));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(buffer));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(0));

  // Re-opened, the device is empty again.
  ASSERT_ACL_OK(aclrtSetDevice(0));
  size_t free_bytes = 0;
  size_t total_bytes = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes));
  EXPECT_EQ(free_bytes, total_bytes);
  ASSERT_ACL_OK(aclrtResetDevice(0));
}

TEST_F(DeviceApiTest, ResetDeviceForceIgnoresTheReferenceCount) {
  for (int i = 0; i < 3; ++i) ASSERT_ACL_OK(aclrtSetDevice(1));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  aclrtContext primary = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&primary));
  ASSERT_ACL_OK(aclrtResetDeviceForce(1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetCurrentContext(primary));
  aclrtStreamStatus status;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamQuery(stream, &status));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceForce(1));
}

TEST_F(DeviceApiTest, ResetDeviceIsSharedAcrossThreads) {
  // Two threads each hold a reference to device 2; the device stays open
  // until both have reset it.
  ASSERT_ACL_OK(aclrtSetDevice(2));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  OnNewThread([] { ASSERT_ACL_OK(aclrtSetDevice(2)); });
  ASSERT_ACL_OK(aclrtResetDevice(2));
  aclrtStreamStatus status;
  EXPECT_ACL_OK(aclrtStreamQuery(stream, &status));
  OnNewThread([] { ASSERT_ACL_OK(aclrtResetDevice(2)); });
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamQuery(stream, &status));
  // This thread's context died with the device.
  int32_t device = -1;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&device));
}

TEST_F(DeviceApiTest, SetDeviceWaitsForAResetStillClosingTheDevice) {
  // A reset tears the device down outside the runtime's lock: it joins the
  // streams (here: one held by a host function) and closes the device. A
  // SetDevice of the same device meanwhile waits until that is finished:
  // while a task of an old stream still holds the old instance the backend
  // refuses a second one, and a new instance would hand out addresses that
  // old tasks may still write to.
  ASSERT_ACL_OK(aclrtSetDevice(3));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  struct StartedGate {
    std::atomic<bool> started{false};
    HostGate gate;
  } held;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(
      stream,
      [](void* raw) {
        auto* h = static_cast<StartedGate*>(raw);
        h->started = true;
        HostGate::Wait(&h->gate);
      },
      &held));
  // Running (a reset cancels a task that has not started).
  while (!held.started) std::this_thread::yield();
  HostGate& gate = held.gate;
  std::atomic<bool> reset_done{false};
  std::atomic<bool> set_done{false};
  std::atomic<int> set_result{-1};
  std::thread resetter([&] {
    EXPECT_ACL_OK(aclrtResetDevice(3));
    reset_done.store(true);
  });
  // The reset is now joining the held stream.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_FALSE(reset_done.load());
  std::thread setter([&] {
    set_result.store(aclrtSetDevice(3));
    set_done.store(true);
    (void)aclrtResetDevice(3);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(set_done.load()) << "SetDevice returned " << set_result.load()
                                << " while the old device was still closing";
  gate.Open();
  resetter.join();
  setter.join();
  EXPECT_TRUE(reset_done.load());
  EXPECT_EQ(set_result.load(), ACL_SUCCESS);
}

TEST_F(DeviceApiTest, CurrentDeviceIsPerThread) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  int32_t seen_by_other = -1;
  OnNewThread([&] {
    ASSERT_ACL_OK(aclrtSetDevice(1));
    ASSERT_ACL_OK(aclrtGetDevice(&seen_by_other));
  });
  EXPECT_EQ(seen_by_other, 1);
  int32_t device = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);
  OnNewThread([] {
    int32_t none = -1;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&none));
  });
  // A later SetDevice on this thread switches its current device.
  ASSERT_ACL_OK(aclrtSetDevice(3));
  ASSERT_ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 3);
}

TEST_F(DeviceApiTest, CurrentContextIsPerThreadAndCanBeHandedOver) {
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&context, 4));
  ASSERT_NE(context, nullptr);
  aclrtContext current = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&current));
  EXPECT_EQ(current, context);

  OnNewThread([context] {
    aclrtContext none = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&none));
    ASSERT_ACL_OK(aclrtSetCurrentContext(context));
    aclrtContext mine = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&mine));
    EXPECT_EQ(mine, context);
    int32_t device = -1;
    ASSERT_ACL_OK(aclrtGetDevice(&device));
    EXPECT_EQ(device, 4);
  });
  ASSERT_ACL_OK(aclrtDestroyContext(context));
}

TEST_F(DeviceApiTest, ContextCallsRejectBadArguments) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateContext(nullptr, 0));
  aclrtContext context = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtCreateContext(&context, kDeviceCount));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtCreateContext(&context, -1));
  EXPECT_EQ(context, nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDestroyContext(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetCurrentContext(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetCurrentContext(nullptr));
  int not_a_context = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDestroyContext(&not_a_context));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetCurrentContext(&not_a_context));
}

TEST_F(DeviceApiTest, DestroyedContextHandleIsStale) {
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&context, 2));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtDestroyContext(context));
  // Its streams went with it, and it is no longer current.
  aclrtStreamStatus status;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamQuery(stream, &status));
  aclrtContext current = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&current));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyContext(context));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetCurrentContext(context));
  // The context held the only reference: the device closed with it.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(2));
}

TEST_F(DeviceApiTest, DefaultContextIsNotDestroyedByDestroyContext) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtContext primary = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&primary));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyContext(primary));
  aclrtContext still = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&still));
  EXPECT_EQ(still, primary);
}

TEST_F(DeviceApiTest, CreatedContextKeepsItsDeviceOpenAcrossResetDevice) {
  ASSERT_ACL_OK(aclrtSetDevice(6));
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&context, 6));
  ASSERT_ACL_OK(aclrtResetDevice(6));
  aclrtContext current = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&current));
  EXPECT_EQ(current, context);
  void* buffer = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&buffer, 512, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(buffer));
  ASSERT_ACL_OK(aclrtDestroyContext(context));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(6));
}

TEST_F(DeviceApiTest, ContextsOnTwoDevices) {
  aclrtContext context0 = nullptr;
  aclrtContext context1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&context0, 0));
  ASSERT_ACL_OK(aclrtCreateContext(&context1, 1));
  ASSERT_NE(context0, context1);

  // Allocations follow the current context's device.
  size_t free0 = 0, free1 = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
  void* on1 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&on1, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t after1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &after1, &total));
  EXPECT_LE(after1 + (1 << 20), free1);

  ASSERT_ACL_OK(aclrtSetCurrentContext(context0));
  int32_t device = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  EXPECT_EQ(free0, total);

  // Each context has its own default stream.
  aclrtStream default0 = nullptr;
  aclrtStream default1 = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&default0));
  ASSERT_ACL_OK(aclrtSetCurrentContext(context1));
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&default1));
  EXPECT_NE(default0, default1);
  ASSERT_ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 1);

  ASSERT_ACL_OK(aclrtFree(on1));
  ASSERT_ACL_OK(aclrtDestroyContext(context1));
  // Context 0 is unaffected.
  aclrtStreamStatus status;
  EXPECT_ACL_OK(aclrtStreamQuery(default0, &status));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamQuery(default1, &status));
  ASSERT_ACL_OK(aclrtDestroyContext(context0));
}

TEST_F(DeviceApiTest, CtxGetCurrentDefaultStream) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCtxGetCurrentDefaultStream(nullptr));
  OnNewThread([] {
    aclrtStream none = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     aclrtCtxGetCurrentDefaultStream(&none));
    EXPECT_EQ(none, nullptr);
  });
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&stream));
  ASSERT_NE(stream, nullptr);
  // The handle names the same stream as NULL does.
  int32_t id_by_handle = -1;
  int32_t id_by_null = -2;
  ASSERT_ACL_OK(aclrtStreamGetId(stream, &id_by_handle));
  ASSERT_ACL_OK(aclrtStreamGetId(nullptr, &id_by_null));
  EXPECT_EQ(id_by_handle, id_by_null);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyStream(stream));
}

TEST_F(DeviceApiTest, SynchronizeDeviceWaitsForEveryStream) {
  OnNewThread([] {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeDevice());
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     aclrtSynchronizeDeviceWithTimeout(100));
  });
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  std::atomic<bool> on_default{false};
  std::atomic<bool> on_created{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(nullptr, SleepThenSetFlag, &on_default));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, SleepThenSetFlag, &on_created));
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_TRUE(on_default.load());
  EXPECT_TRUE(on_created.load());
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(DeviceApiTest, SynchronizeDeviceWithTimeout) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSynchronizeDeviceWithTimeout(-2));
  HostGate gate;
  std::atomic<bool> done{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(nullptr, HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(nullptr, SetFlag, &done));
  const Clock::time_point start = Clock::now();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   aclrtSynchronizeDeviceWithTimeout(50));
  const auto waited = Clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(45));
  EXPECT_LT(waited, std::chrono::seconds(5));
  EXPECT_FALSE(done.load());
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));
  EXPECT_TRUE(done.load());
}

TEST_F(DeviceApiTest, QueryDeviceStatus) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtQueryDeviceStatus(0, nullptr));
  aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_END;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtQueryDeviceStatus(kDeviceCount, &status));
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_END);
  ASSERT_ACL_OK(aclrtSetDevice(7));
  ASSERT_ACL_OK(aclrtQueryDeviceStatus(7, &status));
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_NORMAL);

  // A simulated memory loss is reported asynchronously by the health monitor.
  ASSERT_ACL_OK(aclsimInjectFault(7, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(5);
  while (Clock::now() < deadline) {
    ASSERT_ACL_OK(aclrtQueryDeviceStatus(7, &status));
    if (status == ACL_RT_DEVICE_STATUS_ABNORMAL) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_ABNORMAL);
  // Closing and re-opening the device gives a fresh, normal device.
  ASSERT_ACL_OK(aclrtResetDeviceForce(7));
  ASSERT_ACL_OK(aclrtSetDevice(7));
  ASSERT_ACL_OK(aclrtQueryDeviceStatus(7, &status));
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_NORMAL);
}

TEST_F(DeviceApiTest, DeviceGetStreamPriorityRange) {
  int32_t least = -1;
  int32_t greatest = -1;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceGetStreamPriorityRange(nullptr, &greatest));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceGetStreamPriorityRange(&least, nullptr));
  ASSERT_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_EQ(least, 7);
  EXPECT_EQ(greatest, 0);
}

TEST_F(DeviceApiTest, DeviceCanAccessPeer) {
  int32_t can = -1;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceCanAccessPeer(nullptr, 0, 1));
  ASSERT_ACL_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(can, 1);
  ASSERT_ACL_OK(aclrtDeviceCanAccessPeer(&can, 1, 0));
  EXPECT_EQ(can, 1);
  // 04, `deviceId` / `peerDeviceId`: not the same device.
  can = -1;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDeviceCanAccessPeer(&can, 2, 2));
  EXPECT_EQ(can, -1);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceCanAccessPeer(&can, 0, kDeviceCount));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceCanAccessPeer(&can, -1, 0));
  EXPECT_EQ(can, -1);
}

TEST_F(DeviceApiTest, EnableAndDisablePeerAccess) {
  OnNewThread([] {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     aclrtDeviceEnablePeerAccess(1, 0));
  });
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceEnablePeerAccess(1, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceEnablePeerAccess(kDeviceCount, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceEnablePeerAccess(-1, 0));
  // A device is not its own peer.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceEnablePeerAccess(0, 0));
  // Nothing was enabled by the failures above.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDeviceDisablePeerAccess(1));
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
  ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDeviceDisablePeerAccess(1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceDisablePeerAccess(kDeviceCount));
}

TEST_F(DeviceApiTest, PeerCopyBetweenDevicesZeroAndOne) {
  constexpr size_t kBytes = 64 * 1024;
  std::vector<uint8_t> pattern(kBytes);
  for (size_t i = 0; i < kBytes; ++i) pattern[i] = static_cast<uint8_t>(i * 7);

  ASSERT_ACL_OK(aclrtSetDevice(1));
  void* on1 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&on1, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemcpy(on1, kBytes, pattern.data(), kBytes,
                            ACL_MEMCPY_HOST_TO_DEVICE));

  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* on0 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&on0, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));

  // Synchronous peer copy 1 -> 0.
  ASSERT_ACL_OK(
      aclrtMemcpy(on0, kBytes, on1, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  std::vector<uint8_t> back(kBytes, 0);
  ASSERT_ACL_OK(
      aclrtMemcpy(back.data(), kBytes, on0, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, pattern);

  // Stream-ordered peer copy 0 -> 1 of a changed buffer.
  ASSERT_ACL_OK(aclrtMemset(on0, kBytes, 0x5A, kBytes / 2));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtMemcpyAsync(on1, kBytes, on0, kBytes,
                                 ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  ASSERT_ACL_OK(
      aclrtMemcpy(back.data(), kBytes, on1, kBytes, ACL_MEMCPY_DEFAULT));
  for (size_t i = 0; i < kBytes; ++i) {
    const uint8_t want = i < kBytes / 2 ? 0x5A : pattern[i];
    ASSERT_EQ(back[i], want) << "at byte " << i;
  }
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  ASSERT_ACL_OK(aclrtFree(on0));
  ASSERT_ACL_OK(aclrtFree(on1));
}

TEST_F(DeviceApiTest, DestroyStreamRacingResetDeviceForce) {
  // Either call may win; neither may crash, hang or corrupt the runtime.
  for (int i = 0; i < 50; ++i) {
    ASSERT_ACL_OK(aclrtSetDevice(3));
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    std::atomic<bool> ran{false};
    ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, SetFlag, &ran));
    std::thread reset([] { (void)aclrtResetDeviceForce(3); });
    const aclError destroyed = aclrtDestroyStream(stream);
    reset.join();
    EXPECT_TRUE(destroyed == ACL_SUCCESS ||
                destroyed == ACL_ERROR_RT_PARAM_INVALID)
        << destroyed;
    (void)aclrtResetDeviceForce(3);
  }
  // The device still opens and hands out streams with distinct ids.
  ASSERT_ACL_OK(aclrtSetDevice(3));
  aclrtStream a = nullptr;
  aclrtStream b = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&a));
  ASSERT_ACL_OK(aclrtCreateStream(&b));
  int32_t id_a = -1;
  int32_t id_b = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(a, &id_a));
  ASSERT_ACL_OK(aclrtStreamGetId(b, &id_b));
  EXPECT_NE(id_a, id_b);
}

}  // namespace

// --- Reset and destroy against work still queued or running ---------------

namespace reset_work {

std::atomic<bool> started{false};
std::atomic<int> ran_after{0};
std::atomic<int> ran{0};

void WriteDeviceMemoryLater(void* p) {
  started = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::memset(p, 0x5A, 4096);  // host functions may write device memory
}
void Sleep100(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
}
void CountAfter(void*) { ran_after.fetch_add(1); }
void SlowCount(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ran.fetch_add(1);
}
void Count(void*) { ran.fetch_add(1); }

// Runs `fn` on a thread that has set device 0 (so its current context keeps
// the primary context and its default stream referenced) until `done`.
class OtherThreadOnDevice0 {
 public:
  OtherThreadOnDevice0() {
    thread_ = std::thread([this] {
      (void)aclrtSetDevice(0);
      set_ = true;
      while (!done_) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    });
    while (!set_) std::this_thread::yield();
  }
  ~OtherThreadOnDevice0() {
    done_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> set_{false};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace reset_work

TEST_F(DeviceApiTest, AResetWaitsForARunningHostFunctionBeforeFreeingMemory) {
  // The streams are stopped and joined before the device's memory goes; the
  // host function writing device memory must not fault.
  reset_work::started = false;
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(
      aclrtLaunchHostFunc(nullptr, &reset_work::WriteDeviceMemoryLater, dev));
  while (!reset_work::started) std::this_thread::yield();
  EXPECT_ACL_OK(aclrtResetDevice(0));
}

TEST_F(DeviceApiTest, AResetStopsTheDefaultStreamAnotherThreadsContextHolds) {
  reset_work::ran_after = 0;
  reset_work::OtherThreadOnDevice0 other;
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(nullptr, &reset_work::Sleep100, nullptr));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(nullptr, &reset_work::CountAfter, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(reset_work::ran_after.load(), 0)
      << "work queued before the reset ran after it returned";
}

TEST_F(DeviceApiTest, AResetAbortsAValueWaitAnotherThreadsContextHolds) {
  // The old default stream's blocked wait held the old device instance, so
  // the next SetDevice waited for it (30 s) and failed.
  reset_work::OtherThreadOnDevice0 other;
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtValueWait(dev, 1, ACL_STREAM_WAIT_VALUE_EQ, nullptr));
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  const Clock::time_point start = Clock::now();
  EXPECT_ACL_OK(aclrtSetDevice(0));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
}

TEST_F(DeviceApiTest, DestroyContextFinishesItsStreamsWork) {
  reset_work::ran = 0;
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&context, 0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, &reset_work::SlowCount, nullptr));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, &reset_work::Count, nullptr));
  ASSERT_ACL_OK(aclrtDestroyContext(context));
  EXPECT_EQ(reset_work::ran.load(), 2);
}

TEST_F(DeviceApiTest, DestroyContextLeavesAStreamFailureToTheDeviceSync) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&context, 0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_FAILS));
  std::vector<char> host(4096);
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev, 4096, host.data(), 4096,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream));
  ASSERT_ACL_OK(aclrtDestroyContext(context));
  ASSERT_ACL_OK(aclrtSetDevice(0));  // the primary context again
  EXPECT_NE(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

// Handles are not object addresses (which the allocator hands out again after
// a destroy): a stale handle never names a new object, so a double destroy
// gets 107000 instead of destroying someone else's object.
// Creates an object, destroys it and creates the next one: the stale handle
// is refused, `use` works on the next one, and no handle is seen twice.
template <typename Create, typename Destroy, typename Use>
void ExpectStaleHandleRefused(std::set<void*>& seen, Create create,
                              Destroy destroy, Use use) {
  void* stale = nullptr;
  ASSERT_ACL_OK(create(&stale));
  ASSERT_ACL_OK(destroy(stale));
  void* next = nullptr;
  ASSERT_ACL_OK(create(&next));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, destroy(stale));
  EXPECT_ACL_OK(use(next));
  EXPECT_ACL_OK(destroy(next));
  for (void* handle : {stale, next}) {
    EXPECT_TRUE(seen.insert(handle).second)
        << "handle " << handle << " was given out twice";
  }
}

aclError NoUse(void*) { return ACL_SUCCESS; }

TEST_F(DeviceApiTest, AStaleHandleNeverNamesANewObject) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  std::set<void*> seen;
  for (int i = 0; i < 20; ++i) {
    ExpectStaleHandleRefused(
        seen, [](void** h) { return aclrtCreateStream(h); }, aclrtDestroyStream,
        aclrtSynchronizeStream);
    ExpectStaleHandleRefused(
        seen, [](void** h) { return aclrtCreateEvent(h); }, aclrtDestroyEvent,
        [](void* h) { return aclrtRecordEvent(h, nullptr); });
    ExpectStaleHandleRefused(
        seen, [](void** h) { return aclrtCreateNotify(h, 0); },
        aclrtDestroyNotify, NoUse);
    ExpectStaleHandleRefused(
        seen, [](void** h) { return aclrtCreateContext(h, 0); },
        aclrtDestroyContext, NoUse);
    ASSERT_ACL_OK(aclrtSetDevice(0));  // the destroyed contexts were current
  }
}
