// Host-side helpers of the memory participant (DESIGN.md §4.11, §4.14):
// the host buffers that hold saved device memory, and the worker threads
// that copy it.
#ifndef ASCENDCL_SNAPSHOT_HOST_COPY_H_
#define ASCENDCL_SNAPSHOT_HOST_COPY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ascend::snapshot {
namespace internal {

class ImageFile;

// Where the pieces one capture copied lie: host memory, or a file of an
// image on disk (DESIGN.md §4.15).
class Extent {
 public:
  virtual ~Extent() = default;
  virtual uint64_t size() const = 0;
  // Host memory held for device contents.
  virtual uint64_t host_bytes() const = 0;
  // The bytes when they are in host memory, else null.
  virtual uint8_t* data() const { return nullptr; }
  // The file when they are on disk, else null.
  virtual ImageFile* file() { return nullptr; }
};

// Host memory for one device's saved pieces: mapped fresh, with transparent
// huge pages where the kernel offers them, and unmapped with the image.
class HostBuffer final : public Extent {
 public:
  // kResourceExhausted when the host has not `size` bytes available or the
  // mapping fails.
  static absl::StatusOr<std::unique_ptr<HostBuffer>> Map(uint64_t size);
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer() override;

  // Faults every page in now, so that a later copy into it does not pay
  // for first touches (a pre-copy prepares the next Backup's buffer so).
  void Prefault() const;
  // Gives back the pages past the first `size` bytes (a reserve larger
  // than the copy it took).
  void Shrink(uint64_t size);
  uint8_t* data() const override { return data_; }
  uint64_t size() const override { return size_; }
  uint64_t host_bytes() const override { return size_; }

 private:
  HostBuffer(uint8_t* data, uint64_t size) : data_(data), size_(size) {}
  // MemAvailable of /proc/meminfo; nullopt when it cannot be read.
  static std::optional<uint64_t> AvailableBytes();

  uint8_t* const data_;
  uint64_t size_;
};

// Runs fn(i) for i in [0, n) on `workers` threads (0: one per core), the
// calling thread included; the first error wins and stops the rest. Out of
// threads, fewer run (the calling thread at least).
absl::Status ParallelFor(int workers, size_t n,
                         const std::function<absl::Status(size_t)>& fn);

}  // namespace internal
}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_HOST_COPY_H_
