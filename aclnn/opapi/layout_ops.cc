// Cat and Permute (aclnnop/aclnn_cat.h, aclnn_permute.h): the checks of
// their pages in hicann/ops-math (conversion/concat_d/docs/aclnnCat.md,
// conversion/transpose/docs/aclnnPermute.md) for Atlas A2, then strided
// copies (DESIGN.md §5.26). Elements that keep their type move bit for bit
// (complex ones included); Cat's inputs of another type than out convert
// through the list's promoted type, as CANN's Cast-then-ConcatD-then-Cast
// does (when that differs from converting directly, through the workspace).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/checks.h"
#include "aclnn/opapi/copy.h"
#include "aclnn/opapi/elementwise.h"
#include "aclnn/opapi/second_phase.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_permute.h"

namespace ascend::nn {
namespace {

// aclnnCat.md, Atlas A2.
constexpr DtypeList kCatTypes = {
    ACL_FLOAT, ACL_FLOAT16, ACL_INT32,  ACL_INT64,     ACL_INT16, ACL_INT8,
    ACL_UINT8, ACL_BOOL,    ACL_DOUBLE, ACL_COMPLEX64, ACL_BF16};
// aclnnPermute.md, Atlas A2.
constexpr DtypeList kPermuteTypes = {
    ACL_FLOAT,  ACL_FLOAT16, ACL_DOUBLE,    ACL_UINT64,     ACL_INT64,
    ACL_UINT32, ACL_INT32,   ACL_UINT16,    ACL_INT16,      ACL_UINT8,
    ACL_INT8,   ACL_BOOL,    ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus Invalid(const char* api, const std::string& message) {
  return Refuse(api, ACLNN_ERR_PARAM_INVALID, message);
}

bool IsPrivateFormat(aclFormat f) {
  switch (f) {
    case ACL_FORMAT_ND:
    case ACL_FORMAT_NCHW:
    case ACL_FORMAT_NHWC:
    case ACL_FORMAT_HWCN:
    case ACL_FORMAT_NDHWC:
    case ACL_FORMAT_NCDHW:
    case ACL_FORMAT_NCL:
    case ACL_FORMAT_NC:
      return false;
    default:
      return true;
  }
}

// The type a conversion from `from` to `to` computes in: values of both
// survive it.
aclDataType ConvertCompute(aclDataType from, aclDataType to) {
  if (from == ACL_DOUBLE || to == ACL_DOUBLE) return ACL_DOUBLE;
  if (IsFloating(from) || IsFloating(to)) return ACL_FLOAT;
  return ACL_INT64;
}

// Bits of magnitude an integer type holds, and of precision a floating one.
int ValueBits(aclDataType t) {
  switch (t) {
    case ACL_INT8:
      return 7;
    case ACL_UINT8:
    case ACL_BF16:
      return 8;
    case ACL_FLOAT16:
      return 11;
    case ACL_INT16:
      return 15;
    case ACL_UINT16:
      return 16;
    case ACL_FLOAT:
      return 24;
    case ACL_INT32:
      return 31;
    case ACL_UINT32:
      return 32;
    case ACL_DOUBLE:
      return 53;
    case ACL_INT64:
      return 63;
    default:
      return 64;
  }
}

// Whether every value of `from` is a value of `to` (the promoted type only
// widens integers and floats, so size and precision decide).
bool Exact(aclDataType from, aclDataType to) {
  if (from == to || from == ACL_BOOL) return true;
  if (IsIntegral(from) && IsIntegral(to)) return true;
  if (IsFloating(from) && IsFloating(to)) {
    return ElementSize(to) > ElementSize(from);
  }
  return IsIntegral(from) && IsFloating(to) && ValueBits(to) >= ValueBits(from);
}

// Whether converting from `from` through `mid` to `to` can differ from
// converting directly: the first step rounds.
bool NeedsTwoSteps(aclDataType from, aclDataType mid, aclDataType to) {
  return mid != to && !Exact(from, mid);
}

// Plans in -> dst (a view of out) converting from in's type.
void PlanConvert(aclOpExecutor& e, const aclTensor* in, uint32_t in_index,
                 const aclTensor& dst, aclDataType promoted) {
  const Operand src{in, Base::kInput, in_index};
  const Operand to{&dst, Base::kOutput, 0};
  if (!NeedsTwoSteps(in->dtype, promoted, dst.dtype)) {
    PlanElementwise(e, ElementOp::kCopy, ConvertCompute(in->dtype, dst.dtype),
                    {src}, to);
    return;
  }
  // in -> promoted (a contiguous tensor in the workspace) -> dst.
  const auto esize = static_cast<int64_t>(ElementSize(promoted));
  const uint64_t start = (e.workspace_size + 15) / 16 * 16;
  aclTensor mid;
  mid.view_shape = in->view_shape;
  mid.strides.assign(in->view_shape.size(), 1);
  for (size_t d = mid.strides.size(); d-- > 1;) {
    mid.strides[d - 1] = mid.strides[d] * in->view_shape[d];
  }
  mid.offset = static_cast<int64_t>(start) / esize;
  mid.dtype = promoted;
  e.workspace_size = start + static_cast<uint64_t>(in->Numel() * esize);
  PlanElementwise(e, ElementOp::kCopy, ConvertCompute(in->dtype, promoted),
                  {src}, Operand{&mid, Base::kWorkspace, 0});
  PlanElementwise(e, ElementOp::kCopy, ConvertCompute(promoted, dst.dtype),
                  {Operand{&mid, Base::kWorkspace, 0}}, to);
}

aclnnStatus PlanCat(const char* api, const aclTensorList* tensors, int64_t dim,
                    const aclTensor* out, uint64_t* workspace_size,
                    aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(api, {{"tensors", tensors}}));
  if (tensors->tag != Tag::kTensorList) {
    return Invalid(api, "tensors is not a tensor list (destroyed?)");
  }
  const std::vector<aclTensor*>& list = tensors->tensors;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] == nullptr) {
      return Refuse(api, ACLNN_ERR_PARAM_NULLPTR,
                    "tensors[" + std::to_string(i) + "] is a null pointer");
    }
  }
  ACLNN_CHECK(CheckNotNull(api, {{"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  if (list.empty()) return Invalid(api, "tensors is an empty list");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string name = "tensors[" + std::to_string(i) + "]";
    ACLNN_CHECK(CheckTensor(api, name.c_str(), list[i]));
    ACLNN_CHECK(CheckDtype(api, name.c_str(), list[i]->dtype, kCatTypes));
  }
  ACLNN_CHECK(CheckTensor(api, "out", out));
  ACLNN_CHECK(CheckDtype(api, "out", out->dtype, kCatTypes));

  // Types: the list promotes to one type, which converts to out's.
  aclDataType promoted = list[0]->dtype;
  for (size_t i = 1; i < list.size(); ++i) {
    const aclDataType next = PromoteTypes(list[i]->dtype, promoted);
    if (next == ACL_DT_UNDEFINED || next == ACL_COMPLEX128) {
      return Invalid(api, std::string("tensors[") + std::to_string(i) + "] (" +
                              DtypeName(list[i]->dtype) +
                              ") has no common type with the tensors before "
                              "it (" +
                              DtypeName(promoted) + ")");
    }
    promoted = next;
  }
  ACLNN_CHECK(CheckCastable(api, "out", promoted, out));
  for (const aclTensor* t : list) {
    if (t->dtype != out->dtype &&
        (IsComplex(t->dtype) || IsComplex(out->dtype))) {
      return Invalid(api, std::string("converting ") + DtypeName(t->dtype) +
                              " to " + DtypeName(out->dtype) +
                              " is not available: the simulator has no "
                              "complex arithmetic");
    }
  }

  // Formats: plain, the same for every tensor and out.
  const aclFormat format = list[0]->format;
  if (IsPrivateFormat(format)) {
    return Invalid(api, "tensors[0] has format " + std::to_string(format) +
                            "; only ND, NCHW, NHWC, HWCN, NDHWC and NCDHW "
                            "are taken");
  }
  for (size_t i = 1; i < list.size(); ++i) {
    if (list[i]->format != format) {
      return Invalid(api, "tensors[" + std::to_string(i) + "] has format " +
                              std::to_string(list[i]->format) +
                              ", tensors[0] " + std::to_string(format));
    }
  }
  if (out->format != format) {
    return Invalid(api, "out has format " + std::to_string(out->format) +
                            ", tensors[0] " + std::to_string(format));
  }

  // Shapes: dim in range of tensors[0]; every tensor has its dimension
  // count and sizes except along dim; out is the joined shape.
  ACLNN_CHECK(CheckMaxDims(api, "tensors[0]", list[0], kMaxDims));
  const int64_t nd = list[0]->Dims();
  const int64_t d = dim < 0 ? dim + nd : dim;
  if (d < 0 || d >= nd) {
    return Invalid(api, "dim " + std::to_string(dim) + " is outside [" +
                            std::to_string(-nd) + ", " +
                            std::to_string(nd - 1) + "] for tensors[0] " +
                            ShapeString(list[0]->view_shape));
  }
  std::vector<int64_t> joined = list[0]->view_shape;
  joined[static_cast<size_t>(d)] = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::vector<int64_t>& s = list[i]->view_shape;
    bool same = static_cast<int64_t>(s.size()) == nd;
    for (int64_t j = 0; same && j < nd; ++j) {
      same = j == d || s[static_cast<size_t>(j)] ==
                           list[0]->view_shape[static_cast<size_t>(j)];
    }
    if (!same) {
      return Invalid(api, "tensors[" + std::to_string(i) + "] " +
                              ShapeString(s) + " does not join tensors[0] " +
                              ShapeString(list[0]->view_shape) + " along dim " +
                              std::to_string(dim));
    }
    joined[static_cast<size_t>(d)] += s[static_cast<size_t>(d)];
  }
  ACLNN_CHECK(CheckShape(api, "out", out, joined));

  auto e = std::make_unique<aclOpExecutor>(api);
  const uint32_t first = e->AddInputList(tensors);
  e->AddOutput(out);
  int64_t along = 0;  // where the next tensor starts along dim
  for (size_t i = 0; i < list.size(); ++i) {
    const aclTensor* in = list[i];
    if (in->Numel() == 0) continue;
    aclTensor slice = *out;  // out's elements that `in` fills
    slice.tag = Tag::kDead;  // a planning view, not an object
    slice.view_shape[static_cast<size_t>(d)] =
        in->view_shape[static_cast<size_t>(d)];
    slice.offset += along * out->strides[static_cast<size_t>(d)];
    along += in->view_shape[static_cast<size_t>(d)];
    const auto index = first + static_cast<uint32_t>(i);
    if (in->dtype == out->dtype) {
      PlanCopy(*e, {in, Base::kInput, index}, {&slice, Base::kOutput, 0});
    } else {
      PlanConvert(*e, in, index, slice, promoted);
    }
  }
  *workspace_size = e->workspace_size;
  *executor = e.release();
  return ACLNN_SUCCESS;
}

aclnnStatus PlanPermute(const char* api, const aclTensor* self,
                        const aclIntArray* dims, const aclTensor* out,
                        uint64_t* workspace_size, aclOpExecutor** executor) {
  ACLNN_CHECK(
      CheckNotNull(api, {{"self", self}, {"dims", dims}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "self", self));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  if (dims->tag != Tag::kIntArray) {
    return Invalid(api, "dims is not an int array (destroyed?)");
  }
  ACLNN_CHECK(CheckDtype(api, "self", self->dtype, kPermuteTypes));
  ACLNN_CHECK(CheckDtype(api, "out", out->dtype, kPermuteTypes));
  if (self->dtype != out->dtype) {
    return Invalid(api, std::string("out's type ") + DtypeName(out->dtype) +
                            " is not self's " + DtypeName(self->dtype));
  }
  const int64_t nd = self->Dims();
  const std::vector<int64_t>& perm = dims->values;
  if (out->Dims() != nd) {
    return Invalid(api, "out " + ShapeString(out->view_shape) +
                            " has another dimension count than self " +
                            ShapeString(self->view_shape));
  }
  if (static_cast<int64_t>(perm.size()) != nd) {
    return Invalid(api, "dims has " + std::to_string(perm.size()) +
                            " values; self " + ShapeString(self->view_shape) +
                            " has " + std::to_string(nd) + " dimensions");
  }
  ACLNN_CHECK(CheckMaxDims(api, "self", self, kMaxDims));
  std::vector<bool> seen(static_cast<size_t>(nd), false);
  std::vector<int64_t> shape(static_cast<size_t>(nd));
  aclTensor view = *self;  // self read in out's order
  view.tag = Tag::kDead;   // a planning view, not an object
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t v = perm[static_cast<size_t>(i)];
    const int64_t p = v < 0 ? v + nd : v;
    if (p < 0 || p >= nd) {
      return Invalid(api, "dims[" + std::to_string(i) +
                              "] = " + std::to_string(v) + " is outside [" +
                              std::to_string(-nd) + ", " +
                              std::to_string(nd - 1) + "]");
    }
    if (seen[static_cast<size_t>(p)]) {
      return Invalid(api,
                     "dims names dimension " + std::to_string(p) + " twice");
    }
    seen[static_cast<size_t>(p)] = true;
    shape[static_cast<size_t>(i)] = self->view_shape[static_cast<size_t>(p)];
    view.view_shape[static_cast<size_t>(i)] = shape[static_cast<size_t>(i)];
    view.strides[static_cast<size_t>(i)] =
        self->strides[static_cast<size_t>(p)];
  }
  ACLNN_CHECK(CheckShape(api, "out", out, shape));
  ACLNN_CHECK(CheckPlainFormat(api, "self", self));
  ACLNN_CHECK(CheckPlainFormat(api, "out", out));

  auto e = std::make_unique<aclOpExecutor>(api);
  const uint32_t in = e->AddInput(self);
  const uint32_t o = e->AddOutput(out);
  PlanCopy(*e, {&view, Base::kInput, in}, {out, Base::kOutput, o});
  *workspace_size = e->workspace_size;
  *executor = e.release();
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace ascend::nn

extern "C" {

aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim,
                                     aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) try {
  return ascend::nn::PlanCat(__func__, tensors, dim, out, workspaceSize,
                             executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self,
                                         const aclIntArray* dims,
                                         aclTensor* out,
                                         uint64_t* workspaceSize,
                                         aclOpExecutor** executor) try {
  return ascend::nn::PlanPermute(__func__, self, dims, out, workspaceSize,
                                 executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"

ACLNN_SECOND_PHASE(aclnnCat)
ACLNN_SECOND_PHASE(aclnnPermute)
