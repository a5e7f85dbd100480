// Matmul, MatmulWeightNz, Mm, BatchMatMul, BatchMatMulWeightNz
// (aclnnop/aclnn_matmul.h, aclnn_mm.h, aclnn_batch_matmul.h): the checks of
// their pages in hicann/ops-nn (matmul/mat_mul_v3/docs/aclnnMatmul.md,
// aclnnMatmulWeightNz.md, aclnnMm.md, matmul/batch_mat_mul_v3/docs/
// aclnnBatchMatMul.md, aclnnBatchMatMulWeightNz.md) for Atlas A2, then one
// launch of the matrix-multiply kernel (DESIGN.md §5.26).
//
// cubeMathType on the simulator: FLOAT inputs (or inputs that promote to
// FLOAT) are rounded to HFLOAT32 for 1 (ALLOW_FP32_DOWN_PRECISION) and 3
// (USE_HF32), to FLOAT16 for 2 (USE_FP16), and used as they are for 0
// (KEEP_DTYPE) and 4 (USE_FP32_ADD, whose grouped accumulation every step
// of the kernel already does). FLOAT16 and BFLOAT16 inputs are used as they
// are whatever the mode (the pages: the option "does nothing" or "is not
// supported" for them; CANN logs a warning and computes, as this does).
// Products accumulate in FLOAT and round once to out's type.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/checks.h"
#include "aclnn/opapi/matmul_plan.h"
#include "aclnn/opapi/second_phase.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"

