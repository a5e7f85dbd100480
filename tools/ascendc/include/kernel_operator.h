/*
 * kernel_operator.h of the ascendcl simulator: the part of the AscendC
 * programming interface that CANN's example kernels use, for the host
 * compiler.
 *
 * The install tree's ascendc.cmake compiles AscendC kernel sources with the
 * host's C++17 compiler against this header (PREFIX/tikcpp/ascendc_sim/
 * include). A kernel is an ordinary C++ function; a launch runs it once per
 * block on a simulated core (a host thread) through the simulated kernel ABI
 * of aclsim/aclsim_kernel.h:
 *
 *   - AscendC::Sim::Entry<&kernel> is the ABI entry of a typed kernel: it
 *     reads each parameter from the launch's argument bytes (the parameters
 *     laid out as the fields of a C struct, in order, at natural alignment),
 *     makes the block's context current and calls the kernel;
 *     AscendC::Sim::kKernelInfo<&kernel> describes those parameters.
 *   - ascendc.cmake rewrites `kernel<<<blocks, l2ctrl, stream>>>(args...)`
 *     into AscendC::Sim::Launcher<&kernel>("kernel", blocks, l2ctrl,
 *     stream)(args...), which registers the kernel once
 *     (aclsimRegisterKernel) and launches it (aclrtLaunchKernelWithHostArgs,
 *     the argument bytes in host memory) with the
 *     arguments converted to the kernel's parameter types; and it rewrites
 *     asm("trap") into AscendC::Sim::Trap(), which raises
 *     ACL_ERROR_RT_AICORE_TRAP_EXCEPTION (507016) and ends the block.
 *
 * What exists: the qualifiers (__global__, __aicore__, __gm__, GM_ADDR),
 * block_idx / block_num and GetBlockIdx / GetBlockNum, printf, half (IEEE
 * binary16 storage, conversions rounding to nearest even), GlobalTensor,
 * LocalTensor, TPipe, TQue, TBuf, DataCopy (element counts and
 * DataCopyParams), element-wise vector arithmetic (Add, Sub, Mul, Div, Max,
 * Min, Adds, Muls, Maxs, Mins, Duplicate, Exp, Ln, Abs, Sqrt, Relu,
 * Reciprocal) and no-op pipeline barriers. Local memory is host memory owned
 * by the block's TPipe; a misuse the device would not survive (an index past
 * a tensor, a queue without a free buffer) raises
 * ACL_ERROR_RT_AICORE_EXCEPTION (507015) in that block. Not there: matrix
 * (cube) operations, reductions, Cast, atomics, cross-core synchronisation,
 * tiling structures and the kernel-side dump functions.
 */
#ifndef ASCENDCL_ASCENDC_SIM_KERNEL_OPERATOR_H_
#define ASCENDCL_ASCENDC_SIM_KERNEL_OPERATOR_H_

#include <cxxabi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "aclsim/aclsim_kernel.h"

// The simulator's variables are private to each kernel library or binary
// (hidden, so not process-wide unique symbols): two binaries never share
// them, and a binary can be unloaded.
#define ACLSIM_ASCENDC_PRIVATE __attribute__((visibility("hidden")))

// --- Qualifiers -------------------------------------------------------------
// On the simulator every kernel function is host code and every address is a
// host address.
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t *
#endif
// Kernel sources may test for the simulator.
#define ASCENDC_SIMULATOR 1

