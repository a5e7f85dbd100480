// A half-precision vector add in AscendC's style: each block moves its part
// of x and y tile by tile into local memory through double-buffered input
// queues, adds, and moves the sums out through an output queue. Block 0..7
// each report what they did with AscendC::printf.
#include "kernel_operator.h"
#include "vector_add.h"

namespace {

constexpr int32_t kTiles = 8;
constexpr int32_t kBuffers = 2;
constexpr int32_t kTileLength = kVectorAddBlockLength / kTiles / kBuffers;

class VectorAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    const int64_t start = kVectorAddBlockLength * AscendC::GetBlockIdx();
    xGm_.SetGlobalBuffer((__gm__ half*)x + start, kVectorAddBlockLength);
    yGm_.SetGlobalBuffer((__gm__ half*)y + start, kVectorAddBlockLength);
    zGm_.SetGlobalBuffer((__gm__ half*)z + start, kVectorAddBlockLength);
    pipe_.InitBuffer(inX_, kBuffers, kTileLength * sizeof(half));
    pipe_.InitBuffer(inY_, kBuffers, kTileLength * sizeof(half));
    pipe_.InitBuffer(outZ_, kBuffers, kTileLength * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < kTiles * kBuffers; ++i) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t tile) {
    AscendC::LocalTensor<half> x = inX_.AllocTensor<half>();
    AscendC::LocalTensor<half> y = inY_.AllocTensor<half>();
    AscendC::DataCopy(x, xGm_[tile * kTileLength], kTileLength);
    AscendC::DataCopy(y, yGm_[tile * kTileLength], kTileLength);
    inX_.EnQue(x);
    inY_.EnQue(y);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<half> x = inX_.DeQue<half>();
    AscendC::LocalTensor<half> y = inY_.DeQue<half>();
    AscendC::LocalTensor<half> z = outZ_.AllocTensor<half>();
    AscendC::Add(z, x, y, kTileLength);
    outZ_.EnQue<half>(z);
    inX_.FreeTensor(x);
    inY_.FreeTensor(y);
  }
  __aicore__ inline void CopyOut(int32_t tile) {
    AscendC::LocalTensor<half> z = outZ_.DeQue<half>();
    AscendC::DataCopy(zGm_[tile * kTileLength], z, kTileLength);
    outZ_.FreeTensor(z);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBuffers> inX_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBuffers> inY_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBuffers> outZ_;
  AscendC::GlobalTensor<half> xGm_;
  AscendC::GlobalTensor<half> yGm_;
  AscendC::GlobalTensor<half> zGm_;
};

}  // namespace

extern "C" __global__ __aicore__ void vector_add(GM_ADDR x, GM_ADDR y,
                                                 GM_ADDR z) {
  VectorAdd op;
  op.Init(x, y, z);
  op.Process();
  AscendC::printf("vector_add: block %d of %d added %d elements\n",
                  static_cast<int>(AscendC::GetBlockIdx()),
                  static_cast<int>(AscendC::GetBlockNum()),
                  static_cast<int>(kVectorAddBlockLength));
}

int32_t VectorAddDo(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y,
                    uint8_t* z) {
  return vector_add<<<blockDim, nullptr, stream>>>(x, y, z);
}
