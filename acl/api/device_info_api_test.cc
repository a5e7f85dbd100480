// Device information, limits and system parameters through the ACL C API
// (DESIGN.md §5.12), on the default simulator (8 devices). The call
// sequences of CANN's samples (2_system_info, 0_context_query,
// 2_device_P2P, overflow_detection, 1_launch_kernel_with_reslimit) are
// mirrored here. Every test releases the devices it opened and puts the
// process-wide settings it changed back.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

constexpr int32_t kDeviceCount = 8;
constexpr uint32_t kCubeCores = 24;
constexpr uint32_t kVectorCores = 48;

class DeviceInfoApiTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (int32_t id = 0; id < kDeviceCount; ++id) {
      (void)aclrtResetDeviceForce(id);
    }
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }
};

// An invalid value within the enum's range (values outside it are undefined
// in C++: enum_args_c_test.c passes those from C).
template <typename E>
E Bad(int32_t raw) {
  E value;
  std::memcpy(&value, &raw, sizeof value);
  return value;
}

// --- Capabilities and attributes ---------------------------------------------

TEST_F(DeviceInfoApiTest, GetDeviceCapabilityReportsTheSimulatedChip) {
  int64_t value = -1;
  ASSERT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &value));
  EXPECT_EQ(value, kCubeCores);
  ASSERT_ACL_OK(
      aclGetDeviceCapability(7, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &value));
  EXPECT_EQ(value, kVectorCores);
  ASSERT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &value));
  EXPECT_EQ(value, int64_t{192} << 20);

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclGetDeviceCapability(8, ACL_DEVICE_INFO_L2_SIZE, &value));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &value));
  value = 5;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclGetDeviceCapability(0, Bad<aclDeviceInfo>(3), &value));
  EXPECT_EQ(value, 5);
}

TEST_F(DeviceInfoApiTest, GetDeviceInfoAnswersEveryAttribute) {
  int64_t value = -1;
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &value));
  EXPECT_EQ(value, kCubeCores);
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &value));
  EXPECT_EQ(value, kCubeCores);
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &value));
  EXPECT_EQ(value, kVectorCores);
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &value));
  EXPECT_EQ(value, 6);
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &value));
  EXPECT_EQ(value, int64_t{192} << 20);
  // 64 GiB per simulated device, whether or not it is open.
  ASSERT_ACL_OK(
      aclrtGetDeviceInfo(3, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &value));
  EXPECT_EQ(value, int64_t{64} << 30);
  ASSERT_ACL_OK(aclrtGetDeviceInfo(5, ACL_DEV_ATTR_PHY_CHIP_ID, &value));
  EXPECT_EQ(value, 5);
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_IS_VIRTUAL, &value));
  EXPECT_EQ(value, 0);
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &value));
  EXPECT_EQ(value, 2201);

  // 25-02 aclrtDevAttr: the SIMT attributes answer 0 on parts other than
  // Ascend 950; the host connection and form factor are an error there.
  for (aclrtDevAttr simt :
       {ACL_DEV_ATTR_WARP_SIZE, ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE,
        ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, ACL_DEV_ATTR_MAX_GRID_DIM_X,
        ACL_DEV_ATTR_MAX_GRID_DIM_Y, ACL_DEV_ATTR_MAX_GRID_DIM_Z,
        ACL_DEV_ATTR_MAX_BLOCK_PER_GRID, ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK,
        ACL_DEV_ATTR_MAX_BLOCK_DIM_X, ACL_DEV_ATTR_MAX_BLOCK_DIM_Y,
        ACL_DEV_ATTR_MAX_BLOCK_DIM_Z}) {
    value = 42;
    ASSERT_ACL_OK(aclrtGetDeviceInfo(0, simt, &value));
    EXPECT_EQ(value, 0) << simt;
  }
  value = 42;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtGetDeviceInfo(0, ACL_DEV_ATTR_HD_CONNECT_TYPE, &value));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclrtGetDeviceInfo(0, ACL_DEV_ATTR_DEVICE_FORM_FACTOR, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtGetDeviceInfo(0, ACL_DEV_ATTR_SUPER_POD_ID, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetDeviceInfo(0, Bad<aclrtDevAttr>(99), &value));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetDeviceInfo(8, ACL_DEV_ATTR_CUBE_CORE_NUM, &value));
  EXPECT_EQ(value, 42);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, nullptr));
}

