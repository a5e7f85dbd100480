// The matrix operators against a float64 reference, and the rules of their
// pages in hicann/ops-nn: matmul/mat_mul_v3/docs/aclnnMatmul.md,
// aclnnMatmulWeightNz.md, aclnnMm.md, matmul/batch_mat_mul_v3/docs/
// aclnnBatchMatMul.md, aclnnBatchMatMulWeightNz.md (parameter tables,
// cubeMathType, the error tables, the constraints and the 1-D shape rules),
// with docs/zh/context/broadcast_relationship.md for the batch dimensions.
// Plus the kernel itself on every micro-kernel the CPU runs.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/matmul_args.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

using PlanFn = aclnnStatus (*)(const aclTensor*, const aclTensor*, aclTensor*,
                               int8_t, uint64_t*, aclOpExecutor**);
using RunFn = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// Deterministic values in [lo, hi).
std::vector<double> Values(size_t n, uint32_t seed, double lo = -1,
                           double hi = 1) {
  std::vector<double> v(n);
  uint32_t x = seed * 2654435761u + 1;
  for (double& e : v) {
    x = x * 1664525u + 1013904223u;
    e = lo + (hi - lo) * (x >> 8) / double(1 << 24);
  }
  return v;
}

std::vector<double> Rounded(std::vector<double> v, aclDataType t) {
  for (double& e : v) e = RoundTo(e, t);
  return v;
}

// a (m x k) @ b (k x n), row-major, in float64.
std::vector<double> Ref(const std::vector<double>& a,
                        const std::vector<double>& b, int64_t m, int64_t k,
                        int64_t n) {
  std::vector<double> c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t p = 0; p < k; ++p) {
      for (int64_t j = 0; j < n; ++j)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
    }
  }
  return c;
}

// The transpose of a (rows x cols), row-major.
std::vector<double> Transposed(const std::vector<double>& a, int64_t rows,
                               int64_t cols) {
  std::vector<double> t(a.size());
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) t[j * rows + i] = a[i * cols + j];
  }
  return t;
}

// The FRACTAL_NZ storage of x (rows x cols): fractals of 16 rows by c0
// columns, column blocks outermost (zero padding).
std::vector<double> ToNz(const std::vector<double>& x, int64_t rows,
                         int64_t cols, int64_t c0) {
  const int64_t r1 = (rows + 15) / 16, c1 = (cols + c0 - 1) / c0;
  std::vector<double> s(static_cast<size_t>(c1 * r1 * 16 * c0), 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      s[((c / c0) * r1 + r / 16) * 16 * c0 + (r % 16) * c0 + c % c0] =
          x[r * cols + c];
    }
  }
  return s;
}

// A tensor over existing device memory with the given format and storage
// shape (for FRACTAL_NZ operands).
class FormatTensor {
 public:
  FormatTensor(const DeviceTensor& memory, const std::vector<int64_t>& view,
               const std::vector<int64_t>& strides, aclFormat format,
               const std::vector<int64_t>& storage) {
    tensor_ = aclCreateTensor(view.data(), view.size(), memory.dtype(),
                              strides.data(), 0, format, storage.data(),
                              storage.size(), memory.data());
    EXPECT_NE(tensor_, nullptr);
  }
  ~FormatTensor() { aclDestroyTensor(tensor_); }
  aclTensor* get() const { return tensor_; }

 private:
  aclTensor* tensor_ = nullptr;
};

class MatmulOps : public OpTest {
 protected:
  int Run(PlanFn plan, RunFn run, const aclTensor* a, const aclTensor* b,
          aclTensor* out, int8_t mode) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return plan(a, b, out, mode, ws, e);
        },
        run);
  }
  int Matmul(const DeviceTensor& a, const DeviceTensor& b,
             const DeviceTensor& out, int8_t mode = 0) {
    return Run(aclnnMatmulGetWorkspaceSize, aclnnMatmul, a.get(), b.get(),
               out.get(), mode);
  }
  int Mm(const DeviceTensor& a, const DeviceTensor& b, const DeviceTensor& out,
         int8_t mode = 0) {
    return Run(aclnnMmGetWorkspaceSize, aclnnMm, a.get(), b.get(), out.get(),
               mode);
  }
  int Bmm(const DeviceTensor& a, const DeviceTensor& b, const DeviceTensor& out,
          int8_t mode = 0) {
    return Run(aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, a.get(),
               b.get(), out.get(), mode);
  }
  int PlanOnly(PlanFn plan, const aclTensor* a, const aclTensor* b,
               aclTensor* out, int8_t mode = 0) {
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    const int ret = plan(a, b, out, mode, &ws, &e);
    if (ret == 0) aclDestroyAclOpExecutor(e);
    return ret;
  }
};

