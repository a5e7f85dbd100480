#include "aclnn/opapi/copy.h"

#include <cstddef>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/copy_args.h"
#include "aclnn/opapi/launch.h"

namespace ascend::nn {

void PlanCopy(aclOpExecutor& e, const CopyEnd& src, const CopyEnd& dst) {
  const std::vector<int64_t>& shape = dst.view->view_shape;
  if (dst.view->Numel() == 0) return;
  // Dimensions of size 1 go; neighbours both views walk as one merge.
  std::vector<int64_t> dims, ss, ds;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const int64_t s = src.view->strides[d];
    const int64_t t = dst.view->strides[d];
    if (!dims.empty() && ss.back() == s * shape[d] &&
        ds.back() == t * shape[d]) {
      dims.back() *= shape[d];
      ss.back() = s;
      ds.back() = t;
    } else {
      dims.push_back(shape[d]);
      ss.push_back(s);
      ds.push_back(t);
    }
  }
  if (dims.empty()) {  // one element
    dims.push_back(1);
    ss.push_back(1);
    ds.push_back(1);
  }
  CopyArgs args{};
  args.element_size = static_cast<int32_t>(ElementSize(dst.view->dtype));
  args.ndim = static_cast<int32_t>(dims.size());
  args.numel = dst.view->Numel();
  for (size_t d = 0; d < dims.size(); ++d) {
    args.shape[d] = dims[d];
    args.src_strides[d] = ss[d];
    args.dst_strides[d] = ds[d];
  }
  PlannedLaunch& launch =
      e.AddLaunch(KernelHandle(&CopyKernel, "aclnn_copy"),
                  BlocksFor(args.numel, 1 << 15), &args, sizeof args);
  launch.Patch(offsetof(CopyArgs, src), src.base, src.index,
               ViewByteOffset(*src.view));
  launch.Patch(offsetof(CopyArgs, dst), dst.base, dst.index,
               ViewByteOffset(*dst.view));
}

}  // namespace ascend::nn
