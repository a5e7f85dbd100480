// The snapshot image on disk (DESIGN.md §4.15): with an image directory
// configured, the memory participant streams device contents into files
// instead of host memory, through a bounded pool of host staging slots.
//
//   ImageStore::Configure(settings)  (aclInit)
//   std::shared_ptr<ImageStore> store = ImageStore::Current();
//   auto file = store->Create(device_id, data_bytes);   // a ".tmp" file
//   file->Write(offset, bytes, n) ...;  file->Commit(pieces);  // renamed
//   ...
//   ImageFile::Reader reader = file->Open();  // Restore: checks it first
//   reader->Read(offset, to, n);
//
// File layout (format version 1, little-endian):
//   [0, 4096)   header: magic "ASCLSNAP", version, header size, image id
//               (16 random bytes per process image directory), the Backup's
//               sequence number, pid and its start time, device, time
//               written, data bytes, piece count, header checksum;
//   [4096, +data_bytes)  the copied pieces, back to back;
//   then        the piece table (address, size, offset in data, checksum per
//               piece) and its checksum.
// A file is written as NAME.tmp and renamed to NAME once complete and
// synced, so no partial file ever carries a name Restore would read.
#ifndef ASCENDCL_SNAPSHOT_IMAGE_FILE_H_
#define ASCENDCL_SNAPSHOT_IMAGE_FILE_H_

#include <array>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "snapshot/host_copy.h"

namespace ascend::snapshot {

// Where images go and how much host memory they may use for device
// contents.
struct ImageSettings {
  std::string image_dir;  // absolute; empty: images stay in host memory
  uint64_t host_buffer_bytes = uint64_t{256} << 20;
};

// Validates `settings` (an absolute path to a writable directory; a host
// buffer of at least 1 MiB and at most the host's memory): kInvalidArgument
// naming what is wrong.
absl::Status ValidateImageSettings(const ImageSettings& settings);

// The config's settings with ASCENDCL_SNAPSHOT_IMAGE_DIR and
// ASCENDCL_SNAPSHOT_HOST_BUFFER_MB applied over them (they win), validated.
// `from_config`: the config file's snapshot.image_dir and
// snapshot.host_buffer_mb, each when present.
absl::StatusOr<ImageSettings> ResolveImageSettings(
    std::optional<std::string> image_dir,
    std::optional<uint64_t> host_buffer_mb);

namespace internal {

inline constexpr uint32_t kImageFormatVersion = 1;
inline constexpr uint64_t kImageHeaderBytes = 4096;
inline constexpr char kImageMagic[8] = {'A', 'S', 'C', 'L', 'S', 'N', 'A', 'P'};
// Subdirectories of an image directory are named
// kImageDirPrefix + "<pid>-<start time>", perhaps with "-<n>" after it
// (snapshot/image_dir.h).
inline constexpr absl::string_view kImageDirPrefix = "ascendcl-snapshot-";
// The manifest of the last Backup in an image's directory (JSON).
inline constexpr absl::string_view kManifestName = "image.json";

// The header, as it lies on disk (packed, little-endian).
struct ImageHeader {
  char magic[8];
  uint32_t version;
  uint32_t header_bytes;
  uint8_t image_id[16];
  uint64_t backup;  // sequence number of the Backup or pre-copy
  uint32_t pid;
  int32_t device;
  uint64_t process_start;  // the pid's start time (clock ticks since boot)
  uint64_t written_unix_us;
  uint64_t data_bytes;
  uint64_t piece_count;
  uint64_t header_checksum;  // of the bytes before it
} __attribute__((packed));

// One entry of the piece table.
struct ImagePiece {
  uint64_t addr;
  uint64_t size;
  uint64_t offset;  // in the data area
  uint64_t checksum;
} __attribute__((packed));

// Reads and checks a file's header and piece table: the text of what is
// wrong (bad magic, other version, checksum mismatch, truncated) as
// kDataLoss. Shared by Restore and the inspection tool.
struct ParsedImageFile {
  ImageHeader header;
  std::vector<ImagePiece> pieces;
  uint64_t table_checksum = 0;
};
absl::StatusOr<ParsedImageFile> ParseImageFile(int fd, const std::string& path);

// Host staging memory for copies between the device and image files, at
// most `budget` bytes in slots of `slot_bytes`, shared by every device (the
// bound is the process's). Slots are mapped on first use and kept.
class StagingPool {
 public:
  StagingPool(uint64_t budget, uint64_t slot_bytes);
  ~StagingPool();
  StagingPool(const StagingPool&) = delete;
  StagingPool& operator=(const StagingPool&) = delete;

