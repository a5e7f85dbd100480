// The binary arithmetic operators against a float64 reference, and the
// rules of their pages in hicann/ops-math: math/add/docs/aclnnAdd&
// aclnnInplaceAdd.md, aclnnAdds.md, math/sub/docs/aclnnSub&aclnnInplaceSub.md,
// math/mul/docs/aclnnMul&aclnnInplaceMul.md, math/div/docs/aclnnDiv&
// aclnnInplaceDiv.md, math/maximum/docs/aclnnMaximum.md,
// math/minimum/docs/aclnnMinimum.md (the parameter tables, the error-code
// tables, and the promotion, conversion and broadcast rules of
// docs/zh/context/). Plus: an operator captured into a model replays, and a
// snapshot between two operators restores to the same results.
#include <unistd.h>

#include <cmath>
#include <limits>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

class ArithOps : public OpTest {
 protected:
  aclScalar* Scalar(double v, aclDataType t) {
    unsigned char b[8] = {};
    EncodeValue(v, t, b);
    scalars_.push_back(aclCreateScalar(b, t));
    return scalars_.back();
  }
  void TearDown() override {
    for (aclScalar* s : scalars_) aclDestroyScalar(s);
    OpTest::TearDown();
  }
  int Add(const DeviceTensor& a, const DeviceTensor& b, aclScalar* alpha,
          const DeviceTensor& out) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha, out.get(),
                                          ws, e);
        },
        aclnnAdd);
  }
  std::vector<aclScalar*> scalars_;
};

std::vector<double> Iota(int n, double start = 0, double step = 1) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = start + step * i;
  return v;
}

// out = self + alpha * other for every type the page lists for Atlas A2
// (complex excepted), rounded as the output type rounds.
TEST_F(ArithOps, AddEveryListedTypeMatchesTheReference) {
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                        ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
    SCOPED_TRACE(t);
    const std::vector<double> a = Iota(37, -5, 0.75);
    const std::vector<double> b = Iota(37, 3, -0.5);
    std::vector<double> ra(37), rb(37), want(37);
    for (int i = 0; i < 37; ++i) {
      ra[i] = RoundTo(a[i], t);
      rb[i] = RoundTo(b[i], t);
    }
    const bool integral =
        t != ACL_FLOAT && t != ACL_FLOAT16 && t != ACL_BF16 && t != ACL_DOUBLE;
    const double alpha = integral ? 2 : 1.5;
    for (int i = 0; i < 37; ++i) want[i] = RoundTo(ra[i] + alpha * rb[i], t);
    DeviceTensor x({37}, t, ra), y({37}, t, rb),
        out({37}, t, std::vector<double>(37));
    ASSERT_EQ(Add(x, y, Scalar(alpha, integral ? ACL_INT64 : ACL_FLOAT), out),
              0);
    ExpectNear(out.Read(), want, t);
  }
  // bool + bool is a logical or.
  DeviceTensor x({4}, ACL_BOOL, {0, 1, 0, 1}), y({4}, ACL_BOOL, {0, 0, 1, 1});
  DeviceTensor out({4}, ACL_BOOL, {0, 0, 0, 0});
  ASSERT_EQ(Add(x, y, Scalar(1, ACL_BOOL), out), 0);
  ExpectNear(out.Read(), {0, 1, 1, 1}, ACL_BOOL);
}

// Integer arithmetic wraps as the hardware's does.
TEST_F(ArithOps, IntegerAddWraps) {
  DeviceTensor x({2}, ACL_INT8, {127, -128}), y({2}, ACL_INT8, {1, -1});
  DeviceTensor out({2}, ACL_INT8, {0, 0});
  ASSERT_EQ(Add(x, y, Scalar(1, ACL_INT32), out), 0);
  ExpectNear(out.Read(), {-128, 127}, ACL_INT8);
}

