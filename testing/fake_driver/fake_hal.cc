// A stand-in for the Ascend driver library (`libascend_hal.so`) that keeps
// device memory in host memory, implementing the C ABI subset of
// /work/shared/reference/ascend_hal_subset.md (§5). It lets the npu backend
// run its real code paths (dlopen, dlsym, the driver's call sequence) in CI.
//
// Model (§5.2):
//  * Device addresses come from a PROT_NONE, MAP_NORESERVE window reserved at
//    start-up: they never coincide with host memory and fault if the host
//    dereferences them, as on a PCIe card. The bytes live in host shadow
//    buffers, one per allocation.
//  * One process-wide address space: frees, copies and fills find the
//    allocation by address across all devices. drvMemcpy classifies each side
//    as device (inside a live allocation) or host (outside the window).
//  * Per device a normal-page pool (4 KiB granules) and a huge-page pool
//    (2 MiB granules) with fixed capacities; halMemGetInfo reports them.
//  * halProcessResBackup deep-copies every live allocation into an image that
//    survives device closes; the image's addresses stay reserved until a newer
//    backup replaces it; halProcessResRestore re-creates the allocations at the
//    same addresses with the saved bytes, all or nothing, and keeps the image.
//  * Every entry point takes one process-wide lock.
//
// Stand-in choices (not CANN facts): fresh allocations are filled with 0xA5
// (device memory is not zeroed); invalid device id or an unopened device ->
// DRV_ERROR_INVALID_DEVICE; double open -> DRV_ERROR_REPEATED_INIT; unknown,
// freed or out-of-range address, host-to-host copy, zero byte count ->
// DRV_ERROR_INVALID_VALUE; non-zero reserved fields -> DRV_ERROR_INVALID_VALUE;
// a memory kind other than MEM_DEV -> DRV_ERROR_INVALID_MALLOC_TYPE; giant
// pages and DEV_CLOSE_ONLY_HOST -> DRV_ERROR_NOT_SUPPORT; drvGetDevIDs needs
// len == device count; restore without an image -> DRV_ERROR_NOT_EXIST, onto
// a device that is not open -> DRV_ERROR_INVALID_DEVICE, onto an address in
// use -> DRV_ERROR_BUSY; halMemGetInfo does not need the device open.
//
// Configuration, read once at first use:
//   ASCEND_FAKE_HAL_DEVICE_COUNT  devices (default 2, 0..64)
//   ASCEND_FAKE_HAL_NORMAL_MB     normal-page pool per device (default 256)
//   ASCEND_FAKE_HAL_HUGE_MB       huge-page pool per device (default 256)
//   ASCEND_FAKE_HAL_SOC_VERSION   halGetSocVersion's answer (default
//                                 "Ascend910B1")
//   ASCEND_FAKE_HAL_FAULTS        "name=error[:count],..." armed as by
//                                 fakeHalInjectError (count default -1)
// plus the test-control functions of fake_hal_control.h.
//
// Variants are built from this file with defines that leave entry points out:
// FAKE_HAL_WITHOUT_SNAPSHOT (halProcessResBackup/Restore),
// FAKE_HAL_WITHOUT_DEVICE_CLOSE (halDeviceClose), FAKE_HAL_WITHOUT_MEMSET
// (drvMemsetD8).
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "device/npu/internal/hal_abi.h"
#include "testing/fake_driver/fake_hal_control.h"

namespace {

constexpr uint64_t kMiB = 1ULL << 20;
constexpr uint64_t kNormalPage = 4ULL << 10;
constexpr uint64_t kHugePage = 2ULL << 20;
constexpr uint64_t kMinWindow = 64ULL << 30;
constexpr uint32_t kMaxDevices = 64;
constexpr uint8_t kFreshPattern = 0xA5;

uint64_t AlignUp(uint64_t value, uint64_t align) {
  return (value + align - 1) / align * align;
}

template <typename T, size_t N>
bool AllZero(const T (&values)[N]) {
  return std::all_of(values, values + N, [](T v) { return v == 0; });
}

uint64_t EnvNumber(const char* name, uint64_t fallback, uint64_t max) {
  const char* text = std::getenv(name);
  if (text == nullptr || text[0] == '\0') return fallback;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0' || value > max) {
    std::fprintf(stderr, "fake libascend_hal: ignoring %s=\"%s\"\n", name,
                 text);
    return fallback;
  }
  return value;
}