// --- half -------------------------------------------------------------------
// IEEE 754 binary16 storage. Arithmetic converts to float (exact for every
// half) and back, rounding to nearest even: for +, -, * and / the result is
// the correctly rounded half, since float has more than 2 * 11 + 2 bits.
namespace AscendC {
namespace Sim {

inline uint16_t FloatToHalfBits(float value) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof x);
  const uint32_t sign = (x >> 16) & 0x8000U;
  const uint32_t magnitude = x & 0x7fffffffU;
  if (magnitude >= 0x7f800000U) {  // infinity or NaN (NaNs stay quiet NaNs)
    return static_cast<uint16_t>(
        sign | 0x7c00U |
        (magnitude > 0x7f800000U ? 0x200U | ((magnitude >> 13) & 0x3ffU) : 0U));
  }
  if (magnitude < 0x38800000U) {  // below 2^-14: a half subnormal or zero
    if (magnitude < 0x33000000U) {
      return static_cast<uint16_t>(sign);  // below 2^-25: rounds to zero
    }
    const uint32_t exponent = magnitude >> 23;  // 102 .. 112
    const uint32_t mantissa = (magnitude & 0x7fffffU) | 0x800000U;
    // The value is mantissa * 2^(exponent - 150); in units of 2^-24 (the
    // half subnormal step) that is mantissa >> (126 - exponent).
    const uint32_t shift = 126U - exponent;  // 14 .. 24
    uint32_t rounded = mantissa >> shift;
    const uint32_t rest = mantissa & ((1U << shift) - 1U);
    const uint32_t halfway = 1U << (shift - 1U);
    if (rest > halfway || (rest == halfway && (rounded & 1U) != 0U)) {
      ++rounded;  // may carry into the smallest normal: still the right bits
    }
    return static_cast<uint16_t>(sign | rounded);
  }
  // A normal float in half range, or beyond it (rounds to infinity below).
  if (magnitude >= 0x47800000U) {  // 2^16 and above
    return static_cast<uint16_t>(sign | 0x7c00U);
  }
  uint32_t bits =
      ((magnitude >> 23) - 112U) << 10 | ((magnitude >> 13) & 0x3ffU);
  const uint32_t rest = magnitude & 0x1fffU;
  if (rest > 0x1000U || (rest == 0x1000U && (bits & 1U) != 0U)) {
    ++bits;  // a carry into the exponent is right, up to infinity (0x7c00)
  }
  return static_cast<uint16_t>(sign | bits);
}

inline float HalfBitsToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000U) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fU;
  uint32_t mantissa = bits & 0x3ffU;
  uint32_t x;
  if (exponent == 0x1fU) {
    x = sign | 0x7f800000U | (mantissa << 13);
  } else if (exponent != 0U) {
    x = sign | ((exponent + 112U) << 23) | (mantissa << 13);
  } else if (mantissa == 0U) {
    x = sign;
  } else {  // subnormal: normalise
    exponent = 113U;
    while ((mantissa & 0x400U) == 0U) {
      mantissa <<= 1;
      --exponent;
    }
    x = sign | (exponent << 23) | ((mantissa & 0x3ffU) << 13);
  }
  float value;
  std::memcpy(&value, &x, sizeof value);
  return value;
}

}  // namespace Sim
}  // namespace AscendC

struct half {
  uint16_t bits;

  half() = default;
  half(float value) : bits(AscendC::Sim::FloatToHalfBits(value)) {}
  half(double value) : half(static_cast<float>(value)) {}
  half(int value) : half(static_cast<float>(value)) {}
  half(unsigned value) : half(static_cast<float>(value)) {}
  half(int64_t value) : half(static_cast<float>(value)) {}
  half(uint64_t value) : half(static_cast<float>(value)) {}
  operator float() const { return AscendC::Sim::HalfBitsToFloat(bits); }

  static half FromBits(uint16_t raw) {
    half h;
    h.bits = raw;
    return h;
  }
  half &operator+=(float other) { return *this = half(float(*this) + other); }
  half &operator-=(float other) { return *this = half(float(*this) - other); }
  half &operator*=(float other) { return *this = half(float(*this) * other); }
  half &operator/=(float other) { return *this = half(float(*this) / other); }
  half operator-() const {
    return FromBits(static_cast<uint16_t>(bits ^ 0x8000U));
  }
};
static_assert(sizeof(half) == 2 && std::is_trivially_copyable<half>::value,
              "half is two bytes of binary16");