// --- Core limits -------------------------------------------------------------

// 1_launch_kernel_with_reslimit: set device 0, limit its cube cores, read
// the limit back, make a stream.
TEST_F(DeviceInfoApiTest, DeviceResLimitIsStoredPerDeviceAndReset) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  uint32_t value = 0;
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_EQ(value, kCubeCores);
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 8));
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 16));
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_EQ(value, 8u);
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &value));
  EXPECT_EQ(value, 16u);
  // Another device is untouched.
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_EQ(value, kCubeCores);

  // Bad input changes nothing.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 25));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtSetDeviceResLimit(-1, ACL_RT_DEV_RES_CUBE_CORE, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetDeviceResLimit(8, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceResLimit(8));
  // A device that is not set has no limits to read or set.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_DEV_SETUP_ERROR,
                   aclrtGetDeviceResLimit(2, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_DEV_SETUP_ERROR,
                   aclrtSetDeviceResLimit(2, ACL_RT_DEV_RES_CUBE_CORE, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_DEV_SETUP_ERROR, aclrtResetDeviceResLimit(2));
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_EQ(value, 8u);

  ASSERT_ACL_OK(aclrtResetDeviceResLimit(0));
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_EQ(value, kCubeCores);
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &value));
  EXPECT_EQ(value, kVectorCores);
}

TEST_F(DeviceInfoApiTest, DeviceResetDropsItsLimits) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 4));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  uint32_t value = 0;
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_EQ(value, kCubeCores);
}

TEST_F(DeviceInfoApiTest, StreamResLimitFallsBackToTheDevice) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 20));
  uint32_t value = 0;
  ASSERT_ACL_OK(
      aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, &value));
  EXPECT_EQ(value, 20u);
  // A stream's limit may exceed its device's, never the hardware's.
  ASSERT_ACL_OK(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, 30));
  ASSERT_ACL_OK(
      aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, &value));
  EXPECT_EQ(value, 30u);
  ASSERT_ACL_OK(
      aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_EQ(value, kCubeCores);
  // NULL is the default stream, with limits of its own.
  ASSERT_ACL_OK(aclrtSetStreamResLimit(nullptr, ACL_RT_DEV_RES_CUBE_CORE, 2));
  ASSERT_ACL_OK(
      aclrtGetStreamResLimit(nullptr, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_EQ(value, 2u);
  ASSERT_ACL_OK(
      aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_EQ(value, kCubeCores);

  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, 49));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, nullptr));
  aclrtStream stale = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stale));
  ASSERT_ACL_OK(aclrtDestroyStream(stale));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetStreamResLimit(stale, ACL_RT_DEV_RES_CUBE_CORE, 1));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtGetStreamResLimit(stale, ACL_RT_DEV_RES_CUBE_CORE, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtResetStreamResLimit(stale));

  ASSERT_ACL_OK(aclrtResetStreamResLimit(stream));
  ASSERT_ACL_OK(
      aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, &value));
  EXPECT_EQ(value, 20u);
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

