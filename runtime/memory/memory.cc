// Device and host memory, synchronous and stream-ordered copies, fills and
// 64-bit value waits/writes.
#include "runtime/memory/memory.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

// Page-locked host blocks start on a page, as a driver's pinned pages do
// (and as aclrtHostRegister wants its address: 11-02).
constexpr size_t kHostAlignment = 4096;

uint64_t Addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

bool ValueSatisfies(uint64_t current, uint64_t value, uint32_t flag) {
  switch (flag) {
    case ACL_STREAM_WAIT_VALUE_GEQ:
      return static_cast<int64_t>(current - value) >= 0;
    case ACL_STREAM_WAIT_VALUE_EQ:
      return current == value;
    case ACL_STREAM_WAIT_VALUE_AND:
      return (current & value) != 0;
    case ACL_STREAM_WAIT_VALUE_NOR:
      return ~(current | value) != 0;
    default:
      return false;
  }
}

}  // namespace

Memory::Memory(Runtime& runtime) : runtime_(runtime), vmm_(runtime) {}

Memory::~Memory() = default;

Memory* Memory::Of(const Runtime& runtime) { return runtime.family<Memory>(); }

FamilyRegistration MemoryFamily() {
  return {
      "memory", &FamilyIndex<Memory>,
      [](Runtime& runtime) -> std::unique_ptr<Family> {
        return std::make_unique<Memory>(runtime);
      },
      // Page tables before contents: reservations, physical memory,
      // mappings (the "vmm" participant).
      [](Runtime& runtime) {
        FamilyRegistration::Participants participants;
        participants.push_back(Memory::Of(runtime)->vmm().MakeParticipant());
        return participants;
      },
      FamilyRegistration::RestoreStage::kBeforeMemory};
}

void Memory::OnDeviceClose(int32_t device_id) {
  registry_.DropDevice(device_id);
}

absl::StatusOr<void*> Memory::Malloc(size_t size, aclrtMemMallocPolicy policy) {
  return MallocWith(size, static_cast<uint32_t>(policy), MallocOptions{});
}

absl::Status Memory::Free(void* dev_ptr) {
  Runtime::Location where = runtime_.Locate(dev_ptr);
  ASCEND_RETURN_IF_ERROR(RejectStale(where, dev_ptr, "aclrtFree of"));
  if (!where.device || where.allocation.addr != Addr(dev_ptr) ||
      vmm_.FreeDeferred(Addr(dev_ptr))) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "not the address of a live device allocation");
  }
  // Kernel launches already handed to a device run before memory they may
  // read goes: on hardware they ran long before the host got here (DESIGN.md
  // §5.20). Not from a task, which would wait for launches behind itself.
  if (Stream::Current() == nullptr) {
    runtime_.tasks()
        .Access({HostOp::kTeardown, "aclrtFree", nullptr, nullptr,
                 DeviceRange{where.device->id(), Addr(dev_ptr),
                             where.allocation.size}})
        .IgnoreError();
  }
  // Memory another process imported goes when that process lets go.
  if (!vmm_.DeferFreeWhileImported(where.device->id(), Addr(dev_ptr),
                                   where.allocation.size)) {
    ASCEND_RETURN_IF_ERROR(where.device->Free(Addr(dev_ptr)));
  }
  registry_.RemoveDevice(Addr(dev_ptr));
  vmm_.SweepDeferredFrees();
  return absl::OkStatus();
}

absl::StatusOr<void*> Memory::MallocHost(size_t size) {
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "allocation size must be non-zero");
  }
  size_t rounded =
      (size + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  void* ptr = std::aligned_alloc(kHostAlignment, rounded);
  if (ptr == nullptr) {
    return Error(
        ACL_ERROR_RT_MEMORY_ALLOCATION,
        absl::StrCat("cannot allocate ", size, " bytes of host memory"));
  }
  ascend::MutexLock lock(&mu_);
  host_allocations_[ptr] = size;
  registry_.AddPinned(Addr(ptr), size);
  return ptr;
}

absl::Status Memory::FreeHost(void* host_ptr) {
  {
    ascend::MutexLock lock(&mu_);
    if (host_allocations_.erase(host_ptr) == 0) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "not an address returned by aclrtMallocHost");
    }
    registry_.RemovePinned(Addr(host_ptr));
  }
  std::free(host_ptr);
  return absl::OkStatus();
}

absl::StatusOr<device::MemoryInfo> Memory::GetMemInfo(aclrtMemAttr attr) {
  if (static_cast<int>(attr) < ACL_DDR_MEM ||
      static_cast<int>(attr) > ACL_MEM_P2P_HUGE1G) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("unknown memory attribute ", attr));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                          runtime_.CurrentDevice());
  return device->GetMemoryInfo();
}

