// Softmax, LayerNorm, LayerNormWithImplMode, FastLayerNorm, RmsNorm
// (aclnnop/aclnn_softmax.h, aclnn_layer_norm.h, aclnn_rms_norm.h): the
// checks of their pages in hicann/ops-nn
// (activation/softmax_v2/docs/aclnnSoftmax.md,
// norm/layer_norm_v4/docs/aclnnLayerNorm&aclnnLayerNormWithImplMode.md and
// aclnnFastLayerNorm.md, norm/rms_norm/docs/aclnnRmsNorm.md), then one
// normalisation launch (norm.h).
#include <memory>
#include <string>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/checks.h"
#include "aclnn/opapi/norm.h"
#include "aclnn/opapi/reduce.h"
#include "aclnn/opapi/second_phase.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"

namespace ascend::nn {
namespace {

constexpr DtypeList kSoftmaxTypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE,
                                     ACL_BF16};
constexpr DtypeList kNormTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
// aclnnFastLayerNorm.md: the most elements a normalised slice may hold.
constexpr int64_t kFastLayerNormMax = 583705600;

aclnnStatus Finish(aclOpExecutor* raw, uint64_t* workspace_size,
                   aclOpExecutor** executor) {
  *workspace_size = raw->workspace_size;
  *executor = raw;
  return ACLNN_SUCCESS;
}

// aclnnSoftmax.md: self and out non-null; both in the list; dim in
// [-rank, rank - 1] (a 0-d self counts as rank 1); at most 8 dimensions;
// out of self's shape.
aclnnStatus PlanSoftmax(const char* api, const aclTensor* self, int64_t dim,
                        const aclTensor* out, uint64_t* workspace_size,
                        aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(api, {{"self", self}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "self", self));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  ACLNN_CHECK(CheckDtype(api, "self", self->dtype, kSoftmaxTypes));
  ACLNN_CHECK(CheckDtype(api, "out", out->dtype, kSoftmaxTypes));
  std::vector<bool> axes;
  ACLNN_CHECK(ReduceAxes(api, "dim", self, {dim}, false, &axes));
  ACLNN_CHECK(CheckMaxDims(api, "self", self, kMaxDims));
  ACLNN_CHECK(CheckShape(api, "out", out, self->view_shape));
  ACLNN_CHECK(CheckPlainFormat(api, "self", self));
  ACLNN_CHECK(CheckPlainFormat(api, "out", out));
  auto e = std::make_unique<aclOpExecutor>(api);
  NormPlan p{NormOp::kSoftmax,
             self->dtype == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT, 0, axes};
  p.x = NormTensor{self, Base::kInput, e->AddInput(self)};
  p.y = NormTensor{out, Base::kOutput, e->AddOutput(out)};
  PlanNorm(*e, p);
  return Finish(e.release(), workspace_size, executor);
}

aclnnStatus CheckOptional(const char* api, const char* name,
                          const aclTensor* t) {
  if (t == nullptr) return ACLNN_SUCCESS;
  ACLNN_CHECK(CheckTensor(api, name, t));
  ACLNN_CHECK(CheckMaxDims(api, name, t, kMaxDims));
  return CheckPlainFormat(api, name, t);
}

// weight and bias: in the list, of input's type or FLOAT, and the same
// type when both are given.
aclnnStatus CheckAffineTypes(const char* api, const aclTensor* input,
                             const aclTensor* weight, const aclTensor* bias) {
  const std::pair<const char*, const aclTensor*> params[] = {
      {"weightOptional", weight}, {"biasOptional", bias}};
  for (const auto& [name, t] : params) {
    if (t == nullptr) continue;
    ACLNN_CHECK(CheckDtype(api, name, t->dtype, kNormTypes));
    if (t->dtype != ACL_FLOAT && t->dtype != input->dtype) {
      return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                    std::string(name) + " has type " + DtypeName(t->dtype) +
                        "; it must be input's type " + DtypeName(input->dtype) +
                        " or FLOAT");
    }
  }
  if (weight != nullptr && bias != nullptr && weight->dtype != bias->dtype) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string("weightOptional (") + DtypeName(weight->dtype) +
                      ") and biasOptional (" + DtypeName(bias->dtype) +
                      ") must have the same type");
  }
  return ACLNN_SUCCESS;
}

