// kernel_operator.h's launches on the simulator runtime: the code a rewritten
// `kernel<<<blocks, nullptr, stream>>>(args)` runs (Launcher), blocks in
// parallel on simulated cores, the kernel's printf on stdout, and a trap
// failing its task with 507016.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"

namespace {

constexpr uint32_t kBlocks = 8;
constexpr uint32_t kPerBlock = 512;
constexpr uint32_t kTile = 64;

extern "C" __global__ __aicore__ void launch_test_vadd(GM_ADDR x, GM_ADDR y,
                                                       GM_ADDR z) {
  const int64_t start = kPerBlock * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + start, kPerBlock);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + start, kPerBlock);
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + start, kPerBlock);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> inX, inY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outZ;
  pipe.InitBuffer(inX, 2, kTile * sizeof(float));
  pipe.InitBuffer(inY, 2, kTile * sizeof(float));
  pipe.InitBuffer(outZ, 2, kTile * sizeof(float));
  for (uint32_t t = 0; t < kPerBlock / kTile; ++t) {
    AscendC::LocalTensor<float> a = inX.AllocTensor<float>();
    AscendC::LocalTensor<float> b = inY.AllocTensor<float>();
    AscendC::DataCopy(a, xGm[t * kTile], kTile);
    AscendC::DataCopy(b, yGm[t * kTile], kTile);
    inX.EnQue(a);
    inY.EnQue(b);
    a = inX.DeQue<float>();
    b = inY.DeQue<float>();
    AscendC::LocalTensor<float> c = outZ.AllocTensor<float>();
    AscendC::Add(c, a, b, kTile);
    outZ.EnQue(c);
    inX.FreeTensor(a);
    inY.FreeTensor(b);
    c = outZ.DeQue<float>();
    AscendC::DataCopy(zGm[t * kTile], c, kTile);
    outZ.FreeTensor(c);
  }
}

extern "C" __global__ __aicore__ void launch_test_print(int32_t tag) {
  AscendC::printf("launch_test_print %d: block %d of %d\n", tag,
                  static_cast<int>(block_idx), static_cast<int>(block_num));
}

extern "C" __global__ __aicore__ void launch_test_trap(__gm__ uint32_t *marks) {
  marks[block_idx] = 1;
  if (block_idx == 1) ::AscendC::Sim::Trap();  // what asm("trap") becomes
  marks[block_idx] = 2;
}

class KernelLaunchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }
  aclrtStream stream_ = nullptr;
};

TEST_F(KernelLaunchTest, VectorAddOverParallelBlocks) {
  const uint32_t n = kBlocks * kPerBlock;
  const size_t bytes = n * sizeof(float);
  std::vector<float> x(n), y(n), z(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 7.0f - i;
  }
  void *dx = nullptr, *dy = nullptr, *dz = nullptr;
  ASSERT_EQ(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  // launch_test_vadd<<<kBlocks, nullptr, stream_>>>(dx, dy, dz), rewritten.
  EXPECT_EQ(::AscendC::Sim::Launcher<&launch_test_vadd>(
                "launch_test_vadd", kBlocks, nullptr, stream_)(
                static_cast<uint8_t *>(dx), static_cast<uint8_t *>(dy),
                static_cast<uint8_t *>(dz)),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;

  // The launch registered the kernel under its symbol and name.
  aclrtFuncHandle func = nullptr;
  ASSERT_EQ(aclrtGetFuncBySymbol(
                reinterpret_cast<const void *>(&launch_test_vadd), &func),
            ACL_SUCCESS);
  char name[64] = "";
  ASSERT_EQ(aclrtGetFunctionName(func, sizeof name, name), ACL_SUCCESS);
  EXPECT_STREQ(name, "launch_test_vadd");
  EXPECT_EQ(aclrtFree(dx), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dy), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dz), ACL_SUCCESS);
}

TEST_F(KernelLaunchTest, PrintfReachesStdoutBlockByBlock) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(::AscendC::Sim::Launcher<&launch_test_print>("launch_test_print", 4,
                                                         nullptr, stream_)(42),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::fflush(stdout);
  const std::string out = testing::internal::GetCapturedStdout();
  std::string expected;
  for (int b = 0; b < 4; ++b) {
    expected += "launch_test_print 42: block " + std::to_string(b) + " of 4\n";
  }
  EXPECT_EQ(out, expected);
}

TEST_F(KernelLaunchTest, TrapFailsTheTaskWithTheTrapCode) {
  void *marks = nullptr;
  ASSERT_EQ(
      aclrtMalloc(&marks, 4 * sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST),
      ACL_SUCCESS);
  EXPECT_EQ(::AscendC::Sim::Launcher<&launch_test_trap>(
                "launch_test_trap", 4, nullptr,
                stream_)(static_cast<uint32_t *>(marks)),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), 507016);
  uint32_t host[4] = {};
  ASSERT_EQ(aclrtMemcpy(host, sizeof host, marks, sizeof host,
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(host[1], 1u);  // the trapping block ended at its trap
  EXPECT_EQ(aclrtFree(marks), ACL_SUCCESS);
}

}  // namespace