// 0_context_query: the resources the current thread may use, then a stream's
// limits used by this thread only.
TEST_F(DeviceInfoApiTest, ThreadUsesAStreamsLimitsUntilUnused) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&context, 0));
  uint32_t cube = 0;
  uint32_t vector = 0;
  ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &cube));
  ASSERT_ACL_OK(
      aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &vector));
  EXPECT_EQ(cube, kCubeCores);
  EXPECT_EQ(vector, kVectorCores);

  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, 3));
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 10));
  ASSERT_ACL_OK(aclrtUseStreamResInCurrentThread(stream));
  ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &cube));
  ASSERT_ACL_OK(
      aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &vector));
  EXPECT_EQ(cube, 3u);
  EXPECT_EQ(vector, 10u);  // the stream set no vector limit: the device's

  // Another thread (same context) does not use the stream's limits.
  uint32_t other = 0;
  std::thread([&] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(context));
    ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &other));
  }).join();
  EXPECT_EQ(other, kCubeCores);

  // Unusing another stream changes nothing; unusing this one ends it.
  ASSERT_ACL_OK(aclrtUnuseStreamResInCurrentThread(nullptr));
  ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &cube));
  EXPECT_EQ(cube, 3u);
  ASSERT_ACL_OK(aclrtUnuseStreamResInCurrentThread(stream));
  ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &cube));
  EXPECT_EQ(cube, kCubeCores);

  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, nullptr));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtUseStreamResInCurrentThread(stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtUnuseStreamResInCurrentThread(stream));
  ASSERT_ACL_OK(aclrtDestroyContext(context));
}

// --- Utilisation, identity, topology, peers, atomics
// --------------------------

TEST_F(DeviceInfoApiTest, UtilizationIsZeroWithoutKernels) {
  aclrtUtilizationInfo info = {7, 7, 7, 7, nullptr};
  ASSERT_ACL_OK(aclrtGetDeviceUtilizationRate(0, &info));
  EXPECT_EQ(info.cubeUtilization, 0);
  EXPECT_EQ(info.vectorUtilization, 0);
  EXPECT_EQ(info.aicpuUtilization, 0);
  EXPECT_EQ(info.memoryUtilization, -1);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetDeviceUtilizationRate(0, nullptr));
  info.utilizationExtend = reinterpret_cast<aclrtUtilizationExtendInfo*>(&info);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetDeviceUtilizationRate(0, &info));
  info.utilizationExtend = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetDeviceUtilizationRate(8, &info));
}

TEST_F(DeviceInfoApiTest, UuidIsStableAndDistinctPerDevice) {
  aclrtUuid a{};
  aclrtUuid again{};
  aclrtUuid b{};
  ASSERT_ACL_OK(aclrtDeviceGetUuid(0, &a));
  ASSERT_ACL_OK(aclrtDeviceGetUuid(0, &again));
  ASSERT_ACL_OK(aclrtDeviceGetUuid(7, &b));
  EXPECT_EQ(std::memcmp(a.bytes, again.bytes, sizeof a.bytes), 0);
  EXPECT_NE(std::memcmp(a.bytes, b.bytes, sizeof a.bytes), 0);
  EXPECT_EQ(std::memcmp(a.bytes, "aclsim", 6), 0);
  EXPECT_EQ(static_cast<unsigned char>(b.bytes[15]), 7);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetUuid(0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetUuid(8, &a));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetUuid(-1, &a));
}