// --- Blocks, context, device exceptions -------------------------------------
namespace AscendC {
namespace Sim {

constexpr uint32_t kAicoreException = 507015U;  // ACL_ERROR_RT_AICORE_EXCEPTION
constexpr uint32_t kAicoreTrapException = 507016U;  // ..._AICORE_TRAP_EXCEPTION

// The block this thread runs, set by Entry for the kernel's duration. Inline,
// so each kernel library has its own (its Entry sets it).
ACLSIM_ASCENDC_PRIVATE inline thread_local const aclsimKernelContext
    *currentContext = nullptr;

// Thrown to end the block; Entry catches it. A code of 0 means the exception
// (if any) was already raised.
struct BlockStop {
  uint32_t code;
};

inline const aclsimKernelContext *Context() { return currentContext; }

// Stores to global memory go through the device's write target (kernel ABI
// version 2): no write-tracking fault per page while a snapshot tracks
// writes, the range recorded as written instead. The last range granted is
// kept for the block, so a run of SetValue calls asks once per granule.
struct WriteGrant {
  const aclsimKernelContext *ctx = nullptr;
  uintptr_t lo = 0;  // [lo, hi) of global memory, as the kernel sees it
  uintptr_t hi = 0;
  intptr_t delta = 0;  // target - address
};
ACLSIM_ASCENDC_PRIVATE inline thread_local WriteGrant writeGrant{};
// Single stores are granted a granule around them (inside their tensor).
constexpr uintptr_t kWriteGranule = 64 * 1024;

// Where to write [p, p + bytes), asking for [lo, hi) (which holds it) when
// the current grant does not cover it.
inline void *WriteTarget(void *p, size_t bytes, uintptr_t lo, uintptr_t hi) {
  const aclsimKernelContext *ctx = currentContext;
  const uintptr_t at = reinterpret_cast<uintptr_t>(p);
  if (ctx == nullptr || ctx->abiVersion < 2 || ctx->writeTarget == nullptr ||
      bytes == 0) {
    return p;
  }
  WriteGrant &grant = writeGrant;
  if (grant.ctx != ctx || at < grant.lo || at + bytes > grant.hi) {
    void *target = ctx->writeTarget(ctx, reinterpret_cast<void *>(lo), hi - lo);
    grant.ctx = ctx;
    grant.lo = lo;
    grant.hi = hi;
    grant.delta =
        reinterpret_cast<intptr_t>(target) - static_cast<intptr_t>(lo);
  }
  return reinterpret_cast<void *>(static_cast<intptr_t>(at) + grant.delta);
}

// Raises a device exception in the current block and ends it.
[[noreturn]] inline void RaiseAndStop(uint32_t code) {
  const aclsimKernelContext *ctx = currentContext;
  if (ctx == nullptr) {
    std::fprintf(stderr,
                 "[ascendc sim] device exception %u outside a kernel launch\n",
                 static_cast<unsigned>(code));
    std::abort();
  }
  ctx->raiseException(ctx, code);
  throw BlockStop{0};
}

// A misuse the device would not survive: says what, raises 507015.
[[noreturn]] inline void Fail(const char *format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  const aclsimKernelContext *ctx = currentContext;
  std::fprintf(stderr, "[ascendc sim] block %u: %s\n",
               ctx != nullptr ? static_cast<unsigned>(ctx->blockIdx) : 0U,
               text);
  RaiseAndStop(kAicoreException);
}

// What asm("trap") in a kernel becomes.
[[noreturn]] inline void Trap() { RaiseAndStop(kAicoreTrapException); }

}  // namespace Sim
}  // namespace AscendC

// The device's pipes, as the built-in enumeration.
enum pipe_t {
  PIPE_S,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
};

// The block index and count as AscendC's built-in variables.
ACLSIM_ASCENDC_PRIVATE inline thread_local int64_t block_idx = 0;
ACLSIM_ASCENDC_PRIVATE inline thread_local int64_t block_num = 0;