// broadcast_relationship.md: shapes align right, size-1 dimensions stretch.
TEST_F(ArithOps, AddBroadcasts) {
  DeviceTensor x({2, 1, 3}, ACL_FLOAT, Iota(6));
  DeviceTensor y({4, 1}, ACL_FLOAT, Iota(4, 100, 100));
  DeviceTensor out({2, 4, 3}, ACL_FLOAT, std::vector<double>(24));
  ASSERT_EQ(Add(x, y, Scalar(1, ACL_FLOAT), out), 0);
  std::vector<double> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) want.push_back(i * 3 + k + 100 * (j + 1));
  ExpectNear(out.Read(), want, ACL_FLOAT);
}

// Non-contiguous views (the pages' 非连续Tensor column): a transposed input
// with a storage offset, and a strided output.
TEST_F(ArithOps, AddReadsAndWritesStridedViews) {
  // x: the transpose of a 3x2 matrix stored after 1 element of padding.
  DeviceTensor x({2, 3}, {1, 2}, 1, ACL_FLOAT, {-1, 0, 1, 2, 3, 4, 5});
  DeviceTensor y({2, 3}, ACL_FLOAT, Iota(6, 10, 10));
  // out: every other element of a 12-element storage.
  DeviceTensor out({2, 3}, {6, 2}, 0, ACL_FLOAT, std::vector<double>(12, -7));
  ASSERT_EQ(Add(x, y, Scalar(1, ACL_FLOAT), out), 0);
  // x row-major is {0, 2, 4, 1, 3, 5}.
  ExpectNear(out.Read(), {10, 22, 34, 41, 53, 65}, ACL_FLOAT);
  const std::vector<double> storage = out.ReadStorage();
  EXPECT_EQ(storage[1], -7);  // the gaps are untouched
  EXPECT_EQ(storage[11], -7);
}

// deduction_relationship.md: FLOAT16 with FLOAT computes in FLOAT; INT32
// with BOOL in INT32; conversion_relationship.md: the result converts to
// the output's type.
TEST_F(ArithOps, AddPromotesMixedTypes) {
  DeviceTensor x({3}, ACL_FLOAT16, {0.5, 1.5, 2.5});
  DeviceTensor y({3}, ACL_FLOAT, {0.25, 0.25, 0.25});
  DeviceTensor out({3}, ACL_FLOAT, {0, 0, 0});
  ASSERT_EQ(Add(x, y, Scalar(1, ACL_FLOAT), out), 0);
  ExpectNear(out.Read(), {0.75, 1.75, 2.75}, ACL_FLOAT);
  DeviceTensor i({3}, ACL_INT32, {1, 2, 3}), b({3}, ACL_BOOL, {1, 0, 1});
  DeviceTensor f({3}, ACL_FLOAT16, {0, 0, 0});
  ASSERT_EQ(Add(i, b, Scalar(1, ACL_INT32), f), 0);  // INT32 -> FLOAT16 out
  ExpectNear(f.Read(), {2, 2, 4}, ACL_FLOAT16);
}

