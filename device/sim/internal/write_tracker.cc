#include "device/sim/internal/write_tracker.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace ascend::device::sim::internal {
namespace {

// The kernel ABI that Debian 12's headers predate (linux/userfaultfd.h and
// linux/fs.h of Linux 6.7), written out from the kernel's definitions.
constexpr uint64_t kFeatureWpUnpopulated = uint64_t{1} << 13;
constexpr uint64_t kFeatureWpAsync = uint64_t{1} << 15;
#ifdef UFFD_FEATURE_WP_HUGETLBFS_SHMEM
constexpr uint64_t kFeatureWpShmem = UFFD_FEATURE_WP_HUGETLBFS_SHMEM;
#else
constexpr uint64_t kFeatureWpShmem = uint64_t{1} << 12;
#endif

// struct pm_scan_arg and struct page_region of linux/fs.h.
struct ScanArg {
  uint64_t size;
  uint64_t flags;
  uint64_t start;
  uint64_t end;
  uint64_t walk_end;
  uint64_t vec;
  uint64_t vec_len;
  uint64_t max_pages;
  uint64_t category_inverted;
  uint64_t category_mask;
  uint64_t category_anyof_mask;
  uint64_t return_mask;
};
struct PageRegion {
  uint64_t start;
  uint64_t end;
  uint64_t categories;
};
static_assert(sizeof(ScanArg) == 96, "struct pm_scan_arg is 96 bytes");

constexpr unsigned long kPagemapScan = _IOWR('f', 16, ScanArg);
constexpr uint64_t kScanWpMatching = uint64_t{1} << 0;
constexpr uint64_t kScanCheckWpAsync = uint64_t{1} << 1;
constexpr uint64_t kPageIsWritten = uint64_t{1} << 1;

// Regions one scan call may return before it is resumed at walk_end.
constexpr uint64_t kScanBatch = 512;

absl::Status Errno(const char* what) {
  const int error = errno;
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(error)));
}

template <typename Arg>
int IoctlRetrying(int fd, unsigned long request, Arg* arg) {
  int result;
  do {
    result = ioctl(fd, request, arg);
  } while (result < 0 && errno == EINTR);
  return result;
}

}  // namespace

absl::StatusOr<std::unique_ptr<WriteTracker>> WriteTracker::Create() {
  const int uffd = static_cast<int>(
      syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY));
  if (uffd < 0) {
    const int error = errno;
    return absl::UnavailableError(
        absl::StrCat("userfaultfd refused: ", std::strerror(error)));
  }
  uffdio_api api{};
  api.api = UFFD_API;
  api.features = kFeatureWpAsync | kFeatureWpUnpopulated | kFeatureWpShmem;
  if (IoctlRetrying(uffd, UFFDIO_API, &api) < 0) {
    const int error = errno;
    close(uffd);
    return absl::UnavailableError(absl::StrCat(
        "asynchronous userfaultfd write-protection is not available: ",
        std::strerror(error)));
  }
  const int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (pagemap < 0) {
    const int error = errno;
    close(uffd);
    return absl::UnavailableError(absl::StrCat(
        "/proc/self/pagemap cannot be read: ", std::strerror(error)));
  }
  // PAGEMAP_SCAN over nothing: refused with ENOTTY by kernels without it.
  ScanArg probe{};
  probe.size = sizeof probe;
  if (IoctlRetrying(pagemap, kPagemapScan, &probe) < 0) {
    const int error = errno;
    close(uffd);
    close(pagemap);
    return absl::UnavailableError(
        absl::StrCat("PAGEMAP_SCAN is not available: ", std::strerror(error)));
  }
  return std::unique_ptr<WriteTracker>(new WriteTracker(uffd, pagemap));
}

WriteTracker::WriteTracker(int uffd, int pagemap)
    : uffd_(uffd), pagemap_(pagemap) {}

WriteTracker::~WriteTracker() {
  close(uffd_);
  close(pagemap_);
}

absl::Status WriteTracker::Register(uint64_t addr, uint64_t size, bool arm) {
  uffdio_register reg{};
  reg.range.start = addr;
  reg.range.len = size;
  reg.mode = UFFDIO_REGISTER_MODE_WP;
  if (IoctlRetrying(uffd_, UFFDIO_REGISTER, &reg) < 0) {
    return Errno("cannot register the range for write tracking");
  }
  return arm ? Arm(addr, size) : absl::OkStatus();
}

absl::Status WriteTracker::Unregister(uint64_t addr, uint64_t size) {
  uffdio_range range{};
  range.start = addr;
  range.len = size;
  if (IoctlRetrying(uffd_, UFFDIO_UNREGISTER, &range) < 0 && errno != EINVAL) {
    return Errno("cannot unregister the range from write tracking");
  }
  return absl::OkStatus();
}

absl::Status WriteTracker::Protect(uint64_t addr, uint64_t size, bool armed) {
  uffdio_writeprotect wp{};
  wp.range.start = addr;
  wp.range.len = size;
  wp.mode = armed ? UFFDIO_WRITEPROTECT_MODE_WP : 0;
  if (IoctlRetrying(uffd_, UFFDIO_WRITEPROTECT, &wp) < 0) {
    return Errno(armed ? "cannot arm write tracking"
                       : "cannot disarm write tracking");
  }
  return absl::OkStatus();
}

absl::Status WriteTracker::Arm(uint64_t addr, uint64_t size) {
  return Protect(addr, size, /*armed=*/true);
}

absl::Status WriteTracker::Disarm(uint64_t addr, uint64_t size) {
  return Protect(addr, size, /*armed=*/false);
}

absl::StatusOr<std::vector<std::pair<uint64_t, uint64_t>>>
WriteTracker::Collect(uint64_t addr, uint64_t size, bool rearm) {
  std::vector<std::pair<uint64_t, uint64_t>> written;
  std::vector<PageRegion> regions(kScanBatch);
  uint64_t from = addr;
  const uint64_t end = addr + size;
  while (from < end) {
    ScanArg arg{};
    arg.size = sizeof arg;
    arg.flags = kScanCheckWpAsync | (rearm ? kScanWpMatching : 0);
    arg.start = from;
    arg.end = end;
    arg.vec = reinterpret_cast<uint64_t>(regions.data());
    arg.vec_len = regions.size();
    arg.category_mask = kPageIsWritten;
    arg.return_mask = kPageIsWritten;
    const int found = IoctlRetrying(pagemap_, kPagemapScan, &arg);
    if (found < 0) return Errno("PAGEMAP_SCAN failed");
    for (int i = 0; i < found; ++i) {
      const PageRegion& r = regions[static_cast<size_t>(i)];
      if (!written.empty() && written.back().second == r.start) {
        written.back().second = r.end;
      } else {
        written.emplace_back(r.start, r.end);
      }
    }
    // The walk stops early when the vector is full; resume where it ended.
    if (arg.walk_end <= from) break;
    from = arg.walk_end;
  }
  return written;
}

}  // namespace ascend::device::sim::internal