namespace AscendC {

inline int64_t GetBlockIdx() { return ::block_idx; }
inline int64_t GetBlockNum() { return ::block_num; }
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetTaskRation() { return 1; }

// --- printf -----------------------------------------------------------------
// Formatted on the host (vsnprintf) and handed to the block's print buffer,
// which the runtime writes to stdout after the launch, block by block.
namespace Sim {

inline void PrintV(const char *format, ...) {
  va_list args;
  va_start(args, format);
  char small[512];
  va_list copy;
  va_copy(copy, args);
  const int length = std::vsnprintf(small, sizeof small, format, copy);
  va_end(copy);
  if (length < 0) {
    va_end(args);
    return;
  }
  std::vector<char> large;
  const char *text = small;
  if (static_cast<size_t>(length) >= sizeof small) {
    large.resize(static_cast<size_t>(length) + 1U);
    std::vsnprintf(large.data(), large.size(), format, args);
    text = large.data();
  }
  va_end(args);
  const aclsimKernelContext *ctx = currentContext;
  if (ctx != nullptr) {
    ctx->print(ctx, text, static_cast<size_t>(length));
  } else {
    std::fwrite(text, 1, static_cast<size_t>(length), stdout);
  }
}

// Variadic arguments as C would pass them; half prints as a double.
template <typename T>
inline T PrintArg(T value) {
  return value;
}
inline double PrintArg(half value) { return static_cast<float>(value); }

}  // namespace Sim

template <typename... Args>
inline void printf(const char *format, Args... args) {
  Sim::PrintV(format, Sim::PrintArg(args)...);
}
template <typename... Args>
inline void PRINTF(const char *format, Args... args) {
  Sim::PrintV(format, Sim::PrintArg(args)...);
}

// --- Positions, pipes, barriers ---------------------------------------------
enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM,
  TSCM,
  C2PIPE2GM,
  MAX,
};
using QuePosition = TPosition;

// Pipeline barriers order the device's pipes; the simulator runs a block's
// operations in program order, so they do nothing.
template <pipe_t pipe>
inline void PipeBarrier() {}