  class Slot {
   public:
    Slot(StagingPool* pool, uint8_t* data) : pool_(pool), data_(data) {}
    Slot(Slot&& other) noexcept
        : pool_(other.pool_), data_(std::exchange(other.data_, nullptr)) {}
    Slot& operator=(Slot&&) = delete;
    ~Slot();
    uint8_t* data() const { return data_; }

   private:
    StagingPool* pool_;
    uint8_t* data_;
  };
  // Waits for a free slot; kResourceExhausted when none can be mapped.
  absl::StatusOr<Slot> Acquire();
  uint64_t slot_bytes() const { return slot_bytes_; }
  // Host bytes mapped now.
  uint64_t mapped_bytes() const;

 private:
  void Release(uint8_t* data);

  const uint64_t slot_bytes_;
  const size_t max_slots_;
  mutable std::mutex mu_;
  std::condition_variable freed_;
  std::vector<uint8_t*> free_;
  size_t mapped_ = 0;
};

class ImageDir;

// One file of an image: the pieces one capture copied. Removed from disk
// when the last capture referring to it goes.
class ImageFile final : public Extent {
 public:
  ~ImageFile() override;
  uint64_t size() const override { return data_bytes_; }
  uint64_t host_bytes() const override { return 0; }
  ImageFile* file() override { return this; }

  const std::string& path() const { return path_; }
  const ImageHeader& header() const { return header_; }
  // The piece table's checksum (after Commit).
  uint64_t table_checksum() const { return table_checksum_; }
  // Writes `n` bytes at `offset` of the data area (before Commit).
  absl::Status Write(uint64_t offset, const void* bytes, uint64_t n);
  // Writes the piece table, syncs, and gives the file its name.
  absl::Status Commit(const std::vector<ImagePiece>& pieces);

  // An open, checked file for Restore.
  class Reader {
   public:
    explicit Reader(int fd) : fd_(fd) {}
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;
    ~Reader();
    absl::Status Read(uint64_t offset, void* to, uint64_t n) const;

   private:
    const int fd_;
  };
  // Opens the file by its name and checks that it is the one this capture
  // wrote (same identity, size and piece table): kDataLoss otherwise
  // (missing, truncated, damaged, replaced, stale).
  absl::StatusOr<std::unique_ptr<Reader>> Open() const;

 private:
  friend class ImageStore;
  ImageFile(std::shared_ptr<ImageDir> dir, std::string path, int fd,
            ImageHeader header);

  const std::shared_ptr<ImageDir> dir_;
  const std::string path_;
  int fd_;  // open for writing until Commit
  // Aligned as its widest field: the packed header's fields then lie at
  // their natural alignment, and may be read through references.
  alignas(8) ImageHeader header_;
  const uint64_t data_bytes_;
  uint64_t table_checksum_ = 0;
  bool committed_ = false;
};

// The process's image settings, directory and staging pool.
class ImageStore {
 public:
  // Sets (or, with nullopt, drops) the process's image store. Images written
  // before keep their directory until they go.
  static void Configure(std::optional<ImageSettings> settings);
  // Null when images stay in host memory.
  static std::shared_ptr<ImageStore> Current();

  const ImageSettings& settings() const { return settings_; }
  StagingPool& pool() { return pool_; }
  // The directory this process writes into (created on first use).
  absl::StatusOr<std::string> Directory();
  // A new file for `data_bytes` of `device`'s contents, space reserved
  // (kResourceExhausted when the disk cannot hold it). `backup`: the
  // sequence number of the operation writing it.
  absl::StatusOr<std::shared_ptr<ImageFile>> Create(int32_t device,
                                                    uint64_t backup,
                                                    uint64_t data_bytes);
  // The next Backup's (or pre-copy's) sequence number.
  uint64_t NextBackup();

  explicit ImageStore(ImageSettings settings);

 private:
  const ImageSettings settings_;
  StagingPool pool_;
  std::mutex mu_;
  std::shared_ptr<ImageDir> dir_;
  uint64_t next_backup_ = 1;
};

}  // namespace internal
}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_IMAGE_FILE_H_