struct Fault {
  int error = 0;
  int64_t remaining = 0;  // < 0: every call
};

struct Allocation {
  uint32_t device = 0;
  uint64_t size = 0;
  uint64_t flag = 0;
  bool huge = false;
  uint64_t charged = 0;  // bytes taken from the pool
  std::unique_ptr<uint8_t[]> bytes;
};

struct SavedAllocation {
  uint32_t device = 0;
  uint64_t size = 0;
  uint64_t flag = 0;
  bool huge = false;
  uint64_t charged = 0;
  std::vector<uint8_t> bytes;
};

struct DeviceState {
  bool open = false;
  uint64_t normal_used = 0;
  uint64_t huge_used = 0;
};

class FakeDriver {
 public:
  static FakeDriver& Get() {
    static FakeDriver* const driver = new FakeDriver;
    return *driver;
  }

  // Every entry point starts here: counts the call and answers an armed
  // fault. The caller holds `mu`.
  bool Enter(const char* function, drvError_t* fault) {
    ++calls_[function];
    auto it = faults_.find(function);
    if (it == faults_.end() || it->second.remaining == 0) return false;
    if (it->second.remaining > 0) --it->second.remaining;
    *fault = static_cast<drvError_t>(it->second.error);
    return true;
  }

  std::mutex mu;

  // --- Enumeration ---------------------------------------------------------
  drvError_t GetDevNum(uint32_t* num) {
    if (num == nullptr) return DRV_ERROR_INVALID_VALUE;
    *num = static_cast<uint32_t>(devices_.size());
    return DRV_ERROR_NONE;
  }

  drvError_t GetDevIds(uint32_t* ids, uint32_t len) {
    if (ids == nullptr || len != devices_.size())
      return DRV_ERROR_INVALID_VALUE;
    for (uint32_t i = 0; i < len; ++i) ids[i] = i;
    return DRV_ERROR_NONE;
  }

  drvError_t CheckDevice(uint32_t id) const {
    return id < devices_.size() ? DRV_ERROR_NONE : DRV_ERROR_INVALID_DEVICE;
  }

  drvError_t CheckOpen(uint32_t id) const {
    if (id >= devices_.size() || !devices_[id].open) {
      return DRV_ERROR_INVALID_DEVICE;
    }
    return DRV_ERROR_NONE;
  }

  drvError_t SocVersion(uint32_t id, char* out, uint32_t len) const {
    if (drvError_t err = CheckDevice(id)) return err;
    if (out == nullptr || soc_version_.size() + 1 > len) {
      return DRV_ERROR_INVALID_VALUE;
    }
    std::memcpy(out, soc_version_.c_str(), soc_version_.size() + 1);
    return DRV_ERROR_NONE;
  }

  // --- Open / close --------------------------------------------------------
  drvError_t Open(uint32_t id, halDevOpenIn* in, halDevOpenOut* out) {
    if (in == nullptr || out == nullptr || !AllZero(in->reserve)) {
      return DRV_ERROR_INVALID_VALUE;
    }
    if (drvError_t err = CheckDevice(id)) return err;
    if (devices_[id].open) return DRV_ERROR_REPEATED_INIT;
    devices_[id].open = true;
    std::memset(out, 0, sizeof(*out));
    return DRV_ERROR_NONE;
  }

  drvError_t Close(uint32_t id, halDevCloseIn* in) {
    if (in == nullptr || in->reserve0 != 0 || !AllZero(in->reserve) ||
        in->close_type >= DEV_CLOSE_TYPE_MAX) {
      return DRV_ERROR_INVALID_VALUE;
    }
    last_close_type_ = static_cast<int>(in->close_type);
    if (in->close_type == DEV_CLOSE_ONLY_HOST) return DRV_ERROR_NOT_SUPPORT;
    if (drvError_t err = CheckOpen(id)) return err;
    // Normal and host-user close both drop the device's allocations; the
    // backup image (and the addresses it reserves) stays.
    for (auto it = live_.begin(); it != live_.end();) {
      if (it->second.device == id) {
        Release(it->second);
        it = live_.erase(it);
      } else {
        ++it;
      }
    }
    devices_[id].open = false;
    return DRV_ERROR_NONE;
  }

