// The shared page of IPC events and notifies, and their handle and key
// formats (DESIGN.md §5.17).
#include "runtime/sync/ipc_sync.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/fd_broker.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/runtime.h"
#include "runtime/sync/event.h"
#include "runtime/sync/notify.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {

namespace {

constexpr uint32_t kPageMagic = 0x41435349;  // "ACSI"
constexpr size_t kPageSize = 4096;
constexpr int kRecorderSlots = 64;
// The longest a waiter sleeps before it looks at its deadline and the
// exporter's liveness again.
constexpr absl::Duration kWaitSlice = absl::Milliseconds(20);
constexpr char kHandleMagic[8] = {'A', 'C', 'L', 'S', 'I', 'M', 'E', 'V'};
constexpr char kKeyPrefix[] = "aclsim-notify-";

}  // namespace

// Lock-free atomics on a MAP_SHARED page work across processes.
struct SharedSyncPage::Layout {
  std::atomic<uint32_t> magic;
  std::atomic<uint32_t> changes;  // the futex word
  std::atomic<uint32_t> signaled;
  // Records begun by processes that found no free slot below.
  std::atomic<uint32_t> untracked_pending;
  std::atomic<uint64_t> recorded;
  std::atomic<uint64_t> completed;
  // Records begun and not completed yet, per recording process: a waiter
  // stops waiting for records only dead processes could complete.
  struct Slot {
    std::atomic<int32_t> pid;
    std::atomic<int32_t> pending;
  } slots[kRecorderSlots];
};
static_assert(sizeof(SharedSyncPage::Layout) <= kPageSize);
static_assert(std::atomic<uint64_t>::is_always_lock_free);
static_assert(std::atomic<uint32_t>::is_always_lock_free);

SharedSyncPage::SharedSyncPage(int fd, Layout* layout, int32_t owner_pid,
                               uint32_t export_id, bool imported)
    : fd_(fd),
      page_(layout),
      owner_pid_(owner_pid),
      export_id_(export_id),
      imported_(imported) {}

absl::StatusOr<std::shared_ptr<SharedSyncPage>> SharedSyncPage::Create() {
  const int fd = memfd_create("aclsim-ipc-sync", MFD_CLOEXEC);
  if (fd < 0) return absl::ResourceExhaustedError("memfd_create failed");
  if (ftruncate(fd, kPageSize) != 0) {
    close(fd);
    return absl::ResourceExhaustedError("ftruncate of the sync page failed");
  }
  void* map =
      mmap(nullptr, kPageSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    close(fd);
    return absl::ResourceExhaustedError("mmap of the sync page failed");
  }
  auto* layout = new (map) Layout{};
  layout->magic.store(kPageMagic, std::memory_order_release);
  std::shared_ptr<SharedSyncPage> page(new (std::nothrow) SharedSyncPage(
      fd, layout, static_cast<int32_t>(getpid()), 0, false));
  if (!page) {
    munmap(map, kPageSize);
    close(fd);
    return absl::ResourceExhaustedError("out of memory");
  }
  return page;
}

absl::StatusOr<std::shared_ptr<SharedSyncPage>> SharedSyncPage::Import(
    int fd, int32_t owner_pid, uint32_t export_id) {
  auto fail = [&](const char* what) {
    close(fd);
    ipc::FdBroker::Get().Release(owner_pid, export_id);
    return absl::InvalidArgumentError(what);
  };
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(kPageSize)) {
    return fail("the shared object is not a sync page");
  }
  void* map =
      mmap(nullptr, kPageSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return fail("mmap of the sync page failed");
  auto* layout = static_cast<Layout*>(map);
  if (layout->magic.load(std::memory_order_acquire) != kPageMagic) {
    munmap(map, kPageSize);
    return fail("the shared object is not a sync page");
  }
  std::shared_ptr<SharedSyncPage> page(new (std::nothrow) SharedSyncPage(
      fd, layout, owner_pid, export_id, true));
  if (!page) {
    munmap(map, kPageSize);
    return fail("out of memory");
  }
  return page;
}

SharedSyncPage::~SharedSyncPage() {
  munmap(page_, kPageSize);
  close(fd_);
  const uint32_t id = export_id();
  if (id == 0) return;
  if (imported_) {
    ipc::FdBroker::Get().Release(owner_pid_, id);
  } else {
    (void)ipc::FdBroker::Get().Withdraw(id);
  }
}

