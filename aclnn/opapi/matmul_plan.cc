#include "aclnn/opapi/matmul_plan.h"

#include <algorithm>
#include <cstddef>

#include "aclnn/opapi/launch.h"

namespace ascend::nn {
namespace {

int64_t RoundUp(int64_t v, int64_t to) { return (v + to - 1) / to * to; }
int64_t CeilDiv(int64_t v, int64_t by) { return (v + by - 1) / by; }

void RemoveBatchDim(MatmulProblem& p, size_t d) {
  p.batch_shape.erase(p.batch_shape.begin() + static_cast<ptrdiff_t>(d));
  for (MatmulView* v : {&p.a, &p.b, &p.c}) {
    v->batch_strides.erase(v->batch_strides.begin() +
                           static_cast<ptrdiff_t>(d));
  }
}

// Batch dimensions of size 1 go; then, while B is the same matrix for
// every batch index of the innermost batch dimension and A's and C's rows
// continue into it, that dimension joins m (the rows of all those batches
// are one taller matrix): fewer, larger tiles.
void FoldBatches(MatmulProblem& p) {
  for (size_t d = p.batch_shape.size(); d-- > 0;) {
    if (p.batch_shape[d] == 1) RemoveBatchDim(p, d);
  }
  while (!p.batch_shape.empty() && !p.a.nz && !p.b.nz) {
    const size_t d = p.batch_shape.size() - 1;
    if (p.b.batch_strides[d] != 0) break;
    MatmulView& a = p.a;
    MatmulView& c = p.c;
    // A single row (m = 1) has no row stride of its own yet.
    const int64_t a_rs = p.m == 1 ? a.batch_strides[d] : a.row_stride;
    const int64_t c_rs = p.m == 1 ? c.batch_strides[d] : c.row_stride;
    if (a.batch_strides[d] != a_rs * p.m || c.batch_strides[d] != c_rs * p.m) {
      break;
    }
    a.row_stride = a_rs;
    c.row_stride = c_rs;
    p.m *= p.batch_shape[d];
    RemoveBatchDim(p, d);
  }
}

void FillOperand(const MatmulView& v, MatmulOperand* o) {
  o->dtype = v.tensor->dtype;
  o->nz = v.nz ? 1 : 0;
  o->row_stride = v.row_stride;
  o->col_stride = v.col_stride;
  for (size_t d = 0; d < v.batch_strides.size(); ++d) {
    o->batch_strides[d] = v.batch_strides[d];
  }
  o->nz_row_blocks = v.nz_row_blocks;
  o->nz_c0 = v.nz_c0;
  o->nz_transposed = v.nz_transposed ? 1 : 0;
}

}  // namespace

void PlanMatmulLaunch(aclOpExecutor& e, MatmulProblem p) {
  if (p.m == 0 || p.n == 0) return;
  for (int64_t s : p.batch_shape) {
    if (s == 0) return;  // no batches: nothing to write
  }
  FoldBatches(p);

  MatmulArgs args{};
  args.m = p.m;
  args.n = p.n;
  args.k = p.k;
  args.batch_dims = static_cast<int32_t>(p.batch_shape.size());
  args.batches = 1;
  for (size_t d = 0; d < p.batch_shape.size(); ++d) {
    args.batch_shape[d] = p.batch_shape[d];
    args.batches *= p.batch_shape[d];
  }
  args.rounding = static_cast<int32_t>(p.rounding);
  args.engine = static_cast<int32_t>(MatmulEngine::kAuto);

  // Tiles: at most the default sizes, no larger than the matrix; smaller
  // ones while there are fewer tiles than cores. Steps along k of equal
  // length.
  int64_t mc = std::min(kMatmulMc, RoundUp(p.m, kMatmulRowAlign));
  int64_t nc = std::min(kMatmulNc, RoundUp(p.n, kMatmulColAlign));
  const int64_t cores = BlocksFor(int64_t{1} << 40, 1);
  auto tiles = [&] {
    return args.batches * CeilDiv(p.m, mc) * CeilDiv(p.n, nc);
  };
  while (tiles() < cores) {
    if (nc > 2 * kMatmulColAlign) {
      nc = std::max(2 * kMatmulColAlign, RoundUp(nc / 2, kMatmulColAlign));
    } else if (mc > 2 * kMatmulRowAlign) {
      mc = std::max(2 * kMatmulRowAlign, RoundUp(mc / 2, kMatmulRowAlign));
    } else {
      break;
    }
  }
  const int64_t steps = CeilDiv(p.k, kMatmulKc);
  args.mc = mc;
  args.nc = nc;
  args.kc = steps > 0 ? CeilDiv(p.k, steps) : 0;
  args.m_tiles = CeilDiv(p.m, mc);
  args.n_tiles = CeilDiv(p.n, nc);
  args.scratch_per_block = MatmulScratchBytes(mc, nc, args.kc);
  FillOperand(p.a, &args.a);
  FillOperand(p.b, &args.b);
  FillOperand(p.c, &args.c);

  const uint32_t blocks = BlocksFor(tiles(), 1);
  const uint64_t workspace = static_cast<uint64_t>(blocks) *
                             static_cast<uint64_t>(args.scratch_per_block);
  e.workspace_size = std::max(e.workspace_size, workspace);
  PlannedLaunch& launch = e.AddLaunch(
      KernelHandle(&MatmulKernel, "aclnn_matmul"), blocks, &args, sizeof args);
  const struct {
    size_t offset;
    const MatmulView* view;
  } operands[] = {{offsetof(MatmulArgs, a), &p.a},
                  {offsetof(MatmulArgs, b), &p.b},
                  {offsetof(MatmulArgs, c), &p.c}};
  for (const auto& o : operands) {
    launch.Patch(
        static_cast<uint32_t>(o.offset + offsetof(MatmulOperand, addr)),
        o.view->base, o.view->index, ViewByteOffset(*o.view->tensor));
  }
  launch.Patch(static_cast<uint32_t>(offsetof(MatmulArgs, scratch)),
               Base::kWorkspace, 0, 0);
}

}  // namespace ascend::nn
