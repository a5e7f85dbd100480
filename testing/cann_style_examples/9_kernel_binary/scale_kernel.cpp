// y = alpha * x + y over float vectors, each block its contiguous part, tile
// by tile through a TBuf in local memory. Built as a kernel binary: the
// program finds it by name (aclrtBinaryGetFunction "scale_add").
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y,
                                                float alpha,
                                                uint32_t totalLength) {
  const uint32_t perBlock =
      totalLength / static_cast<uint32_t>(AscendC::GetBlockNum());
  const uint32_t start =
      perBlock * static_cast<uint32_t>(AscendC::GetBlockIdx());
  AscendC::GlobalTensor<float> xGm;
  AscendC::GlobalTensor<float> yGm;
  xGm.SetGlobalBuffer((__gm__ float*)x + start, perBlock);
  yGm.SetGlobalBuffer((__gm__ float*)y + start, perBlock);

  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * SCALE_BLOCK_TILE * sizeof(float));
  AscendC::LocalTensor<float> xLocal = buf.Get<float>();
  AscendC::LocalTensor<float> yLocal = xLocal[SCALE_BLOCK_TILE];
  for (uint32_t done = 0; done < perBlock; done += SCALE_BLOCK_TILE) {
    AscendC::DataCopy(xLocal, xGm[done], SCALE_BLOCK_TILE);
    AscendC::DataCopy(yLocal, yGm[done], SCALE_BLOCK_TILE);
    AscendC::Muls(xLocal, xLocal, alpha, SCALE_BLOCK_TILE);
    AscendC::Add(yLocal, xLocal, yLocal, SCALE_BLOCK_TILE);
    AscendC::DataCopy(yGm[done], yLocal, SCALE_BLOCK_TILE);
  }
}
