#include "aclnn/opapi/staging.h"

#include <cstddef>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/launch.h"

namespace ascend::nn {
namespace {

// The half-open byte range [*lo, *hi) t's view touches (empty for an empty
// view).
void ByteRange(const aclTensor& t, uintptr_t* lo, uintptr_t* hi) {
  const auto esize = static_cast<int64_t>(ElementSize(t.dtype));
  int64_t first = t.offset, last = t.offset;
  for (size_t d = 0; d < t.view_shape.size(); ++d) {
    if (t.view_shape[d] == 0) {
      *lo = *hi = 0;
      return;
    }
    const int64_t span = (t.view_shape[d] - 1) * t.strides[d];
    if (span < 0) {
      first += span;
    } else {
      last += span;
    }
  }
  const auto base = reinterpret_cast<uintptr_t>(t.data);
  *lo = base + static_cast<uintptr_t>(first * esize);
  *hi = base + static_cast<uintptr_t>((last + 1) * esize);
}

}  // namespace

bool OverlapsOtherwise(const aclTensor& in, const aclTensor& out) {
  if (in.data == nullptr || out.data == nullptr) return false;
  uintptr_t in_lo, in_hi, out_lo, out_hi;
  ByteRange(in, &in_lo, &in_hi);
  ByteRange(out, &out_lo, &out_hi);
  if (in_lo >= in_hi || out_lo >= out_hi) return false;  // an empty view
  if (in_hi <= out_lo || out_hi <= in_lo) return false;  // disjoint
  // Overlapping: exact only when element 0 starts at the same byte and the
  // views step alike.
  const auto in_size = static_cast<int64_t>(ElementSize(in.dtype));
  const auto out_size = static_cast<int64_t>(ElementSize(out.dtype));
  if (in_size != out_size ||
      reinterpret_cast<uintptr_t>(in.data) + in.offset * in_size !=
          reinterpret_cast<uintptr_t>(out.data) + out.offset * out_size) {
    return true;
  }
  TensorArg a, b;
  DescribeArg(in, out.view_shape, &a);
  DescribeArg(out, out.view_shape, &b);
  for (int d = 0; d < a.ndim; ++d) {
    if (a.shape[d] != 1 && a.strides[d] != b.strides[d]) return true;
  }
  return false;
}

Operand ReadableInput(aclOpExecutor& e, const aclTensor* in, Base base,
                      uint32_t index, const aclTensor& out,
                      aclTensor* staging) {
  const Operand direct{in, base, index};
  if (!OverlapsOtherwise(*in, out)) return direct;
  // A contiguous copy of in's view, in its own type (lossless: every type
  // loads into its compute type and back unchanged), placed after what the
  // workspace already holds.
  const uint64_t at = (e.workspace_size + 63) / 64 * 64;
  const auto esize = static_cast<int64_t>(ElementSize(in->dtype));
  staging->view_shape = in->view_shape;
  staging->strides.assign(in->view_shape.size(), 1);
  for (size_t d = in->view_shape.size(); d-- > 1;) {
    staging->strides[d - 1] = staging->strides[d] * in->view_shape[d];
  }
  staging->offset = static_cast<int64_t>(at) / esize;
  staging->dtype = in->dtype;
  staging->format = ACL_FORMAT_ND;
  staging->storage_shape = {in->Numel()};
  staging->data = nullptr;  // the workspace's address is patched per run
  e.workspace_size = at + static_cast<uint64_t>(in->Numel() * esize);
  PlanElementwise(e, ElementOp::kCopy, ComputeTypeFor(in->dtype), {direct},
                  Operand{staging, Base::kWorkspace, 0});
  return Operand{staging, Base::kWorkspace, 0};
}

}  // namespace ascend::nn
