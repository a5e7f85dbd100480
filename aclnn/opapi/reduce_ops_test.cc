// The reductions against a float64 reference, and the rules of their pages
// in hicann/ops-math: math/reduce_sum/docs/aclnnReduceSum.md,
// math/reduce_mean/docs/aclnnMean.md and aclnnMeanV2.md,
// math/reduce_max/docs/aclnnAmax.md, math/arg_max_v2/docs/aclnnArgMax.md
// (the parameter tables, the error-code tables, and the behaviour of
// CANN's implementations for empty inputs and 0-d tensors).
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();

std::vector<double> Iota(int64_t n, double start = 0, double step = 1) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = start + step * static_cast<double>(i);
  return v;
}

// The elements of each output of a reduction of `values` (row-major,
// `shape`) over the masked axes, outputs in row-major order of the kept
// axes, elements in row-major order of the reduced ones.
std::vector<std::vector<double>> Groups(const std::vector<int64_t>& shape,
                                        const std::vector<double>& values,
                                        const std::vector<bool>& mask) {
  int64_t outputs = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!mask[d]) outputs *= shape[d];
  }
  std::vector<std::vector<double>> g(static_cast<size_t>(outputs));
  std::vector<int64_t> idx(shape.size(), 0);
  for (double v : values) {
    int64_t o = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (!mask[d]) o = o * shape[d] + idx[d];
    }
    g[o].push_back(v);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return g;
}

std::vector<double> Sums(const std::vector<std::vector<double>>& g) {
  std::vector<double> r;
  for (const auto& v : g) {
    double s = 0;
    for (double x : v) s += x;
    r.push_back(s);
  }
  return r;
}

std::vector<double> Rounded(std::vector<double> v, aclDataType t) {
  for (double& x : v) x = RoundTo(x, t);
  return v;
}

bool Floating(aclDataType t) {
  return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_DOUBLE;
}

// Test-kit tolerance for accumulations (bf16: 8e-3).
double SumTolerance(aclDataType t) { return t == ACL_BF16 ? 8e-3 : -1; }

class ReduceOps : public OpTest {
 protected:
  aclIntArray* Dims(const std::vector<int64_t>& d) {
    arrays_.push_back(aclCreateIntArray(d.data(), d.size()));
    return arrays_.back();
  }
  void TearDown() override {
    for (aclIntArray* a : arrays_) aclDestroyIntArray(a);
    OpTest::TearDown();
  }
  int Sum(const DeviceTensor& x, const std::vector<int64_t>& dims, bool keep,
          aclDataType dtype, const DeviceTensor& out) {
    aclIntArray* d = Dims(dims);
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnReduceSumGetWorkspaceSize(x.get(), d, keep, dtype,
                                                out.get(), ws, e);
        },
        aclnnReduceSum);
  }
  int Mean(const DeviceTensor& x, const std::vector<int64_t>& dims, bool keep,
           aclDataType dtype, const DeviceTensor& out) {
    aclIntArray* d = Dims(dims);
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnMeanGetWorkspaceSize(x.get(), d, keep, dtype, out.get(),
                                           ws, e);
        },
        aclnnMean);
  }
  int Amax(const DeviceTensor& x, const std::vector<int64_t>& dims, bool keep,
           const DeviceTensor& out) {
    aclIntArray* d = Dims(dims);
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnAmaxGetWorkspaceSize(x.get(), d, keep, out.get(), ws, e);
        },
        aclnnAmax);
  }
  int ArgMax(const DeviceTensor& x, int64_t dim, bool keep,
             const DeviceTensor& out) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnArgMaxGetWorkspaceSize(x.get(), dim, keep, out.get(), ws,
                                             e);
        },
        aclnnArgMax);
  }
  std::vector<aclIntArray*> arrays_;
};

// aclnnReduceSum.md: every type of the list (complex excepted), summed
// over one axis; 16-bit floats accumulate in FLOAT and round once.
TEST_F(ReduceOps, ReduceSumEveryListedTypeMatchesTheReference) {
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                        ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
    SCOPED_TRACE(t);
    const std::vector<double> x =
        Rounded(Iota(15, Floating(t) ? -3.3 : 1, Floating(t) ? 0.7 : 1), t);
    const auto want = Rounded(Sums(Groups({3, 5}, x, {false, true})), t);
    DeviceTensor in({3, 5}, t, x), out({3}, t, {0, 0, 0});
    ASSERT_EQ(Sum(in, {1}, false, t, out), 0);
    ExpectNear(out.Read(), want, t, SumTolerance(t));
  }
  // A BOOL sum says whether any element is set.
  DeviceTensor b({2, 3}, ACL_BOOL, {0, 0, 0, 0, 1, 0});
  DeviceTensor bout({2}, ACL_BOOL, {1, 0});
  ASSERT_EQ(Sum(b, {1}, false, ACL_BOOL, bout), 0);
  ExpectNear(bout.Read(), {0, 1}, ACL_BOOL);
}

