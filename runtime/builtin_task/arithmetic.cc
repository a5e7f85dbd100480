// The arithmetic of the built-in stream tasks: element-wise reduction and
// random numbers, on host copies of device memory. DESIGN.md §5.16.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/base/float16.h"
#include "runtime/builtin_task/builtin_tasks.h"
#include "runtime/device_callbacks.h"
#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

template <typename T>
T Combine(aclrtReduceKind kind, T a, T b) {
  switch (kind) {
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM:
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
      } else {
        return a + b;
      }
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX:
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a) || std::isnan(b)) return std::nanf("");
      }
      return std::max(a, b);
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN:
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a) || std::isnan(b)) return std::nanf("");
      }
      return std::min(a, b);
    default:
      return a;
  }
}

template <typename T>
void ReduceAs(aclrtReduceKind kind, uint8_t* dst, const uint8_t* src,
              uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    Store(dst + i * sizeof(T), Combine(kind, Load<T>(dst + i * sizeof(T)),
                                       Load<T>(src + i * sizeof(T))));
  }
}

template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
void ReduceHalfAs(aclrtReduceKind kind, uint8_t* dst, const uint8_t* src,
                  uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    const float a = ToFloat(Load<uint16_t>(dst + 2 * i));
    const float b = ToFloat(Load<uint16_t>(src + 2 * i));
    Store(dst + 2 * i, FromFloat(Combine(kind, a, b)));
  }
}

uint16_t HalfFromFloat(float v) { return FloatToHalf(v); }
float HalfToFloatFn(uint16_t v) { return HalfToFloat(v); }

// A uniform double in [0, 1) from 53 random bits.
double Unit53(uint32_t hi, uint32_t lo) {
  const uint64_t bits = ((static_cast<uint64_t>(hi) << 32) | lo) >> 11;
  return static_cast<double>(bits) * (1.0 / 9007199254740992.0);
}

// A uniform float in [0, 1) from 24 random bits.
float Unit24(uint32_t word) {
  return static_cast<float>(word >> 8) * (1.0f / 16777216.0f);
}

void StoreFloat(aclDataType type, uint8_t* p, double value) {
  switch (type) {
    case ACL_FLOAT16:
      Store(p, FloatToHalf(static_cast<float>(value)));
      break;
    case ACL_BF16:
      Store(p, FloatToBf16(static_cast<float>(value)));
      break;
    default:
      Store(p, static_cast<float>(value));
      break;
  }
}

double LoadFloat(aclDataType type, const uint8_t* p) {
  switch (type) {
    case ACL_FLOAT16:
      return HalfToFloat(Load<uint16_t>(p));
    case ACL_BF16:
      return Bf16ToFloat(Load<uint16_t>(p));
    default:
      return Load<float>(p);
  }
}

// Replaces the finite value at p by the next smaller one of its type.
template <typename Bits>
void StepDownBits(uint8_t* p) {
  constexpr Bits kSign = Bits{1} << (8 * sizeof(Bits) - 1);
  Bits bits = Load<Bits>(p);
  if ((bits & ~kSign) == 0) {
    bits = kSign | 1;  // +-0: the smallest negative subnormal
  } else if (bits & kSign) {
    ++bits;  // negative: one more in magnitude
  } else {
    --bits;
  }
  Store(p, bits);
}

void StepDown(aclDataType type, uint8_t* p) {
  if (type == ACL_FLOAT) {
    StepDownBits<uint32_t>(p);
  } else {
    StepDownBits<uint16_t>(p);
  }
}

// A standard normal from the four words of a block (Box-Muller); for the
// truncated distribution the first of the block's two draws inside
// [-2, 2], redrawing from further counters when neither is.
double StandardNormal(const Philox4x32& philox, std::array<uint32_t, 4> ctr,
                      bool truncated) {
  for (uint32_t attempt = 0;; ++attempt) {
    std::array<uint32_t, 4> w = philox.Block(ctr);
    const double u1 = 1.0 - Unit53(w[0], w[1]);  // (0, 1]
    const double u2 = Unit53(w[2], w[3]);
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double z0 = r * std::cos(2.0 * M_PI * u2);
    const double z1 = r * std::sin(2.0 * M_PI * u2);
    if (!truncated) return z0;
    if (std::fabs(z0) <= 2.0) return z0;
    if (std::fabs(z1) <= 2.0) return z1;
    // Redraws use the counter's top word, which element indices never reach
    // in practice (2^96 elements).
    ctr[3] += 0x9E3779B9u + attempt;
  }
}

}  // namespace

size_t ReduceElementSize(int32_t type) {
  switch (type) {
    case ACL_INT8:
      return 1;
    case ACL_INT16:
    case ACL_FLOAT16:
    case ACL_BF16:
      return 2;
    case ACL_INT32:
    case ACL_FLOAT:
      return 4;
    default:
      return 0;
  }
}