absl::StatusOr<std::function<absl::Status()>> Memory::PrepareCopy(
    void* dst, size_t dest_max, const void* src, size_t count,
    aclrtMemcpyKind kind, aclrtMemcpyKind* actual) {
  if (dst == nullptr || src == nullptr) {
    return Error(ACL_ERROR_INVALID_PARAM, "copy with a NULL pointer");
  }
  if (count > dest_max) {
    return Error(
        ACL_ERROR_INVALID_PARAM,
        absl::StrCat("copy of ", count, " bytes exceeds the destination size ",
                     dest_max));
  }
  if (static_cast<int>(kind) < ACL_MEMCPY_HOST_TO_HOST ||
      static_cast<int>(kind) > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("unknown memcpy kind ", kind));
  }
  ASCEND_ASSIGN_OR_RETURN(CopyRoute route, RouteCopy(dst, count, src, count));
  if (actual != nullptr) *actual = route.actual;
  return std::function<absl::Status()>(
      [this, route = std::move(route), dst, src, count]() -> absl::Status {
        absl::Status status = RunCopy(route, dst, src, count);
        MemoryWritten();
        return status;
      });
}

absl::StatusOr<Memory::CopyRoute> Memory::RouteCopy(
    const void* dst, uint64_t dst_extent, const void* src, uint64_t src_extent,
    const std::vector<std::shared_ptr<device::Device>>* open) {
  Runtime::Location to =
      open ? runtime_.LocateIn(*open, dst) : runtime_.Locate(dst);
  Runtime::Location from =
      open ? runtime_.LocateIn(*open, src) : runtime_.Locate(src);
  return RouteLocated(std::move(to), dst, dst_extent, std::move(from), src,
                      src_extent);
}

absl::StatusOr<Memory::CopyRoute> Memory::RouteLocated(
    Runtime::Location to, const void* dst, uint64_t dst_extent,
    Runtime::Location from, const void* src, uint64_t src_extent) {
  ASCEND_RETURN_IF_ERROR(RejectStale(to, dst, "copy destination"));
  ASCEND_RETURN_IF_ERROR(RejectStale(from, src, "copy source"));
  aclrtMemcpyKind actual =
      to.device
          ? (from.device ? ACL_MEMCPY_DEVICE_TO_DEVICE
                         : ACL_MEMCPY_HOST_TO_DEVICE)
          : (from.device ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_HOST_TO_HOST);
  // The pointers choose the direction, whatever kind the caller named
  // (11-03: aclrtMemcpy's kind is reserved, "the system decides from the
  // two pointers"). Only a pair that cannot be copied is refused (DESIGN.md
  // §5.22).
  if (actual == ACL_MEMCPY_DEVICE_TO_DEVICE) {
    const int32_t dst_id = to.device->id();
    const int32_t src_id = from.device->id();
    // A copy between two devices needs peer access between them
    // (aclrtDeviceEnablePeerAccess on either one, naming the other: the
    // reference says it "allow[s] current device to access peerDeviceId",
    // and CANN documents it as enabling memory copy *between* the two
    // devices). The reference gives no code for the refusal; 207006
    // (ACL_ERROR_RT_NO_PERMISSION, the driver's OPER_NOT_PERMITTED) is the
    // closest documented one.
    if (dst_id != src_id && !runtime_.PeerAccessEnabled(dst_id, src_id)) {
      return Error(
          ACL_ERROR_RT_NO_PERMISSION,
          absl::StrCat("copy between device ", src_id, " and device ", dst_id,
                       " without peer access: call "
                       "aclrtDeviceEnablePeerAccess first"));
    }
  }
  for (const Runtime::Location* side : {&to, &from}) {
    const bool is_dst = side == &to;
    const void* p = is_dst ? dst : src;
    const uint64_t extent = is_dst ? dst_extent : src_extent;
    if (side->device && !RangeInAllocation(*side, p, extent)) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("copy of ", extent,
                                " bytes runs past the end of "
                                "the device allocation at 0x",
                                absl::Hex(side->allocation.addr)));
    }
  }
  return CopyRoute{actual, std::move(to.device), std::move(from.device)};
}

absl::Status Memory::RunCopy(const CopyRoute& route, void* dst, const void* src,
                             size_t count) {
  absl::Status status;
  switch (route.actual) {
    case ACL_MEMCPY_HOST_TO_HOST:
      std::memmove(dst, src, count);
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
      status = route.to->CopyToDevice(Addr(dst), src, count);
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      status = route.from->CopyFromDevice(dst, Addr(src), count);
      break;
    default:
      if (route.to == route.from) {
        status = route.to->CopyWithinDevice(Addr(dst), Addr(src), count);
      } else {
        status = runtime_.backend()->CopyPeer(*route.to, Addr(dst), *route.from,
                                              Addr(src), count);
      }
      break;
  }
  if (device::IsMemoryError(status)) {
    return Error(ACL_ERROR_RT_DEVICE_MEM_ERROR, status.message());
  }
  if (status.code() == absl::StatusCode::kDataLoss) {
    return Error(ACL_ERROR_RT_SYS_DMA, status.message());
  }
  return status;
}