// --- Tensors ----------------------------------------------------------------
template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;

  void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize) {
    data_ = buffer;
    size_ = bufferSize;
    sized_ = true;
  }
  void SetGlobalBuffer(__gm__ T *buffer) {
    data_ = buffer;
    size_ = 0;
    sized_ = false;
  }
  // The tensor from element offset on.
  GlobalTensor operator[](uint64_t offset) const {
    Check(offset, 0, "GlobalTensor[]");
    GlobalTensor sub = *this;
    sub.data_ = data_ + offset;
    sub.size_ = sized_ ? size_ - offset : 0;
    return sub;
  }
  T GetValue(uint64_t offset) const {
    Check(offset, 1, "GlobalTensor::GetValue");
    return data_[offset];
  }
  void SetValue(uint64_t offset, T value) const {
    Check(offset, 1, "GlobalTensor::SetValue");
    *StorePtr(offset) = value;
  }
  // A reference that may be stored through: counted as written.
  T &operator()(uint64_t offset) const {
    Check(offset, 1, "GlobalTensor()");
    return *StorePtr(offset);
  }
  // The element count given to SetGlobalBuffer (0 when none was).
  uint64_t GetSize() const { return size_; }
  __gm__ T *GetPhyAddr() const { return data_; }
  __gm__ T *GetPhyAddr(uint64_t offset) const { return data_ + offset; }
  // Where to write count elements from offset (checked by the caller).
  T *WritePtr(uint64_t offset, uint64_t count) const {
    const uintptr_t lo = reinterpret_cast<uintptr_t>(data_ + offset);
    const uintptr_t hi = reinterpret_cast<uintptr_t>(data_ + offset + count);
    return static_cast<T *>(
        Sim::WriteTarget(data_ + offset, count * sizeof(T), lo, hi));
  }

  // Checks that count elements from offset lie inside a sized buffer.
  void Check(uint64_t offset, uint64_t count, const char *what) const {
    if (data_ == nullptr) {
      Sim::Fail("%s: the GlobalTensor has no buffer", what);
    }
    if (sized_ && (offset > size_ || count > size_ - offset)) {
      Sim::Fail("%s: elements %llu..%llu outside a GlobalTensor of %llu", what,
                static_cast<unsigned long long>(offset),
                static_cast<unsigned long long>(offset + count),
                static_cast<unsigned long long>(size_));
    }
  }

 private:
  // Where to store element offset: its granule, inside the buffer when it
  // is sized (else the element alone).
  T *StorePtr(uint64_t offset) const {
    T *const p = data_ + offset;
    uintptr_t lo = reinterpret_cast<uintptr_t>(p);
    uintptr_t hi = lo + sizeof(T);
    if (sized_) {
      const uintptr_t begin = reinterpret_cast<uintptr_t>(data_);
      const uintptr_t end = reinterpret_cast<uintptr_t>(data_ + size_);
      lo = std::max(begin, lo & ~(Sim::kWriteGranule - 1));
      hi = std::min(end, (lo & ~(Sim::kWriteGranule - 1)) + Sim::kWriteGranule);
      hi = std::max(hi, reinterpret_cast<uintptr_t>(p) + sizeof(T));
    }
    return static_cast<T *>(Sim::WriteTarget(p, sizeof(T), lo, hi));
  }

  T *data_ = nullptr;
  uint64_t size_ = 0;
  bool sized_ = false;
};

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;

  LocalTensor() = default;
  LocalTensor(T *data, uint32_t size, void *buffer)
      : data_(data), size_(size), buffer_(buffer) {}

  T GetValue(uint32_t offset) const {
    Check(offset, 1, "LocalTensor::GetValue");
    return data_[offset];
  }
  void SetValue(uint32_t offset, T value) const {
    Check(offset, 1, "LocalTensor::SetValue");
    data_[offset] = value;
  }
  T &operator()(uint32_t offset) const {
    Check(offset, 1, "LocalTensor()");
    return data_[offset];
  }
  // The tensor from element offset on (same buffer).
  LocalTensor operator[](uint32_t offset) const {
    Check(offset, 0, "LocalTensor[]");
    return LocalTensor(data_ + offset, size_ - offset, buffer_);
  }
  // Element count.
  uint32_t GetSize() const { return size_; }
  void SetSize(uint32_t size) { size_ = size; }
  T *GetPhyAddr() const { return data_; }
  // Where to write count elements from offset (local memory: in place).
  T *WritePtr(uint64_t offset, uint64_t) const { return data_ + offset; }
  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U *>(data_),
                          static_cast<uint32_t>(size_ * sizeof(T) / sizeof(U)),
                          buffer_);
  }
  // The queue buffer the tensor lives in (the simulator's bookkeeping).
  void *Buffer() const { return buffer_; }

  void Check(uint64_t offset, uint64_t count, const char *what) const {
    if (data_ == nullptr) {
      Sim::Fail("%s: the LocalTensor has no buffer", what);
    }
    if (offset > size_ || count > size_ - offset) {
      Sim::Fail("%s: elements %llu..%llu outside a LocalTensor of %u", what,
                static_cast<unsigned long long>(offset),
                static_cast<unsigned long long>(offset + count),
                static_cast<unsigned>(size_));
    }
  }

 private:
  T *data_ = nullptr;
  uint32_t size_ = 0;
  void *buffer_ = nullptr;
};

// --- Queues and the pipe ----------------------------------------------------
namespace Sim {

// The buffers of one queue (or TBuf): num buffers of len bytes each in memory
// the pipe owns; each is free, allocated, or queued.
class QueueCore {
 public:
  void Attach(unsigned char *base, uint32_t num, uint32_t len) {
    len_ = len;
    buffers_.clear();
    free_.clear();
    queued_.clear();
    for (uint32_t i = 0; i < num; ++i) {
      buffers_.push_back(base + static_cast<size_t>(i) * len);
      free_.push_back(base + static_cast<size_t>(i) * len);
    }
  }
  bool Attached() const { return !buffers_.empty(); }
  uint32_t BufferBytes() const { return len_; }
  unsigned char *First() const { return buffers_.front(); }