absl::StatusOr<uint32_t> SharedSyncPage::Publish(uint32_t kind,
                                                 bool check_pid) {
  if (imported_) return export_id();
  uint32_t id = export_id();
  if (id != 0) return id;
  absl::StatusOr<uint32_t> published = ipc::FdBroker::Get().Publish(
      static_cast<ipc::ExportKind>(kind), fd_, "", check_pid);
  if (!published.ok()) return published.status();
  uint32_t expected = 0;
  if (!export_id_.compare_exchange_strong(expected, *published)) {
    (void)ipc::FdBroker::Get().Withdraw(*published);  // lost a race
    return expected;
  }
  return *published;
}

void SharedSyncPage::Withdraw() {
  if (imported_) return;
  const uint32_t id = export_id_.exchange(0, std::memory_order_acq_rel);
  if (id != 0) (void)ipc::FdBroker::Get().Withdraw(id);
}

bool SharedSyncPage::OwnerAlive() const {
  return !imported_ || ipc::FdBroker::ProcessAlive(owner_pid_);
}

void SharedSyncPage::Wake() {
  page_->changes.fetch_add(1, std::memory_order_acq_rel);
  syscall(SYS_futex, &page_->changes, FUTEX_WAKE, INT32_MAX, nullptr, nullptr,
          0);
}

int SharedSyncPage::RecorderSlot() {
  int slot = slot_.load(std::memory_order_acquire);
  if (slot != kNoSlot) return slot;
  const int32_t self = static_cast<int32_t>(getpid());
  slot = kUntracked;
  for (int i = 0; i < kRecorderSlots; ++i) {
    int32_t pid = page_->slots[i].pid.load(std::memory_order_acquire);
    if (pid == 0 && page_->slots[i].pid.compare_exchange_strong(
                        pid, self, std::memory_order_acq_rel)) {
      pid = self;
    }
    if (pid == self) {
      slot = i;
      break;
    }
  }
  int expected = kNoSlot;
  if (!slot_.compare_exchange_strong(expected, slot)) return expected;
  return slot;
}

uint64_t SharedSyncPage::BeginRecord() {
  const int slot = RecorderSlot();
  if (slot >= 0) {
    page_->slots[slot].pending.fetch_add(1, std::memory_order_acq_rel);
  } else {
    page_->untracked_pending.fetch_add(1, std::memory_order_acq_rel);
  }
  return page_->recorded.fetch_add(1, std::memory_order_acq_rel) + 1;
}

bool SharedSyncPage::LivePending() const {
  if (page_->untracked_pending.load(std::memory_order_acquire) != 0) {
    return true;  // unknown recorders count as alive
  }
  for (int i = 0; i < kRecorderSlots; ++i) {
    const int32_t pid = page_->slots[i].pid.load(std::memory_order_acquire);
    if (pid == 0) break;  // slots are claimed in order
    if (page_->slots[i].pending.load(std::memory_order_acquire) > 0 &&
        ipc::FdBroker::ProcessAlive(pid)) {
      return true;
    }
  }
  return false;
}

void SharedSyncPage::CompleteRecord(uint64_t seq) {
  const int slot = RecorderSlot();
  if (slot >= 0) {
    page_->slots[slot].pending.fetch_sub(1, std::memory_order_acq_rel);
  } else {
    page_->untracked_pending.fetch_sub(1, std::memory_order_acq_rel);
  }
  uint64_t cur = page_->completed.load(std::memory_order_acquire);
  while (cur < seq && !page_->completed.compare_exchange_weak(
                          cur, seq, std::memory_order_acq_rel)) {
  }
  Wake();
}

uint64_t SharedSyncPage::recorded() const {
  return page_->recorded.load(std::memory_order_acquire);
}

uint64_t SharedSyncPage::completed() const {
  return page_->completed.load(std::memory_order_acquire);
}

void SharedSyncPage::SetSignaled(bool on) {
  page_->signaled.store(on ? 1 : 0, std::memory_order_release);
  Wake();
}

bool SharedSyncPage::signaled() const {
  return page_->signaled.load(std::memory_order_acquire) != 0;
}

