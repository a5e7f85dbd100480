// Cast, InplaceCopy, InplaceZero and InplaceFillScalar against an exact
// reference, and the rules of their pages in hicann/ops-math:
// math/cast/docs/aclnnCast.md, conversion/view_copy/docs/aclnnInplaceCopy.md,
// math/zero_op/docs/aclnnInplaceZero.md,
// conversion/fill/docs/aclnnInplaceFillScalar.md (the parameter tables, the
// error-code tables, 约束说明: NaN converts to 0 for integer types; the
// broadcast and promotion rules of docs/zh/context/).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_zero.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Every real type the simulator stores (each page lists them for Atlas A2
// but InplaceZero, which has no UINT32 or UINT64).
const std::vector<aclDataType> kAllReal = {
    ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,  ACL_INT8,
    ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32, ACL_UINT32,
    ACL_INT64, ACL_UINT64,  ACL_BOOL};

bool IsFloat(aclDataType t) {
  return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_DOUBLE;
}

// The range of integer type t.
void Range(aclDataType t, double* lo, double* hi) {
  switch (t) {
    case ACL_INT8:
      *lo = -128, *hi = 127;
      return;
    case ACL_UINT8:
      *lo = 0, *hi = 255;
      return;
    case ACL_INT16:
      *lo = -32768, *hi = 32767;
      return;
    case ACL_UINT16:
      *lo = 0, *hi = 65535;
      return;
    case ACL_INT32:
      *lo = -2147483648.0, *hi = 2147483647.0;
      return;
    case ACL_UINT32:
      *lo = 0, *hi = 4294967295.0;
      return;
    case ACL_INT64:
      *lo = -9223372036854775808.0;
      *hi = static_cast<double>(std::numeric_limits<int64_t>::max());
      return;
    case ACL_UINT64:
      *lo = 0;
      *hi = static_cast<double>(std::numeric_limits<uint64_t>::max());
      return;
    default:  // BOOL
      *lo = 0, *hi = 1;
      return;
  }
}

// The low bits of u as integer type t.
double Wrap(uint64_t u, aclDataType t) {
  switch (t) {
    case ACL_INT8:
      return static_cast<int8_t>(u);
    case ACL_UINT8:
      return static_cast<uint8_t>(u);
    case ACL_INT16:
      return static_cast<int16_t>(u);
    case ACL_UINT16:
      return static_cast<uint16_t>(u);
    case ACL_INT32:
      return static_cast<int32_t>(u);
    case ACL_UINT32:
      return static_cast<uint32_t>(u);
    case ACL_INT64:
      return static_cast<double>(static_cast<int64_t>(u));
    default:
      return static_cast<double>(u);
  }
}

// v, an element of type `from`, as type `to` holds it: BOOL is != 0;
// floats round to nearest even; floats to integers go toward zero,
// saturating, NaN to 0; integers to integers keep the low bits.
double Convert(double v, aclDataType from, aclDataType to) {
  if (to == ACL_BOOL) return v != 0 ? 1 : 0;
  if (IsFloat(to)) return RoundTo(v, to);
  if (IsFloat(from)) {
    if (std::isnan(v)) return 0;
    double lo, hi;
    Range(to, &lo, &hi);
    return std::min(std::max(std::trunc(v), lo), hi);
  }
  const uint64_t u = v < 0 ? static_cast<uint64_t>(static_cast<int64_t>(v))
                           : static_cast<uint64_t>(v);
  return Wrap(u, to);
}

