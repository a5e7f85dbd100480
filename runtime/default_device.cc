#include "runtime/default_device.h"

#include <atomic>

namespace ascend::rt {
namespace {

constexpr int32_t kNone = -1;
std::atomic<int32_t> g_default_device{kNone};

}  // namespace

void SetDefaultDevice(int32_t device_id) {
  g_default_device.store(device_id, std::memory_order_release);
}

void ClearDefaultDevice() {
  g_default_device.store(kNone, std::memory_order_release);
}

std::optional<int32_t> DefaultDevice() {
  int32_t id = g_default_device.load(std::memory_order_acquire);
  if (id < 0) return std::nullopt;
  return id;
}

}  // namespace ascend::rt
