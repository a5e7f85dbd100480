// The rest of hccl/hccl_comm.h and hccl/hccl_mc2.h: memory ranges (kept as
// bookkeeping: simulated device memory is reachable without registration),
// and what the simulator cannot do — backup network cards, symmetric memory
// windows, MC2 fused kernels — answering HCCL_E_NOT_SUPPORT.
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>

#include "hccl/core/comm.h"
#include "hccl/core/log.h"

#define HCOMM_WEAK_SYMBOL
#include "hccl/hccl.h"
#include "hccl/hccl_mc2.h"

using ascend::hccl::Comm;
using ascend::hccl::Lookup;
using ascend::hccl::Refuse;

namespace {

#define HCCL_REQUIRE_PTR(p, name) \
  HCCL_REQUIRE((p) != nullptr, HCCL_E_PTR, std::string(name) + " is NULL")

// Whether [base, base + size) overlaps a range of `ranges`.
bool Overlaps(const std::map<uintptr_t, size_t>& ranges, uintptr_t base,
              size_t size) {
  auto next = ranges.lower_bound(base);
  if (next != ranges.end() && next->first < base + size) return true;
  if (next != ranges.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second > base) return true;
  }
  return false;
}

HcclResult NotSupported(const char* api, const std::string& why) {
  return Refuse(api, HCCL_E_NOT_SUPPORT, why);
}

}  // namespace

HcclResult HcclCommSetMemoryRange(HcclComm comm, void* baseVirPtr, size_t size,
                                  size_t alignment, uint64_t flags) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE_PTR(baseVirPtr, "baseVirPtr");
  HCCL_REQUIRE(size != 0, HCCL_E_PARA, "size is 0");
  HCCL_REQUIRE(alignment == 0, HCCL_E_PARA, "alignment must be 0");
  HCCL_REQUIRE(flags == 0, HCCL_E_PARA, "flags must be 0");
  const auto base = reinterpret_cast<uintptr_t>(baseVirPtr);
  HCCL_REQUIRE(base + size > base, HCCL_E_PARA, "the range wraps around");
  std::lock_guard<std::mutex> lock(c->ranges_mu);
  HCCL_REQUIRE(!Overlaps(c->ranges, base, size), HCCL_E_PARA,
               "the range overlaps one already set");
  c->ranges[base] = size;
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommUnsetMemoryRange(HcclComm comm, void* baseVirPtr) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE_PTR(baseVirPtr, "baseVirPtr");
  const auto base = reinterpret_cast<uintptr_t>(baseVirPtr);
  std::lock_guard<std::mutex> lock(c->ranges_mu);
  auto it = c->ranges.find(base);
  HCCL_REQUIRE(it != c->ranges.end(), HCCL_E_PARA,
               "baseVirPtr is not a range set with HcclCommSetMemoryRange");
  HCCL_REQUIRE(!Overlaps(c->active, base, it->second), HCCL_E_PARA,
               "memory is still activated in the range");
  c->ranges.erase(it);
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommActivateCommMemory(HcclComm comm, void* virPtr, size_t size,
                                      size_t offset, aclrtDrvMemHandle handle,
                                      uint64_t flags) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE_PTR(virPtr, "virPtr");
  HCCL_REQUIRE_PTR(handle, "handle");
  HCCL_REQUIRE(size != 0, HCCL_E_PARA, "size is 0");
  HCCL_REQUIRE(offset == 0, HCCL_E_PARA, "offset must be 0");
  HCCL_REQUIRE(flags == 0, HCCL_E_PARA, "flags must be 0");
  const auto base = reinterpret_cast<uintptr_t>(virPtr);
  HCCL_REQUIRE(base + size > base, HCCL_E_PARA, "the range wraps around");
  std::lock_guard<std::mutex> lock(c->ranges_mu);
  auto range = c->ranges.upper_bound(base);
  bool inside = range != c->ranges.begin();
  if (inside) {
    --range;
    inside = base + size <= range->first + range->second;
  }
  HCCL_REQUIRE(inside, HCCL_E_PARA,
               "the memory lies outside every range set with "
               "HcclCommSetMemoryRange");
  HCCL_REQUIRE(!Overlaps(c->active, base, size), HCCL_E_PARA,
               "the memory overlaps memory already activated");
  c->active[base] = size;
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommDeactivateCommMemory(HcclComm comm, void* virPtr) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE_PTR(virPtr, "virPtr");
  std::lock_guard<std::mutex> lock(c->ranges_mu);
  HCCL_REQUIRE(
      c->active.erase(reinterpret_cast<uintptr_t>(virPtr)) == 1, HCCL_E_PARA,
      "virPtr is not memory activated with HcclCommActivateCommMemory");
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommWorkingDevNicSet(HcclComm comm, uint32_t* ranks,
                                    bool* useBackup, uint32_t nRanks) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE(nRanks == 0 || (ranks != nullptr && useBackup != nullptr),
               HCCL_E_PTR, "ranks or useBackup is NULL");
  for (uint32_t i = 0; i < nRanks; ++i) {
    HCCL_REQUIRE(ranks[i] < c->size, HCCL_E_PARA,
                 "ranks[" + std::to_string(i) + "] is not a rank");
  }
  return NotSupported(__func__,
                      "the simulated devices have no backup network card");
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommSymWinRegister(HcclComm, void*, uint64_t, HcclCommSymWindow*,
                                  uint32_t) {
  return NotSupported(__func__, "symmetric memory windows are not simulated");
}
HcclResult HcclCommSymWinDeregister(HcclCommSymWindow) {
  return NotSupported(__func__, "symmetric memory windows are not simulated");
}
HcclResult HcclCommSymWinGet(HcclComm, void*, size_t, HcclCommSymWindow*,
                             size_t*) {
  return NotSupported(__func__, "symmetric memory windows are not simulated");
}

#define HCCL_MC2_UNSUPPORTED(name, params)                            \
  HcclResult name params {                                            \
    return NotSupported(#name,                                        \
                        "MC2 fused kernels need the device's AI CPU " \
                        "and communication engines");                 \
  }
HCCL_MC2_UNSUPPORTED(HcclKfcAllocOpArgs, (void**))
HCCL_MC2_UNSUPPORTED(HcclKfcFreeOpArgs, (void*))
HCCL_MC2_UNSUPPORTED(HcclKfcOpArgsSetSrcDataType, (void*, uint8_t))
HCCL_MC2_UNSUPPORTED(HcclKfcOpArgsSetDstDataType, (void*, uint8_t))
HCCL_MC2_UNSUPPORTED(HcclKfcOpArgsSetReduceType, (void*, uint32_t))
HCCL_MC2_UNSUPPORTED(HcclKfcOpArgsSetCount, (void*, uint64_t))
HCCL_MC2_UNSUPPORTED(HcclKfcOpArgsSetAlgConfig, (void*, char*))
HCCL_MC2_UNSUPPORTED(HcclKfcOpArgsSetCommEngine, (void*, uint8_t))
HCCL_MC2_UNSUPPORTED(HcclCreateOpResCtx, (HcclComm, uint8_t, void*, void**))
