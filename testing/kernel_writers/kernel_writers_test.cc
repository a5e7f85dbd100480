// Kernels as writers after a Backup (DESIGN.md §4.14): an aclnn operator
// and AscendC kernels (DataCopy to global memory, SetValue, a reference
// store) write through the device's write target, taking no write-tracking
// fault. What they write must still reach the next, incremental Backup:
// each case ends with a memory loss and a Restore, and every byte is
// compared with what the writers wrote.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_add.h"
#include "aclsim/aclsim.h"
#include "ascendcl/snapshot.h"
#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "nlohmann/json.hpp"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace {

using ascend::testing::Backup;
using ascend::testing::Lock;
using ascend::testing::Restore;
using ascend::testing::Unlock;

constexpr int64_t kElements = 1 << 20;  // 4 MiB of float
constexpr uint32_t kBlocks = 8;
constexpr uint32_t kTile = 4096;

// dst[i] = src[i] * 2 + 1 over the block's part, by DataCopy to GM.
extern "C" __global__ __aicore__ void writers_scale(GM_ADDR src, GM_ADDR dst,
                                                    uint32_t per_block) {
  const uint64_t start = uint64_t{per_block} * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<float> in, out;
  in.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(src) + start, per_block);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(dst) + start, per_block);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> qin;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> qout;
  pipe.InitBuffer(qin, 1, kTile * sizeof(float));
  pipe.InitBuffer(qout, 1, kTile * sizeof(float));
  for (uint32_t t = 0; t < per_block / kTile; ++t) {
    AscendC::LocalTensor<float> a = qin.AllocTensor<float>();
    AscendC::DataCopy(a, in[t * kTile], kTile);
    qin.EnQue(a);
    a = qin.DeQue<float>();
    AscendC::LocalTensor<float> b = qout.AllocTensor<float>();
    AscendC::Muls(b, a, 2.0f, kTile);
    AscendC::Adds(b, b, 1.0f, kTile);
    qout.EnQue(b);
    qin.FreeTensor(a);
    b = qout.DeQue<float>();
    AscendC::DataCopy(out[t * kTile], b, kTile);
    qout.FreeTensor(b);
  }
}

// Scattered single stores: SetValue at every stride-th element of the
// block's part, and a store through a reference one element after it.
extern "C" __global__ __aicore__ void writers_scatter(GM_ADDR dst,
                                                      uint32_t per_block,
                                                      uint32_t stride) {
  const uint64_t start = uint64_t{per_block} * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<int32_t> out;
  out.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(dst) + start,
                      per_block);
  for (uint32_t i = 0; i + 1 < per_block; i += stride) {
    out.SetValue(i, static_cast<int32_t>(start + i));
    out(i + 1) = -static_cast<int32_t>(start + i);
  }
}

class KernelWritersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    for (void *p : allocations_) EXPECT_ACL_OK(aclrtFree(p));
    EXPECT_ACL_OK(aclrtDestroyStream(stream_));
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclFinalize());
  }
  template <typename T>
  void *Upload(const std::vector<T> &host) {
    void *p = nullptr;
    const size_t bytes = host.size() * sizeof(T);
    EXPECT_ACL_OK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_ACL_OK(
        aclrtMemcpy(p, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    allocations_.push_back(p);
    return p;
  }
  template <typename T>
  std::vector<T> Download(const void *p, size_t count) {
    std::vector<T> host(count);
    const size_t bytes = count * sizeof(T);
    EXPECT_ACL_OK(
        aclrtMemcpy(host.data(), bytes, p, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    return host;
  }
  nlohmann::json Report() {
    size_t needed = 0;
    (void)ascendclSnapshotGetReport(nullptr, 0, &needed);
    std::string json(needed, '\0');
    EXPECT_ACL_OK(ascendclSnapshotGetReport(json.data(), json.size(), &needed));
    json.resize(needed - 1);
    return nlohmann::json::parse(json);
  }
  // The first Backup: its write-tracking period begins.
  void Checkpoint() {
    ASSERT_ACL_OK(Lock());
    ASSERT_ACL_OK(Backup());
    ASSERT_ACL_OK(Unlock());
  }
  // Backup, memory loss, Restore: the device holds what the Backup saw.
  void BackupLoseRestore() {
    ASSERT_ACL_OK(Lock());
    ASSERT_ACL_OK(Backup());
    report_ = Report();
    ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    ASSERT_ACL_OK(Restore());
    ASSERT_ACL_OK(Unlock());
  }

  aclrtStream stream_ = nullptr;
  std::vector<void *> allocations_;
  nlohmann::json report_;
};

TEST_F(KernelWritersTest, AscendCDataCopyReachesTheIncrementalBackup) {
  std::vector<float> x(kElements), y(kElements, 0.0f);
  for (int64_t i = 0; i < kElements; ++i) x[i] = static_cast<float>(i % 1000);
  void *dx = Upload(x);
  void *dy = Upload(y);
  void *untouched = Upload(std::vector<float>(kElements, 3.0f));
  Checkpoint();
  const uint32_t per_block = kElements / kBlocks;
  ASSERT_ACL_OK(::AscendC::Sim::Launcher<&writers_scale>(
      "writers_scale", kBlocks, nullptr, stream_)(
      static_cast<uint8_t *>(dx), static_cast<uint8_t *>(dy), per_block));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  BackupLoseRestore();
  EXPECT_EQ(report_["mode"], "incremental") << report_.dump();
  // What the kernel wrote (dy), nothing of the others.
  EXPECT_EQ(report_["bytes_copied"].get<uint64_t>(), kElements * sizeof(float))
      << report_.dump();
  const std::vector<float> got = Download<float>(dy, kElements);
  for (int64_t i = 0; i < kElements; ++i) {
    ASSERT_EQ(got[i], x[i] * 2.0f + 1.0f) << i;
  }
  EXPECT_EQ(Download<float>(untouched, kElements),
            std::vector<float>(kElements, 3.0f));
}

TEST_F(KernelWritersTest, AscendCSingleStoresReachTheIncrementalBackup) {
  constexpr uint32_t kStride = 70000;  // about one store per 256 KiB
  void *d = Upload(std::vector<int32_t>(kElements, 7));
  Checkpoint();
  const uint32_t per_block = kElements / kBlocks;
  ASSERT_ACL_OK(::AscendC::Sim::Launcher<&writers_scatter>(
      "writers_scatter", kBlocks, nullptr, stream_)(static_cast<uint8_t *>(d),
                                                    per_block, kStride));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  BackupLoseRestore();
  EXPECT_EQ(report_["mode"], "incremental") << report_.dump();
  // Each store's 64 KiB granule at most, not the whole allocation.
  EXPECT_LT(report_["bytes_copied"].get<uint64_t>(), kElements * 4 / 2)
      << report_.dump();
  std::vector<int32_t> want(kElements, 7);
  for (uint32_t b = 0; b < kBlocks; ++b) {
    const uint64_t start = uint64_t{per_block} * b;
    for (uint32_t i = 0; i + 1 < per_block; i += kStride) {
      want[start + i] = static_cast<int32_t>(start + i);
      want[start + i + 1] = -static_cast<int32_t>(start + i);
    }
  }
  EXPECT_TRUE(Download<int32_t>(d, kElements) == want);
}

aclTensor *Tensor(void *data, int64_t n) {
  const int64_t shape[1] = {n};
  const int64_t strides[1] = {1};
  return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape,
                         1, data);
}

TEST_F(KernelWritersTest, AnOperatorsOutputReachesTheIncrementalBackup) {
  std::vector<float> a(kElements), b(kElements);
  for (int64_t i = 0; i < kElements; ++i) {
    a[i] = static_cast<float>(i % 97);
    b[i] = static_cast<float>(i % 13);
  }
  void *da = Upload(a);
  void *db = Upload(b);
  void *dout = Upload(std::vector<float>(kElements, 0.0f));
  Checkpoint();
  aclTensor *ta = Tensor(da, kElements);
  aclTensor *tb = Tensor(db, kElements);
  aclTensor *tout = Tensor(dout, kElements);
  const float one = 1.0f;
  aclScalar *alpha = aclCreateScalar(const_cast<float *>(&one), ACL_FLOAT);
  uint64_t workspace_size = 0;
  aclOpExecutor *executor = nullptr;
  ASSERT_EQ(
      aclnnAddGetWorkspaceSize(ta, tb, alpha, tout, &workspace_size, &executor),
      0);
  void *workspace = nullptr;
  if (workspace_size > 0) {
    ASSERT_ACL_OK(
        aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  ASSERT_EQ(aclnnAdd(workspace, workspace_size, executor, stream_), 0);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  if (workspace != nullptr) {
    ASSERT_ACL_OK(aclrtFree(workspace));
  }
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tout);
  aclDestroyScalar(alpha);
  BackupLoseRestore();
  EXPECT_EQ(report_["mode"], "incremental") << report_.dump();
  EXPECT_EQ(report_["bytes_copied"].get<uint64_t>(), kElements * sizeof(float))
      << report_.dump();
  const std::vector<float> got = Download<float>(dout, kElements);
  for (int64_t i = 0; i < kElements; ++i) ASSERT_EQ(got[i], a[i] + b[i]) << i;
  EXPECT_EQ(Download<float>(da, kElements), a);
}

}  // namespace
