// Softmax, LayerNorm (and its WithImplMode and Fast forms) and RmsNorm
// against a float64 reference, and the rules of their pages in
// hicann/ops-nn: activation/softmax_v2/docs/aclnnSoftmax.md,
// norm/layer_norm_v4/docs/aclnnLayerNorm&aclnnLayerNormWithImplMode.md,
// norm/layer_norm_v4/docs/aclnnFastLayerNorm.md,
// norm/rms_norm/docs/aclnnRmsNorm.md (the parameter tables, the error-code
// tables and the constraints).
#include <cmath>
#include <limits>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();

std::vector<double> Wave(int64_t n, double scale, aclDataType t,
                         double phase = 0) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    v[i] = RoundTo(std::sin(0.7 * static_cast<double>(i) + phase) * scale, t);
  }
  return v;
}

// Softmax of x (rows x n, row-major) along the rows.
std::vector<double> SoftmaxRows(const std::vector<double>& x, int64_t n) {
  std::vector<double> y(x.size());
  for (size_t r = 0; r < x.size() / n; ++r) {
    double m = -INFINITY, s = 0;
    for (int64_t j = 0; j < n; ++j) m = std::max(m, x[r * n + j]);
    for (int64_t j = 0; j < n; ++j) s += std::exp(x[r * n + j] - m);
    for (int64_t j = 0; j < n; ++j)
      y[r * n + j] = std::exp(x[r * n + j] - m) / s;
  }
  return y;
}

// Transposes a rows x cols row-major matrix.
std::vector<double> Transpose(const std::vector<double>& x, int64_t rows,
                              int64_t cols) {
  std::vector<double> t(x.size());
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) t[j * rows + i] = x[i * cols + j];
  }
  return t;
}

struct NormRef {
  std::vector<double> y, mean, rstd;
};

// LayerNorm (layer) or RmsNorm of rows of n elements.
NormRef Normalize(const std::vector<double>& x, int64_t n,
                  const std::vector<double>& w, const std::vector<double>& b,
                  double eps, bool layer) {
  NormRef r;
  for (size_t row = 0; row < x.size() / n; ++row) {
    const double* v = &x[row * n];
    double mean = 0, sq = 0;
    if (layer) {
      for (int64_t j = 0; j < n; ++j) mean += v[j];
      mean /= static_cast<double>(n);
    }
    for (int64_t j = 0; j < n; ++j) sq += (v[j] - mean) * (v[j] - mean);
    const double rstd = 1 / std::sqrt(sq / static_cast<double>(n) + eps);
    r.mean.push_back(mean);
    r.rstd.push_back(rstd);
    for (int64_t j = 0; j < n; ++j) {
      r.y.push_back((v[j] - mean) * rstd * (w.empty() ? 1 : w[j]) +
                    (b.empty() ? 0 : b[j]));
    }
  }
  return r;
}

std::vector<double> Rounded(std::vector<double> v, aclDataType t) {
  for (double& x : v) x = RoundTo(x, t);
  return v;
}

class NormOps : public OpTest {
 protected:
  aclIntArray* Shape(const std::vector<int64_t>& d) {
    arrays_.push_back(aclCreateIntArray(d.data(), d.size()));
    return arrays_.back();
  }
  void TearDown() override {
    for (aclIntArray* a : arrays_) aclDestroyIntArray(a);
    OpTest::TearDown();
  }
  int Softmax(const DeviceTensor& x, int64_t dim, const DeviceTensor& out) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnSoftmaxGetWorkspaceSize(x.get(), dim, out.get(), ws, e);
        },
        aclnnSoftmax);
  }
  int LayerNorm(const DeviceTensor& x, const std::vector<int64_t>& norm,
                const DeviceTensor* w, const DeviceTensor* b, double eps,
                const DeviceTensor& out, const DeviceTensor* mean,
                const DeviceTensor* rstd) {
    aclIntArray* shape = Shape(norm);
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnLayerNormGetWorkspaceSize(
              x.get(), shape, w ? w->get() : nullptr, b ? b->get() : nullptr,
              eps, out.get(), mean ? mean->get() : nullptr,
              rstd ? rstd->get() : nullptr, ws, e);
        },
        aclnnLayerNorm);
  }
  int RmsNorm(const DeviceTensor& x, const DeviceTensor& gamma, double eps,
              const DeviceTensor& y, const DeviceTensor& rstd) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnRmsNormGetWorkspaceSize(x.get(), gamma.get(), eps,
                                              y.get(), rstd.get(), ws, e);
        },
        aclnnRmsNorm);
  }
  std::vector<aclIntArray*> arrays_;
};

