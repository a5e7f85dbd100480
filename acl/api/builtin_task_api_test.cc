// Built-in tasks (aclrtReduceAsync, aclrtRandomNumAsync), task ids, device
// task abort and the device-state / task-abort callbacks, through the C API.
// The call sequences mirror CANN's examples 0_reduce_task and
// 1_random_num_task.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/host_callbacks.h"
#include "testing/status_matchers.h"

namespace {

class BuiltinTaskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    for (void* p : allocations_) EXPECT_ACL_OK(aclrtFree(p));
    EXPECT_ACL_OK(aclrtDestroyStream(stream_));
    EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  }
  void* Device(size_t bytes) {
    void* p = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    allocations_.push_back(p);
    return p;
  }
  template <typename T>
  void* Upload(const std::vector<T>& values) {
    void* p = Device(values.size() * sizeof(T));
    EXPECT_ACL_OK(aclrtMemcpy(p, values.size() * sizeof(T), values.data(),
                              values.size() * sizeof(T),
                              ACL_MEMCPY_HOST_TO_DEVICE));
    return p;
  }
  template <typename T>
  std::vector<T> Download(const void* p, size_t n) {
    std::vector<T> out(n);
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), n * sizeof(T), p, n * sizeof(T),
                              ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }

  aclrtStream stream_ = nullptr;
  std::vector<void*> allocations_;
};

// --- aclrtReduceAsync ------------------------------------------------------