  unsigned char *Alloc() {
    if (buffers_.empty())
      Fail("AllocTensor: the queue has no buffers (InitBuffer)");
    if (free_.empty()) {
      Fail("AllocTensor: all %u buffers of the queue are in use",
           static_cast<unsigned>(buffers_.size()));
    }
    unsigned char *buffer = free_.front();
    free_.pop_front();
    return buffer;
  }
  void EnQue(void *buffer) {
    if (!Owns(buffer)) Fail("EnQue: the tensor is not from this queue");
    queued_.push_back(static_cast<unsigned char *>(buffer));
  }
  unsigned char *DeQue() {
    if (queued_.empty()) Fail("DeQue: the queue is empty");
    unsigned char *buffer = queued_.front();
    queued_.pop_front();
    return buffer;
  }
  void Free(void *buffer) {
    if (!Owns(buffer)) Fail("FreeTensor: the tensor is not from this queue");
    for (unsigned char *f : free_) {
      if (f == buffer) Fail("FreeTensor: the tensor is already free");
    }
    free_.push_back(static_cast<unsigned char *>(buffer));
  }

 private:
  bool Owns(void *buffer) const {
    for (unsigned char *b : buffers_) {
      if (b == buffer) return true;
    }
    return false;
  }

  uint32_t len_ = 0;
  std::vector<unsigned char *> buffers_;
  std::deque<unsigned char *> free_;
  std::deque<unsigned char *> queued_;
};

}  // namespace Sim

template <TPosition pos, int32_t depth>
class TQue {
 public:
  template <typename T>
  LocalTensor<T> AllocTensor() {
    unsigned char *buffer = core_.Alloc();
    return LocalTensor<T>(
        reinterpret_cast<T *>(buffer),
        static_cast<uint32_t>(core_.BufferBytes() / sizeof(T)), buffer);
  }
  template <typename T>
  bool EnQue(const LocalTensor<T> &tensor) {
    core_.EnQue(tensor.Buffer());
    return true;
  }
  template <typename T>
  LocalTensor<T> DeQue() {
    unsigned char *buffer = core_.DeQue();
    return LocalTensor<T>(
        reinterpret_cast<T *>(buffer),
        static_cast<uint32_t>(core_.BufferBytes() / sizeof(T)), buffer);
  }
  template <typename T>
  void FreeTensor(LocalTensor<T> &tensor) {
    core_.Free(tensor.Buffer());
  }
  Sim::QueueCore &Core() { return core_; }

 private:
  Sim::QueueCore core_;
};

// Either side of a TQueBind is the position of its queue.
template <TPosition src, TPosition dst, int32_t depth>
class TQueBind : public TQue<dst, depth> {};

// One buffer without a queue, for intermediate results.
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  template <typename T>
  LocalTensor<T> Get() {
    if (!core_.Attached()) Fail();
    return LocalTensor<T>(
        reinterpret_cast<T *>(core_.First()),
        static_cast<uint32_t>(core_.BufferBytes() / sizeof(T)), core_.First());
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t count) {
    LocalTensor<T> all = Get<T>();
    if (count > all.GetSize()) {
      Sim::Fail("TBuf::Get(%u): the buffer holds %u",
                static_cast<unsigned>(count),
                static_cast<unsigned>(all.GetSize()));
    }
    all.SetSize(count);
    return all;
  }
  Sim::QueueCore &Core() { return core_; }

 private:
  [[noreturn]] static void Fail() { Sim::Fail("TBuf::Get: no InitBuffer"); }
  Sim::QueueCore core_;
};

// Owns the block's local memory: InitBuffer gives a queue (or TBuf) its
// buffers, 32-byte aligned, until the pipe is destroyed.
class TPipe {
 public:
  TPipe() = default;
  TPipe(const TPipe &) = delete;
  TPipe &operator=(const TPipe &) = delete;

  template <TPosition pos, int32_t depth>
  bool InitBuffer(TQue<pos, depth> &que, uint8_t num, uint32_t len) {
    return Give(que.Core(), num, len);
  }
  template <TPosition src, TPosition dst, int32_t depth>
  bool InitBuffer(TQueBind<src, dst, depth> &que, uint8_t num, uint32_t len) {
    return Give(que.Core(), num, len);
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos> &buf, uint32_t len) {
    return Give(buf.Core(), 1, len);
  }
  void Destroy() { memory_.clear(); }
  void Reset() { memory_.clear(); }

