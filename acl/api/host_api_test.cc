// Data buffers, aclAppLog, aclrtGetVersion, device-id translation, the
// aclrtMalloc / aclrtFree variants, and the answer of entry points this
// runtime does not provide yet (ACL_ERROR_RT_FEATURE_NOT_SUPPORT).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

TEST(DataBufferTest, CreateGetUpdateDestroy) {
  char storage[16];
  aclDataBuffer* buffer = aclCreateDataBuffer(storage, sizeof storage);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof storage);
  EXPECT_ACL_OK(aclUpdateDataBuffer(buffer, storage + 4, 8));
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage + 4);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 8u);
  EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

TEST(DataBufferTest, EmptyBufferIsAllowed) {
  aclDataBuffer* buffer = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 0u);
  EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(DataBufferTest, DeprecatedSizeIsTruncatedTo32Bits) {
  const size_t big = (size_t{1} << 32) + 5;
  aclDataBuffer* buffer = aclCreateDataBuffer(nullptr, big);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferSize(buffer), 5u);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), big);
  EXPECT_EQ(aclGetDataBufferSize(nullptr), 0u);
  EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}
#pragma GCC diagnostic pop

TEST(DataBufferTest, NullHandle) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclDestroyDataBuffer(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclUpdateDataBuffer(nullptr, nullptr, 0));
  EXPECT_EQ(aclGetDataBufferAddr(nullptr), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(nullptr), 0u);
}

// The BUILD file sets ASCEND_SLOG_PRINT_TO_STDOUT=1: log lines go to stdout.
TEST(AppLogTest, ErrorLineShowsAtTheDefaultLevel) {
  ::testing::internal::CaptureStdout();
  aclAppLog(ACL_ERROR, "my_function", "my_file.cc", 77, "value %d, %s", 42,
            "text");
  std::fflush(stdout);
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("my_file.cc:77"), std::string::npos) << out;
  EXPECT_NE(out.find("my_function: value 42, text"), std::string::npos) << out;
}

TEST(AppLogTest, WritesWithoutFailing) {
  aclAppLog(ACL_ERROR, "f", "file.cc", 7, "value %d and %s", 42, "text");
  aclAppLog(ACL_WARNING, nullptr, nullptr, 0, "no location");
  aclAppLog(ACL_INFO, "f", "file.cc", 1, "%s", "info");
  aclAppLog(ACL_DEBUG, "f", "file.cc", 1, "debug");
  aclAppLog(ACL_ERROR, "f", "file.cc", 1, nullptr);
  // A level outside the enumeration: enum_args_c_test.c (in C, where an enum
  // object may hold any int).
  ACL_APP_LOG(ACL_INFO, "through the macro: %d", 1);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(VersionTest, ReportsTheHeaderVersion) {
  int32_t major = -1, minor = -1, patch = -1;
  ASSERT_ACL_OK(aclrtGetVersion(&major, &minor, &patch));
  EXPECT_EQ(major, ACL_MAJOR_VERSION);
  EXPECT_EQ(minor, ACL_MINOR_VERSION);
  EXPECT_EQ(patch, ACL_PATCH_VERSION);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetVersion(nullptr, &minor, &patch));
}
#pragma GCC diagnostic pop

TEST(DeviceIdTest, UserLogicalAndPhysicalIdsCoincide) {
  using Translate = aclError (*)(const int32_t, int32_t* const);
  const Translate translations[] = {
      aclrtGetLogicDevIdByUserDevId, aclrtGetUserDevIdByLogicDevId,
      aclrtGetLogicDevIdByPhyDevId,  aclrtGetPhyDevIdByLogicDevId,
      aclrtGetUserDevIdByPhyDevId,   aclrtGetPhyDevIdByUserDevId,
  };
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  ASSERT_GT(count, 0u);
  for (Translate translate : translations) {
    for (int32_t id = 0; id < static_cast<int32_t>(count); ++id) {
      int32_t out = -1;
      ASSERT_ACL_OK(translate(id, &out));
      EXPECT_EQ(out, id);
    }
    int32_t out = -7;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                     translate(static_cast<int32_t>(count), &out));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, translate(-1, &out));
    EXPECT_EQ(out, -7);
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, translate(0, nullptr));
  }
}

TEST(MemoryVariantsTest, AllocateAndFreeLikeMalloc) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* aligned = nullptr;
  ASSERT_ACL_OK(aclrtMallocAlign32(&aligned, 33, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_NE(aligned, nullptr);
  // The rounded-up size (64 bytes) is usable.
  EXPECT_ACL_OK(aclrtMemset(aligned, 64, 0x5a, 64));
  void* cached = nullptr;
  ASSERT_ACL_OK(aclrtMallocCached(&cached, 128, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_NE(cached, nullptr);
  EXPECT_ACL_OK(
      aclrtMemcpy(cached, 128, aligned, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_ACL_OK(aclrtFreeWithDevSync(aligned));
  EXPECT_ACL_OK(aclrtFreeWithDevSync(cached));
  // Freed: a second free is refused as aclrtFree refuses it.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeWithDevSync(cached));
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, 256));
  EXPECT_ACL_OK(aclrtFreeHostWithDevSync(host));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMallocAlign32(nullptr, 32, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFreeWithDevSync(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFreeHostWithDevSync(nullptr));
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
}

TEST(NotSupportedTest, AnswersFeatureNotSupportedAndRecordsIt) {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  uint32_t value = 12345;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtGetGroupCount(&value));
  EXPECT_EQ(value, 12345u);  // untouched
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message).find("aclrtGetGroupCount"), std::string::npos);

  EXPECT_EQ(aclrtCreateGroupInfo(), nullptr);
  void* overflow = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtCtxGetFloatOverflowAddr(&overflow));
  EXPECT_EQ(overflow, nullptr);
  void* ptr = nullptr;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclrtReserveMemAddressNoUCMemory(&ptr, 1 << 30, 0, nullptr, 0));
  EXPECT_EQ(ptr, nullptr);
  EXPECT_EQ(aclrtCreateBinary(nullptr, 0), nullptr);
}

}  // namespace