TEST_F(DeviceInfoApiTest, PciBusIdsNameEachDeviceOnce) {
  char id[13] = {0};
  ASSERT_ACL_OK(aclrtDeviceGetPCIBusId(0, id, sizeof id));
  EXPECT_STREQ(id, "0000:01:00.0");
  for (int32_t device = 0; device < 8; ++device) {
    char text[32];
    std::memset(text, 'x', sizeof text);
    ASSERT_ACL_OK(aclrtDeviceGetPCIBusId(device, text, sizeof text));
    EXPECT_EQ(std::strlen(text), 12u) << text;
    int32_t back = -1;
    ASSERT_ACL_OK(aclrtDeviceGetByPCIBusId(text, &back));
    EXPECT_EQ(back, device) << text;
  }
  int32_t back = -1;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceGetPCIBusId(0, id, 12));  // no room for the NUL
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceGetPCIBusId(0, nullptr, 13));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceGetPCIBusId(8, id, sizeof id));
  EXPECT_STREQ(id, "0000:01:00.0");  // unchanged by the failures
  for (const char* bad :
       {"", "0000:01:00", "0000:01:00.0x", "zz:01:00.0", "0000-01-00.0"}) {
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtDeviceGetByPCIBusId(bad, &back))
        << bad;
  }
  for (const char* none : {"0000:00:00.0", "0000:09:00.0", "0001:01:00.0",
                           "0000:01:00.1", "0000:01:01.0"}) {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                     aclrtDeviceGetByPCIBusId(none, &back))
        << none;
  }
  EXPECT_EQ(back, -1);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceGetByPCIBusId(nullptr, &back));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceGetByPCIBusId("0000:01:00.0", nullptr));
}

TEST_F(DeviceInfoApiTest, TopologyIsHccsBetweenEveryPair) {
  uint64_t value = 0;
  ASSERT_ACL_OK(aclrtGetDevicesTopo(0, 7, &value));
  EXPECT_EQ(value, ACL_RT_DEVS_TOPOLOGY_HCCS);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetDevicesTopo(1, 1, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetDevicesTopo(0, 8, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDevicesTopo(0, 1, nullptr));
}

// 2_device_P2P with the status query. Enabling is one-directional (04
// device management, aclrtDeviceEnablePeerAccess): device 0 enabling 1
// leaves 1 -> 0 disabled until device 1 enables 0.
TEST_F(DeviceInfoApiTest, PeerAccessStatusFollowsEnableAndDisable) {
  int32_t status = -1;
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 0);
  int32_t can = 0;
  ASSERT_ACL_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
  ASSERT_EQ(can, 1);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 1);
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(1, 0, &status));
  EXPECT_EQ(status, 0);
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(0, 0));
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(1, 0, &status));
  EXPECT_EQ(status, 1);
  ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(0));
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(1, 0, &status));
  EXPECT_EQ(status, 0);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 0, &status));
  EXPECT_EQ(status, 0);
  ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDevicePeerAccessStatus(0, 8, &status));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDevicePeerAccessStatus(0, 1, nullptr));
}

TEST_F(DeviceInfoApiTest, AtomicCapabilities) {
  const aclrtAtomicOperation ops[] = {
      ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, ACL_RT_ATOMIC_OPERATION_CAS,
      ACL_RT_ATOMIC_OPERATION_FLOAT_MAX, ACL_RT_ATOMIC_OPERATION_DMA_ADD,
      ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH};
  uint32_t caps[5] = {9, 9, 9, 9, 9};
  ASSERT_ACL_OK(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 5, 0));
  const uint32_t integer =
      ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_UNSIGNED |
      ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
  EXPECT_EQ(caps[0], integer);
  EXPECT_EQ(caps[1], integer);
  EXPECT_EQ(caps[2], static_cast<uint32_t>(ACL_RT_ATOMIC_CAPABILITY_SCALAR32 |
                                           ACL_RT_ATOMIC_CAPABILITY_SCALAR64));
  EXPECT_EQ(caps[3], 0u);
  EXPECT_EQ(caps[4], 0u);
  uint32_t p2p[5] = {};
  ASSERT_ACL_OK(aclrtDeviceGetP2PAtomicCapabilities(p2p, ops, 5, 0, 1));
  EXPECT_EQ(p2p[0], integer);

  uint32_t untouched[2] = {9, 9};
  const aclrtAtomicOperation bad[] = {ACL_RT_ATOMIC_OPERATION_AND,
                                      Bad<aclrtAtomicOperation>(20)};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDeviceGetHostAtomicCapabilities(untouched, bad, 2, 0));
  EXPECT_EQ(untouched[0], 9u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDeviceGetHostAtomicCapabilities(nullptr, ops, 1, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDeviceGetHostAtomicCapabilities(caps, nullptr, 1, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDeviceGetHostAtomicCapabilities(caps, ops, 0, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceGetHostAtomicCapabilities(caps, ops, 1, 8));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 1, 2, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 1, 0, 9));
}