// aclnnMm.md: out = self @ mat2 for FLOAT, FLOAT16 and BFLOAT16, on shapes
// that are not multiples of the kernel's tiles and span several tiles and
// several steps along k.
TEST_F(MatmulOps, MmEveryListedTypeMatchesTheReference) {
  struct Case {
    int64_t m, k, n;
  };
  for (const Case& s : {Case{1, 1, 1}, Case{5, 7, 3}, Case{37, 29, 53},
                        Case{150, 300, 70}, Case{97, 520, 301}}) {
    for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      SCOPED_TRACE(::testing::Message() << "type " << t << " m " << s.m << " k "
                                        << s.k << " n " << s.n);
      const auto a = Rounded(Values(s.m * s.k, 1), t);
      const auto b = Rounded(Values(s.k * s.n, 2), t);
      DeviceTensor x({s.m, s.k}, t, a), y({s.k, s.n}, t, b);
      DeviceTensor out({s.m, s.n}, t, std::vector<double>(s.m * s.n));
      ASSERT_EQ(Mm(x, y, out), 0);
      // 16-bit products accumulate in FLOAT and round once.
      ExpectNear(out.Read(), Rounded(Ref(a, b, s.m, s.k, s.n), t), t,
                 t == ACL_BF16 ? 8e-3 : -1);
    }
  }
}

// FLOAT16 inputs accumulate in FLOAT: 3000 products of 1 sum to 3000 (a
// FLOAT16 accumulator would stop at 2048, where adding 1 rounds away).
TEST_F(MatmulOps, HalfInputsAccumulateInFloat) {
  DeviceTensor x({1, 3000}, ACL_FLOAT16, std::vector<double>(3000, 1));
  DeviceTensor y({3000, 2}, ACL_FLOAT16, std::vector<double>(6000, 1));
  DeviceTensor out({1, 2}, ACL_FLOAT16, {0, 0});
  ASSERT_EQ(Mm(x, y, out), 0);
  EXPECT_EQ(out.Read(), (std::vector<double>{3000, 3000}));
  // A FLOAT out takes the FLOAT sum as it is: four products
  // (1 + 2^-10) * 2^-11 sum exactly, below FLOAT16's precision there.
  DeviceTensor h({1, 4}, ACL_FLOAT16, std::vector<double>(4, 1 + 1.0 / 1024));
  DeviceTensor g({4, 1}, ACL_FLOAT16, std::vector<double>(4, 1.0 / 2048));
  DeviceTensor f({1, 1}, ACL_FLOAT, {0});
  ASSERT_EQ(Mm(h, g, f), 0);
  EXPECT_EQ(f.Read()[0], 4 * (1 + 1.0 / 1024) / 2048);
}

// aclnnMatmul.md's cubeMathType for FLOAT inputs on Atlas A2: 0 and 4 keep
// FLOAT; 1 and 3 compute in HFLOAT32 (10 mantissa bits, FLOAT's exponent
// range); 2 in FLOAT16 (which overflows past 65504).
TEST_F(MatmulOps, CubeMathTypeRoundsFloatInputs) {
  const double fine = 1 + 1.0 / 4096;  // not exact in 10 mantissa bits
  DeviceTensor x({1, 2}, ACL_FLOAT, {fine, 70000});
  DeviceTensor y({2, 1}, ACL_FLOAT, {1, 1});
  DeviceTensor out({1, 1}, ACL_FLOAT, {0});
  for (int8_t mode : {0, 4}) {
    ASSERT_EQ(Matmul(x, y, out, mode), 0);
    EXPECT_EQ(out.Read()[0], RoundTo(fine + 70000, ACL_FLOAT)) << int(mode);
  }
  for (int8_t mode : {1, 3}) {
    ASSERT_EQ(Matmul(x, y, out, mode), 0);
    // 70000 = 1.068115234375 * 2^16 rounds to 10 bits: 70016.
    EXPECT_EQ(out.Read()[0], 1 + 70016) << int(mode);
  }
  ASSERT_EQ(Matmul(x, y, out, 2), 0);
  EXPECT_TRUE(std::isinf(out.Read()[0]));
  // FLOAT16 inputs: every mode computes the same (USE_HF32 has no effect).
  DeviceTensor hx({2, 3}, ACL_FLOAT16, {1, 2, 3, 4, 5, 6});
  DeviceTensor hy({3, 1}, ACL_FLOAT16, {0.5, 0.25, 0.125});
  DeviceTensor hout({2, 1}, ACL_FLOAT16, {0, 0});
  for (int8_t mode = 0; mode <= 4; ++mode) {
    ASSERT_EQ(Matmul(hx, hy, hout, mode), 0);
    EXPECT_EQ(hout.Read(), (std::vector<double>{1.375, 4})) << int(mode);
  }
  // BFLOAT16 with USE_FP16: no effect (bf16 values stay bf16).
  DeviceTensor bx({1, 1}, ACL_BF16, {300}), by({1, 1}, ACL_BF16, {300});
  DeviceTensor bout({1, 1}, ACL_FLOAT, {0});
  ASSERT_EQ(Matmul(bx, by, bout, 2), 0);
  EXPECT_EQ(bout.Read()[0], 90000);  // FLOAT16 would overflow
}

