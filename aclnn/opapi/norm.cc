#include "aclnn/opapi/norm.h"

#include <algorithm>
#include <cstddef>

#include "aclnn/opapi/launch.h"

namespace ascend::nn {
namespace {

constexpr int64_t kWorkPerBlock = 1 << 14;
constexpr int kOperands = 6;  // x, y, weight, bias, mean, rstd

struct Axis {
  int64_t size;
  int64_t stride[kOperands];
};

// Merges neighbours every operand walks as one axis; drops size-1 axes.
std::vector<Axis> Simplify(const std::vector<Axis>& axes) {
  std::vector<Axis> out;
  for (const Axis& a : axes) {
    if (a.size == 1) continue;
    if (!out.empty()) {
      Axis& p = out.back();
      bool merge = true;
      for (int k = 0; k < kOperands && merge; ++k) {
        merge = p.stride[k] == a.stride[k] * a.size;
      }
      if (merge) {
        p.size *= a.size;
        for (int k = 0; k < kOperands; ++k) p.stride[k] = a.stride[k];
        continue;
      }
    }
    out.push_back(a);
  }
  if (out.empty()) out.push_back(Axis{1, {}});
  return out;
}

bool Present(const NormTensor& t) { return t.t != nullptr && t.t->Numel() > 0; }

}  // namespace

void PlanNorm(aclOpExecutor& e, const NormPlan& p) {
  const aclTensor& x = *p.x.t;
  const NormTensor* ops[kOperands] = {&p.x,    &p.y,    &p.weight,
                                      &p.bias, &p.mean, &p.rstd};
  const size_t rank = x.view_shape.size();
  size_t first_row = rank;
  for (size_t d = 0; d < rank; ++d) {
    if (p.row_axes[d]) first_row = std::min(first_row, d);
  }
  std::vector<Axis> batch, row;
  int64_t rows = 1, n = 1;
  for (size_t d = 0; d < rank; ++d) {
    Axis a{x.view_shape[d], {}};
    const bool is_row = p.row_axes[d];
    for (int k = 0; k < kOperands; ++k) {
      if (!Present(*ops[k])) continue;
      const aclTensor& t = *ops[k]->t;
      if (k < 2) {
        a.stride[k] = t.strides[d];
      } else if (k < 4) {  // weight, bias: the row's shape
        if (is_row) a.stride[k] = t.strides[d - first_row];
      } else if (!is_row) {  // mean, rstd: x's rank, rows of size 1
        a.stride[k] = t.strides[d];
      }
    }
    (is_row ? row : batch).push_back(a);
    (is_row ? n : rows) *= a.size;
  }
  const bool writes = Present(p.y) || Present(p.mean) || Present(p.rstd);
  if (rows == 0 || !writes) return;
  batch = Simplify(batch);
  row = Simplify(row);

  NormArgs args{};
  args.op = static_cast<int32_t>(p.op);
  args.compute = p.compute;
  args.nb = static_cast<int32_t>(batch.size());
  args.nr = static_cast<int32_t>(row.size());
  args.rows = rows;
  args.n = n;
  args.eps = p.eps;
  NormOperand* slots[kOperands] = {&args.x,    &args.y,    &args.weight,
                                   &args.bias, &args.mean, &args.rstd};
  for (int k = 0; k < kOperands; ++k) {
    slots[k]->present = Present(*ops[k]) ? 1 : 0;
    slots[k]->dtype = Present(*ops[k]) ? ops[k]->t->dtype : ACL_FLOAT;
    for (size_t d = 0; d < batch.size(); ++d) {
      slots[k]->bstride[d] = batch[d].stride[k];
    }
    for (size_t d = 0; d < row.size(); ++d) {
      slots[k]->rstride[d] = row[d].stride[k];
    }
  }
  for (size_t d = 0; d < batch.size(); ++d) args.bshape[d] = batch[d].size;
  for (size_t d = 0; d < row.size(); ++d) args.rshape[d] = row[d].size;

  const uint32_t blocks = static_cast<uint32_t>(std::min<int64_t>(
      rows, BlocksFor(rows * std::max<int64_t>(n, 1), kWorkPerBlock)));
  PlannedLaunch& l = e.AddLaunch(KernelHandle(&NormKernel, "aclnn_norm"),
                                 blocks, &args, sizeof args);
  for (int k = 0; k < kOperands; ++k) {
    if (!Present(*ops[k])) continue;
    l.Patch(
        static_cast<uint32_t>(offsetof(NormArgs, x) + k * sizeof(NormOperand) +
                              offsetof(NormOperand, addr)),
        ops[k]->base, ops[k]->index, ViewByteOffset(*ops[k]->t));
  }
}

}  // namespace ascend::nn
