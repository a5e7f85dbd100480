#include "testing/fault_injection/snapshot_fixture.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "gtest/gtest.h"

namespace ascend::testing {

aclError Lock() { return aclrtSnapShotProcessLock(getpid(), nullptr); }
aclError Unlock() { return aclrtSnapShotProcessUnlock(getpid(), nullptr); }
aclError Backup() { return aclrtSnapShotProcessBackup(getpid(), nullptr); }
aclError Restore() { return aclrtSnapShotProcessRestore(getpid(), nullptr); }

int32_t ProcessState() {
  rtProcessState state = RT_PROCESS_STATE_MAX;
  if (rtSnapShotProcessGetState(&state) != 0) return RT_PROCESS_STATE_MAX;
  return static_cast<int32_t>(state);
}

int32_t State() {
  rtProcessState state = RT_PROCESS_STATE_MAX;
  EXPECT_EQ(rtSnapShotProcessGetState(&state), 0);
  return static_cast<int32_t>(state);
}

std::string StateName(int32_t state) {
  switch (state) {
    case RT_PROCESS_STATE_RUNNING:
      return "RUNNING";
    case RT_PROCESS_STATE_LOCKED:
      return "LOCKED";
    case RT_PROCESS_STATE_BACKED_UP:
      return "BACKED_UP";
    default:
      return "state " + std::to_string(state);
  }
}

uint64_t ProcStatusBytes(const char* field) {
  FILE* f = std::fopen("/proc/self/status", "re");
  if (f == nullptr) return 0;
  const std::string prefix = std::string(field) + ":";
  char line[256];
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::strncmp(line, prefix.c_str(), prefix.size()) == 0) {
      std::sscanf(line + prefix.size(), "%llu", &kib);
      break;
    }
  }
  std::fclose(f);
  return static_cast<uint64_t>(kib) * 1024;
}

std::vector<uint8_t> Pattern(size_t size, uint32_t seed) {
  std::vector<uint8_t> bytes(size);
  std::mt19937 gen(seed);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(gen());
  return bytes;
}

DeviceBuffers::~DeviceBuffers() {
  for (Buffer& b : buffers_) {
    EXPECT_EQ(aclrtSetDevice(b.device), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(b.ptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(b.device), ACL_SUCCESS);
  }
}

void DeviceBuffers::Add(int32_t device, size_t size, uint32_t seed) {
  Buffer b;
  b.device = device;
  b.expected = Pattern(size, seed);
  ASSERT_EQ(aclrtSetDevice(device), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&b.ptr, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(b.ptr, size, b.expected.data(), size,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  buffers_.push_back(std::move(b));
}

void DeviceBuffers::Rewrite(uint32_t seed) {
  for (Buffer& b : buffers_) {
    b.expected = Pattern(b.expected.size(), seed++);
    ASSERT_EQ(aclrtMemcpy(b.ptr, b.expected.size(), b.expected.data(),
                          b.expected.size(), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
}

void DeviceBuffers::RewriteDirect(uint32_t seed) {
  for (Buffer& b : buffers_) {
    b.expected = Pattern(b.expected.size(), seed++);
    std::memcpy(b.ptr, b.expected.data(), b.expected.size());
  }
}

std::vector<std::vector<uint8_t>> DeviceBuffers::Expected() const {
  std::vector<std::vector<uint8_t>> contents;
  for (const Buffer& b : buffers_) contents.push_back(b.expected);
  return contents;
}

void DeviceBuffers::SetExpected(
    const std::vector<std::vector<uint8_t>>& contents) {
  ASSERT_EQ(contents.size(), buffers_.size());
  for (size_t i = 0; i < contents.size(); ++i) {
    ASSERT_EQ(contents[i].size(), buffers_[i].expected.size());
    buffers_[i].expected = contents[i];
  }
}

uint64_t DeviceBuffers::total_bytes() const {
  uint64_t total = 0;
  for (const Buffer& b : buffers_) total += b.expected.size();
  return total;
}

void DeviceBuffers::ExpectHeldDirect(const std::string& when) const {
  for (size_t i = 0; i < buffers_.size(); ++i) {
    const Buffer& b = buffers_[i];
    EXPECT_EQ(std::memcmp(b.ptr, b.expected.data(), b.expected.size()), 0)
        << when << ": buffer " << i << " (device " << b.device << ", "
        << b.expected.size() << " bytes) does not hold its expected bytes";
  }
}

void DeviceBuffers::ExpectAllZeroDirect(const std::string& when) const {
  for (size_t i = 0; i < buffers_.size(); ++i) {
    const Buffer& b = buffers_[i];
    const auto* p = static_cast<const uint8_t*>(b.ptr);
    size_t nonzero = 0;
    for (size_t k = 0; k < b.expected.size(); ++k) nonzero += p[k] != 0;
    EXPECT_EQ(nonzero, 0u) << when << ": buffer " << i << " (device "
                           << b.device << ") is not all zero";
  }
}

void DeviceBuffers::ExpectHeldViaApi(const std::string& when) const {
  for (size_t i = 0; i < buffers_.size(); ++i) {
    const Buffer& b = buffers_[i];
    std::vector<uint8_t> back(b.expected.size());
    ASSERT_EQ(aclrtMemcpy(back.data(), back.size(), b.ptr, back.size(),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_TRUE(back == b.expected)
        << when << ": buffer " << i << " (device " << b.device << ", "
        << back.size() << " bytes) read through the API differs";
  }
}

}  // namespace ascend::testing
