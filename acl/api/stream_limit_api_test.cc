// The stream limit through the ACL C API (DESIGN.md §5.3.1, §6.3): 1,984
// streams per device, default stream included, on each of 8 devices, with no
// thread held by an idle stream; creations past the limit fail with 207008,
// never abort; aclrtGetStreamAvailableNum agrees.
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

constexpr int32_t kDevices = 8;
constexpr uint32_t kMaxStreams = 1984;

int Threads() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

TEST(StreamLimitApiTest, MaxStreamsOnEveryDeviceThenRefusalsThenCleanup) {
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  ASSERT_EQ(count, static_cast<uint32_t>(kDevices));
  for (int32_t d = 0; d < kDevices; ++d) ASSERT_ACL_OK(aclrtSetDevice(d));
  const int before = Threads();
  std::vector<aclrtStream> streams;
  for (int32_t d = 0; d < kDevices; ++d) {
    ASSERT_ACL_OK(aclrtSetDevice(d));
    uint32_t available = 0;
    ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&available));
    EXPECT_EQ(available, kMaxStreams - 1);  // the default stream counts
    for (uint32_t i = 0; i < available; ++i) {
      aclrtStream s = nullptr;
      ASSERT_ACL_OK(aclrtCreateStream(&s));
      streams.push_back(s);
    }
    aclrtStream extra = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_NO_STREAM_RESOURCE,
                     aclrtCreateStream(&extra));
    ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&available));
    EXPECT_EQ(available, 0u);
  }
  EXPECT_LE(Threads(), before + 2);
  int refused = 0;
  for (int i = 0; i < 40000; ++i) {
    aclrtStream s = nullptr;
    refused += aclrtCreateStream(&s) == ACL_ERROR_RT_NO_STREAM_RESOURCE;
  }
  EXPECT_EQ(refused, 40000);
  // Destroy one: exactly one can be created again.
  ASSERT_ACL_OK(aclrtDestroyStream(streams.back()));
  uint32_t available = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&available));
  EXPECT_EQ(available, 1u);
  ASSERT_ACL_OK(aclrtCreateStream(&streams.back()));
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&available));
  EXPECT_EQ(available, 0u);
  // Work on the last stream of each device still runs.
  for (int32_t d = 0; d < kDevices; ++d) {
    aclrtStream s = streams[(d + 1) * (kMaxStreams - 1) - 1];
    ASSERT_ACL_OK(aclrtSetDevice(d));
    ASSERT_ACL_OK(aclrtLaunchHostFunc(
        s, [](void*) {}, nullptr));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  }
  // Each device's streams from its own context (06, aclrtDestroyStream
  // constraints: the stream of the current context).
  for (size_t i = 0; i < streams.size(); ++i) {
    if (i % (kMaxStreams - 1) == 0) {
      ASSERT_ACL_OK(
          aclrtSetDevice(static_cast<int32_t>(i / (kMaxStreams - 1))));
    }
    ASSERT_ACL_OK(aclrtDestroyStream(streams[i]));
  }
  for (int32_t d = 0; d < kDevices; ++d) ASSERT_ACL_OK(aclrtResetDevice(d));
}

}  // namespace
