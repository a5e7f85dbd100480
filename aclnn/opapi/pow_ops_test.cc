// PowTensorScalar, InplacePowTensorScalar and PowScalarTensor against a
// float64 reference, and the rules of their pages in hicann/ops-math:
// math/pow/docs/aclnnPowTensorScalar&aclnnInplacePowTensorScalar.md and
// math/pow/docs/aclnnPowScalarTensor.md (the parameter tables, the
// error-code tables; the promotion and conversion rules of
// docs/zh/context/).
#include <cmath>
#include <limits>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_pow.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();

class PowOps : public OpTest {
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
  int Pow(const DeviceTensor& self, aclScalar* exponent,
          const DeviceTensor& out) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnPowTensorScalarGetWorkspaceSize(self.get(), exponent,
                                                      out.get(), ws, e);
        },
        aclnnPowTensorScalar);
  }
  int InplacePow(const DeviceTensor& self, aclScalar* exponent) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnInplacePowTensorScalarGetWorkspaceSize(self.get(),
                                                             exponent, ws, e);
        },
        aclnnInplacePowTensorScalar);
  }
  int PowBase(aclScalar* base, const DeviceTensor& exponent,
              const DeviceTensor& out) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnPowScalarTensorGetWorkspaceSize(base, exponent.get(),
                                                      out.get(), ws, e);
        },
        aclnnPowScalarTensor);
  }
  // The first phase's code alone (a success's executor is run).
  int PlanPow(const aclTensor* self, aclScalar* exponent,
              const aclTensor* out) {
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    const int ret =
        aclnnPowTensorScalarGetWorkspaceSize(self, exponent, out, &ws, &e);
    if (ret == 0) {
      EXPECT_EQ(aclnnPowTensorScalar(nullptr, 0, e, stream_), 0);
      EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    }
    return ret;
  }
  int PlanInplace(const aclTensor* self, aclScalar* exponent) {
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    const int ret =
        aclnnInplacePowTensorScalarGetWorkspaceSize(self, exponent, &ws, &e);
    if (ret == 0) {
      EXPECT_EQ(aclnnInplacePowTensorScalar(nullptr, 0, e, stream_), 0);
      EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    }
    return ret;
  }
  int PlanBase(aclScalar* base, const aclTensor* exponent,
               const aclTensor* out) {
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    const int ret =
        aclnnPowScalarTensorGetWorkspaceSize(base, exponent, out, &ws, &e);
    if (ret == 0) {
      EXPECT_EQ(aclnnPowScalarTensor(nullptr, 0, e, stream_), 0);
      EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    }
    return ret;
  }
  std::vector<aclScalar*> scalars_;
};

// out = self ^ exponent for every self type the page lists (complex
// excepted) with an exponent of the same kind: floating types with 2.5,
// 2, 0.5 and -1; integer types with 0, 1, 2 and 3 (wrapping as the
// hardware does).
TEST_F(PowOps, EveryListedTypeMatchesTheReference) {
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16}) {
    const std::vector<double> in = {0.25, 0.5, 1, 1.5, 2, 3.25, 7, 0, -2};
    std::vector<double> x;
    for (double v : in) x.push_back(RoundTo(v, t));
    for (double e : {2.5, 2.0, 0.5, -1.0}) {
      SCOPED_TRACE(std::to_string(t) + " ^ " + std::to_string(e));
      DeviceTensor self({9}, t, x), out({9}, t, std::vector<double>(9));
      ASSERT_EQ(Pow(self, Scalar(e, ACL_FLOAT), out), 0);
      std::vector<double> want;
      for (double v : x) want.push_back(RoundTo(std::pow(v, e), t));
      ExpectNear(out.Read(), want, t);
    }
  }
  for (aclDataType t : {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
    const std::vector<double> x = t == ACL_UINT8
                                      ? std::vector<double>{0, 1, 2, 5, 6}
                                      : std::vector<double>{-3, -1, 0, 2, 5};
    for (int e : {0, 1, 2, 3}) {
      SCOPED_TRACE(std::to_string(t) + " ^ " + std::to_string(e));
      DeviceTensor self({5}, t, x), out({5}, t, std::vector<double>(5));
      ASSERT_EQ(Pow(self, Scalar(e, ACL_INT64), out), 0);
      std::vector<double> want;
      for (double v : x) want.push_back(std::pow(v, e));
      ExpectNear(out.Read(), want, t);
    }
  }
  // INT8 wraps: 5^3 = 125, 7^3 = 343 = 87 (mod 256), (-6)^3 = -216 = 40.
  DeviceTensor i8({3}, ACL_INT8, {5, 7, -6}), o8({3}, ACL_INT8, {0, 0, 0});
  ASSERT_EQ(Pow(i8, Scalar(3, ACL_INT32), o8), 0);
  ExpectNear(o8.Read(), {125, 87, 40}, ACL_INT8);
  // BOOL self with an integer exponent computes as INT32 (BOOL with INT32
  // promotes to INT32).
  DeviceTensor b({2}, ACL_BOOL, {0, 1}), bi({2}, ACL_INT32, {7, 7});
  ASSERT_EQ(Pow(b, Scalar(3, ACL_INT32), bi), 0);
  ExpectNear(bi.Read(), {0, 1}, ACL_INT32);
}

