// 2-D, batch, offset and descriptor copies and 32-bit fills (DESIGN.md
// §5.14); cache maintenance is in memory_cmo.cc. Every copy here is validated
// by the one copy check of memory.cc (RouteCopy / RouteLocated) and performed
// by its RunCopy, so kinds, stale pointers, peer access, extents and the
// simulated device's copy faults behave as for aclrtMemcpy.
#include "runtime/memory/memcpy_ext.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/mutex.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/memory/memory.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"
#include "runtime/streams/streams.h"

namespace ascend::rt {

std::optional<uint64_t> PitchedSpan(uint64_t pitch, uint64_t width,
                                    uint64_t height) {
  uint64_t rows = 0;
  uint64_t span = 0;
  if (__builtin_mul_overflow(pitch, height - 1, &rows) ||
      __builtin_add_overflow(rows, width, &span)) {
    return std::nullopt;
  }
  return span;
}

absl::Status CheckBatchAttrRanges(const size_t* attr_indexes, size_t num_attrs,
                                  size_t count) {
  if (num_attrs == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "numAttrs must be non-zero");
  }
  if (num_attrs > count) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("numAttrs ", num_attrs,
                              " exceeds the number of copies ", count));
  }
  if (attr_indexes[0] != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("attrsIndexes[0] is ", attr_indexes[0],
                              "; the first range must start at copy 0"));
  }
  for (size_t k = 1; k < num_attrs; ++k) {
    if (attr_indexes[k] <= attr_indexes[k - 1] || attr_indexes[k] >= count) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("attrsIndexes[", k, "] is ", attr_indexes[k],
                                ": each range must start after the previous "
                                "one and before copy ",
                                count));
    }
  }
  return absl::OkStatus();
}

void FillPattern32(void* out, uint32_t value, size_t n) {
  auto* bytes = static_cast<unsigned char*>(out);
  for (size_t i = 0; i < n; ++i) {
    std::memcpy(bytes + i * sizeof value, &value, sizeof value);
  }
}

namespace {

uint64_t Addr(const void* p) { return reinterpret_cast<uint64_t>(p); }
void* Ptr(uint64_t a) { return reinterpret_cast<void*>(a); }

// The integer in a C enum field of a caller's struct, read without loading
// the field as the enum (see RawEnum in acl/api/api_util.h).
template <typename E>
int32_t RawField(const E& field) {
  int32_t raw;
  std::memcpy(&raw, &field, sizeof raw);
  return raw;
}

// Whether an attribute's location names where a pointer actually is: host
// memory (HOST or HOST_NUMA) or device memory of the named device.
bool LocationMatches(const aclrtMemLocation& loc,
                     const std::shared_ptr<device::Device>& device) {
  const int32_t type = RawField(loc.type);
  if (device == nullptr) {
    return type == ACL_MEM_LOCATION_TYPE_HOST ||
           type == ACL_MEM_LOCATION_TYPE_HOST_NUMA;
  }
  return type == ACL_MEM_LOCATION_TYPE_DEVICE &&
         loc.id == static_cast<uint32_t>(device->id());
}

// One copy of a validated batch. A batch rarely uses more than a couple of
// distinct routes (host to device 0, device 0 to host): items index a short
// list instead of each holding two device references.
struct BatchItem {
  void* dst;
  const void* src;
  size_t size;
  uint32_t route;  // index into the batch's routes
};

}  // namespace

bool Memory::IsPinnedHost(const void* ptr, uint64_t size) const {
  // Page-locked: from aclrtMallocHost, or registered with aclrtHostRegister
  // (both in the memory registry, found in O(log n)).
  const uint64_t p = Addr(ptr);
  for (const std::optional<MemoryRegistry::HostFind>& found :
       {registry_.FindPinned(p), registry_.FindRegistration(p)}) {
    if (found && size <= found->size && p - found->base <= found->size - size) {
      return true;
    }
  }
  return false;
}

// --- 2-D copies
// ----------------------------------------------------------------