// aclnnMatmul.md, 一维输入的shape推导: (K) is one row of self or one column
// of mat2, and that dimension leaves the result; two 1-D inputs give a 0-d
// result; batch dimensions broadcast.
TEST_F(MatmulOps, MatmulOneDimensionalOperands) {
  const auto v = Values(6, 3), w = Values(6, 4), mat = Values(6 * 4, 5);
  const auto mat_t = Values(5 * 6, 6);
  DeviceTensor vec({6}, ACL_FLOAT, v), vec2({6}, ACL_FLOAT, w);
  DeviceTensor kn({6, 4}, ACL_FLOAT, mat), mk({5, 6}, ACL_FLOAT, mat_t);
  {  // (K) @ (K, N) -> (N)
    DeviceTensor out({4}, ACL_FLOAT, std::vector<double>(4));
    ASSERT_EQ(Matmul(vec, kn, out), 0);
    ExpectNear(out.Read(), Ref(v, mat, 1, 6, 4), ACL_FLOAT);
  }
  {  // (M, K) @ (K) -> (M)
    DeviceTensor out({5}, ACL_FLOAT, std::vector<double>(5));
    ASSERT_EQ(Matmul(mk, vec, out), 0);
    ExpectNear(out.Read(), Ref(mat_t, v, 5, 6, 1), ACL_FLOAT);
  }
  {  // (K) @ (K) -> ()
    DeviceTensor out({}, ACL_FLOAT, {0});
    ASSERT_EQ(Matmul(vec, vec2, out), 0);
    ExpectNear(out.Read(), Ref(v, w, 1, 6, 1), ACL_FLOAT);
    // ... and not (1).
    DeviceTensor one({1}, ACL_FLOAT, {0});
    EXPECT_EQ(
        PlanOnly(aclnnMatmulGetWorkspaceSize, vec.get(), vec2.get(), one.get()),
        ACLNN_ERR_PARAM_INVALID);
  }
  {  // (K) @ (B, K, N) -> (B, N)
    const auto bkn = Values(3 * 6 * 4, 7);
    DeviceTensor m3({3, 6, 4}, ACL_FLOAT, bkn);
    DeviceTensor out({3, 4}, ACL_FLOAT, std::vector<double>(12));
    ASSERT_EQ(Matmul(vec, m3, out), 0);
    std::vector<double> want;
    for (int b = 0; b < 3; ++b) {
      const std::vector<double> slice(bkn.begin() + b * 24,
                                      bkn.begin() + (b + 1) * 24);
      for (double r : Ref(v, slice, 1, 6, 4)) want.push_back(r);
    }
    ExpectNear(out.Read(), want, ACL_FLOAT);
  }
  {  // (B, M, K) @ (K) -> (B, M)
    const auto bmk = Values(2 * 5 * 6, 8);
    DeviceTensor s3({2, 5, 6}, ACL_FLOAT, bmk);
    DeviceTensor out({2, 5}, ACL_FLOAT, std::vector<double>(10));
    ASSERT_EQ(Matmul(s3, vec, out), 0);
    ExpectNear(out.Read(), Ref(bmk, v, 10, 6, 1), ACL_FLOAT);
  }
}

// broadcast_relationship.md on the batch dimensions: (2, 1, M, K) @
// (3, K, N) -> (2, 3, M, N); (B, M, K) @ (K, N) folds the batch into rows.
TEST_F(MatmulOps, MatmulBroadcastsBatchDimensions) {
  const int64_t m = 7, k = 9, n = 11;
  const auto a = Values(2 * m * k, 9), b = Values(3 * k * n, 10);
  DeviceTensor x({2, 1, m, k}, ACL_FLOAT, a), y({3, k, n}, ACL_FLOAT, b);
  DeviceTensor out({2, 3, m, n}, ACL_FLOAT, std::vector<double>(6 * m * n));
  ASSERT_EQ(Matmul(x, y, out), 0);
  std::vector<double> want;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      const std::vector<double> ai(a.begin() + i * m * k,
                                   a.begin() + (i + 1) * m * k);
      const std::vector<double> bj(b.begin() + j * k * n,
                                   b.begin() + (j + 1) * k * n);
      for (double r : Ref(ai, bj, m, k, n)) want.push_back(r);
    }
  }
  ExpectNear(out.Read(), want, ACL_FLOAT);

  const auto big = Values(4 * 50 * k, 11), w = Values(k * n, 12);
  DeviceTensor s({4, 50, k}, ACL_FLOAT, big), t({k, n}, ACL_FLOAT, w);
  DeviceTensor o({4, 50, n}, ACL_FLOAT, std::vector<double>(4 * 50 * n));
  ASSERT_EQ(Matmul(s, t, o), 0);
  ExpectNear(o.Read(), Ref(big, w, 200, k, n), ACL_FLOAT);
  // Batches that do not broadcast.
  DeviceTensor z({4, k, n}, ACL_FLOAT, Values(4 * k * n, 13));
  DeviceTensor bad({2, 3, m, n}, ACL_FLOAT, std::vector<double>(6 * m * n));
  EXPECT_EQ(PlanOnly(aclnnMatmulGetWorkspaceSize, x.get(), z.get(), bad.get()),
            ACLNN_ERR_PARAM_INVALID);
}

