#include "aclnn/opapi/reduce.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/nnopbase/entry.h"
#include "aclnn/opapi/launch.h"

namespace ascend::nn {
namespace {

// Reduced positions a part holds at least, and units of work (elements)
// per block.
constexpr int64_t kMinPart = 4096;
constexpr int64_t kWorkPerBlock = 1 << 14;

struct Axis {
  int64_t size;
  int64_t in;   // input stride (elements)
  int64_t out;  // output stride (kept axes)
};

// Merges neighbours that walk both strides as one axis.
void Merge(std::vector<Axis>* axes) {
  std::vector<Axis> merged;
  for (const Axis& a : *axes) {
    if (!merged.empty()) {
      Axis& p = merged.back();
      if (p.in == a.in * a.size && p.out == a.out * a.size) {
        p.size *= a.size;
        p.in = a.in;
        p.out = a.out;
        continue;
      }
    }
    merged.push_back(a);
  }
  *axes = std::move(merged);
}

// Moves the axis with the smallest input stride to the end.
void FastestLast(std::vector<Axis>* axes) {
  auto fastest = std::min_element(axes->begin(), axes->end(),
                                  [](const Axis& x, const Axis& y) {
                                    return std::llabs(x.in) < std::llabs(y.in);
                                  });
  std::rotate(fastest, fastest + 1, axes->end());
}

int64_t MinStride(const std::vector<Axis>& axes) {
  int64_t m = INT64_MAX;
  for (const Axis& a : axes) m = std::min<int64_t>(m, std::llabs(a.in));
  return m;
}

}  // namespace

aclnnStatus CheckIntArray(const char* api, const char* name,
                          const aclIntArray* a) {
  if (a == nullptr) {
    return Refuse(api, ACLNN_ERR_PARAM_NULLPTR,
                  std::string(name) + " is a null pointer");
  }
  if (a->tag != Tag::kIntArray) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string(name) + " is not an aclIntArray (destroyed?)");
  }
  return ACLNN_SUCCESS;
}

aclnnStatus ReduceAxes(const char* api, const char* name, const aclTensor* self,
                       const std::vector<int64_t>& dims, bool all_if_empty,
                       std::vector<bool>* mask) {
  const int64_t rank = self->Dims();
  const int64_t range = rank == 0 ? 1 : rank;
  std::vector<bool> seen(static_cast<size_t>(range), false);
  for (int64_t d : dims) {
    if (d < -range || d >= range) {
      return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                    std::string(name) + " holds axis " + std::to_string(d) +
                        "; it must be in [" + std::to_string(-range) + ", " +
                        std::to_string(range - 1) + "]");
    }
    const int64_t axis = d < 0 ? d + range : d;
    if (seen[static_cast<size_t>(axis)]) {
      return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                    std::string(name) + " names axis " + std::to_string(axis) +
                        " more than once");
    }
    seen[static_cast<size_t>(axis)] = true;
  }
  mask->assign(static_cast<size_t>(rank), false);
  for (int64_t d = 0; d < rank; ++d) {
    (*mask)[static_cast<size_t>(d)] =
        seen[static_cast<size_t>(d)] || (dims.empty() && all_if_empty);
  }
  return ACLNN_SUCCESS;
}

std::vector<int64_t> ReducedShape(const std::vector<int64_t>& shape,
                                  const std::vector<bool>& mask, bool keep) {
  std::vector<int64_t> r;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!mask[d]) {
      r.push_back(shape[d]);
    } else if (keep) {
      r.push_back(1);
    }
  }
  return r;
}

aclDataType ReduceComputeType(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_FLOAT:
      return ACL_FLOAT;
    case ACL_DOUBLE:
      return ACL_DOUBLE;
    default:
      return ACL_INT64;
  }
}