absl::Status Memory::Memcpy2d(void* dst, size_t dpitch, const void* src,
                              size_t spitch, size_t width, size_t height,
                              aclrtMemcpyKind kind, bool async, void* stream) {
  if (width == 0 || height == 0) return absl::OkStatus();
  if (!async) {
    ASCEND_RETURN_IF_ERROR(
        runtime_.tasks().Access({HostOp::kMemoryWrite, "aclrtMemcpy2d", nullptr,
                                 nullptr, DeviceRange{-1, Addr(dst), 0}}));
  }
  if (dst == nullptr || src == nullptr) {
    return Error(ACL_ERROR_INVALID_PARAM, "2-D copy with a NULL pointer");
  }
  if (width > dpitch || width > spitch) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("width ", width,
                              " must not exceed dpitch and spitch (dpitch ",
                              dpitch, ", spitch ", spitch, ")"));
  }
  if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST &&
      kind != ACL_MEMCPY_DEVICE_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("2-D copy kind ", kind,
                              " is not HOST_TO_DEVICE, DEVICE_TO_HOST, "
                              "DEVICE_TO_DEVICE or DEFAULT"));
  }
  if (height > kMaxMemcpy2dHeight || width > kMaxMemcpy2dWidth) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("2-D copy of ", width, " x ", height,
                     " exceeds the limits (width <= ", kMaxMemcpy2dWidth,
                     ", height <= ", kMaxMemcpy2dHeight, ")"));
  }
  if (!async && kind == ACL_MEMCPY_DEVICE_TO_DEVICE) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "aclrtMemcpy2d copies host to device or device to host "
                 "only (aclrtMemcpy2dAsync also copies device to device)");
  }
  std::shared_ptr<Stream> s;
  if (async) {
    ASCEND_ASSIGN_OR_RETURN(s, runtime_.ResolveStream(stream));
  }
  const std::optional<uint64_t> dst_span = PitchedSpan(dpitch, width, height);
  const std::optional<uint64_t> src_span = PitchedSpan(spitch, width, height);
  if (!dst_span || !src_span) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "2-D copy region overflows the address space");
  }
  ASCEND_ASSIGN_OR_RETURN(CopyRoute route,
                          RouteCopy(dst, *dst_span, src, *src_span));
  // Unlike aclrtMemcpy's, the 2-D pages do not call the kind reserved: a
  // named direction must match the pointers (11-03).
  const aclrtMemcpyKind named_actual =
      kind == ACL_MEMCPY_DEFAULT ? route.actual : kind;
  if (named_actual != route.actual) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("2-D copy kind ", kind,
                              " does not match the pointers, which make it "
                              "kind ",
                              route.actual));
  }
  const bool supported = route.actual == ACL_MEMCPY_HOST_TO_DEVICE ||
                         route.actual == ACL_MEMCPY_DEVICE_TO_HOST ||
                         (async && route.actual == ACL_MEMCPY_DEVICE_TO_DEVICE);
  if (!supported) {
    // 11-03, aclrtMemcpy2dAsync constraints: an unsupported type is
    // ACL_ERROR_INVALID_PARAM; the synchronous page names no code.
    return Error(async ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("the pointers make this 2-D copy ",
                              route.actual == ACL_MEMCPY_HOST_TO_HOST
                                  ? "host to host"
                                  : "device to device",
                              ", which it does not support"));
  }
  if (async) {
    const uint64_t host_span =
        route.actual == ACL_MEMCPY_HOST_TO_DEVICE ? *src_span : *dst_span;
    ASCEND_RETURN_IF_ERROR(CheckPageableCopy("aclrtMemcpy2dAsync", route.actual,
                                             dst, src, host_span));
  }
  auto copy = [this, route = std::move(route), d = Addr(dst), s = Addr(src),
               dpitch, spitch, width, height]() -> absl::Status {
    absl::Status status;
    for (size_t row = 0; row < height && status.ok(); ++row) {
      status =
          RunCopy(route, Ptr(d + row * dpitch), Ptr(s + row * spitch), width);
    }
    MemoryWritten();
    return status;
  };
  if (!async) return copy();
  Submission sub(TaskKind::kCopy, "aclrtMemcpy2dAsync", std::move(s));
  sub.task = Task{std::move(copy), nullptr};
  sub.writes.Add(-1, Addr(dst), dpitch * (height - 1) + width);
  return runtime_.tasks().Submit(std::move(sub));
}

// --- Batch copies
// ----------------------------------------------------------------