namespace ascend::nn {
namespace {

enum class MatmulForm {
  kMatmul,
  kMatmulWeightNz,
  kMm,
  kBatchMatMul,
  kBmmWeightNz
};

bool IsNz(MatmulForm f) {
  return f == MatmulForm::kMatmulWeightNz || f == MatmulForm::kBmmWeightNz;
}

// cubeMathType's values (the pages' parameter tables).
constexpr int8_t kKeepDtype = 0;
constexpr int8_t kUseFp16 = 2;
constexpr int8_t kUseHf32 = 3;
constexpr int8_t kUseFp32Add = 4;

constexpr DtypeList kMatmulTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeList kHalfTypes = {ACL_FLOAT16, ACL_BF16};

void LogWarning(const char* api, const std::string& message) {
  aclAppLog(ACL_WARNING, api, __FILE__, __LINE__, "%s: %s", api,
            message.c_str());
}

std::string Dims(const aclTensor* t) { return ShapeString(t->view_shape); }

aclnnStatus Invalid(const char* api, const std::string& message) {
  return Refuse(api, ACLNN_ERR_PARAM_INVALID, message);
}

// The type the inputs multiply in and how they are rounded.
aclnnStatus ResolveTypes(const char* api, MatmulForm form, const aclTensor* a,
                         const aclTensor* b, const aclTensor* out,
                         int8_t cube_math_type, MatmulRounding* rounding) {
  const DtypeList& inputs =
      form == MatmulForm::kBmmWeightNz ? kHalfTypes : kMatmulTypes;
  ACLNN_CHECK(CheckDtype(api, "self", a->dtype, inputs));
  ACLNN_CHECK(CheckDtype(api, "mat2", b->dtype, inputs));
  ACLNN_CHECK(CheckDtype(api, "out", out->dtype, inputs));
  if (cube_math_type < kKeepDtype || cube_math_type > kUseFp32Add) {
    return Invalid(api, "cubeMathType " + std::to_string(cube_math_type) +
                            " is not one of 0 (KEEP_DTYPE), 1 "
                            "(ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16), 3 "
                            "(USE_HF32), 4 (USE_FP32_ADD)");
  }
  // aclnnMatmul.md, aclnnMatmulWeightNz.md, aclnnBatchMatMulWeightNz.md:
  // BFLOAT16 does not promote with FLOAT16 (nor, for Matmul, with FLOAT)
  // on Atlas A2. Mm and BatchMatMul promote them to FLOAT.
  const bool mixed_bf16 =
      a->dtype != b->dtype && (a->dtype == ACL_BF16 || b->dtype == ACL_BF16);
  if (mixed_bf16 && form != MatmulForm::kMm &&
      form != MatmulForm::kBatchMatMul) {
    return Invalid(api, std::string("self (") + DtypeName(a->dtype) +
                            ") and mat2 (" + DtypeName(b->dtype) +
                            ") have no common type: BFLOAT16 does not "
                            "promote with another type here");
  }
  const aclDataType promoted = PromoteTypes(a->dtype, b->dtype);
  // KEEP_DTYPE keeps FLOAT: a FLOAT self cannot give a FLOAT16 out.
  if (cube_math_type == kKeepDtype && a->dtype == ACL_FLOAT &&
      out->dtype == ACL_FLOAT16) {
    return Invalid(api,
                   "with cubeMathType 0 (KEEP_DTYPE) a FLOAT self needs a "
                   "FLOAT or BFLOAT16 out, not FLOAT16");
  }
  ACLNN_CHECK(CheckCastable(api, "out", promoted, out));
  *rounding = MatmulRounding::kNone;
  if (promoted == ACL_FLOAT) {
    if (cube_math_type == 1 || cube_math_type == kUseHf32) {
      *rounding = MatmulRounding::kHf32;
    } else if (cube_math_type == kUseFp16) {
      *rounding = MatmulRounding::kFp16;
    }
  } else if (cube_math_type == kUseHf32) {
    LogWarning(api, "cubeMathType 3 (USE_HF32) has no effect on " +
                        std::string(DtypeName(promoted)) + " inputs");
  } else if (cube_math_type == kUseFp16 && promoted == ACL_BF16) {
    LogWarning(api,
               "cubeMathType 2 (USE_FP16) has no effect on BFLOAT16 inputs");
  }
  return ACLNN_SUCCESS;
}

// Strides of t's dimensions d0 (rows) and d1 (columns); a negative
// dimension stands for "none" (stride 0).
int64_t StrideOf(const aclTensor* t, int64_t d) {
  return d >= 0 ? t->strides[static_cast<size_t>(d)] : 0;
}

// t's batch dimensions (all but the last `matrix_dims`) as strides over
// the broadcast batch shape: aligned right, 0 where t's size is 1 (or t
// lacks the dimension).
std::vector<int64_t> BatchStrides(const aclTensor* t, int64_t matrix_dims,
                                  const std::vector<int64_t>& batch) {
  const int64_t own = t->Dims() - matrix_dims;
  std::vector<int64_t> s(batch.size(), 0);
  for (size_t i = 0; i < batch.size(); ++i) {
    const int64_t j =
        static_cast<int64_t>(i) - (static_cast<int64_t>(batch.size()) - own);
    if (j < 0) continue;
    const auto sj = static_cast<size_t>(j);
    if (t->view_shape[sj] != 1 || batch[i] == 1) s[i] = t->strides[sj];
  }
  return s;
}

// The batch dimensions of t (all but the last `matrix_dims`).
std::vector<int64_t> BatchShape(const aclTensor* t, int64_t matrix_dims) {
  const int64_t own = t->Dims() - matrix_dims;
  return std::vector<int64_t>(t->view_shape.begin(),
                              t->view_shape.begin() + (own > 0 ? own : 0));
}

aclnnStatus CheckFormats(const char* api, MatmulForm form, const aclTensor* a,
                         const aclTensor* b, const aclTensor* out) {
  ACLNN_CHECK(CheckPlainFormat(api, "self", a));
  ACLNN_CHECK(CheckPlainFormat(api, "out", out));
  if (!IsNz(form)) return CheckPlainFormat(api, "mat2", b);
  if (b->format != ACL_FORMAT_FRACTAL_NZ) {
    return Invalid(api, "mat2 has format " + std::to_string(b->format) +
                            "; it must be FRACTAL_NZ (29), as "
                            "aclnnTransMatmulWeight leaves it");
  }
  return ACLNN_SUCCESS;
}

// mat2 of a WeightNz form: the view (.., k, n), transposed when its strides
// are those of an (n, k) matrix; the storage holds the fractals.
aclnnStatus DescribeNz(const char* api, const aclTensor* b, int64_t batch,
                       MatmulView* v) {
  const size_t d = b->view_shape.size();
  const int64_t k = b->view_shape[d - 2];
  const int64_t n = b->view_shape[d - 1];
  if (k == 1 || n == 1) {
    return Invalid(api, "mat2 " + Dims(b) +
                            " has k or n of 1, which FRACTAL_NZ does not take");
  }
  const bool transposed = b->strides[d - 2] == 1 && b->strides[d - 1] == k;
  const int64_t c0 = b->dtype == ACL_FLOAT ? 8 : 16;
  const int64_t rows = transposed ? n : k;  // of the stored matrix
  const int64_t cols = transposed ? k : n;
  const int64_t row_blocks = (rows + 15) / 16;
  const int64_t per_batch = (cols + c0 - 1) / c0 * row_blocks * 16 * c0;
  const size_t storage_dims = d + 2;
  if (b->storage_shape.size() != storage_dims ||
      b->StorageNumel() != batch * per_batch) {
    return Invalid(api, "mat2's storage " + ShapeString(b->storage_shape) +
                            " is not the FRACTAL_NZ storage of " + Dims(b) +
                            " (" + std::to_string(storage_dims) +
                            " dimensions, " +
                            std::to_string(batch * per_batch) + " elements)");
  }
  v->nz = true;
  v->nz_transposed = transposed;
  v->nz_row_blocks = row_blocks;
  v->nz_c0 = c0;
  v->row_stride = 0;
  v->col_stride = 0;
  v->batch_strides.assign(d - 2, batch > 1 ? per_batch : 0);
  return ACLNN_SUCCESS;
}

aclnnStatus Plan(MatmulForm form, const char* api, const aclTensor* self,
                 const aclTensor* mat2, const aclTensor* out,
                 int8_t cube_math_type, uint64_t* workspace_size,
                 aclOpExecutor** executor) {
  ACLNN_CHECK(
      CheckNotNull(api, {{"self", self}, {"mat2", mat2}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "self", self));
  ACLNN_CHECK(CheckTensor(api, "mat2", mat2));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  MatmulRounding rounding = MatmulRounding::kNone;
  ACLNN_CHECK(
      ResolveTypes(api, form, self, mat2, out, cube_math_type, &rounding));

  // Shapes: dimension counts, the reduce dimension, the batch broadcast
  // and out's shape.
  const int64_t ds = self->Dims();
  const int64_t dm = mat2->Dims();
  int64_t lo = 1, hi = 6;  // aclnnMatmul.md: 1 to 6 dimensions
  if (form == MatmulForm::kMm || form == MatmulForm::kMatmulWeightNz) {
    lo = hi = 2;
  } else if (form == MatmulForm::kBatchMatMul ||
             form == MatmulForm::kBmmWeightNz) {
    lo = hi = 3;
  }
  for (const auto& [name, t] :
       {std::pair<const char*, const aclTensor*>{"self", self},
        {"mat2", mat2}}) {
    if (t->Dims() < lo || t->Dims() > hi) {
      return Invalid(
          api,
          std::string(name) + " " + Dims(t) + " has " +
              std::to_string(t->Dims()) + " dimensions; it must have " +
              (lo == hi ? std::to_string(lo)
                        : std::to_string(lo) + " to " + std::to_string(hi)));
    }
  }
  const int64_t k = self->view_shape.back();
  const int64_t k2 =
      mat2->view_shape[static_cast<size_t>(dm >= 2 ? dm - 2 : 0)];
  if (k != k2) {
    return Invalid(api, "the reduce dimensions differ: self " + Dims(self) +
                            ", mat2 " + Dims(mat2));
  }
  std::vector<int64_t> batch;
  if (form == MatmulForm::kBatchMatMul || form == MatmulForm::kBmmWeightNz) {
    const int64_t b0 = self->view_shape[0];
    const int64_t b1 = mat2->view_shape[0];
    if (b0 != b1 && b0 != 1 && b1 != 1) {
      return Invalid(api, "the batches of self " + Dims(self) + " and mat2 " +
                              Dims(mat2) + " differ and neither is 1");
    }
    batch = {b0 == 1 ? b1 : b0};
  } else {
    ACLNN_CHECK(BroadcastShapes(api, "self's batch", BatchShape(self, 2),
                                "mat2's batch", BatchShape(mat2, 2), &batch));
  }
  const int64_t m = ds >= 2 ? self->view_shape[static_cast<size_t>(ds - 2)] : 1;
  const int64_t n = dm >= 2 ? mat2->view_shape.back() : 1;
  std::vector<int64_t> out_shape = batch;
  if (ds >= 2) out_shape.push_back(m);
  if (dm >= 2) out_shape.push_back(n);
  ACLNN_CHECK(CheckShape(api, "out", out, out_shape));
  ACLNN_CHECK(CheckFormats(api, form, self, mat2, out));

  auto e = std::make_unique<aclOpExecutor>(api);
  MatmulProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.batch_shape = batch;
  p.rounding = rounding;
  const auto nb = static_cast<int64_t>(batch.size());
  p.a.tensor = self;
  p.a.index = e->AddInput(self);
  p.a.row_stride = StrideOf(self, ds >= 2 ? ds - 2 : -1);
  p.a.col_stride = StrideOf(self, ds - 1);
  p.a.batch_strides = BatchStrides(self, 2, batch);
  p.b.tensor = mat2;
  p.b.index = e->AddInput(mat2);
  if (IsNz(form)) {
    int64_t stored_batches = 1;
    for (int64_t s : BatchShape(mat2, 2)) stored_batches *= s;
    ACLNN_CHECK(DescribeNz(api, mat2, stored_batches, &p.b));
  } else {
    p.b.row_stride = StrideOf(mat2, dm >= 2 ? dm - 2 : 0);
    p.b.col_stride = StrideOf(mat2, dm >= 2 ? dm - 1 : -1);
    p.b.batch_strides = BatchStrides(mat2, 2, batch);
  }
  p.c.tensor = out;
  p.c.base = Base::kOutput;
  p.c.index = e->AddOutput(out);
  p.c.row_stride = StrideOf(out, ds >= 2 ? nb : -1);
  p.c.col_stride = StrideOf(out, dm >= 2 ? nb + (ds >= 2 ? 1 : 0) : -1);
  p.c.batch_strides.assign(out->strides.begin(), out->strides.begin() + nb);
  PlanMatmulLaunch(*e, std::move(p));
  *workspace_size = e->workspace_size;
  *executor = e.release();
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace ascend::nn

using ascend::nn::MatmulForm;
using ascend::nn::Plan;

extern "C" {

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self,
                                        const aclTensor* mat2, aclTensor* out,
                                        int8_t cubeMathType,
                                        uint64_t* workspaceSize,
                                        aclOpExecutor** executor) try {
  return Plan(MatmulForm::kMatmul, __func__, self, mat2, out, cubeMathType,
              workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnMatmulWeightNzGetWorkspaceSize(const aclTensor* self,
                                                const aclTensor* mat2,
                                                aclTensor* out,
                                                int8_t cubeMathType,
                                                uint64_t* workspaceSize,
                                                aclOpExecutor** executor) try {
  return Plan(MatmulForm::kMatmulWeightNz, __func__, self, mat2, out,
              cubeMathType, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self,
                                    const aclTensor* mat2, aclTensor* out,
                                    int8_t cubeMathType,
                                    uint64_t* workspaceSize,
                                    aclOpExecutor** executor) try {
  return Plan(MatmulForm::kMm, __func__, self, mat2, out, cubeMathType,
              workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self,
                                             const aclTensor* mat2,
                                             aclTensor* out,
                                             int8_t cubeMathType,
                                             uint64_t* workspaceSize,
                                             aclOpExecutor** executor) try {
  return Plan(MatmulForm::kBatchMatMul, __func__, self, mat2, out, cubeMathType,
              workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnBatchMatMulWeightNzGetWorkspaceSize(
    const aclTensor* self, const aclTensor* mat2, aclTensor* out,
    int8_t cubeMathType, uint64_t* workspaceSize,
    aclOpExecutor** executor) try {
  return Plan(MatmulForm::kBmmWeightNz, __func__, self, mat2, out, cubeMathType,
              workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"

ACLNN_SECOND_PHASE(aclnnMatmul)
ACLNN_SECOND_PHASE(aclnnMatmulWeightNz)
ACLNN_SECOND_PHASE(aclnnMm)
ACLNN_SECOND_PHASE(aclnnBatchMatMul)
ACLNN_SECOND_PHASE(aclnnBatchMatMulWeightNz)