// aclnnLayerNorm&aclnnLayerNormWithImplMode.md and aclnnFastLayerNorm.md.
aclnnStatus PlanLayerNorm(const char* api, const aclTensor* input,
                          const aclIntArray* normalized,
                          const aclTensor* weight, const aclTensor* bias,
                          double eps, const aclTensor* out,
                          const aclTensor* mean, const aclTensor* rstd,
                          int32_t impl_mode, bool fast,
                          uint64_t* workspace_size, aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(
      api, {{"input", input}, {"normalizedShape", normalized}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "input", input));
  ACLNN_CHECK(CheckIntArray(api, "normalizedShape", normalized));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  // Types: the inputs, then the outputs.
  ACLNN_CHECK(CheckDtype(api, "input", input->dtype, kNormTypes));
  for (const auto& [name, t] : {std::make_pair("weightOptional", weight),
                                std::make_pair("biasOptional", bias)}) {
    if (t != nullptr) ACLNN_CHECK(CheckTensor(api, name, t));
  }
  ACLNN_CHECK(CheckAffineTypes(api, input, weight, bias));
  ACLNN_CHECK(CheckDtype(api, "out", out->dtype, kNormTypes));
  for (const auto& [name, t] : {std::make_pair("meanOutOptional", mean),
                                std::make_pair("rstdOutOptional", rstd)}) {
    if (t == nullptr) continue;
    ACLNN_CHECK(CheckTensor(api, name, t));
    ACLNN_CHECK(CheckDtype(api, name, t->dtype, kNormTypes));
  }
  // Shapes.
  ACLNN_CHECK(CheckMaxDims(api, "input", input, kMaxDims));
  ACLNN_CHECK(CheckMaxDims(api, "out", out, kMaxDims));
  ACLNN_CHECK(CheckOptional(api, "weightOptional", weight));
  ACLNN_CHECK(CheckOptional(api, "biasOptional", bias));
  ACLNN_CHECK(CheckOptional(api, "meanOutOptional", mean));
  ACLNN_CHECK(CheckOptional(api, "rstdOutOptional", rstd));
  const std::vector<int64_t>& norm = normalized->values;
  const auto len = static_cast<int64_t>(norm.size());
  if (len < 1 || len > kMaxDims || len > input->Dims()) {
    return Refuse(
        api, ACLNN_ERR_PARAM_INVALID,
        "normalizedShape has " + std::to_string(len) +
            " entries; it must have 1 to " +
            std::to_string(std::min<int64_t>(kMaxDims, input->Dims())) +
            " (at most input's rank " + std::to_string(input->Dims()) +
            " and 8)");
  }
  const int64_t begin = input->Dims() - len;
  const std::vector<int64_t> trailing(input->view_shape.begin() + begin,
                                      input->view_shape.end());
  if (trailing != norm) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "normalizedShape " + ShapeString(norm) +
                      " is not input's trailing shape " +
                      ShapeString(trailing));
  }
  if (weight != nullptr) {
    ACLNN_CHECK(CheckShape(api, "weightOptional", weight, norm));
  }
  if (bias != nullptr) ACLNN_CHECK(CheckShape(api, "biasOptional", bias, norm));
  ACLNN_CHECK(CheckShape(api, "out", out, input->view_shape));
  std::vector<int64_t> stats = input->view_shape;
  for (int64_t d = begin; d < input->Dims(); ++d) stats[d] = 1;
  for (const auto& [name, t] : {std::make_pair("meanOutOptional", mean),
                                std::make_pair("rstdOutOptional", rstd)}) {
    if (t != nullptr && t->Numel() > 0) {
      ACLNN_CHECK(CheckShape(api, name, t, stats));
    }
  }
  if (impl_mode < 0 || impl_mode > 2) {
    return Refuse(
        api, ACLNN_ERR_PARAM_INVALID,
        "implMode is " + std::to_string(impl_mode) + "; it must be 0, 1 or 2");
  }
  if (impl_mode == 2 && (input->dtype != ACL_FLOAT16 ||
                         (weight != nullptr && weight->dtype != ACL_FLOAT16) ||
                         (bias != nullptr && bias->dtype != ACL_FLOAT16))) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "implMode 2 keeps FLOAT16 and needs every input FLOAT16");
  }
  ACLNN_CHECK(CheckPlainFormat(api, "input", input));
  ACLNN_CHECK(CheckPlainFormat(api, "out", out));
  int64_t n = 1;
  for (int64_t s : norm) n *= s;
  if (fast && n > kFastLayerNormMax) {
    return Refuse(api, ACLNN_ERR_INNER_NULLPTR,
                  "normalizedShape holds " + std::to_string(n) +
                      " elements; at most 583705600 are allowed");
  }

  auto e = std::make_unique<aclOpExecutor>(api);
  std::vector<bool> rows(input->view_shape.size(), false);
  for (int64_t d = begin; d < input->Dims(); ++d) rows[d] = true;
  NormPlan p{NormOp::kLayerNorm, ACL_FLOAT, eps, rows};
  p.x = NormTensor{input, Base::kInput, e->AddInput(input)};
  p.weight = NormTensor{weight, Base::kInput, e->AddInput(weight)};
  p.bias = NormTensor{bias, Base::kInput, e->AddInput(bias)};
  p.y = NormTensor{out, Base::kOutput, e->AddOutput(out)};
  p.mean = NormTensor{mean, Base::kOutput, e->AddOutput(mean)};
  p.rstd = NormTensor{rstd, Base::kOutput, e->AddOutput(rstd)};
  PlanNorm(*e, p);
  return Finish(e.release(), workspace_size, executor);
}