absl::Status Memory::MemcpyBatch(const BatchCopy& batch, bool async,
                                 void* stream, size_t* fail_index) {
  if (fail_index != nullptr) *fail_index = SIZE_MAX;
  std::shared_ptr<Stream> s;
  if (async) {
    ASCEND_ASSIGN_OR_RETURN(s, runtime_.ResolveStream(stream));
  }
  ASCEND_RETURN_IF_ERROR(
      CheckBatchAttrRanges(batch.attr_indexes, batch.num_attrs, batch.count));
  // One look at the open devices for the whole batch; a device reset
  // racing the call leaves its allocations unfound by the copies (the
  // device objects stay alive while the routes hold them).
  const std::vector<std::shared_ptr<device::Device>> open =
      runtime_.OpenDeviceObjects();
  std::vector<CopyRoute> routes;
  std::vector<BatchItem> items;
  items.reserve(batch.count);
  BatchAttrCursor cursor(batch.attr_indexes, batch.num_attrs);
  // Consecutive copies mostly land in the same device allocation: the last
  // one found on each side answers before the devices are asked again.
  Runtime::Location last_dst;
  Runtime::Location last_src;
  auto locate = [&](const void* p, Runtime::Location& last) {
    if (RangeInAllocation(last, p, 1)) return last;
    Runtime::Location found = runtime_.LocateIn(open, p);
    if (found.device) last = found;
    return found;
  };
  auto fail = [&](size_t i, absl::Status status) {
    if (fail_index != nullptr) *fail_index = i;
    return status;
  };
  for (size_t i = 0; i < batch.count; ++i) {
    const aclrtMemcpyBatchAttr& attr = batch.attrs[cursor.For(i)];
    const size_t size = batch.sizes[i];
    if (size == 0) {
      // CANN's asynchronous batch refuses an empty copy among others; the
      // synchronous one skips it.
      if (!async) continue;
      return fail(i, Error(ACL_ERROR_RT_PARAM_INVALID,
                           absl::StrCat("copy ", i, " of the batch is empty")));
    }
    void* dst = batch.dsts[i];
    const void* src = batch.srcs[i];
    if (dst == nullptr || src == nullptr) {
      return fail(i, Error(ACL_ERROR_RT_PARAM_INVALID,
                           absl::StrCat("copy ", i, " has a NULL pointer")));
    }
    Runtime::Location to = locate(dst, last_dst);
    Runtime::Location from = locate(src, last_src);
    if (!to.stale_device && !from.stale_device) {
      if (!LocationMatches(attr.dstLoc, to.device) ||
          !LocationMatches(attr.srcLoc, from.device)) {
        return fail(
            i, Error(ACL_ERROR_RT_PARAM_INVALID,
                     absl::StrCat("copy ", i,
                                  ": the attribute's locations do not name "
                                  "where dst and src are")));
      }
      if ((to.device == nullptr) == (from.device == nullptr)) {
        return fail(i, Error(ACL_ERROR_RT_PARAM_INVALID,
                             absl::StrCat("copy ", i,
                                          ": a batch copies host to device or "
                                          "device to host only")));
      }
    }
    absl::StatusOr<CopyRoute> route =
        RouteLocated(std::move(to), dst, size, std::move(from), src, size);
    if (!route.ok()) return fail(i, route.status());
    uint32_t r = 0;
    while (r < routes.size() &&
           (routes[r].to != route->to || routes[r].from != route->from)) {
      ++r;
    }
    if (r == routes.size()) routes.push_back(*std::move(route));
    items.push_back(BatchItem{dst, src, size, r});
  }
  if (items.empty()) return absl::OkStatus();
  auto copy = [this, routes = std::move(routes),
               items = std::move(items)]() -> absl::Status {
    absl::Status status;
    for (const BatchItem& item : items) {
      status = RunCopy(routes[item.route], item.dst, item.src, item.size);
      if (!status.ok()) break;
    }
    MemoryWritten();
    return status;
  };
  if (!async) {
    ASCEND_RETURN_IF_ERROR(runtime_.tasks().Access(
        {HostOp::kMemoryWrite, "aclrtMemcpyBatch", nullptr, nullptr, {}}));
    return copy();
  }
  Submission sub(TaskKind::kCopy, "aclrtMemcpyBatchAsync", std::move(s));
  sub.task = Task{std::move(copy), nullptr};
  for (size_t i = 0; i < batch.count; ++i) {
    sub.writes.Add(-1, Addr(batch.dsts[i]), batch.sizes[i]);
  }
  return runtime_.tasks().Submit(std::move(sub));
}

// --- Conditional, offset and descriptor copies -----------------------------