// --- Contexts and ids
// -----------------------------------------------------------

TEST_F(DeviceInfoApiTest, PrimaryContextIsActiveWhileTheDeviceIsSet) {
  int32_t active = -1;
  ASSERT_ACL_OK(aclrtGetPrimaryCtxState(2, nullptr, &active));
  EXPECT_EQ(active, 0);
  ASSERT_ACL_OK(aclrtSetDevice(2));
  ASSERT_ACL_OK(aclrtGetPrimaryCtxState(2, nullptr, &active));
  EXPECT_EQ(active, 1);
  ASSERT_ACL_OK(aclrtResetDevice(2));
  ASSERT_ACL_OK(aclrtGetPrimaryCtxState(2, nullptr, &active));
  EXPECT_EQ(active, 0);
  uint32_t flags = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetPrimaryCtxState(2, &flags, &active));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetPrimaryCtxState(2, nullptr, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetPrimaryCtxState(8, nullptr, &active));
}

TEST_F(DeviceInfoApiTest, AvailableStreamAndEventCountsFollowTheIdSpaces) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  uint32_t streams = 0;
  uint32_t events = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&streams));
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&events));
  // 1,984 (Ascend910B1), less the primary context's default stream.
  EXPECT_EQ(streams, 1984u - 1);
  EXPECT_EQ(events, 65536u);
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  uint32_t after = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&after));
  EXPECT_EQ(after, streams - 1);
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&after));
  EXPECT_EQ(after, events - 1);
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetStreamAvailableNum(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetEventAvailNum(nullptr));
}

// --- Device limits
// ----------------------------------------------------------------

TEST_F(DeviceInfoApiTest, DeviceLimits) {
  size_t value = 0;
  ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value));
  EXPECT_EQ(value, 32u << 10);
  ASSERT_ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 1000));
  ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value));
  EXPECT_EQ(value, 32u << 10);  // at most the default: unchanged
  ASSERT_ACL_OK(
      aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, (40 << 10) + 1));
  ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value));
  EXPECT_EQ(value, 48u << 10);  // rounded up to 16 KiB
  // 25-02 (aclrtDeviceLimit): the SIMD stack is at most 192 KiB on A2.
  ASSERT_ACL_OK(
      aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 192u << 10));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, (192u << 10) + 1));
  ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value));
  EXPECT_EQ(value, 192u << 10);
  ASSERT_ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 0));
  ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value));
  EXPECT_EQ(value, 32u << 10);

  ASSERT_ACL_OK(aclrtDeviceGetLimit(
      ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &value));
  EXPECT_EQ(value, 32u << 10);
  ASSERT_ACL_OK(aclrtDeviceSetLimit(
      ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1025));
  ASSERT_ACL_OK(aclrtDeviceGetLimit(
      ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &value));
  EXPECT_EQ(value, 1032u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDeviceSetLimit(
                       ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1023));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE,
                          (64u << 20) + 1));
  ASSERT_ACL_OK(aclrtDeviceGetLimit(
      ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &value));
  EXPECT_EQ(value, 1032u);
  ASSERT_ACL_OK(aclrtDeviceSetLimit(
      ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 32u << 10));

  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 1024));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceSetLimit(Bad<aclrtDeviceLimit>(5), 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceGetLimit(Bad<aclrtDeviceLimit>(7), &value));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE,
                                       static_cast<size_t>(UINT32_MAX) + 1));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, nullptr));
}

TEST_F(DeviceInfoApiTest, L2CacheFlushNeedsNullAndADevice) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtDeviceL2CacheFlush(nullptr));
  int dummy = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceL2CacheFlush(&dummy));
}

}  // namespace
