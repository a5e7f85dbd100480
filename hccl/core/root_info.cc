#include "hccl/core/root_info.h"

#include <cstring>
#include <mutex>
#include <random>

namespace ascend::hccl {
namespace {

constexpr char kMagic[8] = {'A', 'S', 'C', 'L', 'H', 'C', 'C', 'L'};
constexpr uint32_t kVersion = 1;

struct Wire {
  char magic[8];
  uint32_t version;
  uint16_t port;
  uint16_t ip_len;
  uint64_t job;
  char ip[64];
  uint64_t check;
};
static_assert(sizeof(Wire) <= HCCL_ROOT_INFO_BYTES, "root info too small");

uint64_t Check(const Wire& w) {
  // FNV-1a over every byte before the check word.
  uint64_t h = 1469598103934665603ULL;
  const auto* p = reinterpret_cast<const uint8_t*>(&w);
  for (size_t i = 0; i < offsetof(Wire, check); ++i) {
    h = (h ^ p[i]) * 1099511628211ULL;
  }
  return h;
}

}  // namespace

uint64_t RandomId() {
  static std::mutex mu;
  static std::mt19937_64* engine = [] {
    std::random_device rd;
    std::seed_seq seed{rd(), rd(), rd(), rd()};
    return new std::mt19937_64(seed);
  }();
  std::lock_guard<std::mutex> lock(mu);
  return (*engine)();
}

void EncodeRootInfo(const RootAddress& a, HcclRootInfo* out) {
  std::memset(out, 0, sizeof(*out));
  Wire w;
  std::memset(&w, 0, sizeof(w));
  std::memcpy(w.magic, kMagic, sizeof(kMagic));
  w.version = kVersion;
  w.port = a.port;
  w.ip_len = static_cast<uint16_t>(std::min<size_t>(a.ip.size(), sizeof(w.ip)));
  w.job = a.job;
  std::memcpy(w.ip, a.ip.data(), w.ip_len);
  w.check = Check(w);
  std::memcpy(out->internal, &w, sizeof(w));
}

bool DecodeRootInfo(const HcclRootInfo& in, RootAddress* out) {
  Wire w;
  std::memcpy(&w, in.internal, sizeof(w));
  if (std::memcmp(w.magic, kMagic, sizeof(kMagic)) != 0 ||
      w.version != kVersion || w.ip_len == 0 || w.ip_len > sizeof(w.ip) ||
      w.port == 0 || w.check != Check(w)) {
    return false;
  }
  out->ip.assign(w.ip, w.ip_len);
  out->port = w.port;
  out->job = w.job;
  return true;
}

}  // namespace ascend::hccl