// The pages' 非连续tensor column: transposed and offset inputs are read in
// place; a strided out is written in place, its gaps untouched.
TEST_F(MatmulOps, TransposedAndStridedOperands) {
  const int64_t m = 33, k = 40, n = 35;
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16}) {
    SCOPED_TRACE(t);
    const auto a = Rounded(Values(m * k, 14), t);
    const auto b = Rounded(Values(k * n, 15), t);
    // self: the transpose of a (k x m) matrix stored after 3 elements.
    std::vector<double> as(3, 99.0);
    for (double e : Transposed(a, m, k)) as.push_back(e);
    DeviceTensor x({m, k}, {1, m}, 3, t, as);
    // mat2: the transpose of an (n x k) matrix.
    DeviceTensor y({k, n}, {1, k}, 0, t, Transposed(b, k, n));
    // out: rows of n + 5 elements.
    DeviceTensor out({m, n}, {n + 5, 1}, 0, t,
                     std::vector<double>(m * (n + 5), -7));
    ASSERT_EQ(Mm(x, y, out), 0);
    ExpectNear(out.Read(), Rounded(Ref(a, b, m, k, n), t), t);
    const auto storage = out.ReadStorage();
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = n; j < n + 5; ++j)
        EXPECT_EQ(storage[i * (n + 5) + j], -7);
    }
  }
}

// aclnnBatchMatMul.md: 3-D operands; a batch of 1 broadcasts.
TEST_F(MatmulOps, BatchMatMulBroadcastsABatchOfOne) {
  const int64_t m = 20, k = 30, n = 25;
  const auto a = Rounded(Values(4 * m * k, 16), ACL_BF16);
  const auto b = Rounded(Values(k * n, 17), ACL_BF16);
  DeviceTensor x({4, m, k}, ACL_BF16, a), y({1, k, n}, ACL_BF16, b);
  DeviceTensor out({4, m, n}, ACL_FLOAT, std::vector<double>(4 * m * n));
  ASSERT_EQ(Bmm(x, y, out), 0);
  ExpectNear(out.Read(), Ref(a, b, 4 * m, k, n), ACL_FLOAT);
  // self's batch of 1 against mat2's 3.
  const auto c = Rounded(Values(3 * k * n, 18), ACL_BF16);
  const std::vector<double> a0(a.begin(), a.begin() + m * k);
  DeviceTensor x1({1, m, k}, ACL_BF16, a0), y3({3, k, n}, ACL_BF16, c);
  DeviceTensor out3({3, m, n}, ACL_BF16, std::vector<double>(3 * m * n));
  ASSERT_EQ(Bmm(x1, y3, out3), 0);
  std::vector<double> want;
  for (int j = 0; j < 3; ++j) {
    const std::vector<double> bj(c.begin() + j * k * n,
                                 c.begin() + (j + 1) * k * n);
    for (double r : Ref(a0, bj, m, k, n)) want.push_back(RoundTo(r, ACL_BF16));
  }
  ExpectNear(out3.Read(), want, ACL_BF16, 8e-3);
}

