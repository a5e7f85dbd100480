#include "hccl/testing/rank_threads.h"

#include <cstdlib>
#include <thread>

namespace ascend::hccl::testing {

void OnThreads(uint32_t n, const std::function<void(uint32_t)>& fn) {
  std::vector<std::thread> threads;
  for (uint32_t i = 0; i < n; ++i) threads.emplace_back(fn, i);
  for (std::thread& t : threads) t.join();
}

void RunRanks(uint32_t n, const std::function<void(Rank&)>& fn,
              const HcclCommConfig* config) {
  HcclRootInfo root;
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&root));
  OnThreads(n, [&](uint32_t i) {
    Rank r;
    r.rank = i;
    r.size = n;
    r.device = static_cast<int32_t>(i);
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(r.device));
    const HcclResult made =
        config == nullptr
            ? HcclCommInitRootInfo(n, &root, i, &r.comm)
            : HcclCommInitRootInfoConfig(n, &root, i, config, &r.comm);
    ASSERT_EQ(HCCL_SUCCESS, made);
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&r.stream));
    fn(r);
    EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(r.stream));
    EXPECT_EQ(HCCL_SUCCESS, HcclCommDestroy(r.comm));
  });
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&ptr_, bytes == 0 ? 1 : bytes,
                                     ACL_MEM_MALLOC_HUGE_FIRST));
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_ != nullptr) aclrtFree(ptr_);
}

ScopedEnv::ScopedEnv(const char* name, const char* value) : name_(name) {
  const char* old = std::getenv(name);
  had_ = old != nullptr;
  if (had_) old_ = old;
  if (value == nullptr) {
    unsetenv(name);
  } else {
    setenv(name, value, 1);
  }
}

ScopedEnv::~ScopedEnv() {
  if (had_) {
    setenv(name_.c_str(), old_.c_str(), 1);
  } else {
    unsetenv(name_.c_str());
  }
}

}  // namespace ascend::hccl::testing