bool SharedSyncPage::TakeSignal() {
  uint32_t expected = 1;
  return page_->signaled.compare_exchange_strong(expected, 0,
                                                 std::memory_order_acq_rel);
}

uint32_t SharedSyncPage::Changes() const {
  return page_->changes.load(std::memory_order_acquire);
}

void SharedSyncPage::WaitForChange(uint32_t seen, absl::Time until) const {
  const absl::Duration left = std::min(until - absl::Now(), kWaitSlice);
  if (left <= absl::ZeroDuration()) return;
  const timespec ts = absl::ToTimespec(left);
  // EINTR, EAGAIN (the word changed already) and timeouts all just return.
  syscall(SYS_futex, &page_->changes, FUTEX_WAIT, seen, &ts, nullptr, 0);
}

void EncodeEventHandle(const IpcAddress& address, char out[64]) {
  std::memset(out, 0, 64);
  std::memcpy(out, kHandleMagic, sizeof(kHandleMagic));
  std::memcpy(out + 8, &address.pid, sizeof(address.pid));
  std::memcpy(out + 12, &address.export_id, sizeof(address.export_id));
}

bool DecodeEventHandle(const char in[64], IpcAddress* address) {
  if (std::memcmp(in, kHandleMagic, sizeof(kHandleMagic)) != 0) return false;
  std::memcpy(&address->pid, in + 8, sizeof(address->pid));
  std::memcpy(&address->export_id, in + 12, sizeof(address->export_id));
  return address->pid > 0 && address->export_id != 0;
}

std::string NotifyKey(const IpcAddress& address) {
  return absl::StrCat(kKeyPrefix, address.pid, "-", address.export_id);
}

bool ParseNotifyKey(const char* key, IpcAddress* address) {
  const size_t prefix = sizeof(kKeyPrefix) - 1;
  if (std::strncmp(key, kKeyPrefix, prefix) != 0) return false;
  const absl::string_view rest(key + prefix, strnlen(key + prefix, 64));
  const size_t dash = rest.find('-');
  if (dash == absl::string_view::npos) return false;
  return absl::SimpleAtoi(rest.substr(0, dash), &address->pid) &&
         absl::SimpleAtoi(rest.substr(dash + 1), &address->export_id) &&
         address->pid > 0 && address->export_id != 0;
}

// --- The runtime's IPC operations -------------------------------------------

namespace {

constexpr uint32_t kEventExport =
    static_cast<uint32_t>(ipc::ExportKind::kEvent);
constexpr uint32_t kNotifyExport =
    static_cast<uint32_t>(ipc::ExportKind::kNotify);
// Import flags the reference accepts: its download-to-device bit (0x1, not
// in the public header) and ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS.
constexpr uint64_t kNotifyImportFlags =
    0x1U | ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS;
// An export key's buffer must hold at least this many bytes.
constexpr size_t kMinNotifyKeyLen = 65;

// A failed broker fetch as the ACL code the caller sees: not whitelisted
// 207006, anything else (gone, withdrawn, not that kind) 107000.
absl::Status FetchError(const absl::Status& status, const char* what) {
  const int32_t code = absl::IsPermissionDenied(status)
                           ? ACL_ERROR_RT_NO_PERMISSION
                           : ACL_ERROR_RT_PARAM_INVALID;
  return Error(code,
               absl::StrCat("cannot open ", what, ": ", status.message()));
}

// Fetches and maps the page of export `address` of kind `kind`.
absl::StatusOr<std::shared_ptr<SharedSyncPage>> OpenPage(
    const IpcAddress& address, ipc::ExportKind kind, const char* what) {
  absl::StatusOr<ipc::Imported> got =
      ipc::FdBroker::Get().Fetch(address.pid, address.export_id, kind);
  if (!got.ok()) return FetchError(got.status(), what);
  absl::StatusOr<std::shared_ptr<SharedSyncPage>> page =
      SharedSyncPage::Import(got->fd, address.pid, address.export_id);
  if (!page.ok()) return FetchError(page.status(), what);
  return page;
}

}  // namespace