 private:
  struct AlignedDelete {
    void operator()(unsigned char *p) const {
      ::operator delete(p, std::align_val_t(kAlign));
    }
  };
  static constexpr size_t kAlign = 32;

  bool Give(Sim::QueueCore &core, uint32_t num, uint32_t len) {
    if (num == 0 || len == 0) {
      Sim::Fail("InitBuffer: %u buffers of %u bytes",
                static_cast<unsigned>(num), static_cast<unsigned>(len));
    }
    const uint32_t stride =
        static_cast<uint32_t>((len + kAlign - 1) / kAlign * kAlign);
    const size_t bytes = static_cast<size_t>(stride) * num;
    std::unique_ptr<unsigned char, AlignedDelete> block(
        static_cast<unsigned char *>(
            ::operator new(bytes, std::align_val_t(kAlign))));
    std::memset(block.get(), 0, bytes);
    core.Attach(block.get(), num, stride);
    memory_.push_back(std::move(block));
    return true;
  }

  std::vector<std::unique_ptr<unsigned char, AlignedDelete>> memory_;
};

// --- Data movement ----------------------------------------------------------
// Strided copies count in 32-byte blocks, as on the device.
struct DataCopyParams {
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;   // 32-byte blocks per burst
  uint16_t srcStride = 0;  // 32-byte blocks between bursts
  uint16_t dstStride = 0;
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t src, uint16_t dst)
      : blockCount(count), blockLen(len), srcStride(src), dstStride(dst) {}
};

namespace Sim {
constexpr uint32_t kDataBlock = 32;

template <typename Dst, typename Src>
inline void CopyElements(const Dst &dst, const Src &src, uint32_t count) {
  src.Check(0, count, "DataCopy (source)");
  dst.Check(0, count, "DataCopy (destination)");
  std::memmove(dst.WritePtr(0, count), src.GetPhyAddr(),
               static_cast<size_t>(count) * sizeof(typename Dst::PrimType));
}

template <typename Dst, typename Src>
inline void CopyStrided(const Dst &dst, const Src &src,
                        const DataCopyParams &params) {
  using T = typename Dst::PrimType;
  const uint64_t per = kDataBlock / sizeof(T);  // elements per 32-byte block
  const uint64_t burst = params.blockLen * per;
  for (uint64_t i = 0; i < params.blockCount; ++i) {
    const uint64_t from = i * (params.blockLen + params.srcStride) * per;
    const uint64_t to = i * (params.blockLen + params.dstStride) * per;
    src.Check(from, burst, "DataCopy (source)");
    dst.Check(to, burst, "DataCopy (destination)");
    std::memmove(dst.WritePtr(to, burst), src.GetPhyAddr() + from,
                 static_cast<size_t>(burst) * sizeof(T));
  }
}
}  // namespace Sim

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                     const uint32_t count) {
  Sim::CopyElements(dst, src, count);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                     const uint32_t count) {
  Sim::CopyElements(dst, src, count);
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     const uint32_t count) {
  Sim::CopyElements(dst, src, count);
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                     const DataCopyParams &params) {
  Sim::CopyStrided(dst, src, params);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                     const DataCopyParams &params) {
  Sim::CopyStrided(dst, src, params);
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     const DataCopyParams &params) {
  Sim::CopyStrided(dst, src, params);
}

// --- Vector arithmetic ------------------------------------------------------
// Element-wise over the first count elements; half computes in float.
namespace Sim {

template <typename T>
using Compute = std::conditional_t<std::is_same<T, half>::value, float, T>;

template <typename T, typename Op>
inline void Binary(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, int32_t count, Op op) {
  if (count < 0)
    Fail("vector operation over %d elements", static_cast<int>(count));
  const uint32_t n = static_cast<uint32_t>(count);
  dst.Check(0, n, "vector operation (destination)");
  src0.Check(0, n, "vector operation (source 0)");
  src1.Check(0, n, "vector operation (source 1)");
  T *d = dst.GetPhyAddr();
  const T *a = src0.GetPhyAddr();
  const T *b = src1.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) {
    d[i] = static_cast<T>(
        op(static_cast<Compute<T>>(a[i]), static_cast<Compute<T>>(b[i])));
  }
}