  drvError_t SmmuQuery(uint32_t id, UINT32* ssid) const {
    if (ssid == nullptr) return DRV_ERROR_INVALID_VALUE;
    if (drvError_t err = CheckOpen(id)) return err;
    *ssid = id + 1;
    return DRV_ERROR_NONE;
  }

  // --- Memory --------------------------------------------------------------
  drvError_t Alloc(void** pp, uint64_t size, uint64_t flag) {
    last_alloc_flag_ = flag;
    if (pp == nullptr || size == 0) return DRV_ERROR_INVALID_VALUE;
    const uint32_t id = static_cast<uint32_t>(flag & HAL_ABI_DEVICE_ID_MASK);
    if (drvError_t err = CheckOpen(id)) return err;
    if (HAL_ABI_VIRT_KIND(flag) != MEM_DEV_VAL) {
      return DRV_ERROR_INVALID_MALLOC_TYPE;
    }
    if (flag & MEM_PAGE_GIANT) return DRV_ERROR_NOT_SUPPORT;
    const bool huge = (flag & MEM_PAGE_HUGE) != 0;
    const uint64_t page = huge ? kHugePage : kNormalPage;
    const uint64_t align =
        std::max<uint64_t>(1ULL << HAL_ABI_ALIGN_EXPONENT(flag), page);
    const uint64_t charged = AlignUp(size, page);
    DeviceState& dev = devices_[id];
    uint64_t& used = huge ? dev.huge_used : dev.normal_used;
    const uint64_t capacity = huge ? huge_capacity_ : normal_capacity_;
    if (charged > capacity - used) return DRV_ERROR_OUT_OF_MEMORY;
    uint64_t va = 0;
    if (!FindFreeRange(size, align, &va)) return DRV_ERROR_OUT_OF_MEMORY;
    Allocation alloc;
    alloc.device = id;
    alloc.size = size;
    alloc.flag = flag;
    alloc.huge = huge;
    alloc.charged = charged;
    alloc.bytes.reset(new (std::nothrow) uint8_t[size]);
    if (alloc.bytes == nullptr) return DRV_ERROR_OUT_OF_MEMORY;
    std::memset(alloc.bytes.get(), kFreshPattern, size);
    used += charged;
    live_.emplace(va, std::move(alloc));
    *pp = reinterpret_cast<void*>(va);
    return DRV_ERROR_NONE;
  }

  drvError_t Free(void* pp) {
    auto it = live_.find(reinterpret_cast<uintptr_t>(pp));
    if (pp == nullptr || it == live_.end()) return DRV_ERROR_INVALID_VALUE;
    Release(it->second);
    live_.erase(it);
    return DRV_ERROR_NONE;
  }

  // drvMemcpy, and halMemcpy with `expected` = its declared direction (a
  // mismatch fails without copying).
  drvError_t Memcpy(uint64_t dst, size_t dest_max, uint64_t src, size_t count,
                    const drvMemcpyKind_t* expected) {
    if (dst == 0 || src == 0 || count == 0 || count > dest_max) {
      return DRV_ERROR_INVALID_VALUE;
    }
    uint8_t* to = nullptr;
    uint8_t* from = nullptr;
    bool dst_device = false;
    bool src_device = false;
    if (drvError_t err = Resolve(dst, count, &to, &dst_device)) return err;
    if (drvError_t err = Resolve(src, count, &from, &src_device)) return err;
    if (!dst_device && !src_device) return DRV_ERROR_INVALID_VALUE;
    const drvMemcpyKind_t kind = dst_device
                                     ? (src_device ? DRV_MEMCPY_DEVICE_TO_DEVICE
                                                   : DRV_MEMCPY_HOST_TO_DEVICE)
                                     : DRV_MEMCPY_DEVICE_TO_HOST;
    if (expected != nullptr && *expected != kind) {
      return DRV_ERROR_INVALID_VALUE;
    }
    std::memmove(to, from, count);
    return DRV_ERROR_NONE;
  }