// The page's type rule: an integer self with a floating exponent computes
// in the exponent's type (INT32 ^ 0.5 is FLOAT); a floating self keeps its
// type (FLOAT16 ^ FLOAT computes as FLOAT16 and converts to a FLOAT out);
// a DOUBLE exponent into a FLOAT out computes in FLOAT; the result converts
// to out (FLOAT into INT32 toward zero).
TEST_F(PowOps, TypesPromoteAsThePageSays) {
  DeviceTensor i({4}, ACL_INT32, {0, 2, 4, 9});
  DeviceTensor fo({4}, ACL_FLOAT, std::vector<double>(4));
  ASSERT_EQ(Pow(i, Scalar(0.5, ACL_FLOAT), fo), 0);
  ExpectNear(fo.Read(), {0, std::sqrt(2.0), 2, 3}, ACL_FLOAT);
  DeviceTensor io({4}, ACL_INT32, {7, 7, 7, 7});
  ASSERT_EQ(Pow(i, Scalar(0.5, ACL_FLOAT), io), 0);
  ExpectNear(io.Read(), {0, 1, 2, 3}, ACL_INT32);
  DeviceTensor h({2}, ACL_FLOAT16, {3, 1.5});
  DeviceTensor ho({2}, ACL_FLOAT, {0, 0});
  ASSERT_EQ(Pow(h, Scalar(2, ACL_FLOAT), ho), 0);
  ExpectNear(ho.Read(), {9, 2.25}, ACL_FLOAT16);
  DeviceTensor d({2}, ACL_DOUBLE, {2, 3}), dout({2}, ACL_FLOAT, {0, 0});
  ASSERT_EQ(Pow(d, Scalar(0.5, ACL_DOUBLE), dout), 0);
  ExpectNear(dout.Read(), {std::sqrt(2.0), std::sqrt(3.0)}, ACL_FLOAT);
  // FLOAT self with an INT64 exponent stays FLOAT.
  DeviceTensor g({3}, ACL_FLOAT, {1.5, -2, kNan}),
      go({3}, ACL_FLOAT, {0, 0, 0});
  ASSERT_EQ(Pow(g, Scalar(3, ACL_INT64), go), 0);
  ExpectNear(go.Read(), {3.375, -8, kNan}, ACL_FLOAT);
}