absl::Status Memory::MemcpyAsyncWithCondition(void* dst, size_t dest_max,
                                              const void* src, size_t count,
                                              aclrtMemcpyKind kind,
                                              void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if (count == 0) return absl::OkStatus();
  aclrtMemcpyKind actual = ACL_MEMCPY_DEFAULT;
  ASCEND_ASSIGN_OR_RETURN(
      auto copy, PrepareCopy(dst, dest_max, src, count, kind, &actual));
  ASCEND_RETURN_IF_ERROR(
      RefuseAsyncHostToHost("aclrtMemcpyAsyncWithCondition", kind, actual));
  // The condition: host memory that is not page-locked (not from
  // aclrtMallocHost) makes the call synchronous -- queued work first, then
  // the copy, before returning.
  bool pageable = false;
  for (const void* side : {static_cast<const void*>(dst), src}) {
    if (!runtime_.Locate(side).device && !IsPinnedHost(side, count))
      pageable = true;
  }
  if (!pageable) {
    Submission sub(TaskKind::kCopy, "aclrtMemcpyAsyncWithCondition",
                   std::move(s));
    sub.task = Task{std::move(copy), nullptr};
    sub.writes.Add(-1, Addr(dst), count);
    return runtime_.tasks().Submit(std::move(sub));
  }
  // An unsafe call of the capture modes (15, aclmdlRICaptureBegin `mode`).
  ASCEND_RETURN_IF_ERROR(runtime_.tasks().Access(
      {HostOp::kPageableCopy, "aclrtMemcpyAsyncWithCondition", nullptr, nullptr,
       DeviceRange{-1, Addr(dst), count}}));
  // (From a task on this stream that would wait for itself: 207006.)
  ASCEND_RETURN_IF_ERROR(
      Streams::Of(runtime_)->SynchronizeStream(stream, absl::InfiniteFuture()));
  ASCEND_RETURN_IF_ERROR(runtime_.tasks().Access(
      {HostOp::kMemoryWrite, "aclrtMemcpyAsyncWithCondition", nullptr, nullptr,
       DeviceRange{-1, Addr(dst), count}}));
  return copy();
}

absl::Status Memory::MemcpyAsyncWithOffset(void** dst, size_t dest_max,
                                           size_t dst_offset, const void** src,
                                           size_t count, size_t src_offset,
                                           void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if (count == 0) return absl::OkStatus();
  if (dst == nullptr || src == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "offset copy with a NULL address cell");
  }
  if (count > dest_max) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("copy of ", count, " bytes exceeds the destination size ",
                     dest_max));
  }
  // dst and src are device memory holding the base addresses; the task
  // reads them when it runs.
  Runtime::Location dst_cell = runtime_.Locate(dst);
  Runtime::Location src_cell = runtime_.Locate(src);
  if (!RangeInAllocation(dst_cell, dst, sizeof(uint64_t)) ||
      !RangeInAllocation(src_cell, src, sizeof(uint64_t))) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "dst and src must point to device memory holding the base "
                 "addresses");
  }
  auto copy = [this, dst_dev = dst_cell.device, src_dev = src_cell.device,
               dst_at = Addr(dst), src_at = Addr(src), dest_max, dst_offset,
               count, src_offset]() -> absl::Status {
    uint64_t dst_base = 0;
    uint64_t src_base = 0;
    ASCEND_RETURN_IF_ERROR(
        dst_dev->CopyFromDevice(&dst_base, dst_at, sizeof dst_base));
    ASCEND_RETURN_IF_ERROR(
        src_dev->CopyFromDevice(&src_base, src_at, sizeof src_base));
    uint64_t to = 0;
    uint64_t from = 0;
    if (__builtin_add_overflow(dst_base, dst_offset, &to) ||
        __builtin_add_overflow(src_base, src_offset, &from)) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "base address plus offset overflows");
    }
    ASCEND_ASSIGN_OR_RETURN(auto run,
                            PrepareCopy(Ptr(to), dest_max, Ptr(from), count,
                                        ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
    return run();
  };
  // The destination is read from device memory when the task runs.
  Submission sub(TaskKind::kCopy, "aclrtMemcpyAsyncWithOffset", std::move(s));
  sub.task = Task{std::move(copy), nullptr};
  sub.writes.any = true;
  return runtime_.tasks().Submit(std::move(sub));
}

absl::StatusOr<Runtime::Location> Memory::LocateDescriptor(
    void* desc, size_t size, absl::string_view what) {
  Runtime::Location where = runtime_.Locate(desc);
  ASCEND_RETURN_IF_ERROR(RejectStale(where, desc, what));
  if (!RangeInAllocation(where, desc, size)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("the ", what, " must be ", size,
                              " bytes of device memory"));
  }
  return where;
}

absl::Status Memory::WriteDescriptor(void* desc, const void* value, size_t size,
                                     absl::string_view what) {
  ASCEND_ASSIGN_OR_RETURN(const Runtime::Location where,
                          LocateDescriptor(desc, size, what));
  absl::Status status = where.device->CopyToDevice(Addr(desc), value, size);
  MemoryWritten();
  if (status.code() == absl::StatusCode::kDataLoss) {
    return Error(ACL_ERROR_RT_SYS_DMA, status.message());
  }
  return status;
}

