#include "runtime/family.h"

#include <atomic>

namespace ascend::rt::internal {

int NextFamilyIndex() {
  static std::atomic<int> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace ascend::rt::internal