// aclnnPowTensorScalar's error table.
TEST_F(PowOps, PowTensorScalarRefusesWhatThePageRefuses) {
  DeviceTensor x({2, 3}, ACL_FLOAT, {1, 2, 3, 4, 5, 6});
  DeviceTensor out({2, 3}, ACL_FLOAT, std::vector<double>(6, -3));
  aclScalar* two = Scalar(2, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  // 161001: self, exponent, out, workspaceSize, executor null.
  EXPECT_EQ(
      aclnnPowTensorScalarGetWorkspaceSize(nullptr, two, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPowTensorScalarGetWorkspaceSize(x.get(), nullptr, out.get(),
                                                 &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnPowTensorScalarGetWorkspaceSize(x.get(), two, nullptr, &ws, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPowTensorScalarGetWorkspaceSize(x.get(), two, out.get(),
                                                 nullptr, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPowTensorScalarGetWorkspaceSize(x.get(), two, out.get(), &ws,
                                                 nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  // 161002: types outside the lists (UINT16 self, UINT32 exponent).
  DeviceTensor u16({2, 3}, ACL_UINT16, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(PlanPow(u16.get(), two, out.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanPow(x.get(), Scalar(2, ACL_UINT32), out.get()),
            ACLNN_ERR_PARAM_INVALID);
  // 161002: BOOL ^ BOOL.
  DeviceTensor b({2, 3}, ACL_BOOL, {1, 0, 1, 0, 1, 0});
  DeviceTensor bo({2, 3}, ACL_BOOL, std::vector<double>(6));
  EXPECT_EQ(PlanPow(b.get(), Scalar(1, ACL_BOOL), bo.get()),
            ACLNN_ERR_PARAM_INVALID);
  // 161002: the computing type does not convert to out (FLOAT into BOOL).
  EXPECT_EQ(PlanPow(x.get(), two, bo.get()), ACLNN_ERR_PARAM_INVALID);
  // 161002: out of another shape.
  DeviceTensor flat({6}, ACL_FLOAT, std::vector<double>(6));
  EXPECT_EQ(PlanPow(x.get(), two, flat.get()), ACLNN_ERR_PARAM_INVALID);
  // 161002: the exponent's value: negative for an integer type, beyond the
  // computing type's range (300 for UINT8, 70000.0 for FLOAT16).
  DeviceTensor i({2, 3}, ACL_INT32, {1, 2, 3, 4, 5, 6});
  DeviceTensor io({2, 3}, ACL_INT32, std::vector<double>(6));
  EXPECT_EQ(PlanPow(i.get(), Scalar(-1, ACL_INT32), io.get()),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor u8({2, 3}, ACL_UINT8, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(PlanPow(u8.get(), Scalar(300, ACL_INT32), u8.get()),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor h({2, 3}, ACL_FLOAT16, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(PlanPow(h.get(), Scalar(70000, ACL_FLOAT), h.get()),
            ACLNN_ERR_PARAM_INVALID);
  // ...while a negative exponent for a floating type is fine.
  EXPECT_EQ(PlanPow(x.get(), Scalar(-2, ACL_INT32), out.get()), 0);
  ExpectNear(out.Read(), {1, 0.25, 1.0 / 9, 1.0 / 16, 1.0 / 25, 1.0 / 36},
             ACL_FLOAT);
  EXPECT_EQ(aclnnPowTensorScalar(nullptr, 0, nullptr, stream_),
            ACLNN_ERR_INNER_NULLPTR);
}

// aclnnInplacePowTensorScalar: self ^= exponent; its list has no BOOL; the
// computing type must convert to self's (FLOAT into INT32 does).
TEST_F(PowOps, InplacePowTensorScalar) {
  DeviceTensor x({4}, ACL_BF16, {1, 2, 3, 0.5});
  ASSERT_EQ(InplacePow(x, Scalar(2, ACL_INT32)), 0);
  ExpectNear(x.Read(), {1, 4, 9, 0.25}, ACL_BF16);
  // A strided view: only its elements change.
  DeviceTensor v({3}, {2}, 0, ACL_FLOAT, {2, -1, 3, -1, 4});
  ASSERT_EQ(InplacePow(v, Scalar(3, ACL_FLOAT)), 0);
  ExpectNear(v.ReadStorage(), {8, -1, 27, -1, 64}, ACL_FLOAT);
  DeviceTensor i({3}, ACL_INT32, {4, 9, 10});
  ASSERT_EQ(InplacePow(i, Scalar(0.5, ACL_FLOAT)), 0);
  ExpectNear(i.Read(), {2, 3, 3}, ACL_INT32);
  DeviceTensor b({2}, ACL_BOOL, {0, 1});
  EXPECT_EQ(PlanInplace(b.get(), Scalar(2, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanInplace(i.get(), Scalar(1, ACL_BOOL)), ACLNN_ERR_PARAM_INVALID);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(aclnnInplacePowTensorScalarGetWorkspaceSize(
                nullptr, Scalar(2, ACL_INT32), &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnInplacePowTensorScalarGetWorkspaceSize(i.get(), nullptr, &ws, &e),
      ACLNN_ERR_PARAM_NULLPTR);
}

// aclnnPowScalarTensor: out = self ^ exponent with a scalar base. A
// floating exponent tensor keeps its type; an integer one computes in its
// type unless the base is floating (then they promote); integer powers
// with negative exponents give 0 except for bases 1 and -1.
TEST_F(PowOps, PowScalarTensor) {
  DeviceTensor e({5}, ACL_FLOAT, {0, 0.5, 1, 2, -1});
  DeviceTensor out({5}, ACL_FLOAT, std::vector<double>(5));
  ASSERT_EQ(PowBase(Scalar(4, ACL_INT32), e, out), 0);
  ExpectNear(out.Read(), {1, 2, 4, 16, 0.25}, ACL_FLOAT);
  DeviceTensor ie({5}, ACL_INT32, {0, 1, 2, 10, -1});
  DeviceTensor io({5}, ACL_INT32, std::vector<double>(5));
  ASSERT_EQ(PowBase(Scalar(3, ACL_INT64), ie, io), 0);
  ExpectNear(io.Read(), {1, 3, 9, 59049, 0}, ACL_INT32);
  ASSERT_EQ(PowBase(Scalar(-1, ACL_INT8), ie, io), 0);
  ExpectNear(io.Read(), {1, -1, 1, 1, -1}, ACL_INT32);
  // A FLOAT base with INT32 exponents computes in FLOAT.
  DeviceTensor fo({5}, ACL_FLOAT, std::vector<double>(5));
  ASSERT_EQ(PowBase(Scalar(2.5, ACL_FLOAT), ie, fo), 0);
  ExpectNear(fo.Read(), {1, 2.5, 6.25, std::pow(2.5, 10), 0.4}, ACL_FLOAT);
  // A strided, offset exponent view.
  DeviceTensor sv({2, 2}, {1, 2}, 1, ACL_FLOAT16, {9, 1, 2, 3, 4});
  DeviceTensor so({2, 2}, ACL_FLOAT16, std::vector<double>(4));
  ASSERT_EQ(PowBase(Scalar(2, ACL_FLOAT), sv, so), 0);
  ExpectNear(so.Read(), {2, 8, 4, 16}, ACL_FLOAT16);
  // Its error table.
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclScalar* two = Scalar(2, ACL_FLOAT);
  EXPECT_EQ(aclnnPowScalarTensorGetWorkspaceSize(nullptr, e.get(), out.get(),
                                                 &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnPowScalarTensorGetWorkspaceSize(two, nullptr, out.get(), &ws, &ex),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnPowScalarTensorGetWorkspaceSize(two, e.get(), nullptr, &ws, &ex),
      ACLNN_ERR_PARAM_NULLPTR);
  DeviceTensor b({5}, ACL_BOOL, {0, 1, 0, 1, 0});
  EXPECT_EQ(PlanBase(two, b.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanBase(Scalar(1, ACL_BOOL), e.get(), out.get()),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor wide({6}, ACL_FLOAT, std::vector<double>(6));
  EXPECT_EQ(PlanBase(two, e.get(), wide.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanBase(two, e.get(), b.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnPowScalarTensor(nullptr, 0, nullptr, stream_),
            ACLNN_ERR_INNER_NULLPTR);
}

}  // namespace
}  // namespace ascend::nn::testing