// dims: negative axes count from the end; keepDims keeps the reduced axes
// as size 1; an empty dims reduces every axis.
TEST_F(ReduceOps, ReduceSumAxesKeepDimsAndEmptyDims) {
  const std::vector<double> x = Iota(24);
  DeviceTensor in({2, 3, 4}, ACL_FLOAT, x);
  DeviceTensor kept({1, 3, 1}, ACL_FLOAT, {0, 0, 0});
  ASSERT_EQ(Sum(in, {-1, 0}, true, ACL_FLOAT, kept), 0);
  ExpectNear(kept.Read(), Sums(Groups({2, 3, 4}, x, {true, false, true})),
             ACL_FLOAT);
  DeviceTensor all({}, ACL_FLOAT, {0});
  ASSERT_EQ(Sum(in, {}, false, ACL_FLOAT, all), 0);
  ExpectNear(all.Read(), {276}, ACL_FLOAT);
  DeviceTensor all_kept({1, 1, 1}, ACL_FLOAT, {0});
  ASSERT_EQ(Sum(in, {}, true, ACL_FLOAT, all_kept), 0);
  ExpectNear(all_kept.Read(), {276}, ACL_FLOAT);
  DeviceTensor mid({2, 4}, ACL_FLOAT, std::vector<double>(8));
  ASSERT_EQ(Sum(in, {1}, false, ACL_FLOAT, mid), 0);
  ExpectNear(mid.Read(), Sums(Groups({2, 3, 4}, x, {false, true, false})),
             ACL_FLOAT);
}

// aclnnReduceSum: self is converted to dtype before the sum (CANN casts
// first): FLOAT to INT32 rounds each element toward zero; FLOAT to
// FLOAT16 rounds each element; FLOAT16 to FLOAT is exact; any type to
// BOOL is "non-zero".
TEST_F(ReduceOps, ReduceSumConvertsToDtypeFirst) {
  DeviceTensor f({3}, ACL_FLOAT, {0.5, 1.7, -2.9});
  DeviceTensor i({}, ACL_INT32, {0});
  ASSERT_EQ(Sum(f, {0}, false, ACL_INT32, i), 0);
  ExpectNear(i.Read(), {-1}, ACL_INT32);
  DeviceTensor g({2}, ACL_FLOAT, {1.0 + 1.0 / 4096, 1.0 + 1.0 / 4096});
  DeviceTensor h({}, ACL_FLOAT16, {0});
  ASSERT_EQ(Sum(g, {0}, false, ACL_FLOAT16, h), 0);
  EXPECT_EQ(h.Read()[0], 2.0);  // each rounds to 1 first
  DeviceTensor h16({2}, ACL_FLOAT16, {1.5, 0.25}), f32({}, ACL_FLOAT, {0});
  ASSERT_EQ(Sum(h16, {0}, false, ACL_FLOAT, f32), 0);
  EXPECT_EQ(f32.Read()[0], 1.75);
  DeviceTensor any({}, ACL_BOOL, {0});
  ASSERT_EQ(Sum(f, {0}, false, ACL_BOOL, any), 0);
  EXPECT_EQ(any.Read()[0], 1);
  // Integers accumulate in INT64 and wrap to the output's width on store.
  DeviceTensor i8({2}, ACL_INT8, {100, 100}), o8({}, ACL_INT8, {0});
  ASSERT_EQ(Sum(i8, {0}, false, ACL_INT8, o8), 0);
  EXPECT_EQ(o8.Read()[0], -56);
}