  drvError_t Memset(uint64_t dst, size_t dest_max, uint8_t value, size_t num) {
    if (dst == 0 || num == 0 || num > dest_max) return DRV_ERROR_INVALID_VALUE;
    uint8_t* to = nullptr;
    bool device = false;
    if (drvError_t err = Resolve(dst, num, &to, &device)) return err;
    if (!device) return DRV_ERROR_INVALID_VALUE;
    std::memset(to, value, num);
    return DRV_ERROR_NONE;
  }

  drvError_t MemGetInfo(uint32_t id, unsigned int type, MemInfo* info) const {
    if (drvError_t err = CheckDevice(id)) return err;
    if (info == nullptr) return DRV_ERROR_INVALID_VALUE;
    if (type < MEM_INFO_TYPE_DDR_SIZE || type > MEM_INFO_TYPE_HBM_P2P_SIZE) {
      return DRV_ERROR_NOT_SUPPORT;
    }
    std::memset(info, 0, sizeof(*info));
    const DeviceState& dev = devices_[id];
    info->phy_info.total = normal_capacity_;
    info->phy_info.free = normal_capacity_ - dev.normal_used;
    info->phy_info.huge_total = huge_capacity_;
    info->phy_info.huge_free = huge_capacity_ - dev.huge_used;
    return DRV_ERROR_NONE;
  }

  // --- Snapshot ------------------------------------------------------------
  drvError_t Backup(halProcResBackupInfo* info) {
    if (info == nullptr || !AllZero(info->reserve)) {
      return DRV_ERROR_INVALID_VALUE;
    }
    std::map<uint64_t, SavedAllocation> image;
    for (const auto& [va, alloc] : live_) {
      SavedAllocation& saved = image[va];
      saved.device = alloc.device;
      saved.size = alloc.size;
      saved.flag = alloc.flag;
      saved.huge = alloc.huge;
      saved.charged = alloc.charged;
      saved.bytes.assign(alloc.bytes.get(), alloc.bytes.get() + alloc.size);
    }
    image_ = std::move(image);
    has_image_ = true;
    return DRV_ERROR_NONE;
  }

  drvError_t Restore(halProcResRestoreInfo* info) {
    if (info == nullptr || !AllZero(info->reserve)) {
      return DRV_ERROR_INVALID_VALUE;
    }
    if (!has_image_) return DRV_ERROR_NOT_EXIST;
    // Check everything first: a failed restore changes nothing.
    std::vector<uint64_t> normal_need(devices_.size(), 0);
    std::vector<uint64_t> huge_need(devices_.size(), 0);
    for (const auto& [va, saved] : image_) {
      if (drvError_t err = CheckOpen(saved.device)) return err;
      if (OverlapsLive(va, saved.size)) return DRV_ERROR_BUSY;
      (saved.huge ? huge_need : normal_need)[saved.device] += saved.charged;
    }
    for (size_t id = 0; id < devices_.size(); ++id) {
      if (normal_need[id] > normal_capacity_ - devices_[id].normal_used ||
          huge_need[id] > huge_capacity_ - devices_[id].huge_used) {
        return DRV_ERROR_OUT_OF_MEMORY;
      }
    }
    std::map<uint64_t, Allocation> restored;
    for (const auto& [va, saved] : image_) {
      Allocation alloc;
      alloc.device = saved.device;
      alloc.size = saved.size;
      alloc.flag = saved.flag;
      alloc.huge = saved.huge;
      alloc.charged = saved.charged;
      alloc.bytes.reset(new (std::nothrow) uint8_t[saved.size]);
      if (alloc.bytes == nullptr) return DRV_ERROR_OUT_OF_MEMORY;
      std::memcpy(alloc.bytes.get(), saved.bytes.data(), saved.size);
      restored.emplace(va, std::move(alloc));
    }
    for (auto& [va, alloc] : restored) {
      DeviceState& dev = devices_[alloc.device];
      (alloc.huge ? dev.huge_used : dev.normal_used) += alloc.charged;
      live_.emplace(va, std::move(alloc));
    }
    return DRV_ERROR_NONE;
  }

  // --- Test control --------------------------------------------------------
  void Arm(const char* function, int error, int count) {
    faults_[function] = Fault{error, count};
  }

