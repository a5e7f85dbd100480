// The system-information entry points through the C API, against the
// simulator (ACLSIM_SOC_NAME and ACLSIM_DEVICE_COUNT are set by the BUILD
// rule). No test calls aclInit: none of these functions needs it.
#include <chrono>
#include <cstring>
#include <set>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

constexpr char kSocName[] = "Ascend910B_sysinfo_test";

TEST(RunMode, IsHost) {
  aclrtRunMode mode = ACL_DEVICE;
  ASSERT_ACL_OK(aclrtGetRunMode(&mode));
  EXPECT_EQ(mode, ACL_HOST);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(nullptr));
}

TEST(SocName, IsTheBackendsNameAndStable) {
  const char* name = aclrtGetSocName();
  ASSERT_NE(name, nullptr);
  EXPECT_STREQ(name, kSocName);
  EXPECT_EQ(aclrtGetSocName(), name);  // cached: the same string every time
}

TEST(CheckArchCompatibility, OnlyTheSimulatorsOwnName) {
  int32_t compatible = -1;
  ASSERT_ACL_OK(aclrtCheckArchCompatibility(kSocName, &compatible));
  EXPECT_EQ(compatible, 1);
  ASSERT_ACL_OK(aclrtCheckArchCompatibility(aclrtGetSocName(), &compatible));
  EXPECT_EQ(compatible, 1);
  for (const char* other : {"Ascend910B1", "ascend910b_sysinfo_test",
                            "Ascend910B_sysinfo_tes", "", "Ascend310P3"}) {
    compatible = -1;
    ASSERT_ACL_OK(aclrtCheckArchCompatibility(other, &compatible));
    EXPECT_EQ(compatible, 0) << other;
  }
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCheckArchCompatibility(nullptr, &compatible));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCheckArchCompatibility(kSocName, nullptr));
}

TEST(DeviceCapability, NeitherFeatureIsSupported) {
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  ASSERT_EQ(count, 2u);
  for (int32_t device = 0; device < static_cast<int32_t>(count); ++device) {
    for (aclrtDevFeatureType feature :
         {ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV,
          ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV}) {
      int32_t value = -1;
      ASSERT_ACL_OK(aclrtGetDeviceCapability(device, feature, &value));
      EXPECT_EQ(value, ACL_DEV_FEATURE_NOT_SUPPORT);
    }
  }
}

TEST(DeviceCapability, ErrorCodes) {
  int32_t value = -1;
  const auto feature = ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetDeviceCapability(0, feature, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetDeviceCapability(2, feature, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetDeviceCapability(-1, feature, &value));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtGetDeviceCapability(0, static_cast<aclrtDevFeatureType>(2), &value));
  EXPECT_EQ(value, -1);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
}

TEST(CannAttributes, ListMatchesPerAttributeValues) {
  const aclCannAttr* list = nullptr;
  size_t num = 99;
  ASSERT_ACL_OK(aclGetCannAttributeList(&list, &num));
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(num, 1u);
  EXPECT_EQ(list[0], ACL_CANN_ATTR_INF_NAN);
  const std::set<aclCannAttr> listed(list, list + num);
  for (aclCannAttr attr :
       {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE}) {
    int32_t value = -1;
    ASSERT_ACL_OK(aclGetCannAttribute(attr, &value));
    EXPECT_EQ(value, listed.count(attr) ? 1 : 0) << attr;
  }
}

TEST(CannAttributes, ErrorCodes) {
  const aclCannAttr* list = nullptr;
  size_t num = 0;
  int32_t value = -1;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclGetCannAttributeList(nullptr, &num));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclGetCannAttributeList(&list, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclGetCannAttribute(ACL_CANN_ATTR_INF_NAN, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclGetCannAttribute(static_cast<aclCannAttr>(3), &value));
  EXPECT_EQ(value, -1);
}

TEST(DataTypeSize, EveryType) {
  const struct {
    aclDataType type;
    size_t size;
  } cases[] = {
      {ACL_DT_UNDEFINED, 0}, {ACL_FLOAT, 4},         {ACL_FLOAT16, 2},
      {ACL_INT8, 1},         {ACL_INT32, 4},         {ACL_UINT8, 1},
      {ACL_INT16, 2},        {ACL_UINT16, 2},        {ACL_UINT32, 4},
      {ACL_INT64, 8},        {ACL_UINT64, 8},        {ACL_DOUBLE, 8},
      {ACL_BOOL, 1},         {ACL_STRING, 0},        {ACL_COMPLEX64, 8},
      {ACL_COMPLEX128, 16},  {ACL_BF16, 2},          {ACL_INT4, 0},
      {ACL_UINT1, 0},        {ACL_COMPLEX32, 4},     {ACL_HIFLOAT8, 1},
      {ACL_FLOAT8_E5M2, 1},  {ACL_FLOAT8_E4M3FN, 1}, {ACL_FLOAT8_E8M0, 1},
      {ACL_FLOAT6_E3M2, 0},  {ACL_FLOAT6_E2M3, 0},   {ACL_FLOAT4_E2M1, 0},
      {ACL_FLOAT4_E1M2, 0},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(aclDataTypeSize(c.type), c.size) << c.type;
  }
  for (int not_a_type : {-2, 5, 14, 15, 18, 26, 28, 31, 32, 42, 1000}) {
    EXPECT_EQ(aclDataTypeSize(static_cast<aclDataType>(not_a_type)), 0u)
        << not_a_type;
  }
}

TEST(Float16, EntryPointsConvert) {
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
  EXPECT_EQ(aclFloatToFloat16(-2.5f), 0xC100);
  EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7C00);
  EXPECT_EQ(aclFloat16ToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(aclFloat16ToFloat(0x0001), 5.9604644775390625e-8f);
}

TEST(ErrorVerbose, NoErrorThenMemoryLossFault) {
  aclrtErrorInfo info;
  std::memset(&info, 0xAB, sizeof info);
  ASSERT_ACL_OK(aclrtGetErrorVerbose(1, &info));
  EXPECT_EQ(info.errorType, ACL_RT_NO_ERROR);
  EXPECT_EQ(info.tryRepair, 0);
  EXPECT_EQ(info.hasDetail, 0);
  EXPECT_EQ(info.reserved[0], 0);
  EXPECT_EQ(info.detail.uceInfo.arraySize, 0u);

  // The fault is reported by the device asynchronously: wait (bounded) for
  // the runtime to mark the device abnormal.
  ASSERT_ACL_OK(aclsimInjectFault(1, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_NORMAL;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (status != ACL_RT_DEVICE_STATUS_ABNORMAL &&
         std::chrono::steady_clock::now() < deadline) {
    ASSERT_ACL_OK(aclrtQueryDeviceStatus(1, &status));
    if (status != ACL_RT_DEVICE_STATUS_ABNORMAL) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  ASSERT_EQ(status, ACL_RT_DEVICE_STATUS_ABNORMAL);
  ASSERT_ACL_OK(aclrtGetErrorVerbose(1, &info));
  EXPECT_EQ(info.errorType, ACL_RT_ERROR_OTHERS);
  EXPECT_EQ(info.tryRepair, 0);
  EXPECT_EQ(info.hasDetail, 0);

  // Device 0 is unaffected.
  ASSERT_ACL_OK(aclrtGetErrorVerbose(0, &info));
  EXPECT_EQ(info.errorType, ACL_RT_NO_ERROR);
}

TEST(ErrorVerbose, ErrorCodes) {
  aclrtErrorInfo info;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetErrorVerbose(0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetErrorVerbose(2, &info));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetErrorVerbose(-1, &info));
}

}  // namespace
