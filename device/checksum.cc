#include "device/checksum.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace ascend::device {
namespace {

constexpr size_t kStripeBytes = 64;
constexpr size_t kStripesPerBlock = kChecksumBlockBytes / kStripeBytes;
static_assert(kStripesPerBlock == 16);

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kPrime32 = 0x9E3779B1ULL;  // odd: multiplying is bijective

// Per-position keys, scramble and final constants, generated with splitmix64
// from a fixed seed (any fixed, well-mixed values would do).
struct Keys {
  // Stripe s of a block xors word i with key[s + i]; the padded tail stripe
  // uses offset kStripesPerBlock.
  uint64_t key[kStripesPerBlock + 8];
  uint64_t scramble[8];
  uint64_t init[8];
  uint64_t final[8];
};

constexpr uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

constexpr Keys MakeKeys() {
  Keys k{};
  uint64_t state = 0x61736365'6e64636cULL;  // "ascendcl"
  for (uint64_t& v : k.key) v = SplitMix64(state);
  for (uint64_t& v : k.scramble) v = SplitMix64(state);
  for (uint64_t& v : k.init) v = SplitMix64(state);
  for (uint64_t& v : k.final) v = SplitMix64(state);
  return k;
}

alignas(64) constexpr Keys kKeys = MakeKeys();

inline uint64_t Load64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// --- Portable kernel (the definition; the vector kernel must match it) ----

inline void Stripe(uint64_t* lanes, const unsigned char* p,
                   const uint64_t* key) {
  for (int i = 0; i < 8; ++i) {
    const uint64_t w = Load64(p + 8 * i);
    const uint64_t v = w ^ key[i];
    lanes[i ^ 1] += w;
    lanes[i] += (v & 0xFFFFFFFFULL) * (v >> 32);
  }
}

inline void Scramble(uint64_t* lanes) {
  for (int i = 0; i < 8; ++i) {
    uint64_t a = lanes[i];
    a ^= a >> 47;
    a ^= kKeys.scramble[i];
    lanes[i] = a * kPrime32;
  }
}

// Absorbs `blocks` whole blocks from src, copying them to dst if not null.
void BlocksPortable(uint64_t* lanes, const unsigned char* src,
                    unsigned char* dst, size_t blocks) {
  for (size_t b = 0; b < blocks; ++b) {
    if (dst != nullptr) {
      std::memcpy(dst, src, kChecksumBlockBytes);
      dst += kChecksumBlockBytes;
    }
    for (size_t s = 0; s < kStripesPerBlock; ++s) {
      Stripe(lanes, src + s * kStripeBytes, kKeys.key + s);
    }
    Scramble(lanes);
    src += kChecksumBlockBytes;
  }
}

// --- AVX2 kernel ---------------------------------------------------------

#if defined(__x86_64__)
// Lanes 0-3 in one vector, 4-7 in the other. "Add word i to lane i^1" is a
// swap of the 64-bit halves of each 128-bit half (shuffle 0x4E).
template <bool kCopy>
__attribute__((target("avx2"))) void BlocksAvx2(uint64_t* lanes,
                                                const unsigned char* src,
                                                unsigned char* dst,
                                                size_t blocks) {
  __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lanes));
  __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lanes + 4));
  const __m256i scramble0 =
      _mm256_load_si256(reinterpret_cast<const __m256i*>(kKeys.scramble));
  const __m256i scramble1 =
      _mm256_load_si256(reinterpret_cast<const __m256i*>(kKeys.scramble + 4));
  const __m256i prime = _mm256_set1_epi64x(static_cast<int64_t>(kPrime32));
  for (size_t b = 0; b < blocks; ++b) {
    for (size_t s = 0; s < kStripesPerBlock; ++s) {
      const auto* p = reinterpret_cast<const __m256i*>(src + s * kStripeBytes);
      const __m256i w0 = _mm256_loadu_si256(p);
      const __m256i w1 = _mm256_loadu_si256(p + 1);
      if (kCopy) {
        auto* q = reinterpret_cast<__m256i*>(dst + s * kStripeBytes);
        _mm256_storeu_si256(q, w0);
        _mm256_storeu_si256(q + 1, w1);
      }
      const __m256i k0 =
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kKeys.key + s));
      const __m256i k1 = _mm256_loadu_si256(
          reinterpret_cast<const __m256i*>(kKeys.key + s + 4));
      const __m256i v0 = _mm256_xor_si256(w0, k0);
      const __m256i v1 = _mm256_xor_si256(w1, k1);
      a0 = _mm256_add_epi64(a0, _mm256_shuffle_epi32(w0, 0x4E));
      a1 = _mm256_add_epi64(a1, _mm256_shuffle_epi32(w1, 0x4E));
      a0 =
          _mm256_add_epi64(a0, _mm256_mul_epu32(v0, _mm256_srli_epi64(v0, 32)));
      a1 =
          _mm256_add_epi64(a1, _mm256_mul_epu32(v1, _mm256_srli_epi64(v1, 32)));
    }
    // Scramble: a ^= a >> 47; a ^= key; a *= kPrime32 (64 x 32 bits, as
    // low half * p + (high half * p) << 32).
    a0 = _mm256_xor_si256(_mm256_xor_si256(a0, _mm256_srli_epi64(a0, 47)),
                          scramble0);
    a1 = _mm256_xor_si256(_mm256_xor_si256(a1, _mm256_srli_epi64(a1, 47)),
                          scramble1);
    a0 = _mm256_add_epi64(
        _mm256_mul_epu32(a0, prime),
        _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a0, 32), prime),
                          32));
    a1 = _mm256_add_epi64(
        _mm256_mul_epu32(a1, prime),
        _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a1, 32), prime),
                          32));
    src += kChecksumBlockBytes;
    if (kCopy) dst += kChecksumBlockBytes;
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(lanes), a0);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(lanes + 4), a1);
}