  drvError_t SetCapacity(uint64_t normal, uint64_t huge) {
    for (const DeviceState& dev : devices_) {
      if (dev.normal_used > normal || dev.huge_used > huge) {
        return DRV_ERROR_OUT_OF_MEMORY;
      }
    }
    normal_capacity_ = normal;
    huge_capacity_ = huge;
    return DRV_ERROR_NONE;
  }

  uint64_t CallCount(const char* function) const {
    auto it = calls_.find(function);
    return it == calls_.end() ? 0 : it->second;
  }
  uint64_t last_alloc_flag() const { return last_alloc_flag_; }
  int last_close_type() const { return last_close_type_; }

 private:
  FakeDriver() {
    const uint32_t count = static_cast<uint32_t>(
        EnvNumber("ASCEND_FAKE_HAL_DEVICE_COUNT", 2, kMaxDevices));
    devices_.resize(count);
    normal_capacity_ =
        EnvNumber("ASCEND_FAKE_HAL_NORMAL_MB", 256, 1ULL << 20) * kMiB;
    huge_capacity_ =
        EnvNumber("ASCEND_FAKE_HAL_HUGE_MB", 256, 1ULL << 20) * kMiB;
    const char* soc = std::getenv("ASCEND_FAKE_HAL_SOC_VERSION");
    soc_version_ = soc != nullptr && soc[0] != '\0' ? soc : "Ascend910B1";
    ParseFaults(std::getenv("ASCEND_FAKE_HAL_FAULTS"));
    // Room for every pool several times over (alignment gaps, the addresses
    // a backup image keeps reserved), at least 64 GiB of address space.
    window_size_ = std::max<uint64_t>(
        kMinWindow,
        AlignUp(4 * (count + 1) * (normal_capacity_ + huge_capacity_),
                kHugePage));
    void* base = mmap(nullptr, window_size_, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
      std::fprintf(stderr,
                   "fake libascend_hal: cannot reserve %llu bytes of device "
                   "address space; reporting 0 devices\n",
                   static_cast<unsigned long long>(window_size_));
      devices_.clear();
      window_size_ = 0;
      return;
    }
    window_base_ = reinterpret_cast<uintptr_t>(base);
  }

  void ParseFaults(const char* spec) {
    if (spec == nullptr) return;
    std::string text = spec;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find(',', start);
      if (end == std::string::npos) end = text.size();
      const std::string item = text.substr(start, end - start);
      start = end + 1;
      int error = 0;
      int count = -1;
      char name[64] = {};
      const int fields =
          std::sscanf(item.c_str(), "%63[^=]=%d:%d", name, &error, &count);
      if (fields < 2) {
        std::fprintf(stderr, "fake libascend_hal: ignoring fault \"%s\"\n",
                     item.c_str());
        continue;
      }
      Arm(name, error, count);
    }
  }

  void Release(const Allocation& alloc) {
    DeviceState& dev = devices_[alloc.device];
    (alloc.huge ? dev.huge_used : dev.normal_used) -= alloc.charged;
  }

  bool InWindow(uint64_t addr) const {
    return addr >= window_base_ && addr - window_base_ < window_size_;
  }

  bool OverlapsLive(uint64_t va, uint64_t size) const {
    auto it = live_.lower_bound(va + size);
    if (it == live_.begin()) return false;
    --it;
    return it->first + it->second.size > va;
  }

  // Maps [addr, addr + count) to host bytes: the shadow of a live allocation
  // (device) or the address itself (host). A window address outside every
  // live allocation, or a range past an allocation's end, is invalid.
  drvError_t Resolve(uint64_t addr, uint64_t count, uint8_t** out,
                     bool* device) {
    if (!InWindow(addr)) {
      if (addr + count < addr || InWindow(addr + count - 1)) {
        return DRV_ERROR_INVALID_VALUE;
      }
      *out = reinterpret_cast<uint8_t*>(addr);
      *device = false;
      return DRV_ERROR_NONE;
    }
    auto it = live_.upper_bound(addr);
    if (it == live_.begin()) return DRV_ERROR_INVALID_VALUE;
    --it;
    const uint64_t offset = addr - it->first;
    if (offset >= it->second.size || count > it->second.size - offset) {
      return DRV_ERROR_INVALID_VALUE;
    }
    *out = it->second.bytes.get() + offset;
    *device = true;
    return DRV_ERROR_NONE;
  }

  // First fit in the window, avoiding live allocations and every address the
  // backup image keeps reserved.
  bool FindFreeRange(uint64_t size, uint64_t align, uint64_t* va) const {
    std::vector<std::pair<uint64_t, uint64_t>> used;
    used.reserve(live_.size() + image_.size());
    for (const auto& [start, alloc] : live_) {
      used.emplace_back(start, start + alloc.size);
    }
    for (const auto& [start, saved] : image_) {
      used.emplace_back(start, start + saved.size);
    }
    std::sort(used.begin(), used.end());
    const uint64_t end = window_base_ + window_size_;
    uint64_t candidate = AlignUp(window_base_, align);
    for (const auto& [start, stop] : used) {
      if (candidate + size <= start) break;
      candidate = std::max(candidate, AlignUp(stop, align));
    }
    if (candidate < window_base_ || candidate + size > end) return false;
    *va = candidate;
    return true;
  }

  std::vector<DeviceState> devices_;
  uint64_t normal_capacity_ = 0;
  uint64_t huge_capacity_ = 0;
  std::string soc_version_;
  uintptr_t window_base_ = 0;
  uint64_t window_size_ = 0;
  std::map<uint64_t, Allocation> live_;
  bool has_image_ = false;
  std::map<uint64_t, SavedAllocation> image_;
  std::map<std::string, Fault> faults_;
  std::map<std::string, uint64_t> calls_;
  uint64_t last_alloc_flag_ = 0;
  int last_close_type_ = -1;
};