absl::Status Memory::SetMemcpyDesc(void* desc, void* src, void* dst,
                                   size_t count) {
  const MemcpyDescriptor value{Addr(src), Addr(dst), count,
                               MemcpyDescriptor::kMagic};
  return WriteDescriptor(desc, &value, kMemcpyDescSize, "memcpy descriptor");
}

absl::Status Memory::MemcpyAsyncWithDesc(void* desc, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(
      const Runtime::Location where,
      LocateDescriptor(desc, kMemcpyDescSize, "memcpy descriptor"));
  // The descriptor is read when the task runs, not now: rewriting it before
  // then changes the copy, as on the device.
  return runtime_.tasks().Submit(
      TaskKind::kCopy, "aclrtMemcpyAsyncWithDesc", std::move(s),
      Task{[this, dev = where.device, at = Addr(desc)]() -> absl::Status {
             MemcpyDescriptor value;
             ASCEND_RETURN_IF_ERROR(
                 dev->CopyFromDevice(&value, at, sizeof value));
             if (value.magic != MemcpyDescriptor::kMagic) {
               return Error(ACL_ERROR_RT_PARAM_INVALID,
                            "the memcpy descriptor was not set by "
                            "aclrtSetMemcpyDesc");
             }
             ASCEND_ASSIGN_OR_RETURN(
                 auto run,
                 PrepareCopy(Ptr(value.dst), value.count, Ptr(value.src),
                             value.count, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
             return run();
           },
           nullptr},
      TaskWrites{{}, true});
}

// --- 32-bit fills
// ----------------------------------------------------------------

absl::Status Memory::MemsetD32(void* ptr, size_t mem_size, uint32_t value,
                               size_t n, bool async, void* stream) {
  if (n == 0) return absl::OkStatus();
  if (ptr == nullptr) {
    return Error(ACL_ERROR_INVALID_PARAM, "memset of a NULL pointer");
  }
  if (Addr(ptr) % sizeof(uint32_t) != 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "ptr must be 4-byte aligned");
  }
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(n), sizeof(uint32_t),
                             &bytes) ||
      bytes > mem_size) {
    return Error(
        ACL_ERROR_INVALID_PARAM,
        absl::StrCat("N * 4 (N = ", n, ") exceeds memSize ", mem_size));
  }
  Runtime::Location where = runtime_.Locate(ptr);
  ASCEND_RETURN_IF_ERROR(RejectStale(where, ptr, "memset of"));
  if (!where.device) {
    // Host memory is filled at once, by the asynchronous variant too (CANN
    // does not queue host fills).
    if (!IsPinnedHost(ptr, bytes)) {
      return Error(ACL_ERROR_INVALID_PARAM,
                   "aclrtMemsetD32 fills memory from aclrtMalloc or "
                   "aclrtMallocHost only");
    }
    FillPattern32(ptr, value, n);
    return absl::OkStatus();
  }
  if (!RangeInAllocation(where, ptr, bytes)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "memset runs past the end of the device allocation");
  }
  std::shared_ptr<Stream> s;
  if (async) {
    ASCEND_ASSIGN_OR_RETURN(s, runtime_.ResolveStream(stream));
  }
  auto fill = [this, dev = where.device, addr = Addr(ptr), value,
               bytes]() -> absl::Status {
    absl::Status status;
    const uint8_t b = static_cast<uint8_t>(value);
    if (value == b * 0x01010101u) {
      status = dev->Fill(addr, b, bytes);
    } else {
      // Through the device's copy path, a chunk of the pattern at a time.
      constexpr uint64_t kChunk = 64 << 10;
      std::vector<unsigned char> pattern(std::min(bytes, kChunk));
      FillPattern32(pattern.data(), value, pattern.size() / sizeof value);
      for (uint64_t done = 0; done < bytes && status.ok();) {
        const uint64_t n = std::min<uint64_t>(pattern.size(), bytes - done);
        status = dev->CopyToDevice(addr + done, pattern.data(), n);
        done += n;
      }
    }
    MemoryWritten();
    if (status.code() == absl::StatusCode::kDataLoss) {
      return Error(ACL_ERROR_RT_SYS_DMA, status.message());
    }
    return status;
  };
  if (!async) {
    ASCEND_RETURN_IF_ERROR(runtime_.tasks().Access(
        {HostOp::kMemoryWrite, "aclrtMemsetD32", nullptr, nullptr,
         DeviceRange{-1, Addr(ptr), bytes}}));
    return fill();
  }
  return runtime_.tasks().Submit(
      TaskKind::kMemset, "aclrtMemsetD32Async", std::move(s),
      Task{std::move(fill), nullptr},
      TaskWrites{{DeviceRange{-1, Addr(ptr), bytes}}, false});
}

}  // namespace ascend::rt