void BlocksAvx2Dispatch(uint64_t* lanes, const unsigned char* src,
                        unsigned char* dst, size_t blocks) {
  if (dst != nullptr) {
    BlocksAvx2<true>(lanes, src, dst, blocks);
  } else {
    BlocksAvx2<false>(lanes, src, nullptr, blocks);
  }
}
#endif  // __x86_64__

// --- NEON kernel (aarch64, where Advanced SIMD is always present) ----------

#if defined(__aarch64__) && defined(__ARM_NEON)
// Lanes 2j and 2j+1 in vector j. "Add word i to lane i^1" swaps the two
// halves of each vector (vextq 1); lo32 * hi32 is a widening multiply of the
// narrowed halves (vmlal_u32).
template <bool kCopy>
void BlocksNeon(uint64_t* lanes, const unsigned char* src, unsigned char* dst,
                size_t blocks) {
  uint64x2_t a[4];
  uint64x2_t scramble[4];
  for (int j = 0; j < 4; ++j) {
    a[j] = vld1q_u64(lanes + 2 * j);
    scramble[j] = vld1q_u64(kKeys.scramble + 2 * j);
  }
  const uint32x2_t prime = vdup_n_u32(static_cast<uint32_t>(kPrime32));
  for (size_t b = 0; b < blocks; ++b) {
    for (size_t s = 0; s < kStripesPerBlock; ++s) {
      const unsigned char* p = src + s * kStripeBytes;
      for (int j = 0; j < 4; ++j) {
        const uint64x2_t w = vreinterpretq_u64_u8(vld1q_u8(p + 16 * j));
        if (kCopy) {
          vst1q_u8(dst + s * kStripeBytes + 16 * j, vreinterpretq_u8_u64(w));
        }
        const uint64x2_t v = veorq_u64(w, vld1q_u64(kKeys.key + s + 2 * j));
        a[j] = vaddq_u64(a[j], vextq_u64(w, w, 1));
        a[j] = vmlal_u32(a[j], vmovn_u64(v), vshrn_n_u64(v, 32));
      }
    }
    // Scramble: a ^= a >> 47; a ^= key; a *= kPrime32 (64 x 32 bits, as
    // low half * p + (high half * p) << 32).
    for (int j = 0; j < 4; ++j) {
      uint64x2_t x =
          veorq_u64(veorq_u64(a[j], vshrq_n_u64(a[j], 47)), scramble[j]);
      a[j] = vaddq_u64(vmull_u32(vmovn_u64(x), prime),
                       vshlq_n_u64(vmull_u32(vshrn_n_u64(x, 32), prime), 32));
    }
    src += kChecksumBlockBytes;
    if (kCopy) dst += kChecksumBlockBytes;
  }
  for (int j = 0; j < 4; ++j) vst1q_u64(lanes + 2 * j, a[j]);
}