// Values that exercise every conversion: fractions, signs, each type's
// edges, beyond them, NaN and infinities; for type t those it holds.
std::vector<double> ValuesOf(aclDataType t) {
  static const std::vector<double> all = {0,
                                          1,
                                          -1,
                                          2.5,
                                          -2.5,
                                          0.49,
                                          100,
                                          -100,
                                          127,
                                          -128,
                                          200,
                                          255,
                                          300,
                                          -1000,
                                          32767,
                                          40000,
                                          65535,
                                          70000,
                                          -1e6,
                                          2147483647.0,
                                          4294967295.0,
                                          1e10,
                                          -1e10,
                                          8589934597.0,
                                          -8589934597.0,
                                          9223372036854777856.0,
                                          kNan,
                                          kInf,
                                          -kInf};
  std::vector<double> out;
  for (double v : all) {
    if (IsFloat(t)) {
      out.push_back(RoundTo(v, t));
      continue;
    }
    double lo, hi;
    Range(t, &lo, &hi);
    // (INT64's and UINT64's upper edges are not exact doubles: keep below.)
    if (std::isfinite(v) && std::trunc(v) == v && v >= lo && v < hi) {
      out.push_back(v);
    }
  }
  return out;
}

class FillOps : public OpTest {
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
  int Cast(const DeviceTensor& self, aclDataType t, const DeviceTensor& out) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnCastGetWorkspaceSize(self.get(), t, out.get(), ws, e);
        },
        aclnnCast);
  }
  int Copy(aclTensor* self, const aclTensor* src) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnInplaceCopyGetWorkspaceSize(self, src, ws, e);
        },
        aclnnInplaceCopy);
  }
  int Zero(aclTensor* self) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnInplaceZeroGetWorkspaceSize(self, ws, e);
        },
        aclnnInplaceZero);
  }
  int Fill(aclTensor* self, const aclScalar* value) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnInplaceFillScalarGetWorkspaceSize(self, value, ws, e);
        },
        aclnnInplaceFillScalar);
  }
  std::vector<aclScalar*> scalars_;
};

// aclnnCast: every pair of real types, exactly as the reference converts
// (约束说明: NaN to 0 for integer types).
TEST_F(FillOps, CastEveryPairOfTypes) {
  for (aclDataType from : kAllReal) {
    const std::vector<double> in =
        from == ACL_BOOL ? std::vector<double>{0, 1, 1, 0} : ValuesOf(from);
    const int64_t n = static_cast<int64_t>(in.size());
    for (aclDataType to : kAllReal) {
      SCOPED_TRACE(std::to_string(from) + " -> " + std::to_string(to));
      DeviceTensor x({n}, from, in), out({n}, to, std::vector<double>(n, 0));
      ASSERT_EQ(Cast(x, to, out), 0);
      std::vector<double> want;
      for (double v : in) want.push_back(Convert(v, from, to));
      ExpectNear(out.Read(), want, to, 0);
    }
  }
}

// Strided views (the page's 非连续Tensor column) and empty tensors.
TEST_F(FillOps, CastStridedAndEmpty) {
  DeviceTensor x({2, 3}, {1, 2}, 1, ACL_FLOAT,
                 {-1, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5});
  DeviceTensor out({2, 3}, {6, 2}, 0, ACL_INT16, std::vector<double>(12, -7));
  ASSERT_EQ(Cast(x, ACL_INT16, out), 0);
  ExpectNear(out.Read(), {0, 2, 4, 1, 3, 5}, ACL_INT16);
  const std::vector<double> all = out.ReadStorage();
  for (int i = 1; i < 12; i += 2) EXPECT_EQ(all[i], -7) << i;
  DeviceTensor e({0, 4}, ACL_FLOAT, {}), eo({0, 4}, ACL_INT8, {});
  EXPECT_EQ(Cast(e, ACL_INT8, eo), 0);
}