// aclnnRmsNorm.md: the types of its table (161002); the shapes of its
// parameter table (561002).
aclnnStatus PlanRmsNorm(const char* api, const aclTensor* x,
                        const aclTensor* gamma, double epsilon,
                        const aclTensor* y, const aclTensor* rstd,
                        uint64_t* workspace_size, aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(
      api, {{"x", x}, {"gamma", gamma}, {"yOut", y}, {"rstdOut", rstd}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "x", x));
  ACLNN_CHECK(CheckTensor(api, "gamma", gamma));
  ACLNN_CHECK(CheckTensor(api, "yOut", y));
  ACLNN_CHECK(CheckTensor(api, "rstdOut", rstd));
  ACLNN_CHECK(CheckDtype(api, "x", x->dtype, kNormTypes));
  ACLNN_CHECK(CheckDtype(api, "gamma", gamma->dtype, kNormTypes));
  ACLNN_CHECK(CheckDtype(api, "yOut", y->dtype, kNormTypes));
  ACLNN_CHECK(CheckDtype(api, "rstdOut", rstd->dtype, {ACL_FLOAT}));
  // The table's rows: y has x's type; gamma has x's type or FLOAT.
  if (y->dtype != x->dtype ||
      (gamma->dtype != x->dtype && gamma->dtype != ACL_FLOAT)) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string("x ") + DtypeName(x->dtype) + ", gamma " +
                      DtypeName(gamma->dtype) + ", yOut " +
                      DtypeName(y->dtype) +
                      " is not a row of the page's type table");
  }
  for (const auto& [name, t] :
       {std::make_pair("x", x), std::make_pair("gamma", gamma),
        std::make_pair("yOut", y), std::make_pair("rstdOut", rstd)}) {
    ACLNN_CHECK(CheckPlainFormat(api, name, t));
  }
  auto shape_error = [&](const std::string& why) {
    return Refuse(api, ACLNN_ERR_INNER_TILING_ERROR, why);
  };
  if (x->Dims() < 1 || x->Dims() > kMaxDims) {
    return shape_error("x has " + std::to_string(x->Dims()) +
                       " dimensions; it must have 1 to 8");
  }
  if (gamma->Dims() < 1 || gamma->Dims() > x->Dims() || gamma->Numel() == 0) {
    return shape_error("gamma has shape " + ShapeString(gamma->view_shape) +
                       "; it must be non-empty with 1 to x's " +
                       std::to_string(x->Dims()) + " dimensions");
  }
  const int64_t begin = x->Dims() - gamma->Dims();
  const std::vector<int64_t> trailing(x->view_shape.begin() + begin,
                                      x->view_shape.end());
  if (trailing != gamma->view_shape) {
    return shape_error("gamma's shape " + ShapeString(gamma->view_shape) +
                       " is not x's trailing shape " + ShapeString(trailing));
  }
  if (y->view_shape != x->view_shape) {
    return shape_error("yOut has shape " + ShapeString(y->view_shape) +
                       "; it must be x's " + ShapeString(x->view_shape));
  }
  std::vector<int64_t> stats = x->view_shape;
  for (int64_t d = begin; d < x->Dims(); ++d) stats[d] = 1;
  if (rstd->view_shape != stats) {
    return shape_error("rstdOut has shape " + ShapeString(rstd->view_shape) +
                       "; it must be " + ShapeString(stats));
  }

  auto e = std::make_unique<aclOpExecutor>(api);
  std::vector<bool> rows(x->view_shape.size(), false);
  for (int64_t d = begin; d < x->Dims(); ++d) rows[d] = true;
  NormPlan p{NormOp::kRmsNorm, ACL_FLOAT, epsilon, rows};
  p.x = NormTensor{x, Base::kInput, e->AddInput(x)};
  p.weight = NormTensor{gamma, Base::kInput, e->AddInput(gamma)};
  p.y = NormTensor{y, Base::kOutput, e->AddOutput(y)};
  p.rstd = NormTensor{rstd, Base::kOutput, e->AddOutput(rstd)};
  PlanNorm(*e, p);
  return Finish(e.release(), workspace_size, executor);
}

}  // namespace
}  // namespace ascend::nn