void PlanReduce(aclOpExecutor& e, ReduceOp op, const aclTensor& in,
                uint32_t in_index, aclDataType cast,
                const std::vector<bool>& mask, bool keep, const aclTensor& out,
                uint32_t out_index) {
  if (out.Numel() == 0) return;
  std::vector<Axis> kept, reduced;
  size_t out_axis = 0;
  for (size_t d = 0; d < in.view_shape.size(); ++d) {
    const int64_t size = in.view_shape[d];
    if (mask[d]) {
      if (keep) ++out_axis;
      if (size != 1) reduced.push_back(Axis{size, in.strides[d], 0});
    } else {
      const int64_t os = out.strides[out_axis++];
      if (size != 1) kept.push_back(Axis{size, in.strides[d], os});
    }
  }
  Merge(&kept);
  Merge(&reduced);
  bool outer = false;
  if (kept.empty()) {
    kept.push_back(Axis{1, 0, 0});
  } else if (reduced.empty() || MinStride(kept) < MinStride(reduced)) {
    outer = true;
    FastestLast(&kept);
  }
  if (reduced.empty()) {
    reduced.push_back(Axis{1, 0, 0});
  } else if (!outer) {
    FastestLast(&reduced);
  }

  ReduceArgs args{};
  args.op = static_cast<int32_t>(op);
  args.compute = ReduceComputeType(cast);
  args.in_dtype = in.dtype;
  args.cast_dtype = cast;
  args.out_dtype = out.dtype;
  args.outer = outer ? 1 : 0;
  args.nk = static_cast<int32_t>(kept.size());
  args.nr = static_cast<int32_t>(reduced.size());
  args.outputs = 1;
  args.count = 1;
  for (size_t d = 0; d < kept.size(); ++d) {
    args.kshape[d] = kept[d].size;
    args.kin[d] = kept[d].in;
    args.kout[d] = kept[d].out;
    args.outputs *= kept[d].size;
  }
  for (size_t d = 0; d < reduced.size(); ++d) {
    args.rshape[d] = reduced[d].size;
    args.rin[d] = reduced[d].in;
    args.count *= reduced[d].size;
  }
  const int64_t line = args.kshape[args.nk - 1];
  args.width = outer ? std::min(line, kReduceTile) : 1;
  args.tiles = args.outputs / line * ((line + args.width - 1) / args.width);
  // Split the reduced positions when the tiles cannot occupy the cores.
  const int64_t cores = BlocksFor(INT64_MAX / 2, 1);
  args.parts = 1;
  if (args.tiles < cores && args.count >= 2 * kMinPart) {
    args.parts =
        std::min((cores + args.tiles - 1) / args.tiles, args.count / kMinPart);
  }
  const int64_t units = args.tiles * args.parts;
  const int64_t work = args.outputs * std::max<int64_t>(args.count, 1);
  const uint32_t blocks = static_cast<uint32_t>(
      std::min<int64_t>(units, BlocksFor(work, kWorkPerBlock)));

  auto patch = [&](PlannedLaunch& l) {
    l.Patch(offsetof(ReduceArgs, in_addr), Base::kInput, in_index,
            ViewByteOffset(in));
    l.Patch(offsetof(ReduceArgs, out_addr), Base::kOutput, out_index,
            ViewByteOffset(out));
    if (args.parts > 1) {
      l.Patch(offsetof(ReduceArgs, ws_addr), Base::kWorkspace, 0, 0);
    }
  };
  patch(e.AddLaunch(KernelHandle(&ReduceKernel, "aclnn_reduce"), blocks, &args,
                    sizeof args));
  if (args.parts > 1) {
    const auto bytes = static_cast<uint64_t>(args.outputs * args.parts) *
                       sizeof(ReducePartial);
    e.workspace_size = std::max(e.workspace_size, bytes);
    const uint32_t combine_blocks = static_cast<uint32_t>(std::min<int64_t>(
        args.outputs, BlocksFor(args.outputs * args.parts, kWorkPerBlock)));
    patch(
        e.AddLaunch(KernelHandle(&ReduceCombineKernel, "aclnn_reduce_combine"),
                    combine_blocks, &args, sizeof args));
  }
}

}  // namespace ascend::nn