// Runs `body` under the driver lock after the call was counted and checked
// for an armed fault.
#define FAKE_HAL_ENTRY(name, ...)               \
  FakeDriver& driver = FakeDriver::Get();       \
  std::lock_guard<std::mutex> lock(driver.mu);  \
  drvError_t fault = DRV_ERROR_NONE;            \
  if (driver.Enter(name, &fault)) return fault; \
  __VA_ARGS__

}  // namespace

extern "C" {

drvError_t drvGetDevNum(uint32_t* num_dev) {
  FAKE_HAL_ENTRY("drvGetDevNum", return driver.GetDevNum(num_dev);)
}

drvError_t drvGetDevIDs(uint32_t* devices, uint32_t len) {
  FAKE_HAL_ENTRY("drvGetDevIDs", return driver.GetDevIds(devices, len);)
}

drvError_t drvDeviceGetPhyIdByIndex(uint32_t devIndex, uint32_t* phyId){
    FAKE_HAL_ENTRY("drvDeviceGetPhyIdByIndex",
                   {
                     if (phyId == nullptr) return DRV_ERROR_INVALID_VALUE;
                     if (drvError_t err = driver.CheckDevice(devIndex))
                       return err;
                     *phyId = devIndex;
                     return DRV_ERROR_NONE;
                   })}

drvError_t drvDeviceGetIndexByPhyId(uint32_t phyId, uint32_t* devIndex){
    FAKE_HAL_ENTRY("drvDeviceGetIndexByPhyId",
                   {
                     if (devIndex == nullptr) return DRV_ERROR_INVALID_VALUE;
                     if (drvError_t err = driver.CheckDevice(phyId)) return err;
                     *devIndex = phyId;
                     return DRV_ERROR_NONE;
                   })}

drvError_t drvGetPlatformInfo(uint32_t* info){
    FAKE_HAL_ENTRY("drvGetPlatformInfo",
                   {
                     if (info == nullptr) return DRV_ERROR_INVALID_VALUE;
                     *info = 1;  // host side
                     return DRV_ERROR_NONE;
                   })}

drvError_t halGetSocVersion(uint32_t devId, char* socVersion, uint32_t len) {
  FAKE_HAL_ENTRY("halGetSocVersion",
                 return driver.SocVersion(devId, socVersion, len);)
}

drvError_t halDeviceOpen(uint32_t devid, halDevOpenIn* in, halDevOpenOut* out) {
  FAKE_HAL_ENTRY("halDeviceOpen", return driver.Open(devid, in, out);)
}

#ifndef FAKE_HAL_WITHOUT_DEVICE_CLOSE
drvError_t halDeviceClose(uint32_t devid, halDevCloseIn* in) {
  FAKE_HAL_ENTRY("halDeviceClose", return driver.Close(devid, in);)
}
#endif

DVresult drvMemSmmuQuery(DVdevice device, UINT32* SSID) {
  FAKE_HAL_ENTRY("drvMemSmmuQuery", return driver.SmmuQuery(device, SSID);)
}

drvError_t halMemAlloc(void** pp, unsigned long long size,
                       unsigned long long flag) {
  FAKE_HAL_ENTRY("halMemAlloc", return driver.Alloc(pp, size, flag);)
}

drvError_t halMemFree(void* pp) {
  FAKE_HAL_ENTRY("halMemFree", return driver.Free(pp);)
}

DVresult drvMemcpy(DVdeviceptr dst, size_t dest_max, DVdeviceptr src,
                   size_t byte_count) {
  FAKE_HAL_ENTRY("drvMemcpy",
                 return driver.Memcpy(dst, dest_max, src, byte_count, nullptr);)
}

drvError_t halMemcpy(void* dst, size_t dst_size, void* src, size_t count,
                     struct memcpy_info* info){
    FAKE_HAL_ENTRY("halMemcpy",
                   {
                     if (info == nullptr || !AllZero(info->reserve)) {
                       return DRV_ERROR_INVALID_VALUE;
                     }
                     if (drvError_t err = driver.CheckDevice(info->devid))
                       return err;
                     return driver.Memcpy(
                         reinterpret_cast<uintptr_t>(dst), dst_size,
                         reinterpret_cast<uintptr_t>(src), count, &info->dir);
                   })}
#ifndef FAKE_HAL_WITHOUT_MEMSET
DVresult drvMemsetD8(DVdeviceptr dst, size_t destMax, UINT8 value, size_t num) {
  FAKE_HAL_ENTRY("drvMemsetD8", return driver.Memset(dst, destMax, value, num);)
}
#endif

DVresult halMemGetInfo(DVdevice device, unsigned int type,
                       struct MemInfo* info) {
  FAKE_HAL_ENTRY("halMemGetInfo", return driver.MemGetInfo(device, type, info);)
}

#ifndef FAKE_HAL_WITHOUT_SNAPSHOT
drvError_t halProcessResBackup(halProcResBackupInfo* info) {
  FAKE_HAL_ENTRY("halProcessResBackup", return driver.Backup(info);)
}

drvError_t halProcessResRestore(halProcResRestoreInfo* info) {
  FAKE_HAL_ENTRY("halProcessResRestore", return driver.Restore(info);)
}
#endif

// --- Test control (fake_hal_control.h) ---------------------------------------

int fakeHalInjectError(const char* function, int error, int count) {
  if (function == nullptr) return DRV_ERROR_INVALID_VALUE;
  FakeDriver& driver = FakeDriver::Get();
  std::lock_guard<std::mutex> lock(driver.mu);
  driver.Arm(function, error, count);
  return DRV_ERROR_NONE;
}

int fakeHalSetCapacity(unsigned long long normal_bytes,
                       unsigned long long huge_bytes) {
  FakeDriver& driver = FakeDriver::Get();
  std::lock_guard<std::mutex> lock(driver.mu);
  return driver.SetCapacity(normal_bytes, huge_bytes);
}

unsigned long long fakeHalCallCount(const char* function) {
  if (function == nullptr) return 0;
  FakeDriver& driver = FakeDriver::Get();
  std::lock_guard<std::mutex> lock(driver.mu);
  return driver.CallCount(function);
}

unsigned long long fakeHalLastAllocFlag(void) {
  FakeDriver& driver = FakeDriver::Get();
  std::lock_guard<std::mutex> lock(driver.mu);
  return driver.last_alloc_flag();
}

int fakeHalLastCloseType(void) {
  FakeDriver& driver = FakeDriver::Get();
  std::lock_guard<std::mutex> lock(driver.mu);
  return driver.last_close_type();
}

}  // extern "C"