// deduction_relationship.md with aclnnMatmul.md's constraint: FLOAT16 with
// FLOAT computes in FLOAT; BFLOAT16 does not promote with FLOAT16 or FLOAT
// for Matmul, but Mm and BatchMatMul promote them to FLOAT.
TEST_F(MatmulOps, MixedTypes) {
  DeviceTensor h({2, 2}, ACL_FLOAT16, {1, 2, 3, 4});
  DeviceTensor f({2, 2}, ACL_FLOAT, {0.5, 0.25, 0.125, 1.0 / 3});
  DeviceTensor bf({2, 2}, ACL_BF16, {1, 2, 3, 4});
  DeviceTensor out({2, 2}, ACL_FLOAT, {0, 0, 0, 0});
  ASSERT_EQ(Matmul(h, f, out), 0);
  const std::vector<double> want = Ref({1, 2, 3, 4}, f.Read(), 2, 2, 2);
  ExpectNear(out.Read(), want, ACL_FLOAT);
  EXPECT_EQ(PlanOnly(aclnnMatmulGetWorkspaceSize, bf.get(), h.get(), out.get()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanOnly(aclnnMatmulGetWorkspaceSize, f.get(), bf.get(), out.get()),
            ACLNN_ERR_PARAM_INVALID);
  ASSERT_EQ(Mm(bf, f, out), 0);
  ExpectNear(out.Read(), want, ACL_FLOAT);
  DeviceTensor bf3({1, 2, 2}, ACL_BF16, {1, 2, 3, 4});
  DeviceTensor h3({1, 2, 2}, ACL_FLOAT16, {0.5, 0.25, 0.125, 0.75});
  DeviceTensor out3({1, 2, 2}, ACL_FLOAT, {0, 0, 0, 0});
  ASSERT_EQ(Bmm(bf3, h3, out3), 0);
  ExpectNear(out3.Read(), Ref({1, 2, 3, 4}, {0.5, 0.25, 0.125, 0.75}, 2, 2, 2),
             ACL_FLOAT);
}

// K = 0 sums nothing: out is zeros. M = 0: nothing to write.
TEST_F(MatmulOps, EmptyOperands) {
  DeviceTensor x({3, 0}, ACL_FLOAT, {}), y({0, 2}, ACL_FLOAT, {});
  DeviceTensor out({3, 2}, ACL_FLOAT, std::vector<double>(6, 5));
  ASSERT_EQ(Mm(x, y, out), 0);
  EXPECT_EQ(out.Read(), std::vector<double>(6, 0));
  DeviceTensor e({0, 4}, ACL_FLOAT, {}), w({4, 2}, ACL_FLOAT, Values(8, 1));
  DeviceTensor none({0, 2}, ACL_FLOAT, {});
  uint64_t ws = 1;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(
      aclnnMatmulGetWorkspaceSize(e.get(), w.get(), none.get(), 0, &ws, &ex),
      0);
  EXPECT_EQ(ws, 0u);
  EXPECT_EQ(aclnnMatmul(nullptr, 0, ex, stream_), 0);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

// The error tables: 161001 for null self, mat2, out (and the outputs);
// 161002 for types and formats outside the lists, cubeMathType outside
// 0..4, KEEP_DTYPE with a FLOAT self and a FLOAT16 out, shapes that do not
// multiply, and out of another shape. A refused call writes nothing.
TEST_F(MatmulOps, RefusesWhatThePagesRefuse) {
  DeviceTensor a({2, 3}, ACL_FLOAT, Values(6, 1)),
      b({3, 4}, ACL_FLOAT, Values(12, 2));
  DeviceTensor out({2, 4}, ACL_FLOAT, std::vector<double>(8, 7));
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  for (PlanFn plan :
       {aclnnMatmulGetWorkspaceSize, aclnnMmGetWorkspaceSize,
        aclnnBatchMatMulGetWorkspaceSize, aclnnMatmulWeightNzGetWorkspaceSize,
        aclnnBatchMatMulWeightNzGetWorkspaceSize}) {
    EXPECT_EQ(plan(nullptr, b.get(), out.get(), 0, &ws, &e),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(a.get(), nullptr, out.get(), 0, &ws, &e),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(a.get(), b.get(), nullptr, 0, &ws, &e),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(a.get(), b.get(), out.get(), 0, nullptr, &e),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(plan(a.get(), b.get(), out.get(), 0, &ws, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
  }
  // Types outside BFLOAT16, FLOAT16, FLOAT.
  DeviceTensor i({2, 3}, ACL_INT32, Values(6, 1)),
      d({3, 4}, ACL_DOUBLE, Values(12, 2));
  DeviceTensor iout({2, 4}, ACL_INT32, std::vector<double>(8));
  EXPECT_EQ(PlanOnly(aclnnMatmulGetWorkspaceSize, i.get(), b.get(), out.get()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanOnly(aclnnMmGetWorkspaceSize, a.get(), d.get(), out.get()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanOnly(aclnnMmGetWorkspaceSize, a.get(), b.get(), iout.get()),
            ACLNN_ERR_PARAM_INVALID);
  // cubeMathType outside 0..4.
  for (int8_t mode : {-1, 5, 100}) {
    EXPECT_EQ(PlanOnly(aclnnMatmulGetWorkspaceSize, a.get(), b.get(), out.get(),
                       mode),
              ACLNN_ERR_PARAM_INVALID);
  }
  // KEEP_DTYPE: a FLOAT self cannot write a FLOAT16 out (other modes can).
  DeviceTensor hout({2, 4}, ACL_FLOAT16, std::vector<double>(8));
  EXPECT_EQ(PlanOnly(aclnnMmGetWorkspaceSize, a.get(), b.get(), hout.get(), 0),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanOnly(aclnnMmGetWorkspaceSize, a.get(), b.get(), hout.get(), 1),
            0);
  // The reduce dimensions differ.
  DeviceTensor b5({5, 4}, ACL_FLOAT, Values(20, 3));
  EXPECT_EQ(PlanOnly(aclnnMatmulGetWorkspaceSize, a.get(), b5.get(), out.get()),
            ACLNN_ERR_PARAM_INVALID);
  // out of another shape.
  DeviceTensor wrong({4, 2}, ACL_FLOAT, std::vector<double>(8));
  EXPECT_EQ(PlanOnly(aclnnMmGetWorkspaceSize, a.get(), b.get(), wrong.get()),
            ACLNN_ERR_PARAM_INVALID);
  // Dimension counts: Matmul 1 to 6, Mm 2, BatchMatMul 3.
  DeviceTensor scalar({}, ACL_FLOAT, {1});
  EXPECT_EQ(
      PlanOnly(aclnnMatmulGetWorkspaceSize, scalar.get(), b.get(), out.get()),
      ACLNN_ERR_PARAM_INVALID);
  DeviceTensor seven({1, 1, 1, 1, 1, 2, 3}, ACL_FLOAT, Values(6, 1));
  DeviceTensor out7({1, 1, 1, 1, 1, 2, 4}, ACL_FLOAT, std::vector<double>(8));
  EXPECT_EQ(
      PlanOnly(aclnnMatmulGetWorkspaceSize, seven.get(), b.get(), out7.get()),
      ACLNN_ERR_PARAM_INVALID);
  DeviceTensor a3({1, 2, 3}, ACL_FLOAT, Values(6, 1));
  DeviceTensor out3({1, 2, 4}, ACL_FLOAT, std::vector<double>(8));
  EXPECT_EQ(PlanOnly(aclnnMmGetWorkspaceSize, a3.get(), b.get(), out3.get()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      PlanOnly(aclnnBatchMatMulGetWorkspaceSize, a.get(), b.get(), out.get()),
      ACLNN_ERR_PARAM_INVALID);
  DeviceTensor b3({2, 3, 4}, ACL_FLOAT, Values(24, 2));
  DeviceTensor a23({3, 2, 3}, ACL_FLOAT, Values(18, 1));
  DeviceTensor o23({3, 2, 4}, ACL_FLOAT, std::vector<double>(24));
  EXPECT_EQ(PlanOnly(aclnnBatchMatMulGetWorkspaceSize, a23.get(), b3.get(),
                     o23.get()),
            ACLNN_ERR_PARAM_INVALID);  // batches 3 and 2
  // Formats: ND only (FRACTAL_NZ only for the WeightNz forms' mat2).
  FormatTensor nz_self(a, {2, 3}, {3, 1}, ACL_FORMAT_FRACTAL_NZ, {6});
  EXPECT_EQ(
      PlanOnly(aclnnMatmulGetWorkspaceSize, nz_self.get(), b.get(), out.get()),
      ACLNN_ERR_PARAM_INVALID);
  FormatTensor nz_b(b, {3, 4}, {4, 1}, ACL_FORMAT_FRACTAL_NZ, {12});
  EXPECT_EQ(PlanOnly(aclnnMmGetWorkspaceSize, a.get(), nz_b.get(), out.get()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanOnly(aclnnMatmulWeightNzGetWorkspaceSize, a.get(), b.get(),
                     out.get()),
            ACLNN_ERR_PARAM_INVALID);  // mat2 is ND
  // Nothing was written; the second phase refuses a null executor.
  EXPECT_EQ(out.Read(), std::vector<double>(8, 7));
  EXPECT_EQ(aclnnMatmul(nullptr, 0, nullptr, stream_), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclnnMm(nullptr, 0, nullptr, stream_), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclnnBatchMatMul(nullptr, 0, nullptr, stream_),
            ACLNN_ERR_INNER_NULLPTR);
}

// aclnnMatmulWeightNz.md: mat2 (k, n) in FRACTAL_NZ storage (n1, k1, 16,
// c0), c0 = 16 for 16-bit types and 8 for FLOAT; transposed (strides of an
// (n, k) matrix): (k1, n1, 16, c0) of mat2's transpose. k or n of 1 and a
// storage of another size are refused.
TEST_F(MatmulOps, MatmulWeightNzReadsTheFractalLayout) {
  const int64_t m = 9, k = 40, n = 37;
  for (aclDataType t : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    for (bool transposed : {false, true}) {
      SCOPED_TRACE(::testing::Message() << t << (transposed ? " T" : ""));
      const int64_t c0 = t == ACL_FLOAT ? 8 : 16;
      const auto a = Rounded(Values(m * k, 20), t);
      const auto b = Rounded(Values(k * n, 21), t);
      const auto stored =
          transposed ? ToNz(Transposed(b, k, n), n, k, c0) : ToNz(b, k, n, c0);
      DeviceTensor memory({static_cast<int64_t>(stored.size())}, t, stored);
      const std::vector<int64_t> storage =
          transposed
              ? std::vector<int64_t>{(k + c0 - 1) / c0, (n + 15) / 16, 16, c0}
              : std::vector<int64_t>{(n + c0 - 1) / c0, (k + 15) / 16, 16, c0};
      FormatTensor y(
          memory, {k, n},
          transposed ? std::vector<int64_t>{1, k} : std::vector<int64_t>{n, 1},
          ACL_FORMAT_FRACTAL_NZ, storage);
      DeviceTensor x({m, k}, t, a);
      DeviceTensor out({m, n}, t, std::vector<double>(m * n));
      ASSERT_EQ(Run(aclnnMatmulWeightNzGetWorkspaceSize, aclnnMatmulWeightNz,
                    x.get(), y.get(), out.get(), 0),
                0);
      ExpectNear(out.Read(), Rounded(Ref(a, b, m, k, n), t), t,
                 t == ACL_BF16 ? 8e-3 : 2e-3);
    }
  }
  // A storage of another dimension count or size; n = 1.
  DeviceTensor memory({16 * 16 * 3}, ACL_FLOAT16, Values(768, 1));
  DeviceTensor x({2, 40}, ACL_FLOAT16, Values(80, 2));
  DeviceTensor out({2, 16}, ACL_FLOAT16, std::vector<double>(32));
  FormatTensor good(memory, {40, 16}, {16, 1}, ACL_FORMAT_FRACTAL_NZ,
                    {1, 3, 16, 16});
  EXPECT_EQ(PlanOnly(aclnnMatmulWeightNzGetWorkspaceSize, x.get(), good.get(),
                     out.get()),
            0);
  FormatTensor three_dims(memory, {40, 16}, {16, 1}, ACL_FORMAT_FRACTAL_NZ,
                          {3, 16, 16});
  EXPECT_EQ(PlanOnly(aclnnMatmulWeightNzGetWorkspaceSize, x.get(),
                     three_dims.get(), out.get()),
            ACLNN_ERR_PARAM_INVALID);
  FormatTensor too_big(memory, {40, 16}, {16, 1}, ACL_FORMAT_FRACTAL_NZ,
                       {2, 3, 16, 16});
  EXPECT_EQ(PlanOnly(aclnnMatmulWeightNzGetWorkspaceSize, x.get(),
                     too_big.get(), out.get()),
            ACLNN_ERR_PARAM_INVALID);
  FormatTensor column(memory, {40, 1}, {1, 1}, ACL_FORMAT_FRACTAL_NZ,
                      {1, 3, 16, 16});
  DeviceTensor out1({2, 1}, ACL_FLOAT16, std::vector<double>(2));
  EXPECT_EQ(PlanOnly(aclnnMatmulWeightNzGetWorkspaceSize, x.get(), column.get(),
                     out1.get()),
            ACLNN_ERR_PARAM_INVALID);
}

// aclnnBatchMatMulWeightNz.md: self (b, m, k), mat2 (b, k, n) in storage
// (b, n1, k1, 16, 16), FLOAT16 or BFLOAT16 only; a batch of 1 broadcasts.
TEST_F(MatmulOps, BatchMatMulWeightNz) {
  const int64_t m = 5, k = 20, n = 18;
  const auto a = Rounded(Values(3 * m * k, 22), ACL_FLOAT16);
  const auto b = Rounded(Values(k * n, 23), ACL_FLOAT16);
  const auto stored = ToNz(b, k, n, 16);
  DeviceTensor memory({static_cast<int64_t>(stored.size())}, ACL_FLOAT16,
                      stored);
  FormatTensor y(memory, {1, k, n}, {k * n, n, 1}, ACL_FORMAT_FRACTAL_NZ,
                 {1, 2, 2, 16, 16});
  DeviceTensor x({3, m, k}, ACL_FLOAT16, a);
  DeviceTensor out({3, m, n}, ACL_FLOAT16, std::vector<double>(3 * m * n));
  ASSERT_EQ(Run(aclnnBatchMatMulWeightNzGetWorkspaceSize,
                aclnnBatchMatMulWeightNz, x.get(), y.get(), out.get(), 0),
            0);
  ExpectNear(out.Read(), Rounded(Ref(a, b, 3 * m, k, n), ACL_FLOAT16),
             ACL_FLOAT16, 2e-3);
  // FLOAT is not in its list.
  DeviceTensor f({3, m, k}, ACL_FLOAT, a);
  EXPECT_EQ(PlanOnly(aclnnBatchMatMulWeightNzGetWorkspaceSize, f.get(), y.get(),
                     out.get()),
            ACLNN_ERR_PARAM_INVALID);
}

// A repeatable executor runs again with new tensor addresses and another
// workspace; the same inputs give the same bits (deterministic).
TEST_F(MatmulOps, RepeatableExecutorAndDeterminism) {
  const int64_t m = 64, k = 300, n = 70;
  const auto a = Values(m * k, 30), b = Values(k * n, 31),
             a2 = Values(m * k, 32);
  DeviceTensor x({m, k}, ACL_FLOAT, a), y({k, n}, ACL_FLOAT, b),
      x2({m, k}, ACL_FLOAT, a2);
  DeviceTensor out({m, n}, ACL_FLOAT, std::vector<double>(m * n));
  uint64_t ws_size = 0;
  aclOpExecutor* e = nullptr;
  ASSERT_EQ(
      aclnnMatmulGetWorkspaceSize(x.get(), y.get(), out.get(), 0, &ws_size, &e),
      0);
  ASSERT_GT(ws_size, 0u);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(e), 0);
  void* ws1 = nullptr;
  void* ws2 = nullptr;
  ASSERT_EQ(aclrtMalloc(&ws1, ws_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&ws2, ws_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclnnMatmul(ws1, ws_size, e, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const auto first = out.Read();
  ExpectNear(first, Ref(a, b, m, k, n), ACL_FLOAT);
  ASSERT_EQ(aclnnMatmul(ws2, ws_size, e, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out.Read(), first);
  ASSERT_EQ(aclSetInputTensorAddr(e, 0, x2.get(), x2.data()), 0);
  ASSERT_EQ(aclnnMatmul(ws1, ws_size, e, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectNear(out.Read(), Ref(a2, b, m, k, n), ACL_FLOAT);
  // A workspace smaller than asked for is refused.
  EXPECT_EQ(aclnnMatmul(ws1, ws_size - 1, e, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyAclOpExecutor(e), 0);
  aclrtFree(ws1);
  aclrtFree(ws2);
}

// A matmul captured into a model replays with its workspace.
TEST_F(MatmulOps, CapturedMatmulReplays) {
  const auto a = Values(30 * 20, 40), b = Values(20 * 10, 41);
  DeviceTensor x({30, 20}, ACL_FLOAT, a), y({20, 10}, ACL_FLOAT, b);
  DeviceTensor out({30, 10}, ACL_FLOAT, std::vector<double>(300));
  uint64_t ws_size = 0;
  aclOpExecutor* e = nullptr;
  void* ws = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
            ACL_SUCCESS);
  ASSERT_EQ(
      aclnnMmGetWorkspaceSize(x.get(), y.get(), out.get(), 0, &ws_size, &e), 0);
  ASSERT_EQ(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclnnMm(ws, ws_size, e, stream_), 0);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectNear(out.Read(), Ref(a, b, 30, 20, 10), ACL_FLOAT);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  aclrtFree(ws);
}

// The kernel on its own, on every micro-kernel this CPU runs: the same
// problem (two batches, a broadcast B, a FLOAT16 out) against the reference.
class MatmulKernelTest : public ::testing::Test {};

TEST_F(MatmulKernelTest, EveryEngineMatchesTheReference) {
  const int64_t m = 50, k = 300, n = 70;
  const auto a = Values(2 * m * k, 50), b = Values(k * n, 51);
  std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
  for (MatmulEngine engine :
       {MatmulEngine::kGeneric, MatmulEngine::kAvx2, MatmulEngine::kAvx512}) {
    if (!MatmulEngineAvailable(engine)) continue;
    SCOPED_TRACE(static_cast<int>(engine));
    std::vector<uint16_t> c(static_cast<size_t>(2 * m * n));
    MatmulArgs args{};
    args.m = m;
    args.n = n;
    args.k = k;
    args.mc = 48;
    args.nc = 64;
    args.kc = 128;
    args.m_tiles = 2;
    args.n_tiles = 2;
    args.batches = 2;
    args.batch_dims = 1;
    args.batch_shape[0] = 2;
    args.engine = static_cast<int32_t>(engine);
    args.scratch_per_block = MatmulScratchBytes(48, 64, 128);
    std::vector<uint8_t> scratch(
        static_cast<size_t>(3 * args.scratch_per_block));
    args.scratch = reinterpret_cast<uint64_t>(scratch.data());
    args.a.addr = reinterpret_cast<uint64_t>(af.data());
    args.a.dtype = ACL_FLOAT;
    args.a.row_stride = k;
    args.a.col_stride = 1;
    args.a.batch_strides[0] = m * k;
    args.b.addr = reinterpret_cast<uint64_t>(bf.data());
    args.b.dtype = ACL_FLOAT;
    args.b.row_stride = n;
    args.b.col_stride = 1;
    args.c.addr = reinterpret_cast<uint64_t>(c.data());
    args.c.dtype = ACL_FLOAT16;
    args.c.row_stride = n;
    args.c.col_stride = 1;
    args.c.batch_strides[0] = m * n;
    for (uint32_t block = 0; block < 3; ++block) {
      aclsimKernelContext ctx{};
      ctx.blockIdx = block;
      ctx.blockNum = 3;
      MatmulKernel(&ctx, &args);
    }
    std::vector<double> got(c.size());
    for (size_t i = 0; i < c.size(); ++i) got[i] = HalfToFloat(c[i]);
    ExpectNear(got, Rounded(Ref(a, b, 2 * m, k, n), ACL_FLOAT16), ACL_FLOAT16);
  }
}

}  // namespace
}  // namespace ascend::nn::testing