absl::Status Memory::RefuseAsyncHostToHost(const char* api,
                                           aclrtMemcpyKind kind,
                                           aclrtMemcpyKind actual) {
  // 11-03 (aclrtMemcpyAsync, aclrtMemcpyAsyncWithCondition constraints): in
  // this form (a host with devices attached) no asynchronous copy runs
  // within host memory: not when the caller names HOST_TO_HOST, not when
  // both pointers are host memory.
  if (kind != ACL_MEMCPY_HOST_TO_HOST && actual != ACL_MEMCPY_HOST_TO_HOST) {
    return absl::OkStatus();
  }
  return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               absl::StrCat(api,
                            " does not copy within host memory: use "
                            "aclrtMemcpy (or memcpy)"));
}

absl::Status Memory::CheckPageableCopy(const char* api, aclrtMemcpyKind actual,
                                       const void* dst, const void* src,
                                       uint64_t count) {
  const void* host = actual == ACL_MEMCPY_HOST_TO_DEVICE   ? src
                     : actual == ACL_MEMCPY_DEVICE_TO_HOST ? dst
                                                           : nullptr;
  if (host == nullptr || IsPinnedHost(host, count)) return absl::OkStatus();
  return runtime_.tasks().Access({HostOp::kPageableCopy, api, nullptr, nullptr,
                                  DeviceRange{-1, Addr(host), count}});
}

absl::Status Memory::Memcpy(void* dst, size_t dest_max, const void* src,
                            size_t count, aclrtMemcpyKind kind) {
  if (count == 0) return absl::OkStatus();
  ASCEND_RETURN_IF_ERROR(
      runtime_.tasks().Access({HostOp::kMemoryWrite, "aclrtMemcpy", nullptr,
                               nullptr, DeviceRange{-1, Addr(dst), count}}));
  ASCEND_ASSIGN_OR_RETURN(auto copy,
                          PrepareCopy(dst, dest_max, src, count, kind));
  return copy();
}

absl::Status Memory::MemcpyAsync(void* dst, size_t dest_max, const void* src,
                                 size_t count, aclrtMemcpyKind kind,
                                 void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if (count == 0) return absl::OkStatus();
  aclrtMemcpyKind actual = ACL_MEMCPY_DEFAULT;
  ASCEND_ASSIGN_OR_RETURN(
      auto copy, PrepareCopy(dst, dest_max, src, count, kind, &actual));
  ASCEND_RETURN_IF_ERROR(
      RefuseAsyncHostToHost("aclrtMemcpyAsync", kind, actual));
  ASCEND_RETURN_IF_ERROR(
      CheckPageableCopy("aclrtMemcpyAsync", actual, dst, src, count));
  Submission sub(TaskKind::kCopy, "aclrtMemcpyAsync", std::move(s));
  sub.task = Task{std::move(copy), nullptr};
  sub.writes.Add(-1, Addr(dst), count);
  return runtime_.tasks().Submit(std::move(sub));
}

absl::StatusOr<std::function<absl::Status()>> Memory::PrepareMemset(
    void* ptr, size_t max_count, int32_t value, size_t count) {
  if (ptr == nullptr) {
    return Error(ACL_ERROR_INVALID_PARAM, "memset of a NULL pointer");
  }
  if (count > max_count) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("memset of ", count,
                              " bytes exceeds the buffer size ", max_count));
  }
  Runtime::Location where = runtime_.Locate(ptr);
  ASCEND_RETURN_IF_ERROR(RejectStale(where, ptr, "memset of"));
  const uint8_t byte = static_cast<uint8_t>(value);
  if (!where.device) {
    // The reference accepts host pointers here too.
    return std::function<absl::Status()>([ptr, byte, count] {
      std::memset(ptr, byte, count);
      return absl::OkStatus();
    });
  }
  if (!RangeInAllocation(where, ptr, count)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "memset runs past the end of the device allocation");
  }
  return std::function<absl::Status()>(
      [this, dev = where.device, addr = Addr(ptr), byte, count] {
        absl::Status status = dev->Fill(addr, byte, count);
        MemoryWritten();
        return status;
      });
}