void BlocksNeonDispatch(uint64_t* lanes, const unsigned char* src,
                        unsigned char* dst, size_t blocks) {
  if (dst != nullptr) {
    BlocksNeon<true>(lanes, src, dst, blocks);
  } else {
    BlocksNeon<false>(lanes, src, nullptr, blocks);
  }
}
#endif  // __aarch64__ && __ARM_NEON

using BlockFn = void (*)(uint64_t*, const unsigned char*, unsigned char*,
                         size_t);

BlockFn PickBlocks() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return &BlocksAvx2Dispatch;
  return &BlocksPortable;
#elif defined(__aarch64__) && defined(__ARM_NEON)
  return &BlocksNeonDispatch;
#else
  return &BlocksPortable;
#endif
}

// Set by the tests to compare the kernels; otherwise the fastest one.
bool g_force_portable = false;

BlockFn Blocks() {
  static const BlockFn fastest = PickBlocks();
  return g_force_portable ? &BlocksPortable : fastest;
}

inline uint64_t Fold(uint64_t a, uint64_t b) {
  const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

}  // namespace

namespace internal {
void ForcePortableChecksumForTesting(bool force) { g_force_portable = force; }

const char* ChecksumKernelForTesting() {
  const BlockFn fn = Blocks();
#if defined(__x86_64__)
  if (fn == &BlocksAvx2Dispatch) return "avx2";
#elif defined(__aarch64__) && defined(__ARM_NEON)
  if (fn == &BlocksNeonDispatch) return "neon";
#endif
  return fn == &BlocksPortable ? "portable" : "unknown";
}
}  // namespace internal

ChecksumState::ChecksumState() {
  for (int i = 0; i < 8; ++i) lanes_[i] = kKeys.init[i];
}

void ChecksumState::Update(const void* data, size_t size) {
  Blocks()(lanes_, static_cast<const unsigned char*>(data), nullptr,
           size / kChecksumBlockBytes);
  length_ += size;
}

void ChecksumState::CopyUpdate(void* dst, const void* src, size_t size) {
  Blocks()(lanes_, static_cast<const unsigned char*>(src),
           static_cast<unsigned char*>(dst), size / kChecksumBlockBytes);
  length_ += size;
}

uint64_t ChecksumState::Finish(const void* data, size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  const size_t whole = size - size % kChecksumBlockBytes;
  Update(p, whole);
  p += whole;
  const size_t rest = size - whole;
  const size_t stripes = rest / kStripeBytes;
  for (size_t s = 0; s < stripes; ++s) {
    Stripe(lanes_, p + s * kStripeBytes, kKeys.key + s);
  }
  const size_t last = rest % kStripeBytes;
  if (last != 0) {
    unsigned char padded[kStripeBytes] = {};
    std::memcpy(padded, p + stripes * kStripeBytes, last);
    Stripe(lanes_, padded, kKeys.key + kStripesPerBlock);
  }
  length_ += rest;
  uint64_t h = length_ * kP1;
  for (int i = 0; i < 8; i += 2) {
    h += Fold(lanes_[i] ^ kKeys.final[i], lanes_[i + 1] ^ kKeys.final[i + 1]);
  }
  h ^= h >> 37;
  h *= kP2;
  h ^= h >> 32;
  return h;
}

uint64_t ChecksumState::CopyFinish(void* dst, const void* src, size_t size) {
  const size_t whole = size - size % kChecksumBlockBytes;
  CopyUpdate(dst, src, whole);
  const auto* s = static_cast<const unsigned char*>(src) + whole;
  auto* d = static_cast<unsigned char*>(dst) + whole;
  const size_t rest = size - whole;
  if (rest != 0) std::memcpy(d, s, rest);
  // Hashes the source, not the copy: the checksum of what was read.
  return Finish(s, rest);
}

uint64_t Checksum(const void* data, size_t size) {
  ChecksumState state;
  return state.Finish(data, size);
}

uint64_t CopyAndChecksum(void* dst, const void* src, size_t size) {
  ChecksumState state;
  return state.CopyFinish(dst, src, size);
}

}  // namespace ascend::device