extern "C" {

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                         aclTensor* out,
                                         uint64_t* workspaceSize,
                                         aclOpExecutor** executor) try {
  return ascend::nn::PlanSoftmax(__func__, self, dim, out, workspaceSize,
                                 executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnLayerNormGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape,
    const aclTensor* weightOptional, const aclTensor* biasOptional, double eps,
    aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
    uint64_t* workspaceSize, aclOpExecutor** executor) try {
  return ascend::nn::PlanLayerNorm(
      __func__, input, normalizedShape, weightOptional, biasOptional, eps, out,
      meanOutOptional, rstdOutOptional, 0, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape,
    const aclTensor* weightOptional, const aclTensor* biasOptional, double eps,
    aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
    int32_t implMode, uint64_t* workspaceSize, aclOpExecutor** executor) try {
  return ascend::nn::PlanLayerNorm(__func__, input, normalizedShape,
                                   weightOptional, biasOptional, eps, out,
                                   meanOutOptional, rstdOutOptional, implMode,
                                   false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnFastLayerNormGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape,
    const aclTensor* weightOptional, const aclTensor* biasOptional, double eps,
    aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
    uint64_t* workspaceSize, aclOpExecutor** executor) try {
  return ascend::nn::PlanLayerNorm(
      __func__, input, normalizedShape, weightOptional, biasOptional, eps, out,
      meanOutOptional, rstdOutOptional, 0, true, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x,
                                         const aclTensor* gamma, double epsilon,
                                         const aclTensor* yOut,
                                         const aclTensor* rstdOut,
                                         uint64_t* workspaceSize,
                                         aclOpExecutor** executor) try {
  return ascend::nn::PlanRmsNorm(__func__, x, gamma, epsilon, yOut, rstdOut,
                                 workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"

ACLNN_SECOND_PHASE(aclnnSoftmax)
ACLNN_SECOND_PHASE(aclnnLayerNorm)
ACLNN_SECOND_PHASE(aclnnLayerNormWithImplMode)
ACLNN_SECOND_PHASE(aclnnFastLayerNorm)
ACLNN_SECOND_PHASE(aclnnRmsNorm)