absl::Status Sync::IpcGetEventHandle(void* handle, char out[64]) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  if (event->flags() != ACL_EVENT_IPC || event->shared() == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("event ", event->id(),
                              " was not created with ACL_EVENT_IPC"));
  }
  SharedSyncPage* page = event->shared();
  absl::StatusOr<uint32_t> id = page->Publish(kEventExport, false);
  if (!id.ok()) {
    return Error(ACL_ERROR_RT_INTERNAL_ERROR,
                 absl::StrCat("cannot export event ", event->id(), ": ",
                              id.status().message()));
  }
  EncodeEventHandle(IpcAddress{page->owner_pid(), *id}, out);
  return absl::OkStatus();
}

absl::StatusOr<void*> Sync::IpcOpenEventHandle(const char in[64]) {
  IpcAddress address;
  if (!DecodeEventHandle(in, &address)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "not a handle from aclrtIpcGetEventHandle");
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<SharedSyncPage> page,
      OpenPage(address, ipc::ExportKind::kEvent, "the IPC event"));
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<Event> event,
      runtime_.AddObject<Event>(device_id, [&](uint32_t id) {
        return std::make_shared<Event>(device_id, id, ACL_EVENT_IPC,
                                       Event::Origin::kEx, std::move(page));
      }));
  return event->handle();
}

absl::Status Sync::NotifyGetExportKey(void* handle, char* key, size_t len,
                                      uint64_t flags) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          runtime_.Resolve<Notify>(handle));
  if (flags != ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT &&
      flags != ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("export flag ", flags,
                              " is neither ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT "
                              "nor ..._DISABLE_PID_VALIDATION"));
  }
  if (len < kMinNotifyKeyLen) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("key length ", len, " is below ", kMinNotifyKeyLen));
  }
  if (notify->shared() != nullptr) {
    // As the reference: a notify is made an IPC notify once.
    return Error(
        ACL_ERROR_RT_INTERNAL_ERROR,
        absl::StrCat("notify ", notify->id(), " is already an IPC notify"));
  }
  absl::StatusOr<std::shared_ptr<SharedSyncPage>> page =
      SharedSyncPage::Create();
  if (!page.ok()) {
    return Error(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, page.status().message());
  }
  absl::StatusOr<uint32_t> id = (*page)->Publish(
      kNotifyExport, flags == ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT);
  if (!id.ok()) {
    return Error(ACL_ERROR_RT_INTERNAL_ERROR,
                 absl::StrCat("cannot export notify ", notify->id(), ": ",
                              id.status().message()));
  }
  const int32_t owner = (*page)->owner_pid();
  if (!notify->Share(*std::move(page))) {
    return Error(
        ACL_ERROR_RT_INTERNAL_ERROR,
        absl::StrCat("notify ", notify->id(), " is already an IPC notify"));
  }
  const std::string text = NotifyKey(IpcAddress{owner, *id});
  std::memcpy(key, text.c_str(), text.size() + 1);
  return absl::OkStatus();
}

absl::Status Sync::NotifySetImportPids(void* handle, const int32_t* pids,
                                       size_t num) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          runtime_.Resolve<Notify>(handle));
  if (num == 0 || num > static_cast<size_t>(INT32_MAX)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("pid count ", num, " is out of (0, 2^31)"));
  }
  std::shared_ptr<SharedSyncPage> page = notify->shared();
  if (page == nullptr || page->imported()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("notify ", notify->id(),
                              " has no export key of this process"));
  }
  const absl::Status allowed = ipc::FdBroker::Get().AllowPids(
      page->export_id(), absl::MakeConstSpan(pids, num));
  if (!allowed.ok()) {
    return Error(ACL_ERROR_RT_INTERNAL_ERROR, allowed.message());
  }
  return absl::OkStatus();
}

absl::StatusOr<void*> Sync::NotifyImportByKey(const char* key, uint64_t flags) {
  if ((flags & ~kNotifyImportFlags) != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("import flag ", flags, " is out of [0, 3]"));
  }
  IpcAddress address;
  if (!ParseNotifyKey(key, &address)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "not a key from aclrtNotifyGetExportKey");
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<SharedSyncPage> page,
      OpenPage(address, ipc::ExportKind::kNotify, "the IPC notify"));
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<Notify> notify,
      runtime_.AddObject<Notify>(device_id, [&](uint32_t id) {
        return std::make_shared<Notify>(device_id, id, std::move(page));
      }));
  return notify->handle();
}

}  // namespace ascend::rt