// aclnnCast's error table, and our rule that out has type dtype.
TEST_F(FillOps, CastRefusesWhatThePageRefuses) {
  DeviceTensor x({2, 3}, ACL_FLOAT, {1, 2, 3, 4, 5, 6});
  DeviceTensor out({2, 3}, ACL_INT32, std::vector<double>(6, 9));
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(aclnnCastGetWorkspaceSize(nullptr, ACL_INT32, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnCastGetWorkspaceSize(x.get(), ACL_INT32, nullptr, &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnCastGetWorkspaceSize(x.get(), ACL_INT32, out.get(), nullptr, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnCastGetWorkspaceSize(x.get(), ACL_INT32, out.get(), &ws, nullptr),
      ACLNN_ERR_PARAM_NULLPTR);
  // dtype outside the list (complex types, not a type); out not of dtype.
  EXPECT_EQ(
      aclnnCastGetWorkspaceSize(x.get(), ACL_COMPLEX64, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      aclnnCastGetWorkspaceSize(x.get(), ACL_DT_UNDEFINED, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnCastGetWorkspaceSize(x.get(), ACL_INT8, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  // self's type outside the list.
  const int64_t dims[2] = {2, 3}, storage[1] = {6};
  DeviceTensor pairs({12}, ACL_FLOAT, std::vector<double>(12));
  aclTensor* c64 = aclCreateTensor(dims, 2, ACL_COMPLEX64, nullptr, 0,
                                   ACL_FORMAT_ND, storage, 1, pairs.data());
  EXPECT_EQ(aclnnCastGetWorkspaceSize(c64, ACL_INT32, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  aclDestroyTensor(c64);
  // out's format differs from self's; a private format.
  aclTensor* nchw = aclCreateTensor(dims, 2, ACL_INT32, nullptr, 0,
                                    ACL_FORMAT_NCHW, storage, 1, out.data());
  EXPECT_EQ(aclnnCastGetWorkspaceSize(x.get(), ACL_INT32, nchw, &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  aclDestroyTensor(nchw);
  aclTensor* nz = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0,
                                  ACL_FORMAT_FRACTAL_NZ, storage, 1, x.data());
  EXPECT_EQ(aclnnCastGetWorkspaceSize(nz, ACL_INT32, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  aclDestroyTensor(nz);
  // out of another shape.
  DeviceTensor flat({6}, ACL_INT32, std::vector<double>(6));
  EXPECT_EQ(aclnnCastGetWorkspaceSize(x.get(), ACL_INT32, flat.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  ExpectNear(out.Read(), std::vector<double>(6, 9), ACL_INT32);  // untouched
  EXPECT_EQ(aclnnCast(nullptr, 0, nullptr, stream_), ACLNN_ERR_INNER_NULLPTR);
}

// aclnnInplaceCopy: src broadcasts to selfRef's shape (a row, a column, a
// 0-d tensor) and converts to its type (FLOAT into BOOL too, as Cast does).
TEST_F(FillOps, InplaceCopyBroadcastsAndConverts) {
  DeviceTensor self({2, 3}, ACL_FLOAT16, std::vector<double>(6));
  DeviceTensor row({3}, ACL_INT32, {1, -2, 3});
  ASSERT_EQ(Copy(self.get(), row.get()), 0);
  ExpectNear(self.Read(), {1, -2, 3, 1, -2, 3}, ACL_FLOAT16, 0);
  DeviceTensor col({2, 1}, ACL_DOUBLE, {0.5, -1e6});
  ASSERT_EQ(Copy(self.get(), col.get()), 0);
  ExpectNear(self.Read(), {0.5, 0.5, 0.5, -kInf, -kInf, -kInf}, ACL_FLOAT16, 0);
  DeviceTensor one({}, ACL_UINT8, {200});
  ASSERT_EQ(Copy(self.get(), one.get()), 0);
  ExpectNear(self.Read(), std::vector<double>(6, 200), ACL_FLOAT16, 0);
  DeviceTensor b({2, 3}, ACL_BOOL, std::vector<double>(6));
  DeviceTensor f({3}, ACL_FLOAT, {0, kNan, -0.25});
  ASSERT_EQ(Copy(b.get(), f.get()), 0);
  ExpectNear(b.Read(), {0, 1, 1, 0, 1, 1}, ACL_BOOL);
  DeviceTensor i8({3}, ACL_INT8, {0, 0, 0});
  DeviceTensor big({3}, ACL_FLOAT, {1e10, -1e10, kNan});
  ASSERT_EQ(Copy(i8.get(), big.get()), 0);
  ExpectNear(i8.Read(), {127, -128, 0}, ACL_INT8);
  // Empty tensors copy nothing.
  DeviceTensor e({0}, ACL_FLOAT, {}), es({0}, ACL_INT32, {});
  EXPECT_EQ(Copy(e.get(), es.get()), 0);
}

// Any strides: a transposed src with an offset into every other element
// of selfRef's storage; the gaps stay.
TEST_F(FillOps, InplaceCopyStridedViews) {
  DeviceTensor src({2, 3}, {1, 2}, 1, ACL_INT64, {-1, 0, 1, 2, 3, 4, 5});
  DeviceTensor self({2, 3}, {6, 2}, 0, ACL_FLOAT, std::vector<double>(12, -7));
  ASSERT_EQ(Copy(self.get(), src.get()), 0);
  ExpectNear(self.Read(), {0, 2, 4, 1, 3, 5}, ACL_FLOAT, 0);
  const std::vector<double> all = self.ReadStorage();
  for (int i = 1; i < 12; i += 2) EXPECT_EQ(all[i], -7) << i;
}

// Copies between views of one storage read src as it was: a shift by one
// element (memmove's case) and a narrower type under a wider one (INT8
// bytes read as FLOATs over the same bytes, more than one chunk).
TEST_F(FillOps, InplaceCopyOverlappingViews) {
  std::vector<double> init(9);
  for (int i = 0; i < 9; ++i) init[i] = i + 1;
  DeviceTensor buf({9}, ACL_INT32, init);
  const int64_t n8[1] = {8}, s9[1] = {9};
  aclTensor* lo = aclCreateTensor(n8, 1, ACL_INT32, nullptr, 0, ACL_FORMAT_ND,
                                  s9, 1, buf.data());
  aclTensor* hi = aclCreateTensor(n8, 1, ACL_INT32, nullptr, 1, ACL_FORMAT_ND,
                                  s9, 1, buf.data());
  ASSERT_EQ(Copy(hi, lo), 0);
  ExpectNear(buf.ReadStorage(), {1, 1, 2, 3, 4, 5, 6, 7, 8}, ACL_INT32);
  ASSERT_EQ(Copy(lo, hi), 0);
  ExpectNear(buf.ReadStorage(), {1, 2, 3, 4, 5, 6, 7, 8, 8}, ACL_INT32);
  aclDestroyTensor(lo);
  aclDestroyTensor(hi);

  constexpr int64_t kN = 4096;
  std::vector<double> bytes(kN * 4);
  for (int64_t i = 0; i < kN * 4; ++i)
    bytes[i] = static_cast<double>(i % 97 - 48);
  DeviceTensor raw({kN * 4}, ACL_INT8, bytes);
  const int64_t n[1] = {kN}, s_f[1] = {kN}, s_b[1] = {kN * 4};
  aclTensor* as_float = aclCreateTensor(n, 1, ACL_FLOAT, nullptr, 0,
                                        ACL_FORMAT_ND, s_f, 1, raw.data());
  aclTensor* as_int8 = aclCreateTensor(n, 1, ACL_INT8, nullptr, 0,
                                       ACL_FORMAT_ND, s_b, 1, raw.data());
  ASSERT_EQ(Copy(as_float, as_int8), 0);
  std::vector<float> host(kN);
  ASSERT_EQ(aclrtMemcpy(host.data(), kN * 4, raw.data(), kN * 4,
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_EQ(host[i], static_cast<float>(bytes[i])) << i;
  }
  aclDestroyTensor(as_float);
  aclDestroyTensor(as_int8);
}

// aclnnInplaceCopy's error table.
TEST_F(FillOps, InplaceCopyRefusesWhatThePageRefuses) {
  DeviceTensor self({2, 3}, ACL_FLOAT, std::vector<double>(6, 4));
  DeviceTensor src({2, 3}, ACL_FLOAT, std::vector<double>(6, 1));
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(nullptr, src.get(), &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(self.get(), nullptr, &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnInplaceCopyGetWorkspaceSize(self.get(), src.get(), nullptr, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnInplaceCopyGetWorkspaceSize(self.get(), src.get(), &ws, nullptr),
      ACLNN_ERR_PARAM_NULLPTR);
  // src does not broadcast to selfRef (it would to a larger shape, or not
  // at all).
  DeviceTensor narrow({3}, ACL_FLOAT, {0, 0, 0});
  EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(narrow.get(), src.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor four({4}, ACL_FLOAT, {0, 0, 0, 0});
  EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(self.get(), four.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  // Complex types: not copied by the simulator's kernels.
  const int64_t dims[2] = {2, 3}, storage[1] = {6};
  DeviceTensor pairs({12}, ACL_FLOAT, std::vector<double>(12));
  aclTensor* c64 = aclCreateTensor(dims, 2, ACL_COMPLEX64, nullptr, 0,
                                   ACL_FORMAT_ND, storage, 1, pairs.data());
  EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(c64, src.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnInplaceCopyGetWorkspaceSize(self.get(), c64, &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  aclDestroyTensor(c64);
  ExpectNear(self.Read(), std::vector<double>(6, 4), ACL_FLOAT);
  EXPECT_EQ(aclnnInplaceCopy(nullptr, 0, nullptr, stream_),
            ACLNN_ERR_INNER_NULLPTR);
}

// aclnnInplaceZero: every listed type; a strided view zeroes only its
// elements; UINT32 and UINT64 are not on its list.
TEST_F(FillOps, InplaceZero) {
  for (aclDataType t :
       {ACL_INT8, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_FLOAT16, ACL_FLOAT,
        ACL_BOOL, ACL_DOUBLE, ACL_INT16, ACL_UINT16, ACL_BF16}) {
    SCOPED_TRACE(t);
    DeviceTensor x({5}, t, {1, 1, 1, 1, 1});
    ASSERT_EQ(Zero(x.get()), 0);
    ExpectNear(x.Read(), std::vector<double>(5), t);
  }
  DeviceTensor v({2, 2}, {4, 2}, 1, ACL_FLOAT, std::vector<double>(8, 3));
  ASSERT_EQ(Zero(v.get()), 0);
  ExpectNear(v.ReadStorage(), {3, 0, 3, 0, 3, 0, 3, 0}, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(aclnnInplaceZeroGetWorkspaceSize(nullptr, &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceZeroGetWorkspaceSize(v.get(), nullptr, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  DeviceTensor u32({2}, ACL_UINT32, {5, 5}), u64({2}, ACL_UINT64, {5, 5});
  EXPECT_EQ(aclnnInplaceZeroGetWorkspaceSize(u32.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnInplaceZeroGetWorkspaceSize(u64.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  ExpectNear(u32.Read(), {5, 5}, ACL_UINT32);
  DeviceTensor empty({0, 3}, ACL_FLOAT, {});
  EXPECT_EQ(Zero(empty.get()), 0);
  EXPECT_EQ(aclnnInplaceZero(nullptr, 0, nullptr, stream_),
            ACLNN_ERR_INNER_NULLPTR);
}

// aclnnInplaceFillScalar: every listed type with a value of its own type;
// values of other types convert to selfRef's (floats toward zero,
// saturating, NaN to 0; integers keep their low bits; BOOL is != 0).
TEST_F(FillOps, InplaceFillScalarEveryType) {
  for (aclDataType t : kAllReal) {
    SCOPED_TRACE(t);
    DeviceTensor x({2, 2}, t, {0, 0, 0, 0});
    const double v = t == ACL_BOOL ? 1 : (IsFloat(t) ? 2.75 : 7);
    ASSERT_EQ(Fill(x.get(), Scalar(v, t)), 0);
    ExpectNear(x.Read(), std::vector<double>(4, RoundTo(v, t)), t, 0);
  }
  struct Mixed {
    aclDataType tensor;
    double value;
    aclDataType value_type;
    double want;
  };
  for (const Mixed& m : std::vector<Mixed>{
           {ACL_INT32, 2.75, ACL_FLOAT, 2},
           {ACL_INT32, -2.75, ACL_DOUBLE, -2},
           {ACL_INT32, 1e10, ACL_DOUBLE, 2147483647},
           {ACL_INT32, kNan, ACL_FLOAT, 0},
           {ACL_UINT8, -3.7, ACL_FLOAT, 0},
           {ACL_INT8, 300, ACL_INT64, 44},
           {ACL_INT8, -129, ACL_INT16, 127},
           {ACL_BOOL, kNan, ACL_FLOAT, 1},
           {ACL_BOOL, 0, ACL_INT32, 0},
           {ACL_FLOAT16, 1.0 / 3, ACL_DOUBLE, RoundTo(1.0 / 3, ACL_FLOAT16)},
           {ACL_BF16, 300, ACL_INT32, RoundTo(300, ACL_BF16)},
           {ACL_INT64, -5, ACL_INT8, -5},
           {ACL_DOUBLE, kInf, ACL_FLOAT, kInf}}) {
    SCOPED_TRACE(std::to_string(m.tensor) + " <- " + std::to_string(m.value));
    DeviceTensor x({3}, m.tensor, {0, 0, 0});
    ASSERT_EQ(Fill(x.get(), Scalar(m.value, m.value_type)), 0);
    ExpectNear(x.Read(), std::vector<double>(3, m.want), m.tensor, 0);
  }
  // The widest value of UINT64 stays itself.
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  aclScalar* big = aclCreateScalar(const_cast<uint64_t*>(&max), ACL_UINT64);
  scalars_.push_back(big);
  DeviceTensor u({2}, ACL_UINT64, {0, 0});
  ASSERT_EQ(Fill(u.get(), big), 0);
  ExpectNear(u.Read(), std::vector<double>(2, static_cast<double>(max)),
             ACL_UINT64, 0);
}

// A strided view fills only its elements; empty and 0-d tensors; the error
// table: 161001 for null selfRef or value, 161002 for types outside the
// list or a value type with no common type with selfRef's (UINT16 with
// INT32: the promotion table has none).
TEST_F(FillOps, InplaceFillScalarViewsAndRefusals) {
  DeviceTensor v({3}, {2}, 1, ACL_INT16, std::vector<double>(7, 9));
  ASSERT_EQ(Fill(v.get(), Scalar(-4, ACL_INT32)), 0);
  ExpectNear(v.ReadStorage(), {9, -4, 9, -4, 9, -4, 9}, ACL_INT16);
  DeviceTensor s({}, ACL_FLOAT, {0});
  ASSERT_EQ(Fill(s.get(), Scalar(0.5, ACL_FLOAT)), 0);
  ExpectNear(s.Read(), {0.5}, ACL_FLOAT);
  DeviceTensor empty({4, 0}, ACL_INT8, {});
  EXPECT_EQ(Fill(empty.get(), Scalar(1, ACL_INT8)), 0);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  aclScalar* one = Scalar(1, ACL_INT32);
  EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(nullptr, one, &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(v.get(), nullptr, &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(v.get(), one, nullptr, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  DeviceTensor u16({2}, ACL_UINT16, {3, 3});
  EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(u16.get(), one, &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  ExpectNear(u16.Read(), {3, 3}, ACL_UINT16);
  const float parts[2] = {1, 2};
  aclScalar* c = aclCreateScalar(const_cast<float*>(parts), ACL_COMPLEX64);
  scalars_.push_back(c);
  EXPECT_EQ(aclnnInplaceFillScalarGetWorkspaceSize(v.get(), c, &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnInplaceFillScalar(nullptr, 0, nullptr, stream_),
            ACLNN_ERR_INNER_NULLPTR);
}

}  // namespace
}  // namespace ascend::nn::testing