template <typename T, typename Op>
inline void Unary(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                  int32_t count, Op op) {
  if (count < 0)
    Fail("vector operation over %d elements", static_cast<int>(count));
  const uint32_t n = static_cast<uint32_t>(count);
  dst.Check(0, n, "vector operation (destination)");
  src.Check(0, n, "vector operation (source)");
  T *d = dst.GetPhyAddr();
  const T *a = src.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) {
    d[i] = static_cast<T>(op(static_cast<Compute<T>>(a[i])));
  }
}

}  // namespace Sim

#define ASCENDC_SIM_BINARY(NAME, EXPR)                                      \
  template <typename T>                                                     \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,   \
                   const LocalTensor<T> &src1, const int32_t &count) {      \
    Sim::Binary(dst, src0, src1, count,                                     \
                [](Sim::Compute<T> a, Sim::Compute<T> b) { return EXPR; }); \
  }
ASCENDC_SIM_BINARY(Add, a + b)
ASCENDC_SIM_BINARY(Sub, a - b)
ASCENDC_SIM_BINARY(Mul, a *b)
ASCENDC_SIM_BINARY(Div, a / b)
ASCENDC_SIM_BINARY(Max, a > b ? a : b)
ASCENDC_SIM_BINARY(Min, a < b ? a : b)
#undef ASCENDC_SIM_BINARY

#define ASCENDC_SIM_SCALAR(NAME, EXPR)                                    \
  template <typename T, typename U>                                       \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,  \
                   const U &scalar, const int32_t &count) {               \
    const Sim::Compute<T> s =                                             \
        static_cast<Sim::Compute<T>>(static_cast<T>(scalar));             \
    Sim::Unary(dst, src, count, [s](Sim::Compute<T> a) { return EXPR; }); \
  }
ASCENDC_SIM_SCALAR(Adds, a + s)
ASCENDC_SIM_SCALAR(Muls, a *s)
ASCENDC_SIM_SCALAR(Maxs, a > s ? a : s)
ASCENDC_SIM_SCALAR(Mins, a < s ? a : s)
#undef ASCENDC_SIM_SCALAR

#define ASCENDC_SIM_UNARY(NAME, EXPR)                                    \
  template <typename T>                                                  \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, \
                   const int32_t &count) {                               \
    Sim::Unary(dst, src, count, [](Sim::Compute<T> a) { return EXPR; }); \
  }
ASCENDC_SIM_UNARY(Exp, std::exp(a))
ASCENDC_SIM_UNARY(Ln, std::log(a))
ASCENDC_SIM_UNARY(Abs, a < 0 ? -a : a)
ASCENDC_SIM_UNARY(Sqrt, std::sqrt(a))
ASCENDC_SIM_UNARY(Relu, a > 0 ? a : Sim::Compute<T>(0))
ASCENDC_SIM_UNARY(Reciprocal, Sim::Compute<T>(1) / a)
#undef ASCENDC_SIM_UNARY

template <typename T, typename U>
inline void Duplicate(const LocalTensor<T> &dst, const U &scalar,
                      const int32_t &count) {
  if (count < 0)
    Sim::Fail("Duplicate over %d elements", static_cast<int>(count));
  dst.Check(0, static_cast<uint32_t>(count), "Duplicate");
  const T value = static_cast<T>(scalar);
  for (int32_t i = 0; i < count; ++i) dst.GetPhyAddr()[i] = value;
}

}  // namespace AscendC

// The simulated kernel ABI: the entry, the launcher and the export macro.
#include "kernel_operator_sim_abi.h"  // IWYU pragma: export

#endif  // ASCENDCL_ASCENDC_SIM_KERNEL_OPERATOR_H_