absl::Status Memory::Memset(void* ptr, size_t max_count, int32_t value,
                            size_t count) {
  if (count == 0) return absl::OkStatus();
  ASCEND_RETURN_IF_ERROR(
      runtime_.tasks().Access({HostOp::kMemoryWrite, "aclrtMemset", nullptr,
                               nullptr, DeviceRange{-1, Addr(ptr), count}}));
  ASCEND_ASSIGN_OR_RETURN(auto fill,
                          PrepareMemset(ptr, max_count, value, count));
  return fill();
}

absl::Status Memory::MemsetAsync(void* ptr, size_t max_count, int32_t value,
                                 size_t count, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if (count == 0) return absl::OkStatus();
  ASCEND_ASSIGN_OR_RETURN(auto fill,
                          PrepareMemset(ptr, max_count, value, count));
  Submission sub(TaskKind::kMemset, "aclrtMemsetAsync", std::move(s));
  sub.task = Task{std::move(fill), nullptr};
  sub.writes.Add(-1, Addr(ptr), count);
  return runtime_.tasks().Submit(std::move(sub));
}

absl::Status Memory::WaitForValue(const Runtime::Location& where, uint64_t addr,
                                  uint64_t value, uint32_t flag,
                                  const Stream& stream) {
  auto* host = static_cast<uint64_t*>(where.device->HostPointer(addr));
  Stream::BlockedWait blocked(&stream);
  for (;;) {
    // Checked before the word is read: once a force destroy returned, the
    // host may free it.
    if (stream.aborting()) return absl::CancelledError("stream destroyed");
    const uint64_t epoch = MemoryEpoch();
    uint64_t current = 0;
    if (host != nullptr) {
      current = __atomic_load_n(host, __ATOMIC_ACQUIRE);
    } else {
      ASCEND_RETURN_IF_ERROR(
          where.device->CopyFromDevice(&current, addr, sizeof(current)));
    }
    if (ValueSatisfies(current, value, flag)) return absl::OkStatus();
    // Runtime writes bump the epoch; the short timeout also catches host
    // functions and host threads writing simulated device memory directly.
    AwaitMemoryWrite(epoch, absl::Milliseconds(2));
  }
}

absl::StatusOr<Runtime::Location> Memory::ValueWord(const void* dev_addr,
                                                    const char* what) const {
  Runtime::Location where = runtime_.Locate(dev_addr);
  if (!RangeInAllocation(where, dev_addr, sizeof(uint64_t))) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(what, " address is not in device memory"));
  }
  return where;
}

absl::Status Memory::ValueWait(void* dev_addr, uint64_t value, uint32_t flag,
                               void* stream) {
  if (flag > ACL_STREAM_WAIT_VALUE_NOR) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("unknown value-wait flag ", flag));
  }
  if (Addr(dev_addr) % sizeof(uint64_t) != 0) {
    return Error(ACL_ERROR_RT_ADDR_UNALIGNED,
                 "value-wait address must be 8-byte aligned");
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(Runtime::Location where,
                          ValueWord(dev_addr, "value-wait"));
  Task task{[this, where, addr = Addr(dev_addr), value, flag] {
              return WaitForValue(where, addr, value, flag, *Stream::Current());
            },
            nullptr};
  task.params = {ACL_MODEL_RI_TASK_VALUE_WAIT, dev_addr, value, flag};
  Submission sub(TaskKind::kValueWait, "aclrtValueWait", std::move(s));
  sub.task = std::move(task);
  return runtime_.tasks().Submit(std::move(sub));
}

absl::Status Memory::ValueWrite(void* dev_addr, uint64_t value, uint32_t flag,
                                void* stream) {
  if (flag != 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "value-write flag must be 0");
  }
  if (Addr(dev_addr) % sizeof(uint64_t) != 0) {
    return Error(ACL_ERROR_RT_ADDR_UNALIGNED,
                 "value-write address must be 8-byte aligned");
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(Runtime::Location where,
                          ValueWord(dev_addr, "value-write"));
  Task task{[this, dev = where.device, addr = Addr(dev_addr), value] {
              absl::Status status;
              if (auto* host = static_cast<uint64_t*>(dev->HostPointer(addr))) {
                __atomic_store_n(host, value, __ATOMIC_RELEASE);
              } else {
                status = dev->CopyToDevice(addr, &value, sizeof(value));
              }
              MemoryWritten();
              return status;
            },
            nullptr};
  task.params = {ACL_MODEL_RI_TASK_VALUE_WRITE, dev_addr, value, 0};
  Submission sub(TaskKind::kValueWrite, "aclrtValueWrite", std::move(s));
  sub.task = std::move(task);
  sub.writes.Add(where.device->id(), Addr(dev_addr), sizeof(uint64_t));
  return runtime_.tasks().Submit(std::move(sub));
}

}  // namespace ascend::rt