// FLOAT16 accumulates in FLOAT: 5000 ones sum to 5000, where a FLOAT16
// accumulator would stop at 2048.
TEST_F(ReduceOps, ReduceSumAccumulatesHalfInFloat) {
  DeviceTensor ones({5000}, ACL_FLOAT16, std::vector<double>(5000, 1));
  DeviceTensor out({}, ACL_FLOAT16, {0});
  ASSERT_EQ(Sum(ones, {0}, false, ACL_FLOAT16, out), 0);
  EXPECT_EQ(out.Read()[0], 5000);
  DeviceTensor b({5000}, ACL_BF16, std::vector<double>(5000, 1));
  DeviceTensor bout({}, ACL_FLOAT, {0});
  ASSERT_EQ(Sum(b, {0}, false, ACL_FLOAT, bout), 0);
  EXPECT_EQ(bout.Read()[0], 5000);
}

// Non-contiguous views (the pages' 非连续Tensor column): a transposed self
// with a storage offset, reduced along either axis (a kept axis fastest,
// then a reduced axis fastest), into a strided out.
TEST_F(ReduceOps, ReduceSumReadsAndWritesStridedViews) {
  // self: the transpose of a 5x4 matrix stored after 3 elements.
  std::vector<double> storage(23, -100);
  for (int i = 0; i < 20; ++i) storage[3 + i] = i * 0.5 - 2;
  DeviceTensor x({4, 5}, {1, 4}, 3, ACL_FLOAT, storage);
  const std::vector<double> logical = x.Read();
  DeviceTensor out4({4}, {3}, 1, ACL_FLOAT, std::vector<double>(12, -7));
  ASSERT_EQ(Sum(x, {1}, false, ACL_FLOAT, out4), 0);
  ExpectNear(out4.Read(), Sums(Groups({4, 5}, logical, {false, true})),
             ACL_FLOAT);
  const std::vector<double> s = out4.ReadStorage();
  EXPECT_EQ(s[0], -7);  // the gaps are untouched
  EXPECT_EQ(s[2], -7);
  DeviceTensor out5({5}, {2}, 0, ACL_FLOAT, std::vector<double>(10, -7));
  ASSERT_EQ(Sum(x, {0}, false, ACL_FLOAT, out5), 0);
  ExpectNear(out5.Read(), Sums(Groups({4, 5}, logical, {true, false})),
             ACL_FLOAT);
  // A 3-d view with a middle kept axis and strided reduced axes.
  std::vector<double> big = Iota(2 * 6 * 8, -40, 0.25);
  DeviceTensor v({2, 3, 4}, {40, 1, 8}, 2, ACL_FLOAT, big);
  const std::vector<double> vl = v.Read();
  DeviceTensor o({3}, ACL_FLOAT, {0, 0, 0});
  ASSERT_EQ(Sum(v, {0, 2}, false, ACL_FLOAT, o), 0);
  ExpectNear(o.Read(), Sums(Groups({2, 3, 4}, vl, {true, false, true})),
             ACL_FLOAT);
}

// A reduction with few outputs and many elements is split across the
// cores through the workspace and combined in order: the result matches
// the reference and is the same bit for bit at every run.
TEST_F(ReduceOps, ReduceSumSplitAcrossCoresIsDeterministic) {
  const int64_t n = 1 << 20;
  std::vector<double> x(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = RoundTo(std::sin(static_cast<double>(i)) * 3, ACL_FLOAT);
  }
  DeviceTensor in({n}, ACL_FLOAT, x), out({}, ACL_FLOAT, {0});
  aclIntArray* d = Dims({0});
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  ASSERT_EQ(aclnnReduceSumGetWorkspaceSize(in.get(), d, false, ACL_FLOAT,
                                           out.get(), &ws, &e),
            0);
  EXPECT_GT(ws, 0u);  // partial sums
  ASSERT_EQ(aclDestroyAclOpExecutor(e), 0);
  ASSERT_EQ(Sum(in, {0}, false, ACL_FLOAT, out), 0);
  const double first = out.Read()[0];
  double want = 0;
  for (double v : x) want += v;
  EXPECT_NEAR(first, want, 1e-4 * (std::fabs(want) + 1) + 1e-3);
  for (int k = 0; k < 3; ++k) {
    ASSERT_EQ(Sum(in, {0}, false, ACL_FLOAT, out), 0);
    EXPECT_EQ(out.Read()[0], first);
  }
  // Few outputs along a fast kept axis, many reduced rows: split as well.
  const int64_t rows = 1 << 15;
  DeviceTensor tall({rows, 3}, ACL_FLOAT, Iota(rows * 3, 0, 1.0 / 1024));
  DeviceTensor cols({3}, ACL_FLOAT, {0, 0, 0});
  ASSERT_EQ(Sum(tall, {0}, false, ACL_FLOAT, cols), 0);
  const auto want3 =
      Sums(Groups({rows, 3}, Iota(rows * 3, 0, 1.0 / 1024), {true, false}));
  ExpectNear(cols.Read(), want3, ACL_FLOAT);
}

