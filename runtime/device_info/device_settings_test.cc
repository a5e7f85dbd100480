// DeviceSettings on its own: the precedence of core limits, per-thread
// streams, overflow flags (raised as kernels will), timeouts and what a
// device close drops.
#include "runtime/device_info/device_settings.h"

#include <thread>

#include "acl/acl_base.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

int Stream1;
int Stream2;
int Context1;

TEST(DeviceSettingsTest, CorePrecedenceIsThreadStreamThenDeviceThenHardware) {
  DeviceSettings s;
  EXPECT_EQ(s.LaunchCores(0, CoreKind::kCube), 24u);
  ASSERT_OK(s.SetDeviceCores(0, CoreKind::kCube, 10));
  EXPECT_EQ(s.LaunchCores(0, CoreKind::kCube), 10u);
  EXPECT_EQ(s.LaunchCores(1, CoreKind::kCube), 24u);
  ASSERT_OK(s.SetStreamCores(&Stream1, 0, CoreKind::kCube, 20));
  EXPECT_EQ(s.LaunchCores(0, CoreKind::kCube), 10u);  // not used yet
  s.UseStreamInThread(&Stream1);
  EXPECT_EQ(s.LaunchCores(0, CoreKind::kCube), 20u);
  EXPECT_EQ(s.LaunchCores(0, CoreKind::kVector), 48u);
  uint32_t other = 0;
  std::thread([&] { other = s.LaunchCores(0, CoreKind::kCube); }).join();
  EXPECT_EQ(other, 10u);
  EXPECT_FALSE(s.UnuseStreamInThread(&Stream2));
  EXPECT_TRUE(s.UnuseStreamInThread(&Stream1));
  EXPECT_EQ(s.LaunchCores(0, CoreKind::kCube), 10u);
  EXPECT_EQ(ErrorCode(s.SetDeviceCores(0, CoreKind::kVector, 49)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(s.SetStreamCores(&Stream1, 0, CoreKind::kCube, 25)),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST(DeviceSettingsTest, DeviceCloseDropsWhatBelongedToIt) {
  DeviceSettings s;
  ASSERT_OK(s.SetDeviceCores(1, CoreKind::kVector, 4));
  ASSERT_OK(s.SetStreamCores(&Stream1, 1, CoreKind::kCube, 3));
  s.SetContextSysParam(&Context1, 1, 0, 2);
  s.RaiseOverflow(1, 0x5);
  s.RaiseOverflow(0, 0x1);
  EXPECT_EQ(s.SatMode(), 1);  // Inf/NaN until set (25-02)
  s.SetSatMode(0);
  s.OnDeviceClosed(1);
  EXPECT_EQ(s.DeviceCores(1, CoreKind::kVector), 48u);
  EXPECT_EQ(s.StreamCores(&Stream1, 1, CoreKind::kCube), 24u);
  EXPECT_FALSE(s.ContextSysParam(&Context1, 0).has_value());
  EXPECT_EQ(s.OverflowFlags(1), 0u);
  EXPECT_EQ(s.OverflowFlags(0), 1u);  // another device keeps its flags
  EXPECT_EQ(s.SatMode(), 0);          // process-wide
}

TEST(DeviceSettingsTest, OverflowFlagsAccumulateUntilCleared) {
  DeviceSettings s;
  EXPECT_EQ(s.OverflowFlags(0), 0u);
  s.RaiseOverflow(0, 0x1);
  s.RaiseOverflow(0, 0x4);
  EXPECT_EQ(s.OverflowFlags(0), 0x5u);
  s.ClearOverflow(0);
  EXPECT_EQ(s.OverflowFlags(0), 0u);
}

TEST(DeviceSettingsTest, TimeoutsAndLimitsRound) {
  DeviceSettings s;
  constexpr uint64_t kI = DeviceSettings::kTimeoutIntervalUs;
  EXPECT_EQ(s.OpExecuteTimeoutUs(), 254 * kI);
  EXPECT_EQ(s.SetOpExecuteTimeoutUs(1), kI);
  EXPECT_EQ(s.SetOpExecuteTimeoutUs(kI + 1), 2 * kI);
  EXPECT_EQ(s.SetOpExecuteTimeoutUs(kI * 1000), 254 * kI);
  EXPECT_EQ(s.OpExecuteTimeoutUs(), 254 * kI);
  ASSERT_OK(s.SetStackSize((64 << 10) + 1));
  EXPECT_EQ(s.StackSize(), 80u << 10);
  ASSERT_OK(s.SetStackSize(16 << 10));
  EXPECT_EQ(s.StackSize(), 32u << 10);  // up to 32 KiB counts as 32 KiB
  EXPECT_EQ(ErrorCode(s.SetStackSize((192 << 10) + 1)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(s.StackSize(), 32u << 10);
  EXPECT_EQ(ErrorCode(s.SetPrintfFifoSize(100)), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(s.SetPrintfFifoSize(2001));
  EXPECT_EQ(s.PrintfFifoSize(), 2008u);
}

}  // namespace
}  // namespace ascend::rt