// aclnnAdd's error table.
TEST_F(ArithOps, AddRefusesWhatThePageRefuses) {
  DeviceTensor x({2, 3}, ACL_FLOAT, Iota(6)), y({3}, ACL_FLOAT, Iota(3));
  DeviceTensor out({2, 3}, ACL_FLOAT, Iota(6));
  aclScalar* alpha = Scalar(1, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  // 161001: self, other, alpha or out null (and the two outputs).
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(nullptr, y.get(), alpha, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(x.get(), nullptr, alpha, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(x.get(), y.get(), nullptr, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(x.get(), y.get(), alpha, nullptr, &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(x.get(), y.get(), alpha, out.get(), nullptr, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  // 161002: a type outside the list.
  DeviceTensor u16({3}, ACL_UINT16, {1, 2, 3});
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(x.get(), u16.get(), alpha, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  // 161002: shapes that do not broadcast.
  DeviceTensor z({4}, ACL_FLOAT, Iota(4));
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(x.get(), z.get(), alpha, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  // 161002: out is not the broadcast shape.
  DeviceTensor small({3}, ACL_FLOAT, Iota(3));
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(x.get(), y.get(), alpha, small.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  // 161002: the result (FLOAT) cannot convert to a BOOL out.
  DeviceTensor bout({2, 3}, ACL_BOOL, Iota(6));
  EXPECT_EQ(
      aclnnAddGetWorkspaceSize(x.get(), y.get(), alpha, bout.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  // 161002: alpha (FLOAT) cannot convert to an INT32 result.
  DeviceTensor i({3}, ACL_INT32, {1, 2, 3}), iout({3}, ACL_INT32, {0, 0, 0});
  EXPECT_EQ(aclnnAddGetWorkspaceSize(i.get(), i.get(), Scalar(0.5, ACL_FLOAT),
                                     iout.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  // A refused call leaves out untouched.
  ExpectNear(out.Read(), Iota(6), ACL_FLOAT);
  // The second phase: 561103 for a null executor.
  EXPECT_EQ(aclnnAdd(nullptr, 0, nullptr, stream_), ACLNN_ERR_INNER_NULLPTR);
}

// aclnnAdds.md / aclnnInplaceAdd: a scalar other; in place on selfRef.
TEST_F(ArithOps, AddsAndInplaceAdd) {
  DeviceTensor x({3}, ACL_FLOAT16, {1, 2, 3}), out({3}, ACL_FLOAT16, {0, 0, 0});
  aclScalar* other = Scalar(0.5, ACL_FLOAT);
  aclScalar* alpha = Scalar(2, ACL_FLOAT);
  ASSERT_EQ(RunOp(
                stream_,
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnAddsGetWorkspaceSize(x.get(), other, alpha,
                                                   out.get(), ws, e);
                },
                aclnnAdds),
            0);
  ExpectNear(out.Read(), {2, 3, 4}, ACL_FLOAT16);
  DeviceTensor y({3}, ACL_FLOAT16, {10, 10, 10});
  ASSERT_EQ(RunOp(
                stream_,
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnInplaceAddGetWorkspaceSize(x.get(), y.get(),
                                                         alpha, ws, e);
                },
                aclnnInplaceAdd),
            0);
  ExpectNear(x.Read(), {21, 22, 23}, ACL_FLOAT16);
  // In place, the broadcast shape must be selfRef's.
  DeviceTensor wide({2, 3}, ACL_FLOAT16, Iota(6));
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(
      aclnnInplaceAddGetWorkspaceSize(x.get(), wide.get(), alpha, &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
}

// Sub, Mul, Div (integers divide as floats), Maximum and Minimum (NaN
// propagates).
TEST_F(ArithOps, SubMulDivMaximumMinimum) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DeviceTensor a({4}, ACL_FLOAT, {1, -2, 3, nan}),
      b({4}, ACL_FLOAT, {4, 5, -6, 1});
  DeviceTensor out({4}, ACL_FLOAT, {0, 0, 0, 0});
  auto binary = [&](auto plan, auto run) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return plan(a.get(), b.get(), out.get(), ws, e);
        },
        run);
  };
  aclScalar* two = Scalar(2, ACL_FLOAT);
  ASSERT_EQ(RunOp(
                stream_,
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnSubGetWorkspaceSize(a.get(), b.get(), two,
                                                  out.get(), ws, e);
                },
                aclnnSub),
            0);
  ExpectNear(out.Read(), {-7, -12, 15, nan}, ACL_FLOAT);
  ASSERT_EQ(binary(aclnnMulGetWorkspaceSize, aclnnMul), 0);
  ExpectNear(out.Read(), {4, -10, -18, nan}, ACL_FLOAT);
  ASSERT_EQ(binary(aclnnDivGetWorkspaceSize, aclnnDiv), 0);
  ExpectNear(out.Read(), {0.25, -0.4, -0.5, nan}, ACL_FLOAT);
  ASSERT_EQ(binary(aclnnMaximumGetWorkspaceSize, aclnnMaximum), 0);
  ExpectNear(out.Read(), {4, 5, 3, nan}, ACL_FLOAT);
  ASSERT_EQ(binary(aclnnMinimumGetWorkspaceSize, aclnnMinimum), 0);
  ExpectNear(out.Read(), {1, -2, -6, nan}, ACL_FLOAT);

  DeviceTensor i({3}, ACL_INT32, {7, -7, 1}), j({3}, ACL_INT32, {2, 2, 3});
  DeviceTensor f({3}, ACL_FLOAT, {0, 0, 0}), k({3}, ACL_INT32, {0, 0, 0});
  ASSERT_EQ(RunOp(
                stream_,
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnDivGetWorkspaceSize(i.get(), j.get(), f.get(), ws,
                                                  e);
                },
                aclnnDiv),
            0);
  ExpectNear(f.Read(), {3.5, -3.5, 1.0 / 3}, ACL_FLOAT);
  // Integer inputs divide to FLOAT, which converts to an INT32 out toward
  // zero.
  ASSERT_EQ(RunOp(
                stream_,
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnDivGetWorkspaceSize(i.get(), j.get(), k.get(), ws,
                                                  e);
                },
                aclnnDiv),
            0);
  ExpectNear(k.Read(), {3, -3, 0}, ACL_INT32);
  // Muls and InplaceMuls, Divs.
  aclScalar* three = Scalar(3, ACL_INT32);
  ASSERT_EQ(RunOp(
                stream_,
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnInplaceMulsGetWorkspaceSize(i.get(), three, ws,
                                                          e);
                },
                aclnnInplaceMuls),
            0);
  ExpectNear(i.Read(), {21, -21, 3}, ACL_INT32);
}

// An operator captured into a model runtime instance is a kernel task of
// the model: replaying the model computes again with the memory's current
// contents.
TEST_F(ArithOps, CapturedOperatorReplays) {
  DeviceTensor x({8}, ACL_FLOAT, Iota(8)), y({8}, ACL_FLOAT, Iota(8, 1, 0));
  DeviceTensor out({8}, ACL_FLOAT, std::vector<double>(8));
  aclScalar* alpha = Scalar(1, ACL_FLOAT);
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
            ACL_SUCCESS);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  ASSERT_EQ(
      aclnnAddGetWorkspaceSize(x.get(), y.get(), alpha, out.get(), &ws, &e), 0);
  ASSERT_EQ(aclnnAdd(nullptr, 0, e, stream_), 0);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  ExpectNear(out.Read(), std::vector<double>(8), ACL_FLOAT);  // not run yet
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectNear(out.Read(), Iota(8, 1), ACL_FLOAT);
  // New input contents, same model: the replay reads them.
  std::vector<float> host(8, 10.0f);
  ASSERT_EQ(
      aclrtMemcpy(y.data(), 32, host.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectNear(out.Read(), Iota(8, 10), ACL_FLOAT);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

// A process snapshot between two operators: after Backup, the device's
// memory is lost; Restore brings it back, and the second operator computes
// from the first one's result as if nothing happened.
TEST_F(ArithOps, SnapshotBetweenTwoOperatorsRestoresTheSameResults) {
  DeviceTensor x({1024}, ACL_FLOAT, Iota(1024)),
      y({1024}, ACL_FLOAT, Iota(1024, 0.5, 0));
  DeviceTensor mid({1024}, ACL_FLOAT, std::vector<double>(1024));
  DeviceTensor out({1024}, ACL_FLOAT, std::vector<double>(1024));
  aclScalar* alpha = Scalar(1, ACL_FLOAT);
  ASSERT_EQ(Add(x, y, alpha, mid), 0);
  const int pid = getpid();
  ASSERT_EQ(aclrtSnapShotProcessLock(pid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessBackup(pid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessRestore(pid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessUnlock(pid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(RunOp(
                stream_,
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnMulGetWorkspaceSize(mid.get(), y.get(), out.get(),
                                                  ws, e);
                },
                aclnnMul),
            0);
  std::vector<double> want(1024);
  for (int i = 0; i < 1024; ++i) want[i] = (i + 0.5) * 0.5;
  ExpectNear(out.Read(), want, ACL_FLOAT);
}

}  // namespace
}  // namespace ascend::nn::testing
