#include "aclnn/opapi/elementwise.h"

#include <cstddef>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/elementwise_args.h"
#include "aclnn/opapi/launch.h"

namespace ascend::nn {

int InputCount(ElementOp op) {
  if (op == ElementOp::kFill) return 0;
  return op < ElementOp::kPowScalar ? 2 : 1;  // kPowBase takes one
}

aclDataType ComputeTypeFor(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_FLOAT:
      return ACL_FLOAT;
    case ACL_DOUBLE:
      return ACL_DOUBLE;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_UINT32:
      return ACL_INT64;
    default:
      return ACL_INT32;
  }
}

void PlanElementwise(aclOpExecutor& e, ElementOp op, aclDataType compute,
                     std::initializer_list<Operand> inputs, const Operand& out,
                     double s0, int64_t i0) {
  const std::vector<int64_t>& shape = out.tensor->view_shape;
  if (out.tensor->Numel() == 0) return;  // nothing to compute
  std::vector<const Operand*> all;
  all.push_back(&out);
  for (const Operand& in : inputs) all.push_back(&in);

  // Every operand's strides over out's shape, then dimensions merged where
  // every operand walks them as one (and size-1 dimensions dropped), so a
  // contiguous launch is one long row.
  std::vector<TensorArg> views(all.size());
  for (size_t k = 0; k < all.size(); ++k) {
    if (all[k]->tensor != nullptr) {
      DescribeArg(*all[k]->tensor, shape, &views[k]);
    }  // a scalar's strides stay 0
  }
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> strides(all.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !dims.empty();
    for (size_t k = 0; merge && k < all.size(); ++k) {
      merge = strides[k].back() == views[k].strides[d] * shape[d];
    }
    if (merge) {
      dims.back() *= shape[d];
      for (size_t k = 0; k < all.size(); ++k) {
        strides[k].back() = views[k].strides[d];
      }
    } else {
      dims.push_back(shape[d]);
      for (size_t k = 0; k < all.size(); ++k) {
        strides[k].push_back(views[k].strides[d]);
      }
    }
  }
  if (dims.empty()) {  // a single element (or a 0-d tensor)
    dims.push_back(1);
    for (auto& s : strides) s.push_back(1);
  }

  ElementwiseArgs args{};
  args.op = static_cast<uint32_t>(op);
  args.inputs = static_cast<uint32_t>(inputs.size());
  args.compute = compute;
  args.ndim = static_cast<int32_t>(dims.size());
  args.numel = out.tensor->Numel();
  for (size_t d = 0; d < dims.size(); ++d) args.shape[d] = dims[d];
  args.s0 = s0;
  args.i0 = i0;
  auto fill = [&](size_t k, ElementOperand* o) {
    const Operand& from = *all[k];
    o->dtype = from.tensor != nullptr ? from.tensor->dtype : compute;
    o->is_scalar = from.tensor == nullptr ? 1 : 0;
    o->fvalue = from.fvalue;
    o->ivalue = from.ivalue;
    for (size_t d = 0; d < dims.size(); ++d) o->strides[d] = strides[k][d];
  };
  fill(0, &args.out);
  for (size_t k = 1; k < all.size(); ++k) fill(k, &args.in[k - 1]);

  const uint32_t blocks = BlocksFor(args.numel, 1 << 15);
  PlannedLaunch& launch =
      e.AddLaunch(KernelHandle(&ElementwiseKernel, "aclnn_elementwise"), blocks,
                  &args, sizeof args);
  launch.Patch(offsetof(ElementwiseArgs, out), out.base, out.index,
               ViewByteOffset(*out.tensor));
  for (size_t k = 1; k < all.size(); ++k) {
    const Operand& o = *all[k];
    if (o.tensor == nullptr) continue;
    launch.Patch(static_cast<uint32_t>(offsetof(ElementwiseArgs, in) +
                                       (k - 1) * sizeof(ElementOperand)),
                 o.base, o.index, ViewByteOffset(*o.tensor));
  }
}

}  // namespace ascend::nn