// aclnnSoftmax.md: each listed type, along the last and the first axis
// (negative dim counts from the end); 16-bit floats compute in FLOAT.
TEST_F(NormOps, SoftmaxEveryListedTypeMatchesTheReference) {
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
    SCOPED_TRACE(t);
    const std::vector<double> x = Wave(15, 3, t);
    DeviceTensor in({3, 5}, t, x), out({3, 5}, t, std::vector<double>(15));
    ASSERT_EQ(Softmax(in, -1, out), 0);
    ExpectNear(out.Read(), Rounded(SoftmaxRows(x, 5), t), t);
    ASSERT_EQ(Softmax(in, 0, out), 0);
    ExpectNear(out.Read(),
               Rounded(Transpose(SoftmaxRows(Transpose(x, 3, 5), 3), 5, 3), t),
               t);
  }
}

// The page's formula subtracts the largest element: large inputs do not
// overflow; a FLOAT16 self may write a FLOAT out; a NaN spreads over its
// slice.
TEST_F(NormOps, SoftmaxIsStableAndConvertsToOut) {
  DeviceTensor big({2, 2}, ACL_FLOAT, {1000, 1001, -1000, -1001});
  DeviceTensor out({2, 2}, ACL_FLOAT, {0, 0, 0, 0});
  ASSERT_EQ(Softmax(big, 1, out), 0);
  ExpectNear(out.Read(), SoftmaxRows({0, 1, 0, -1}, 2), ACL_FLOAT);
  DeviceTensor h({4}, ACL_FLOAT16, {0.5, 1, 1.5, 2});
  DeviceTensor f({4}, ACL_FLOAT, {0, 0, 0, 0});
  ASSERT_EQ(Softmax(h, 0, f), 0);
  ExpectNear(f.Read(), SoftmaxRows({0.5, 1, 1.5, 2}, 4), ACL_FLOAT);
  DeviceTensor n({2, 2}, ACL_FLOAT, {kNan, 1, 2, 3});
  ASSERT_EQ(Softmax(n, 1, out), 0);
  ExpectNear(out.Read(), {kNan, kNan, 0.2689414213699951, 0.7310585786300049},
             ACL_FLOAT);
}

// Non-contiguous views: a transposed self with an offset, a strided out;
// an empty self computes nothing; a 0-d self's softmax is 1.
TEST_F(NormOps, SoftmaxViewsEmptyAndZeroDimensional) {
  std::vector<double> storage(13, 99);
  const std::vector<double> x = Wave(12, 2, ACL_FLOAT);  // 4x3, row-major
  for (int i = 0; i < 12; ++i) storage[1 + i] = x[i];
  DeviceTensor t({3, 4}, {1, 3}, 1, ACL_FLOAT, storage);  // its transpose
  DeviceTensor out({3, 4}, {8, 2}, 0, ACL_FLOAT, std::vector<double>(24, -7));
  ASSERT_EQ(Softmax(t, 1, out), 0);
  ExpectNear(out.Read(), SoftmaxRows(Transpose(x, 4, 3), 4), ACL_FLOAT);
  EXPECT_EQ(out.ReadStorage()[1], -7);
  DeviceTensor empty({0, 4}, ACL_FLOAT, {}), eout({0, 4}, ACL_FLOAT, {});
  EXPECT_EQ(Softmax(empty, 1, eout), 0);
  DeviceTensor s({}, ACL_FLOAT, {5}), so({}, ACL_FLOAT, {0});
  ASSERT_EQ(Softmax(s, -1, so), 0);
  EXPECT_EQ(so.Read()[0], 1);
}