TEST_F(BuiltinTaskTest, ReduceSumFloatLikeTheSample) {
  const std::vector<float> in = {1, 2, 3, 4};
  void* src = Upload(in);
  void* dst = Upload(in);
  ASSERT_ACL_OK(aclrtReduceAsync(dst, src, in.size() * sizeof(float),
                                 ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT,
                                 stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Download<float>(dst, 4), (std::vector<float>{2, 4, 6, 8}));
}

TEST_F(BuiltinTaskTest, ReduceMaxMinIntegers) {
  const std::vector<int32_t> a = {5, -7, 100, 0}, b = {3, 9, -100, 0};
  void* src = Upload(b);
  void* max_dst = Upload(a);
  void* min_dst = Upload(a);
  ASSERT_ACL_OK(aclrtReduceAsync(max_dst, src, 16,
                                 ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT32,
                                 stream_, nullptr));
  ASSERT_ACL_OK(aclrtReduceAsync(min_dst, src, 16,
                                 ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_INT32,
                                 stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Download<int32_t>(max_dst, 4),
            (std::vector<int32_t>{5, 9, 100, 0}));
  EXPECT_EQ(Download<int32_t>(min_dst, 4),
            (std::vector<int32_t>{3, -7, -100, 0}));
}

TEST_F(BuiltinTaskTest, ReduceSumInt8WrapsAndInt16) {
  void* src8 = Upload(std::vector<int8_t>{100, -1, 1, 0});
  void* dst8 = Upload(std::vector<int8_t>{100, -1, 2, 0});
  ASSERT_ACL_OK(aclrtReduceAsync(dst8, src8, 4,
                                 ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT8,
                                 stream_, nullptr));
  void* src16 = Upload(std::vector<int16_t>{1000, -30000});
  void* dst16 = Upload(std::vector<int16_t>{2000, 1});
  ASSERT_ACL_OK(aclrtReduceAsync(dst16, src16, 4,
                                 ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT16,
                                 stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Download<int8_t>(dst8, 4),
            (std::vector<int8_t>{-56, -2, 3, 0}));  // 200 wraps to -56
  EXPECT_EQ(Download<int16_t>(dst16, 2), (std::vector<int16_t>{3000, -29999}));
}

TEST_F(BuiltinTaskTest, ReduceHalfAndBf16) {
  std::vector<uint16_t> h_src = {aclFloatToFloat16(1.5f),
                                 aclFloatToFloat16(-2.0f)};
  std::vector<uint16_t> h_dst = {aclFloatToFloat16(0.25f),
                                 aclFloatToFloat16(8.0f)};
  void* src = Upload(h_src);
  void* dst = Upload(h_dst);
  ASSERT_ACL_OK(aclrtReduceAsync(dst, src, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
                                 ACL_FLOAT16, stream_, nullptr));
  // bf16 1.0 = 0x3F80, 2.0 = 0x4000, 3.0 = 0x4040, -4.0 = 0xC080.
  void* bsrc = Upload(std::vector<uint16_t>{0x3F80, 0xC080});
  void* bdst = Upload(std::vector<uint16_t>{0x4000, 0x4000});
  ASSERT_ACL_OK(aclrtReduceAsync(bdst, bsrc, 4,
                                 ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_BF16,
                                 stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<uint16_t> h = Download<uint16_t>(dst, 2);
  EXPECT_EQ(aclFloat16ToFloat(h[0]), 1.75f);
  EXPECT_EQ(aclFloat16ToFloat(h[1]), 6.0f);
  EXPECT_EQ(Download<uint16_t>(bdst, 2),
            (std::vector<uint16_t>{0x4000, 0x4000}));
}

TEST_F(BuiltinTaskTest, ReduceRunsInStreamOrder) {
  // A copy enqueued before the reduction is seen by it; one after sees its
  // result.
  void* src = Upload(std::vector<float>{1, 1});
  void* dst = Upload(std::vector<float>{0, 0});
  std::vector<float> ten = {10, 10}, back(2);
  ASSERT_ACL_OK(aclrtMemcpyAsync(dst, 8, ten.data(), 8,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtReduceAsync(dst, src, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
                                 ACL_FLOAT, stream_, nullptr));
  ASSERT_ACL_OK(aclrtMemcpyAsync(back.data(), 8, dst, 8,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(back, (std::vector<float>{11, 11}));
}

TEST_F(BuiltinTaskTest, ReduceErrors) {
  void* a = Upload(std::vector<float>{1, 2});
  void* b = Upload(std::vector<float>{3, 4});
  int dummy = 0;
  const auto sum = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtReduceAsync(nullptr, b, 8, sum, ACL_FLOAT, stream_, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtReduceAsync(a, nullptr, 8, sum, ACL_FLOAT, stream_, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtReduceAsync(a, b, 8, sum, ACL_FLOAT, stream_, &dummy));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtReduceAsync(a, b, 8, static_cast<aclrtReduceKind>(9),
                                    ACL_FLOAT, stream_, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtReduceAsync(a, b, 8, sum, static_cast<aclDataType>(99),
                                    stream_, nullptr));
  // Valid values the device does not support.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtReduceAsync(a, b, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL,
                                    ACL_FLOAT, stream_, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclrtReduceAsync(a, b, 8, sum, ACL_DOUBLE, stream_, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclrtReduceAsync(a, b, 8, sum, ACL_UINT32, stream_, nullptr));
  // Host memory, past the allocation, misaligned counts.
  float host[2] = {0, 0};
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtReduceAsync(host, b, 8, sum, ACL_FLOAT, stream_, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtReduceAsync(a, b, 1 << 20, sum, ACL_FLOAT, stream_, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtReduceAsync(a, b, 6, sum, ACL_FLOAT, stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Download<float>(a, 2), (std::vector<float>{1, 2}));  // unchanged
}

TEST_F(BuiltinTaskTest, ReduceWithACopyFaultFailsTheStream) {
  void* a = Upload(std::vector<float>{1});
  void* b = Upload(std::vector<float>{2});
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_FAILS));
  ASSERT_ACL_OK(aclrtReduceAsync(a, b, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
                                 ACL_FLOAT, stream_, nullptr));
  EXPECT_NE(0, aclrtSynchronizeStream(stream_));
  EXPECT_NE(0, aclrtSynchronizeDevice());  // the device reader's copy
}

// --- aclrtRandomNumAsync ---------------------------------------------------

void SetParam(aclrtRandomParaInfo* p, const void* value, uint8_t size) {
  std::memset(p, 0, sizeof *p);
  std::memcpy(p->valueOrAddr, value, size);
  p->size = size;
  p->isAddr = 0;
}

void SetAddrParam(aclrtRandomParaInfo* p, void* addr) {
  std::memset(p, 0, sizeof *p);
  std::memcpy(p->valueOrAddr, &addr, sizeof addr);
  p->size = sizeof addr;
  p->isAddr = 1;
}

aclrtRandomNumTaskInfo TaskInfo(aclDataType type, aclrtRandomNumFuncType func,
                                uint64_t seed, uint64_t num, void* counter,
                                void* result) {
  aclrtRandomNumTaskInfo info;
  std::memset(&info, 0, sizeof info);
  info.dataType = type;
  info.randomNumFuncParaInfo.funcType = func;
  info.randomCounterAddr = counter;
  info.randomResultAddr = result;
  SetParam(&info.randomSeed, &seed, sizeof seed);
  SetParam(&info.randomNum, &num, sizeof num);
  return info;
}

class RandomTest : public BuiltinTaskTest {
 protected:
  void SetUp() override {
    BuiltinTaskTest::SetUp();
    counter_ = Device(16);
    result_ = Device(kNum * sizeof(uint64_t));
    ResetCounter();
  }
  void ResetCounter() { ASSERT_ACL_OK(aclrtMemset(counter_, 16, 0, 16)); }
  aclrtRandomNumTaskInfo Uniform(float lo, float hi, uint64_t seed) {
    aclrtRandomNumTaskInfo info =
        TaskInfo(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, seed, kNum,
                 counter_, result_);
    SetParam(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
    SetParam(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
    return info;
  }
  std::vector<float> RunFloat(const aclrtRandomNumTaskInfo& info) {
    EXPECT_ACL_OK(aclrtRandomNumAsync(&info, stream_, nullptr));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
    return Download<float>(result_, kNum);
  }

  static constexpr uint64_t kNum = 4096;
  void* counter_ = nullptr;
  void* result_ = nullptr;
};

double Mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / v.size();
}
double StdDev(const std::vector<double>& v) {
  const double m = Mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / v.size());
}
template <typename T>
std::vector<double> AsDouble(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

TEST_F(RandomTest, UniformFloatIsInRangeAndReproducible) {
  const std::vector<float> first = RunFloat(Uniform(1.0f, 3.0f, 7));
  for (float x : first) {
    ASSERT_GE(x, 1.0f);
    ASSERT_LT(x, 3.0f);
  }
  EXPECT_NEAR(Mean(AsDouble(first)), 2.0, 0.05);
  EXPECT_NEAR(StdDev(AsDouble(first)), 2.0 / std::sqrt(12.0), 0.03);
  // The counter advanced: the next draw differs ...
  const std::vector<float> second = RunFloat(Uniform(1.0f, 3.0f, 7));
  EXPECT_NE(first, second);
  // ... and resetting it (same seed) reproduces the first.
  ResetCounter();
  EXPECT_EQ(RunFloat(Uniform(1.0f, 3.0f, 7)), first);
  // Another seed gives other numbers.
  ResetCounter();
  EXPECT_NE(RunFloat(Uniform(1.0f, 3.0f, 8)), first);
}

TEST_F(RandomTest, CounterAdvancesByTheNumberOfResults) {
  RunFloat(Uniform(0.0f, 1.0f, 1));
  std::vector<uint64_t> ctr = Download<uint64_t>(counter_, 2);
  EXPECT_EQ(ctr[0], kNum);
  EXPECT_EQ(ctr[1], 0u);
}

TEST_F(RandomTest, NormalFloatLikeTheSample) {
  aclrtRandomNumTaskInfo info =
      TaskInfo(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 0, kNum,
               counter_, result_);
  const float mean = 3.0f, stddev = 2.0f;
  SetParam(&info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean, 4);
  SetParam(&info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &stddev,
           4);
  const std::vector<double> v = AsDouble(RunFloat(info));
  EXPECT_NEAR(Mean(v), 3.0, 0.1);
  EXPECT_NEAR(StdDev(v), 2.0, 0.1);
}

TEST_F(RandomTest, TruncatedNormalBf16StaysWithinTwoStddev) {
  aclrtRandomNumTaskInfo info =
      TaskInfo(ACL_BF16, ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, 0,
               kNum, counter_, result_);
  const uint16_t mean = 0x3F80, stddev = 0x4000;  // bf16 1.0, 2.0
  SetParam(&info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean, 2);
  SetParam(&info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &stddev,
           2);
  ASSERT_ACL_OK(aclrtRandomNumAsync(&info, stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<double> v;
  for (uint16_t bits : Download<uint16_t>(result_, kNum)) {
    uint32_t w = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &w, 4);
    v.push_back(f);
  }
  for (double x : v) {
    ASSERT_GE(x, 1.0 - 4.0 - 0.05);
    ASSERT_LE(x, 1.0 + 4.0 + 0.05);
  }
  EXPECT_NEAR(Mean(v), 1.0, 0.15);
  // A normal truncated at +-2 sigma has stddev ~0.88 sigma.
  EXPECT_NEAR(StdDev(v), 2.0 * 0.88, 0.12);
}

TEST_F(RandomTest, UniformFp16AndIntegers) {
  aclrtRandomNumTaskInfo info =
      TaskInfo(ACL_FLOAT16, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 0, kNum,
               counter_, result_);
  const uint16_t lo = 0x3C00, hi = 0x4000;  // fp16 1.0, 2.0
  SetParam(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 2);
  SetParam(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 2);
  ASSERT_ACL_OK(aclrtRandomNumAsync(&info, stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  for (uint16_t h : Download<uint16_t>(result_, kNum)) {
    ASSERT_GE(aclFloat16ToFloat(h), 1.0f);
    ASSERT_LE(aclFloat16ToFloat(h), 2.0f);
  }

  info = TaskInfo(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 0, kNum,
                  counter_, result_);
  const int32_t imin = 1, imax = 100;
  SetParam(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &imin, 4);
  SetParam(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &imax, 4);
  ASSERT_ACL_OK(aclrtRandomNumAsync(&info, stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<int32_t> ints = Download<int32_t>(result_, kNum);
  EXPECT_EQ(*std::min_element(ints.begin(), ints.end()), 1);
  EXPECT_EQ(*std::max_element(ints.begin(), ints.end()), 99);
  EXPECT_NEAR(Mean(AsDouble(ints)), 50.0, 2.0);

  info = TaskInfo(ACL_UINT64, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 0, kNum,
                  counter_, result_);
  const uint64_t umin = uint64_t{1} << 40, umax = (uint64_t{1} << 40) + 10;
  SetParam(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &umin, 8);
  SetParam(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &umax, 8);
  ASSERT_ACL_OK(aclrtRandomNumAsync(&info, stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  for (uint64_t u : Download<uint64_t>(result_, kNum)) {
    ASSERT_GE(u, umin);
    ASSERT_LT(u, umax);
  }
}

TEST_F(RandomTest, DropoutBitmaskKeepsOneMinusRatio) {
  aclrtRandomNumTaskInfo info =
      TaskInfo(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, 0, kNum,
               counter_, result_);
  const float ratio = 0.4f;
  SetParam(
      &info.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation,
      &ratio, 4);
  ASSERT_ACL_OK(aclrtMemset(result_, kNum * 8, 0xAB, kNum * 8));
  ASSERT_ACL_OK(aclrtRandomNumAsync(&info, stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<uint8_t> bytes = Download<uint8_t>(result_, kNum / 8 + 1);
  int kept = 0;
  for (size_t i = 0; i < kNum / 8; ++i) kept += __builtin_popcount(bytes[i]);
  EXPECT_NEAR(kept / static_cast<double>(kNum), 0.6, 0.03);
  EXPECT_EQ(bytes[kNum / 8], 0xAB);  // nothing written past the mask
}

TEST_F(RandomTest, ParametersByDeviceAddress) {
  const float lo = 5.0f, hi = 6.0f;
  void* dlo = Upload(std::vector<float>{lo});
  void* dhi = Upload(std::vector<float>{hi});
  const uint64_t n = 16, seed = 3;
  void* dnum = Upload(std::vector<uint64_t>{n});
  void* dseed = Upload(std::vector<uint64_t>{seed});
  aclrtRandomNumTaskInfo info = Uniform(0, 0, 0);
  SetAddrParam(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, dlo);
  SetAddrParam(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, dhi);
  SetAddrParam(&info.randomNum, dnum);
  SetAddrParam(&info.randomSeed, dseed);
  ASSERT_ACL_OK(aclrtMemset(result_, kNum * 8, 0, kNum * 8));
  const std::vector<float> v = RunFloat(info);
  for (uint64_t i = 0; i < n; ++i) {
    EXPECT_GE(v[i], lo);
    EXPECT_LT(v[i], hi);
  }
  EXPECT_EQ(v[n], 0.0f);  // only randomNum results
  // Same as by value.
  ResetCounter();
  aclrtRandomNumTaskInfo by_value = Uniform(lo, hi, seed);
  uint64_t n_value = n;
  SetParam(&by_value.randomNum, &n_value, 8);
  const std::vector<float> w = RunFloat(by_value);
  EXPECT_EQ(std::vector<float>(v.begin(), v.begin() + n),
            std::vector<float>(w.begin(), w.begin() + n));
}

TEST_F(RandomTest, Errors) {
  int dummy;
  aclrtRandomNumTaskInfo ok = Uniform(0, 1, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRandomNumAsync(nullptr, stream_, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRandomNumAsync(&ok, stream_, &dummy));
  aclrtRandomNumTaskInfo bad = ok;
  bad.dataType = static_cast<aclDataType>(99);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  bad = ok;
  bad.randomNumFuncParaInfo.funcType = static_cast<aclrtRandomNumFuncType>(7);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  bad = ok;  // normal distribution of integers
  bad.dataType = ACL_INT32;
  bad.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  bad = ok;
  bad.dataType = ACL_DOUBLE;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  bad = ok;
  bad.randomCounterAddr = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  bad = ok;
  bad.randomResultAddr = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  bad = ok;
  bad.randomSeed.isAddr = 2;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  bad = ok;
  bad.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.size = 8;  // > fp32
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  bad = ok;
  bad.randomNum.size = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  float host[4];
  bad = ok;
  bad.randomResultAddr = host;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  bad = ok;  // more results than the buffer holds
  const uint64_t huge = kNum * 4;
  SetParam(&bad.randomNum, &huge, 8);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRandomNumAsync(&bad, stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Download<uint64_t>(counter_, 2), (std::vector<uint64_t>{0, 0}));
}

// --- Task ids ---------------------------------------------------------------

TEST_F(BuiltinTaskTest, ThreadLastTaskIdCountsThisThreadsTasks) {
  void* a = Device(64);
  void* b = Device(64);  // the other stream's: no two streams write one
  aclrtStream other;
  ASSERT_ACL_OK(aclrtCreateStream(&other));
  uint32_t first = 0, second = 0, third = 0;
  ASSERT_ACL_OK(aclrtMemsetAsync(a, 64, 0, 64, stream_));
  ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&first));
  ASSERT_ACL_OK(aclrtMemsetAsync(a, 64, 1, 64, stream_));
  ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&second));
  EXPECT_EQ(second, first + 1);  // per-stream ids, in order
  ASSERT_ACL_OK(aclrtMemsetAsync(b, 64, 2, 64, other));
  ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&third));
  EXPECT_EQ(third, 0u);  // the other stream's first task
  // Another thread's tasks do not move this thread's id.
  std::thread([&] {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtMemsetAsync(a, 64, 3, 64, stream_));
    uint32_t id = 99;
    ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&id));
    EXPECT_EQ(id, second + 1);
    ASSERT_ACL_OK(aclrtResetDevice(0));
  }).join();
  uint32_t again = 0;
  ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&again));
  EXPECT_EQ(again, third);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetThreadLastTaskId(nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(other));
  ASSERT_ACL_OK(aclrtDestroyStream(other));
}

// --- Device task abort -----------------------------------------------------

struct AbortLog {
  std::vector<std::pair<int32_t, int>> calls;
  int32_t ret = 0;
  uint32_t timeout = 0;
};

int32_t RecordAbort(int32_t device, aclrtDeviceTaskAbortStage stage,
                    uint32_t timeout, void* args) {
  auto* log = static_cast<AbortLog*>(args);
  log->calls.emplace_back(device, static_cast<int>(stage));
  log->timeout = timeout;
  return log->ret;
}

TEST_F(BuiltinTaskTest, DeviceTaskAbortDiscardsPendingWork) {
  AbortLog log;
  ASSERT_ACL_OK(
      aclrtSetDeviceTaskAbortCallback("abort-test", RecordAbort, &log));
  // A value wait that never completes holds the stream; the tasks behind
  // it must be discarded, and the wait must give up.
  void* flag = Upload(std::vector<uint64_t>{0});
  void* data = Upload(std::vector<uint32_t>{7});
  ASSERT_ACL_OK(aclrtValueWait(flag, 1, 0, stream_));
  ASSERT_ACL_OK(aclrtMemsetAsync(data, 4, 0, 4, stream_));
  ASSERT_ACL_OK(aclrtDeviceTaskAbort(0, 5000));
  EXPECT_EQ(log.calls, (std::vector<std::pair<int32_t, int>>{
                           {0, ACL_RT_DEVICE_TASK_ABORT_PRE},
                           {0, ACL_RT_DEVICE_TASK_ABORT_POST}}));
  EXPECT_EQ(log.timeout, 5000u);
  (void)aclrtSynchronizeStream(stream_);  // the wait's cancellation, if any
  EXPECT_EQ(Download<uint32_t>(data, 1)[0], 7u);  // memset discarded
  // The stream still works.
  ASSERT_ACL_OK(aclrtMemsetAsync(data, 4, 0, 4, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Download<uint32_t>(data, 1)[0], 0u);
  (void)aclrtSynchronizeDevice();
  // A failing callback stops the abort with its code.
  log.calls.clear();
  log.ret = ACL_ERROR_RT_PARAM_INVALID;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDeviceTaskAbort(0, 0));
  EXPECT_EQ(log.calls.size(), 1u);
  // Duplicate names, removal, bad names.
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtSetDeviceTaskAbortCallback("abort-test", RecordAbort, &log));
  ASSERT_ACL_OK(
      aclrtSetDeviceTaskAbortCallback("abort-test", nullptr, nullptr));
  log.calls.clear();
  ASSERT_ACL_OK(aclrtDeviceTaskAbort(0, 0));
  EXPECT_TRUE(log.calls.empty());
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceTaskAbortCallback(
                                                nullptr, RecordAbort, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetDeviceTaskAbortCallback("", RecordAbort, nullptr));
  // Bad device, device not set, timeout past 36 minutes.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceTaskAbort(999, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceTaskAbort(0, 36u * 60u * 1000u + 1));
}

// --- Device state callbacks ------------------------------------------------

struct StateLog {
  std::vector<std::pair<int32_t, int>> calls;
};

void RecordState(int32_t device, aclrtDeviceState state, void* args) {
  static_cast<StateLog*>(args)->calls.emplace_back(device,
                                                   static_cast<int>(state));
}

TEST(DeviceStateCallbackTest, CalledAroundOpenAndClose) {
  StateLog log;
  ASSERT_ACL_OK(aclrtRegDeviceStateCallback("state-test", RecordState, &log));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtSetDevice(1));    // already open: no notification
  ASSERT_ACL_OK(aclrtResetDevice(1));  // still referenced: none either
  ASSERT_ACL_OK(aclrtResetDevice(1));
  EXPECT_EQ(log.calls, (std::vector<std::pair<int32_t, int>>{
                           {1, ACL_RT_DEVICE_STATE_SET_PRE},
                           {1, ACL_RT_DEVICE_STATE_SET_POST},
                           {1, ACL_RT_DEVICE_STATE_RESET_PRE},
                           {1, ACL_RT_DEVICE_STATE_RESET_POST}}));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtRegDeviceStateCallback("state-test", RecordState, &log));
  ASSERT_ACL_OK(aclrtRegDeviceStateCallback("state-test", nullptr, nullptr));
  log.calls.clear();
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtResetDeviceForce(1));
  EXPECT_TRUE(log.calls.empty());
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRegDeviceStateCallback(nullptr, RecordState, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRegDeviceStateCallback("", RecordState, nullptr));
}

// --- Snapshot ----------------------------------------------------------------

TEST_F(BuiltinTaskTest, ReductionResultsSurviveASnapshot) {
  void* src = Upload(std::vector<float>{1, 2});
  void* dst = Upload(std::vector<float>{3, 4});
  ASSERT_ACL_OK(aclrtReduceAsync(dst, src, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
                                 ACL_FLOAT, stream_, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Download<float>(dst, 2), (std::vector<float>{4, 6}));
  // And the stream's task ids continue where they were.
  uint32_t before = 0, after = 0;
  ASSERT_ACL_OK(aclrtMemsetAsync(dst, 8, 0, 8, stream_));
  ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&before));
  ASSERT_ACL_OK(aclrtMemsetAsync(dst, 8, 0, 8, stream_));
  ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&after));
  EXPECT_EQ(after, before + 1);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
}

}  // namespace