// An empty self sums to 0 (CANN fills out with 0); a 0-d self is its own
// sum, axis 0 or -1.
TEST_F(ReduceOps, ReduceSumEmptyAndZeroDimensional) {
  DeviceTensor empty({0, 3}, ACL_FLOAT, {});
  DeviceTensor out({3}, ACL_FLOAT, {5, 5, 5});
  ASSERT_EQ(Sum(empty, {0}, false, ACL_FLOAT, out), 0);
  ExpectNear(out.Read(), {0, 0, 0}, ACL_FLOAT);
  DeviceTensor none({0}, ACL_FLOAT, {});
  ASSERT_EQ(Sum(empty, {1}, false, ACL_FLOAT, none), 0);
  DeviceTensor scalar({}, ACL_INT32, {7}), s_out({}, ACL_INT64, {0});
  ASSERT_EQ(Sum(scalar, {-1}, true, ACL_INT64, s_out), 0);
  EXPECT_EQ(s_out.Read()[0], 7);
}

// aclnnReduceSum's error table.
TEST_F(ReduceOps, ReduceSumRefusesWhatThePageRefuses) {
  DeviceTensor x({2, 3}, ACL_FLOAT, Iota(6)), out({2}, ACL_FLOAT, {9, 9});
  aclIntArray* d = Dims({1});
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  auto plan = [&](const aclTensor* s, const aclIntArray* dims,
                  aclDataType dtype, const aclTensor* o) {
    return aclnnReduceSumGetWorkspaceSize(s, dims, false, dtype,
                                          const_cast<aclTensor*>(o), &ws, &e);
  };
  // 161001: self, dims or out null (and the two outputs).
  EXPECT_EQ(plan(nullptr, d, ACL_FLOAT, out.get()), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(plan(x.get(), nullptr, ACL_FLOAT, out.get()),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(plan(x.get(), d, ACL_FLOAT, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnReduceSumGetWorkspaceSize(x.get(), d, false, ACL_FLOAT,
                                           out.get(), nullptr, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  // 161002: self or out of a type outside the list.
  DeviceTensor u16({2, 3}, ACL_UINT16, Iota(6));
  EXPECT_EQ(plan(u16.get(), d, ACL_FLOAT, out.get()), ACLNN_ERR_PARAM_INVALID);
  // 161002: dtype outside the list, or unlike out's type.
  EXPECT_EQ(plan(x.get(), d, ACL_COMPLEX64, out.get()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan(x.get(), d, ACL_FLOAT16, out.get()), ACLNN_ERR_PARAM_INVALID);
  // 161002: an axis out of range, or named twice.
  EXPECT_EQ(plan(x.get(), Dims({2}), ACL_FLOAT, out.get()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan(x.get(), Dims({-3}), ACL_FLOAT, out.get()),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor scalar_out({}, ACL_FLOAT, {0});
  EXPECT_EQ(plan(x.get(), Dims({1, -1}), ACL_FLOAT, out.get()),
            ACLNN_ERR_PARAM_INVALID);
  // 161002: out of another shape.
  DeviceTensor wrong({3}, ACL_FLOAT, {0, 0, 0});
  EXPECT_EQ(plan(x.get(), d, ACL_FLOAT, wrong.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan(x.get(), d, ACL_FLOAT, scalar_out.get()),
            ACLNN_ERR_PARAM_INVALID);
  // (More than 8 dimensions: aclCreateTensor already refuses such a tensor.)
  // A refused call leaves out untouched.
  ExpectNear(out.Read(), {9, 9}, ACL_FLOAT);
  EXPECT_EQ(aclnnReduceSum(nullptr, 0, nullptr, stream_),
            ACLNN_ERR_INNER_NULLPTR);
}

// aclnnMean.md: each listed type averages as the reference does (integers
// round toward zero); dim as ReduceSum's; dtype converts first.
TEST_F(ReduceOps, MeanEveryListedTypeMatchesTheReference) {
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                        ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
    SCOPED_TRACE(t);
    const std::vector<double> x =
        Rounded(Iota(12, Floating(t) ? -2.1 : 1, Floating(t) ? 0.9 : 2), t);
    std::vector<double> want = Sums(Groups({4, 3}, x, {true, false}));
    for (double& w : want)
      w = RoundTo(Floating(t) ? w / 4 : std::trunc(w / 4), t);
    DeviceTensor in({4, 3}, t, x), out({1, 3}, t, {0, 0, 0});
    ASSERT_EQ(Mean(in, {-2}, true, t, out), 0);
    ExpectNear(out.Read(), want, t, SumTolerance(t));
  }
  // dtype FLOAT for an INT32 self: a true mean.
  DeviceTensor i({3}, ACL_INT32, {1, 2, 2}), f({}, ACL_FLOAT, {0});
  ASSERT_EQ(Mean(i, {}, false, ACL_FLOAT, f), 0);
  ExpectNear(f.Read(), {5.0 / 3}, ACL_FLOAT);
  // dtype INT32 for the same self, into a FLOAT16 out: 5 / 3 rounds to 1.
  DeviceTensor h({}, ACL_FLOAT16, {0});
  ASSERT_EQ(Mean(i, {0}, false, ACL_INT32, h), 0);
  EXPECT_EQ(h.Read()[0], 1);
  // The mean of no elements is NaN (CANN fills out with NaN).
  DeviceTensor empty({0, 2}, ACL_FLOAT, {}), nan_out({2}, ACL_FLOAT, {0, 0});
  ASSERT_EQ(Mean(empty, {0}, false, ACL_FLOAT, nan_out), 0);
  ExpectNear(nan_out.Read(), {kNan, kNan}, ACL_FLOAT);
}

// aclnnMean's and aclnnMeanV2's error tables; MeanV2's noopWithEmptyAxes.
TEST_F(ReduceOps, MeanRefusesAndMeanV2) {
  DeviceTensor x({2, 3}, ACL_FLOAT, Iota(6)), out({2}, ACL_FLOAT, {0, 0});
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(aclnnMeanGetWorkspaceSize(x.get(), nullptr, false, ACL_FLOAT,
                                      out.get(), &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  DeviceTensor b({2, 3}, ACL_BOOL, Iota(6));  // BOOL is not in Mean's list
  EXPECT_EQ(aclnnMeanGetWorkspaceSize(b.get(), Dims({1}), false, ACL_FLOAT,
                                      out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMeanGetWorkspaceSize(x.get(), Dims({1}), false, ACL_BOOL,
                                      out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMeanGetWorkspaceSize(x.get(), Dims({1, 1}), false, ACL_FLOAT,
                                      out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMeanGetWorkspaceSize(x.get(), Dims({0}), false, ACL_FLOAT,
                                      out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);  // out must be [3]

  auto v2 = [&](const std::vector<int64_t>& dims, bool keep, bool noop,
                const DeviceTensor& o) {
    aclIntArray* d = Dims(dims);
    return RunOp(
        stream_,
        [&](uint64_t* w, aclOpExecutor** ex) {
          return aclnnMeanV2GetWorkspaceSize(x.get(), d, keep, noop, o.get(), w,
                                             ex);
        },
        aclnnMeanV2);
  };
  DeviceTensor copy({2, 3}, ACL_FLOAT, std::vector<double>(6));
  ASSERT_EQ(v2({}, false, true, copy), 0);  // empty dim, noop: a copy
  ExpectNear(copy.Read(), Iota(6), ACL_FLOAT);
  DeviceTensor all({}, ACL_FLOAT, {0});
  ASSERT_EQ(v2({}, false, false, all), 0);  // empty dim: every axis
  ExpectNear(all.Read(), {2.5}, ACL_FLOAT);
  ASSERT_EQ(v2({1}, false, true, out), 0);
  ExpectNear(out.Read(), {1, 4}, ACL_FLOAT);
  // MeanV2's out has self's type.
  DeviceTensor h({2}, ACL_FLOAT16, {0, 0});
  EXPECT_EQ(aclnnMeanV2GetWorkspaceSize(x.get(), Dims({1}), false, false,
                                        h.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMeanV2GetWorkspaceSize(x.get(), Dims({5}), false, false,
                                        out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
}

// aclnnAmax.md: the largest element per slice for each listed type, NaN
// when a slice holds one; empty dim reduces every axis.
TEST_F(ReduceOps, AmaxEveryListedTypeAndNaN) {
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                        ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
    SCOPED_TRACE(t);
    std::vector<double> x(20);
    for (int i = 0; i < 20; ++i)
      x[i] = RoundTo((i * 7) % 11 + (i % 3) * 0.5, t);
    std::vector<double> want;
    for (const auto& g : Groups({4, 5}, x, {false, true})) {
      double m = g[0];
      for (double v : g) m = std::max(m, v);
      want.push_back(m);
    }
    DeviceTensor in({4, 5}, t, x), out({4, 1}, t, std::vector<double>(4));
    ASSERT_EQ(Amax(in, {1}, true, out), 0);
    ExpectNear(out.Read(), want, t);
  }
  DeviceTensor f({2, 3}, ACL_FLOAT, {1, kNan, 3, -1, -2, -3});
  DeviceTensor fo({2}, ACL_FLOAT, {0, 0});
  ASSERT_EQ(Amax(f, {-1}, false, fo), 0);
  ExpectNear(fo.Read(), {kNan, -1}, ACL_FLOAT);
  DeviceTensor b({4}, ACL_BOOL, {0, 0, 1, 0}), bo({}, ACL_BOOL, {0});
  ASSERT_EQ(Amax(b, {}, false, bo), 0);
  EXPECT_EQ(bo.Read()[0], 1);
  // A transposed self with an offset, reduced over both axes.
  DeviceTensor v({3, 2}, {1, 3}, 2, ACL_FLOAT, {100, 100, -5, 4, 9, 2, 0, 1});
  DeviceTensor vo({}, ACL_FLOAT, {0});
  ASSERT_EQ(Amax(v, {0, 1}, false, vo), 0);
  EXPECT_EQ(vo.Read()[0], 9);
}

// aclnnAmax's error table.
TEST_F(ReduceOps, AmaxRefusesWhatThePageRefuses) {
  DeviceTensor x({2, 3}, ACL_FLOAT, Iota(6)), out({2}, ACL_FLOAT, {0, 0});
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(
      aclnnAmaxGetWorkspaceSize(x.get(), nullptr, false, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  DeviceTensor h({2}, ACL_FLOAT16, {0, 0});  // out of another type
  EXPECT_EQ(
      aclnnAmaxGetWorkspaceSize(x.get(), Dims({1}), false, h.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnAmaxGetWorkspaceSize(x.get(), Dims({1, -1}), false, out.get(),
                                      &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      aclnnAmaxGetWorkspaceSize(x.get(), Dims({2}), false, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  // A reduced axis of size 0.
  DeviceTensor empty({2, 0}, ACL_FLOAT, {});
  EXPECT_EQ(aclnnAmaxGetWorkspaceSize(empty.get(), Dims({1}), false, out.get(),
                                      &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor u16({2, 3}, ACL_UINT16, Iota(6)), uo({2}, ACL_UINT16, {0, 0});
  EXPECT_EQ(
      aclnnAmaxGetWorkspaceSize(u16.get(), Dims({1}), false, uo.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
}

// aclnnArgMax.md: the index of the first largest element (a NaN counts as
// largest), INT32 or INT64 out, keepdim, negative dim, strided self.
TEST_F(ReduceOps, ArgMaxFirstLargestIndex) {
  DeviceTensor x({2, 4}, ACL_FLOAT, {1, 5, 5, 2, 0, kNan, 3, kNan});
  DeviceTensor out({2}, ACL_INT64, {9, 9});
  ASSERT_EQ(ArgMax(x, 1, false, out), 0);
  ExpectNear(out.Read(), {1, 1}, ACL_INT64);
  DeviceTensor o32({1, 4}, ACL_INT32, {9, 9, 9, 9});
  ASSERT_EQ(ArgMax(x, -2, true, o32), 0);
  ExpectNear(o32.Read(), {0, 1, 0, 1}, ACL_INT32);
  for (aclDataType t : {ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                        ACL_INT32, ACL_INT64, ACL_UINT8}) {
    SCOPED_TRACE(t);
    DeviceTensor v({3, 3}, t, {1, 9, 9, 4, 3, 4, 0, 0, 7});
    DeviceTensor vo({3}, ACL_INT64, {9, 9, 9});
    ASSERT_EQ(ArgMax(v, 1, false, vo), 0);
    ExpectNear(vo.Read(), {1, 0, 2}, ACL_INT64);
  }
  // The transpose of a 3x2 matrix stored after one element.
  DeviceTensor tr({2, 3}, {1, 2}, 1, ACL_FLOAT, {50, 1, 8, 3, 2, 9, 4});
  DeviceTensor to({2}, ACL_INT64, {9, 9});
  ASSERT_EQ(ArgMax(tr, 1, false, to), 0);  // rows {1, 3, 9}, {8, 2, 4}
  ExpectNear(to.Read(), {2, 0}, ACL_INT64);
  // A 0-d self: index 0.
  DeviceTensor s({}, ACL_FLOAT, {3}), so({}, ACL_INT64, {9});
  ASSERT_EQ(ArgMax(s, 0, false, so), 0);
  EXPECT_EQ(so.Read()[0], 0);
}

// A long ArgMax is split across the cores; the first of two equal maxima,
// in different parts, still wins.
TEST_F(ReduceOps, ArgMaxSplitKeepsTheFirstOccurrence) {
  const int64_t n = 1 << 18;
  std::vector<double> x(n, 0);
  x[n - 5] = 7;
  x[77777] = 7;
  DeviceTensor in({n}, ACL_FLOAT, x), out({}, ACL_INT64, {0});
  ASSERT_EQ(ArgMax(in, 0, false, out), 0);
  EXPECT_EQ(out.Read()[0], 77777);
}

// aclnnArgMax's error table.
TEST_F(ReduceOps, ArgMaxRefusesWhatThePageRefuses) {
  DeviceTensor x({2, 3}, ACL_FLOAT, Iota(6)), out({2}, ACL_INT64, {0, 0});
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(aclnnArgMaxGetWorkspaceSize(nullptr, 1, false, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnArgMaxGetWorkspaceSize(x.get(), 1, false, nullptr, &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnArgMaxGetWorkspaceSize(x.get(), 2, false, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnArgMaxGetWorkspaceSize(x.get(), -3, false, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor f({2}, ACL_FLOAT, {0, 0});  // out must be INT32 or INT64
  EXPECT_EQ(aclnnArgMaxGetWorkspaceSize(x.get(), 1, false, f.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor b({2, 3}, ACL_BOOL, Iota(6));  // BOOL is not in the list
  EXPECT_EQ(aclnnArgMaxGetWorkspaceSize(b.get(), 1, false, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor wrong({3}, ACL_INT64, {0, 0, 0});
  EXPECT_EQ(
      aclnnArgMaxGetWorkspaceSize(x.get(), 1, false, wrong.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  DeviceTensor empty({2, 0}, ACL_FLOAT, {});  // no element to pick
  EXPECT_EQ(
      aclnnArgMaxGetWorkspaceSize(empty.get(), 1, false, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  DeviceTensor none({0}, ACL_INT64, {});  // an empty out is fine
  EXPECT_EQ(ArgMax(empty, 0, false, none), 0);
}

// aclSetAclOpExecutorRepeatable.md with a split reduction: the executor
// runs again on new input contents, its workspace patched each time.
TEST_F(ReduceOps, RepeatableSplitReductionRunsAgain) {
  const int64_t n = 1 << 16;
  DeviceTensor in({n}, ACL_FLOAT, std::vector<double>(n, 1));
  DeviceTensor out({}, ACL_FLOAT, {0});
  aclIntArray* d = Dims({});
  uint64_t ws_size = 0;
  aclOpExecutor* e = nullptr;
  ASSERT_EQ(aclnnReduceSumGetWorkspaceSize(in.get(), d, false, ACL_FLOAT,
                                           out.get(), &ws_size, &e),
            0);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(e), 0);
  void* ws = nullptr;
  ASSERT_EQ(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclnnReduceSum(ws, ws_size, e, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out.Read()[0], n);
  std::vector<float> twos(n, 2.0f);
  ASSERT_EQ(aclrtMemcpy(in.data(), n * 4, twos.data(), n * 4,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclnnReduceSum(ws, ws_size, e, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out.Read()[0], 2 * n);
  // A workspace smaller than planned is refused.
  if (ws_size > 0) {
    EXPECT_EQ(aclnnReduceSum(ws, ws_size - 1, e, stream_),
              ACLNN_ERR_PARAM_INVALID);
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(e), 0);
  aclrtFree(ws);
}

}  // namespace
}  // namespace ascend::nn::testing