// aclnnSoftmax's error table.
TEST_F(NormOps, SoftmaxRefusesWhatThePageRefuses) {
  DeviceTensor x({2, 3}, ACL_FLOAT, std::vector<double>(6, 1));
  DeviceTensor out({2, 3}, ACL_FLOAT, std::vector<double>(6, 9));
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(nullptr, 1, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(x.get(), 1, nullptr, &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(x.get(), 1, out.get(), &ws, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(x.get(), 2, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(x.get(), -3, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor i({2, 3}, ACL_INT32, std::vector<double>(6, 1));
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(i.get(), 1, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor wrong({3, 2}, ACL_FLOAT, std::vector<double>(6));
  EXPECT_EQ(aclnnSoftmaxGetWorkspaceSize(x.get(), 1, wrong.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  ExpectNear(out.Read(), std::vector<double>(6, 9), ACL_FLOAT);
}

// aclnnLayerNorm: out, mean and rstd for one and two normalised axes,
// with weight and bias, against the float64 reference.
TEST_F(NormOps, LayerNormMatchesTheReference) {
  const std::vector<double> x = Wave(48, 2, ACL_FLOAT, 0.3);
  for (const std::vector<int64_t>& norm :
       {std::vector<int64_t>{8}, std::vector<int64_t>{3, 8}}) {
    const int64_t n = norm.size() == 1 ? 8 : 24;
    const std::vector<double> w = Wave(n, 1.5, ACL_FLOAT, 1);
    const std::vector<double> b = Wave(n, 0.5, ACL_FLOAT, 2);
    const NormRef want = Normalize(x, n, w, b, 1e-5, true);
    DeviceTensor in({2, 3, 8}, ACL_FLOAT, x), wt(norm, ACL_FLOAT, w),
        bs(norm, ACL_FLOAT, b),
        out({2, 3, 8}, ACL_FLOAT, std::vector<double>(48));
    const std::vector<int64_t> stats = norm.size() == 1
                                           ? std::vector<int64_t>{2, 3, 1}
                                           : std::vector<int64_t>{2, 1, 1};
    DeviceTensor mean(stats, ACL_FLOAT, std::vector<double>(48 / n)),
        rstd(stats, ACL_FLOAT, std::vector<double>(48 / n));
    ASSERT_EQ(LayerNorm(in, norm, &wt, &bs, 1e-5, out, &mean, &rstd), 0);
    ExpectNear(out.Read(), want.y, ACL_FLOAT);
    ExpectNear(mean.Read(), want.mean, ACL_FLOAT);
    ExpectNear(rstd.Read(), want.rstd, ACL_FLOAT);
  }
}

// 16-bit inputs with FLOAT weight and bias (the page allows input's type
// or FLOAT), statistics in FLOAT; no weight or bias counts as ones and
// zeros; a strided input view.
TEST_F(NormOps, LayerNormHalfInputsOptionalParametersAndViews) {
  for (aclDataType t : {ACL_FLOAT16, ACL_BF16}) {
    SCOPED_TRACE(t);
    const std::vector<double> x = Wave(64, 3, t);
    const std::vector<double> w = Wave(16, 1, ACL_FLOAT, 1);
    const std::vector<double> b = Wave(16, 1, ACL_FLOAT, 2);
    const NormRef want = Normalize(x, 16, w, b, 1e-6, true);
    DeviceTensor in({4, 16}, t, x), wt({16}, ACL_FLOAT, w),
        bs({16}, ACL_FLOAT, b), out({4, 16}, t, std::vector<double>(64));
    DeviceTensor rstd({4, 1}, t, std::vector<double>(4));
    ASSERT_EQ(LayerNorm(in, {16}, &wt, &bs, 1e-6, out, nullptr, &rstd), 0);
    ExpectNear(out.Read(), Rounded(want.y, t), t, t == ACL_BF16 ? 8e-3 : 2e-3);
    ExpectNear(rstd.Read(), Rounded(want.rstd, t), t);
  }
  const std::vector<double> x = Wave(12, 2, ACL_FLOAT);  // 3x4 row-major
  DeviceTensor t({4, 3}, {1, 4}, 0, ACL_FLOAT, x);       // its transpose
  DeviceTensor out({4, 3}, ACL_FLOAT, std::vector<double>(12));
  ASSERT_EQ(LayerNorm(t, {3}, nullptr, nullptr, 1e-5, out, nullptr, nullptr),
            0);
  ExpectNear(out.Read(), Normalize(Transpose(x, 3, 4), 3, {}, {}, 1e-5, true).y,
             ACL_FLOAT);
  // Slices of no elements: mean 0 and rstd NaN (CANN fills them so).
  DeviceTensor empty({2, 0}, ACL_FLOAT, {}), eout({2, 0}, ACL_FLOAT, {});
  DeviceTensor mean({2, 1}, ACL_FLOAT, {5, 5}), rstd({2, 1}, ACL_FLOAT, {5, 5});
  ASSERT_EQ(LayerNorm(empty, {0}, nullptr, nullptr, 1e-5, eout, &mean, &rstd),
            0);
  ExpectNear(mean.Read(), {0, 0}, ACL_FLOAT);
  ExpectNear(rstd.Read(), {kNan, kNan}, ACL_FLOAT);
}

// aclnnLayerNorm's error table.
TEST_F(NormOps, LayerNormRefusesWhatThePageRefuses) {
  DeviceTensor x({2, 4}, ACL_FLOAT, std::vector<double>(8, 1));
  DeviceTensor out({2, 4}, ACL_FLOAT, std::vector<double>(8));
  DeviceTensor w({4}, ACL_FLOAT, std::vector<double>(4, 1));
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  auto plan = [&](const aclTensor* in, aclIntArray* norm, const aclTensor* wt,
                  const aclTensor* bs, const aclTensor* o,
                  const aclTensor* mean) {
    return aclnnLayerNormGetWorkspaceSize(
        in, norm, wt, bs, 1e-5, const_cast<aclTensor*>(o),
        const_cast<aclTensor*>(mean), nullptr, &ws, &e);
  };
  // 161001: input, normalizedShape or out null.
  EXPECT_EQ(plan(nullptr, Shape({4}), w.get(), nullptr, out.get(), nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(plan(x.get(), nullptr, w.get(), nullptr, out.get(), nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(plan(x.get(), Shape({4}), w.get(), nullptr, nullptr, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  // 161002: types.
  DeviceTensor xi({2, 4}, ACL_INT32, std::vector<double>(8, 1));
  EXPECT_EQ(plan(xi.get(), Shape({4}), nullptr, nullptr, out.get(), nullptr),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor w16({4}, ACL_FLOAT16, std::vector<double>(4, 1));
  EXPECT_EQ(plan(x.get(), Shape({4}), w16.get(), nullptr, out.get(), nullptr),
            ACLNN_ERR_PARAM_INVALID);  // neither input's type nor FLOAT
  DeviceTensor h({2, 4}, ACL_FLOAT16, std::vector<double>(8, 1));
  EXPECT_EQ(plan(h.get(), Shape({4}), w.get(), w16.get(), out.get(), nullptr),
            ACLNN_ERR_PARAM_INVALID);  // weight and bias differ
  // 161002: normalizedShape empty, longer than input, or not its tail.
  EXPECT_EQ(plan(x.get(), Shape({}), nullptr, nullptr, out.get(), nullptr),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      plan(x.get(), Shape({1, 2, 4}), nullptr, nullptr, out.get(), nullptr),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan(x.get(), Shape({2}), nullptr, nullptr, out.get(), nullptr),
            ACLNN_ERR_PARAM_INVALID);
  // 161002: weight not normalizedShape; out not input's shape; mean not
  // input's shape with the normalised axes 1.
  DeviceTensor w2({2, 4}, ACL_FLOAT, std::vector<double>(8, 1));
  EXPECT_EQ(plan(x.get(), Shape({4}), w2.get(), nullptr, out.get(), nullptr),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor o2({4, 2}, ACL_FLOAT, std::vector<double>(8));
  EXPECT_EQ(plan(x.get(), Shape({4}), nullptr, nullptr, o2.get(), nullptr),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor m({2}, ACL_FLOAT, {0, 0});
  EXPECT_EQ(plan(x.get(), Shape({4}), nullptr, nullptr, out.get(), m.get()),
            ACLNN_ERR_PARAM_INVALID);
}

// aclnnLayerNormWithImplMode: implMode 0, 1 and 2 (2 only with FLOAT16
// inputs) give the same normalisation; others are refused.
// aclnnFastLayerNorm: the same result; slices over 583705600 elements are
// refused with 561103.
TEST_F(NormOps, LayerNormWithImplModeAndFastLayerNorm) {
  const std::vector<double> x = Wave(32, 2, ACL_FLOAT16);
  const NormRef want = Normalize(x, 16, {}, {}, 1e-5, true);
  DeviceTensor in({2, 16}, ACL_FLOAT16, x);
  DeviceTensor out({2, 16}, ACL_FLOAT16, std::vector<double>(32));
  for (int32_t mode : {0, 1, 2}) {
    SCOPED_TRACE(mode);
    aclIntArray* norm = Shape({16});
    ASSERT_EQ(RunOp(
                  stream_,
                  [&](uint64_t* ws, aclOpExecutor** e) {
                    return aclnnLayerNormWithImplModeGetWorkspaceSize(
                        in.get(), norm, nullptr, nullptr, 1e-5, out.get(),
                        nullptr, nullptr, mode, ws, e);
                  },
                  aclnnLayerNormWithImplMode),
              0);
    ExpectNear(out.Read(), Rounded(want.y, ACL_FLOAT16), ACL_FLOAT16, 2e-3);
  }
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(aclnnLayerNormWithImplModeGetWorkspaceSize(
                in.get(), Shape({16}), nullptr, nullptr, 1e-5, out.get(),
                nullptr, nullptr, 3, &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor f({2, 16}, ACL_FLOAT, x), fo({2, 16}, ACL_FLOAT, x);
  EXPECT_EQ(aclnnLayerNormWithImplModeGetWorkspaceSize(
                f.get(), Shape({16}), nullptr, nullptr, 1e-5, fo.get(), nullptr,
                nullptr, 2, &ws, &e),
            ACLNN_ERR_PARAM_INVALID);

  DeviceTensor mean({2, 1}, ACL_FLOAT, {0, 0}), rstd({2, 1}, ACL_FLOAT, {0, 0});
  aclIntArray* norm = Shape({16});
  ASSERT_EQ(RunOp(
                stream_,
                [&](uint64_t* w, aclOpExecutor** ex) {
                  return aclnnFastLayerNormGetWorkspaceSize(
                      f.get(), norm, nullptr, nullptr, 1e-5, fo.get(),
                      mean.get(), rstd.get(), w, ex);
                },
                aclnnFastLayerNorm),
            0);
  ExpectNear(fo.Read(), want.y, ACL_FLOAT);
  ExpectNear(mean.Read(), want.mean, ACL_FLOAT);
  ExpectNear(rstd.Read(), want.rstd, ACL_FLOAT);
  // A slice too long for FastLayerNorm (planning reads no memory).
  const int64_t huge[1] = {583705601};
  float dummy = 0;
  aclTensor* big = aclCreateTensor(huge, 1, ACL_FLOAT, nullptr, 0,
                                   ACL_FORMAT_ND, huge, 1, &dummy);
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(aclnnFastLayerNormGetWorkspaceSize(big, Shape({583705601}), nullptr,
                                               nullptr, 1e-5, big, nullptr,
                                               nullptr, &ws, &e),
            ACLNN_ERR_INNER_NULLPTR);
  aclDestroyTensor(big);
}

// aclnnRmsNorm: the page's example shape and a two-axis gamma, each row of
// the type table, against the float64 reference.
TEST_F(NormOps, RmsNormMatchesTheReference) {
  struct Row {
    aclDataType x, gamma;
  };
  for (Row r : {Row{ACL_FLOAT, ACL_FLOAT}, Row{ACL_FLOAT16, ACL_FLOAT},
                Row{ACL_BF16, ACL_FLOAT}, Row{ACL_FLOAT16, ACL_FLOAT16},
                Row{ACL_BF16, ACL_BF16}}) {
    SCOPED_TRACE(r.x);
    SCOPED_TRACE(r.gamma);
    const std::vector<double> x = Wave(48, 2, r.x);
    const std::vector<double> g = Wave(12, 1.5, r.gamma, 1);
    const NormRef want = Normalize(x, 12, g, {}, 1e-6, false);
    DeviceTensor in({2, 2, 12}, r.x, x), gamma({12}, r.gamma, g);
    DeviceTensor y({2, 2, 12}, r.x, std::vector<double>(48));
    DeviceTensor rstd({2, 2, 1}, ACL_FLOAT, std::vector<double>(4));
    ASSERT_EQ(RmsNorm(in, gamma, 1e-6, y, rstd), 0);
    ExpectNear(y.Read(), Rounded(want.y, r.x), r.x,
               r.x == ACL_BF16 ? 8e-3 : (r.x == ACL_FLOAT16 ? 2e-3 : -1));
    ExpectNear(rstd.Read(), want.rstd, ACL_FLOAT);
  }
  // gamma over the last two axes; x a strided view.
  std::vector<double> storage = Wave(50, 3, ACL_FLOAT);
  DeviceTensor x({2, 3, 4}, {24, 8, 2}, 1, ACL_FLOAT, storage);
  const std::vector<double> g = Wave(12, 1, ACL_FLOAT, 2);
  DeviceTensor gamma({3, 4}, ACL_FLOAT, g);
  DeviceTensor y({2, 3, 4}, ACL_FLOAT, std::vector<double>(24));
  DeviceTensor rstd({2, 1, 1}, ACL_FLOAT, {0, 0});
  ASSERT_EQ(RmsNorm(x, gamma, 1e-6, y, rstd), 0);
  const NormRef want = Normalize(x.Read(), 12, g, {}, 1e-6, false);
  ExpectNear(y.Read(), want.y, ACL_FLOAT);
  ExpectNear(rstd.Read(), want.rstd, ACL_FLOAT);
  // A NaN input gives NaN (aclnnRmsNorm.md, boundary values).
  DeviceTensor n({1, 2}, ACL_FLOAT, {kNan, 1}), ng({2}, ACL_FLOAT, {1, 1});
  DeviceTensor ny({1, 2}, ACL_FLOAT, {0, 0}), nr({1, 1}, ACL_FLOAT, {0});
  ASSERT_EQ(RmsNorm(n, ng, 1e-6, ny, nr), 0);
  ExpectNear(ny.Read(), {kNan, kNan}, ACL_FLOAT);
}

// aclnnRmsNorm's error table: 161001 for null, 161002 for types, 561002
// for shapes.
TEST_F(NormOps, RmsNormRefusesWhatThePageRefuses) {
  DeviceTensor x({2, 4}, ACL_FLOAT, std::vector<double>(8, 1));
  DeviceTensor g({4}, ACL_FLOAT, std::vector<double>(4, 1));
  DeviceTensor y({2, 4}, ACL_FLOAT, std::vector<double>(8));
  DeviceTensor r({2, 1}, ACL_FLOAT, {0, 0});
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  auto plan = [&](const DeviceTensor* a, const DeviceTensor* b,
                  const DeviceTensor* c, const DeviceTensor* d) {
    return aclnnRmsNormGetWorkspaceSize(
        a ? a->get() : nullptr, b ? b->get() : nullptr, 1e-6,
        c ? c->get() : nullptr, d ? d->get() : nullptr, &ws, &e);
  };
  EXPECT_EQ(plan(nullptr, &g, &y, &r), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(plan(&x, nullptr, &y, &r), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(plan(&x, &g, nullptr, &r), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(plan(&x, &g, &y, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  DeviceTensor xi({2, 4}, ACL_INT32, std::vector<double>(8, 1));
  EXPECT_EQ(plan(&xi, &g, &y, &r), ACLNN_ERR_PARAM_INVALID);
  DeviceTensor r16({2, 1}, ACL_FLOAT16, {0, 0});
  EXPECT_EQ(plan(&x, &g, &y, &r16), ACLNN_ERR_PARAM_INVALID);
  DeviceTensor g16({4}, ACL_FLOAT16, std::vector<double>(4, 1));
  EXPECT_EQ(plan(&x, &g16, &y, &r), ACLNN_ERR_PARAM_INVALID);  // not a row
  DeviceTensor y16({2, 4}, ACL_FLOAT16, std::vector<double>(8));
  EXPECT_EQ(plan(&x, &g, &y16, &r), ACLNN_ERR_PARAM_INVALID);
  DeviceTensor g3({3}, ACL_FLOAT, {1, 1, 1});
  EXPECT_EQ(plan(&x, &g3, &y, &r), ACLNN_ERR_INNER_TILING_ERROR);
  DeviceTensor y3({2, 3}, ACL_FLOAT, std::vector<double>(6));
  EXPECT_EQ(plan(&x, &g, &y3, &r), ACLNN_ERR_INNER_TILING_ERROR);
  DeviceTensor r2({2}, ACL_FLOAT, {0, 0});
  EXPECT_EQ(plan(&x, &g, &y, &r2), ACLNN_ERR_INNER_TILING_ERROR);
  DeviceTensor g0({0}, ACL_FLOAT, {});
  EXPECT_EQ(plan(&x, &g0, &y, &r), ACLNN_ERR_INNER_TILING_ERROR);
  DeviceTensor s({}, ACL_FLOAT, {1}), sy({}, ACL_FLOAT, {0});
  EXPECT_EQ(plan(&s, &g, &sy, &r), ACLNN_ERR_INNER_TILING_ERROR);
}

}  // namespace
}  // namespace ascend::nn::testing