void ReduceElements(aclrtReduceKind kind, aclDataType type, void* dst,
                    const void* src, uint64_t bytes) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  const size_t size = ReduceElementSize(type);
  if (size == 0) return;
  const uint64_t n = bytes / size;
  switch (type) {
    case ACL_INT8:
      return ReduceAs<int8_t>(kind, d, s, n);
    case ACL_INT16:
      return ReduceAs<int16_t>(kind, d, s, n);
    case ACL_INT32:
      return ReduceAs<int32_t>(kind, d, s, n);
    case ACL_FLOAT:
      return ReduceAs<float>(kind, d, s, n);
    case ACL_FLOAT16:
      return ReduceHalfAs<HalfToFloatFn, HalfFromFloat>(kind, d, s, n);
    case ACL_BF16:
      return ReduceHalfAs<Bf16ToFloat, FloatToBf16>(kind, d, s, n);
    default:
      return;
  }
}

uint16_t FloatToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0) {
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);  // stays a NaN
  }
  const uint32_t rounding = 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

float Bf16ToFloat(uint16_t value) {
  const uint32_t bits = static_cast<uint32_t>(value) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

std::array<uint32_t, 4> Philox4x32::Block(
    std::array<uint32_t, 4> counter) const {
  constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  std::array<uint32_t, 2> key = key_;
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = static_cast<uint64_t>(kMul0) * counter[0];
    const uint64_t p1 = static_cast<uint64_t>(kMul1) * counter[2];
    counter = {static_cast<uint32_t>(p1 >> 32) ^ counter[1] ^ key[0],
               static_cast<uint32_t>(p1),
               static_cast<uint32_t>(p0 >> 32) ^ counter[3] ^ key[1],
               static_cast<uint32_t>(p0)};
    key[0] += kWeyl0;
    key[1] += kWeyl1;
  }
  return counter;
}

std::array<uint32_t, 4> AddToCounter(std::array<uint32_t, 4> base, uint64_t n) {
  uint64_t carry = n;
  for (uint32_t& word : base) {
    const uint64_t sum = static_cast<uint64_t>(word) + (carry & 0xFFFFFFFFu);
    word = static_cast<uint32_t>(sum);
    carry = (carry >> 32) + (sum >> 32);
  }
  return base;
}

size_t RandomElementSize(int32_t type) {
  switch (type) {
    case ACL_BF16:
    case ACL_FLOAT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
      return 4;
    case ACL_INT64:
    case ACL_UINT64:
      return 8;
    default:
      return 0;
  }
}

uint64_t RandomOutputBytes(const RandomRequest& r) {
  if (r.func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
    return (r.count + 7) / 8;
  }
  return r.count * RandomElementSize(r.type);
}

void GenerateRandom(const RandomRequest& r, void* out) {
  auto* o = static_cast<uint8_t*>(out);
  const Philox4x32 philox(r.seed);
  if (r.func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
    // Bit i (LSB first in each byte) is 1 -- kept -- with probability
    // 1 - ratio.
    std::memset(o, 0, RandomOutputBytes(r));
    for (uint64_t i = 0; i < r.count; ++i) {
      const std::array<uint32_t, 4> w =
          philox.Block(AddToCounter(r.counter, i));
      if (Unit53(w[0], w[1]) >= r.fa) o[i / 8] |= 1u << (i % 8);
    }
    return;
  }
  const size_t size = RandomElementSize(r.type);
  for (uint64_t i = 0; i < r.count; ++i) {
    const std::array<uint32_t, 4> ctr = AddToCounter(r.counter, i);
    uint8_t* p = o + i * size;
    if (r.func == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
      const std::array<uint32_t, 4> w = philox.Block(ctr);
      const uint64_t bits = (static_cast<uint64_t>(w[0]) << 32) | w[1];
      switch (r.type) {
        case ACL_INT32:
        case ACL_INT64: {
          const uint64_t span =
              static_cast<uint64_t>(r.ib) - static_cast<uint64_t>(r.ia);
          const int64_t v = r.ib > r.ia
                                ? static_cast<int64_t>(
                                      static_cast<uint64_t>(r.ia) + bits % span)
                                : r.ia;
          if (r.type == ACL_INT32) {
            Store(p, static_cast<int32_t>(v));
          } else {
            Store(p, v);
          }
          break;
        }
        case ACL_UINT32:
        case ACL_UINT64: {
          const uint64_t v = r.ub > r.ua ? r.ua + bits % (r.ub - r.ua) : r.ua;
          if (r.type == ACL_UINT32) {
            Store(p, static_cast<uint32_t>(v));
          } else {
            Store(p, v);
          }
          break;
        }
        default: {
          const double u =
              r.type == ACL_FLOAT ? Unit24(w[0]) : Unit53(w[0], w[1]);
          StoreFloat(r.type, p, r.fa + u * (r.fb - r.fa));
          // Rounding to the stored type must not reach the open upper
          // bound: step one unit down instead.
          if (r.fb > r.fa && LoadFloat(r.type, p) >= r.fb) StepDown(r.type, p);
          break;
        }
      }
      continue;
    }
    const bool truncated =
        r.func == ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS;
    StoreFloat(r.type, p, r.fa + r.fb * StandardNormal(philox, ctr, truncated));
  }
}

}  // namespace ascend::rt
