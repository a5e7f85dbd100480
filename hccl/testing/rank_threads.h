// Test helpers for HCCL: ranks as threads of this process (one device each,
// as CANN's examples run them), device buffers from host vectors, and
// bounded waits (HCCL_EXEC_TIMEOUT is set short, so a broken collective
// fails instead of hanging).
//
//   RunRanks(8, [](Rank& r) {
//     DeviceBuffer in(r, std::vector<float>(8, r.rank));
//     ...HcclAllReduce(in.ptr(), ..., r.comm, r.stream)...
//   });
#ifndef ASCENDCL_HCCL_TESTING_RANK_THREADS_H_
#define ASCENDCL_HCCL_TESTING_RANK_THREADS_H_

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "hccl/hccl.h"

namespace ascend::hccl::testing {

struct Rank {
  uint32_t rank = 0;
  uint32_t size = 0;
  int32_t device = 0;
  HcclComm comm = nullptr;
  aclrtStream stream = nullptr;
};

// Creates a communicator of n ranks (threads on devices 0..n-1, from one
// root info) and runs fn on each; destroys everything after. Failures are
// gtest failures.
void RunRanks(uint32_t n, const std::function<void(Rank&)>& fn,
              const HcclCommConfig* config = nullptr);

// Runs fn(i) on n threads and joins them.
void OnThreads(uint32_t n, const std::function<void(uint32_t)>& fn);

// Device memory holding bytes.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes);
  template <typename T>
  explicit DeviceBuffer(const std::vector<T>& host)
      : DeviceBuffer(host.size() * sizeof(T)) {
    Write(host);
  }
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* ptr() const { return ptr_; }
  size_t bytes() const { return bytes_; }
  template <typename T>
  void Write(const std::vector<T>& host) {
    ASSERT_EQ(ACL_SUCCESS,
              aclrtMemcpy(ptr_, bytes_, host.data(), host.size() * sizeof(T),
                          ACL_MEMCPY_HOST_TO_DEVICE));
  }
  template <typename T>
  std::vector<T> Read() const {
    std::vector<T> host(bytes_ / sizeof(T));
    EXPECT_EQ(ACL_SUCCESS,
              aclrtMemcpy(host.data(), host.size() * sizeof(T), ptr_, bytes_,
                          ACL_MEMCPY_DEVICE_TO_HOST));
    return host;
  }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// Sets an environment variable for the scope of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value);
  ~ScopedEnv();

 private:
  std::string name_;
  std::string old_;
  bool had_ = false;
};

}  // namespace ascend::hccl::testing

#endif  // ASCENDCL_HCCL_TESTING_RANK_THREADS_H_
