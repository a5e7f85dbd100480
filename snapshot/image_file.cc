#include "snapshot/image_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "device/checksum.h"
#include "glog/logging.h"
#include "snapshot/image_dir.h"

namespace ascend::snapshot {

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

std::string Errno(int err) { return std::strerror(err); }

// MemTotal of /proc/meminfo; 0 when unknown.
uint64_t HostMemoryBytes() {
  FILE* f = std::fopen("/proc/meminfo", "re");
  if (f == nullptr) return 0;
  char line[256];
  uint64_t total = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    unsigned long long kib = 0;
    if (std::sscanf(line, "MemTotal: %llu kB", &kib) == 1) {
      total = static_cast<uint64_t>(kib) * 1024;
      break;
    }
  }
  std::fclose(f);
  return total;
}

absl::Status ReadFully(int fd, uint64_t offset, void* to, uint64_t n,
                       const std::string& path) {
  auto* p = static_cast<uint8_t*>(to);
  while (n > 0) {
    const ssize_t got = pread(fd, p, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      return absl::DataLossError(
          absl::StrCat("cannot read image file ", path, ": ", Errno(errno)));
    }
    if (got == 0) {
      return absl::DataLossError(
          absl::StrCat("image file ", path, " is truncated"));
    }
    p += got;
    offset += static_cast<uint64_t>(got);
    n -= static_cast<uint64_t>(got);
  }
  return absl::OkStatus();
}

absl::Status WriteFully(int fd, uint64_t offset, const void* bytes, uint64_t n,
                        const std::string& path) {
  const auto* p = static_cast<const uint8_t*>(bytes);
  while (n > 0) {
    const ssize_t put = pwrite(fd, p, n, static_cast<off_t>(offset));
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) {
      const int err = put < 0 ? errno : ENOSPC;
      return absl::ResourceExhaustedError(
          absl::StrCat("cannot write image file ", path, ": ", Errno(err)));
    }
    p += put;
    offset += static_cast<uint64_t>(put);
    n -= static_cast<uint64_t>(put);
  }
  return absl::OkStatus();
}

uint64_t HeaderChecksum(const internal::ImageHeader& h) {
  return device::Checksum(&h, offsetof(internal::ImageHeader, header_checksum));
}

uint64_t TableBytes(uint64_t pieces) {
  return pieces * sizeof(internal::ImagePiece) + sizeof(uint64_t);
}

}  // namespace

absl::Status ValidateImageSettings(const ImageSettings& settings) {
  const std::string& dir = settings.image_dir;
  if (!dir.empty()) {
    if (dir[0] != '/') {
      return absl::InvalidArgumentError(absl::StrCat(
          "snapshot image_dir \"", dir, "\" is not an absolute path"));
    }
    struct stat st;
    if (stat(dir.c_str(), &st) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "snapshot image_dir \"", dir, "\" cannot be used: ", Errno(errno)));
    }
    if (!S_ISDIR(st.st_mode)) {
      return absl::InvalidArgumentError(
          absl::StrCat("snapshot image_dir \"", dir, "\" is not a directory"));
    }
    if (access(dir.c_str(), W_OK | X_OK) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "snapshot image_dir \"", dir, "\" is not writable: ", Errno(errno)));
    }
  }
  if (settings.host_buffer_bytes < kMiB) {
    return absl::InvalidArgumentError(
        "snapshot host_buffer_mb must be at least 1");
  }
  const uint64_t host = HostMemoryBytes();
  if (host != 0 && settings.host_buffer_bytes > host) {
    return absl::InvalidArgumentError(absl::StrCat(
        "snapshot host_buffer_mb ", settings.host_buffer_bytes / kMiB,
        " is more than the host's memory (", host / kMiB, " MiB)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ImageSettings> ResolveImageSettings(
    std::optional<std::string> image_dir,
    std::optional<uint64_t> host_buffer_mb) {
  if (const char* env = std::getenv("ASCENDCL_SNAPSHOT_IMAGE_DIR");
      env != nullptr) {
    image_dir = std::string(env);
  }
  if (const char* env = std::getenv("ASCENDCL_SNAPSHOT_HOST_BUFFER_MB");
      env != nullptr) {
    uint64_t mb = 0;
    if (!absl::SimpleAtoi(env, &mb)) {
      return absl::InvalidArgumentError(
          absl::StrCat("ASCENDCL_SNAPSHOT_HOST_BUFFER_MB=\"", env,
                       "\" is not a number of MiB"));
    }
    host_buffer_mb = mb;
  }
  ImageSettings settings;
  if (image_dir.has_value()) settings.image_dir = *image_dir;
  if (host_buffer_mb.has_value()) {
    if (*host_buffer_mb > (~uint64_t{0} >> 20)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "snapshot host_buffer_mb ", *host_buffer_mb, " is out of range"));
    }
    settings.host_buffer_bytes = *host_buffer_mb * kMiB;
  }
  if (absl::Status valid = ValidateImageSettings(settings); !valid.ok()) {
    return valid;
  }
  return settings;
}

namespace internal {

absl::StatusOr<ParsedImageFile> ParseImageFile(int fd,
                                               const std::string& path) {
  struct stat st;
  if (fstat(fd, &st) != 0) {
    return absl::DataLossError(
        absl::StrCat("cannot stat image file ", path, ": ", Errno(errno)));
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  ParsedImageFile parsed;
  ImageHeader& h = parsed.header;
  if (size < sizeof(h)) {
    return absl::DataLossError(
        absl::StrCat("image file ", path, " is truncated (", size,
                     " bytes, shorter than its header)"));
  }
  absl::Status read = ReadFully(fd, 0, &h, sizeof(h), path);
  if (!read.ok()) return read;
  if (std::memcmp(h.magic, kImageMagic, sizeof(h.magic)) != 0) {
    return absl::DataLossError(
        absl::StrCat(path, " is not a snapshot image file (bad magic)"));
  }
  if (h.version != kImageFormatVersion) {
    return absl::DataLossError(
        absl::StrCat("image file ", path, " has format version ", h.version,
                     "; this runtime reads version ", kImageFormatVersion));
  }
  if (HeaderChecksum(h) != h.header_checksum ||
      h.header_bytes != kImageHeaderBytes) {
    return absl::DataLossError(
        absl::StrCat("image file ", path, ": header checksum mismatch"));
  }
  if (h.piece_count > (size / sizeof(ImagePiece)) || h.data_bytes > size) {
    return absl::DataLossError(
        absl::StrCat("image file ", path, " is truncated (", size, " bytes)"));
  }
  const uint64_t expected =
      kImageHeaderBytes + h.data_bytes + TableBytes(h.piece_count);
  if (size != expected) {
    return absl::DataLossError(absl::StrCat(
        "image file ", path, " is ", size < expected ? "truncated" : "too long",
        " (", size, " bytes, expected ", expected, ")"));
  }
  parsed.pieces.resize(h.piece_count);
  const uint64_t table_at = kImageHeaderBytes + h.data_bytes;
  read = ReadFully(fd, table_at, parsed.pieces.data(),
                   h.piece_count * sizeof(ImagePiece), path);
  if (!read.ok()) return read;
  uint64_t stored = 0;
  read = ReadFully(fd, table_at + h.piece_count * sizeof(ImagePiece), &stored,
                   sizeof(stored), path);
  if (!read.ok()) return read;
  parsed.table_checksum = device::Checksum(
      parsed.pieces.data(), parsed.pieces.size() * sizeof(ImagePiece));
  if (parsed.table_checksum != stored) {
    return absl::DataLossError(
        absl::StrCat("image file ", path, ": piece table checksum mismatch"));
  }
  for (const ImagePiece& p : parsed.pieces) {
    if (p.offset > h.data_bytes || p.size > h.data_bytes - p.offset) {
      return absl::DataLossError(absl::StrCat(
          "image file ", path, ": a piece lies outside the data area"));
    }
  }
  return parsed;
}

// --- StagingPool

StagingPool::StagingPool(uint64_t budget, uint64_t slot_bytes)
    : slot_bytes_(std::max<uint64_t>(slot_bytes, 4096)),
      max_slots_(std::max<uint64_t>(budget / slot_bytes_, 1)) {}

StagingPool::~StagingPool() {
  for (uint8_t* p : free_) munmap(p, slot_bytes_);
}

StagingPool::Slot::~Slot() {
  if (data_ != nullptr) pool_->Release(data_);
}

absl::StatusOr<StagingPool::Slot> StagingPool::Acquire() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (!free_.empty()) {
      uint8_t* p = free_.back();
      free_.pop_back();
      return Slot(this, p);
    }
    if (mapped_ < max_slots_) break;
    freed_.wait(lock);
  }
  ++mapped_;
  lock.unlock();
  void* p = mmap(nullptr, slot_bytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    const int err = errno;
    lock.lock();
    --mapped_;
    freed_.notify_one();
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot map ", slot_bytes_, " bytes of staging memory: ", Errno(err)));
  }
  return Slot(this, static_cast<uint8_t*>(p));
}

void StagingPool::Release(uint8_t* data) {
  std::lock_guard<std::mutex> lock(mu_);
  free_.push_back(data);
  freed_.notify_one();
}

uint64_t StagingPool::mapped_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return mapped_ * slot_bytes_;
}

// --- ImageFile

ImageFile::ImageFile(std::shared_ptr<ImageDir> dir, std::string path, int fd,
                     ImageHeader header)
    : dir_(std::move(dir)),
      path_(std::move(path)),
      fd_(fd),
      header_(header),
      data_bytes_(header.data_bytes) {}

ImageFile::~ImageFile() {
  if (fd_ >= 0) close(fd_);
  // A child forked from the writer leaves its parent's files alone.
  if (header_.pid == static_cast<uint32_t>(getpid())) {
    unlink((committed_ ? path_ : path_ + ".tmp").c_str());
  }
}

absl::Status ImageFile::Write(uint64_t offset, const void* bytes, uint64_t n) {
  if (committed_ || fd_ < 0 || offset > data_bytes_ ||
      n > data_bytes_ - offset) {
    return absl::InternalError(
        absl::StrCat("write outside image file ", path_));
  }
  return WriteFully(fd_, kImageHeaderBytes + offset, bytes, n, path_ + ".tmp");
}

absl::Status ImageFile::Commit(const std::vector<ImagePiece>& pieces) {
  const std::string tmp = path_ + ".tmp";
  header_.piece_count = pieces.size();
  header_.written_unix_us =
      static_cast<uint64_t>(absl::ToUnixMicros(absl::Now()));
  header_.header_checksum = HeaderChecksum(header_);
  table_checksum_ =
      device::Checksum(pieces.data(), pieces.size() * sizeof(ImagePiece));
  const uint64_t table_at = kImageHeaderBytes + data_bytes_;
  std::vector<uint8_t> table(TableBytes(pieces.size()));
  std::memcpy(table.data(), pieces.data(), pieces.size() * sizeof(ImagePiece));
  std::memcpy(table.data() + pieces.size() * sizeof(ImagePiece),
              &table_checksum_, sizeof(table_checksum_));
  std::vector<uint8_t> header(kImageHeaderBytes, 0);
  std::memcpy(header.data(), &header_, sizeof(header_));
  absl::Status status =
      WriteFully(fd_, table_at, table.data(), table.size(), tmp);
  if (status.ok()) {
    status = WriteFully(fd_, 0, header.data(), header.size(), tmp);
  }
  // The file may have been reserved longer than it came out.
  if (status.ok() &&
      ftruncate(fd_, static_cast<off_t>(table_at + table.size())) != 0) {
    status = absl::ResourceExhaustedError(
        absl::StrCat("cannot size image file ", tmp, ": ", Errno(errno)));
  }
  if (status.ok() && fdatasync(fd_) != 0) {
    status = absl::ResourceExhaustedError(
        absl::StrCat("cannot sync image file ", tmp, ": ", Errno(errno)));
  }
  if (!status.ok()) return status;
  // Written back, it need not stay in the page cache.
  (void)posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
  close(fd_);
  fd_ = -1;
  if (rename(tmp.c_str(), path_.c_str()) != 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot name image file ", path_, ": ", Errno(errno)));
  }
  committed_ = true;
  return absl::OkStatus();
}

ImageFile::Reader::~Reader() { close(fd_); }

absl::Status ImageFile::Reader::Read(uint64_t offset, void* to,
                                     uint64_t n) const {
  return ReadFully(fd_, kImageHeaderBytes + offset, to, n, "image file");
}

absl::StatusOr<std::unique_ptr<ImageFile::Reader>> ImageFile::Open() const {
  const int fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::DataLossError(absl::StrCat(
        "image file ", path_, " cannot be opened: ", Errno(errno)));
  }
  auto reader = std::make_unique<Reader>(fd);
  absl::StatusOr<ParsedImageFile> parsed = ParseImageFile(fd, path_);
  if (!parsed.ok()) return parsed.status();
  const ImageHeader& h = parsed->header;
  if (std::memcmp(h.image_id, header_.image_id, sizeof(h.image_id)) != 0 ||
      h.pid != header_.pid || h.process_start != header_.process_start) {
    return absl::DataLossError(
        absl::StrCat("image file ", path_,
                     " was written by another process (pid ", h.pid, ")"));
  }
  if (h.backup != header_.backup || h.device != header_.device ||
      h.data_bytes != header_.data_bytes ||
      parsed->table_checksum != table_checksum_) {
    return absl::DataLossError(absl::StrCat(
        "image file ", path_, " is not the one this backup wrote (backup ",
        h.backup, " of device ", h.device, ", expected backup ", header_.backup,
        " of device ", header_.device, ")"));
  }
  return reader;
}

// --- ImageStore

namespace {
std::mutex& StoreMutex() {
  static auto* mu = new std::mutex;
  return *mu;
}
std::shared_ptr<ImageStore>& StoreSlot() {
  static auto* store = new std::shared_ptr<ImageStore>;
  return *store;
}
}  // namespace

void ImageStore::Configure(std::optional<ImageSettings> settings) {
  std::shared_ptr<ImageStore> store;
  if (settings.has_value() && !settings->image_dir.empty()) {
    const int removed = RemoveStaleImages(settings->image_dir);
    if (removed > 0) {
      LOG(INFO) << "snapshot: removed " << removed
                << " stale image(s) of exited processes from "
                << settings->image_dir;
    }
    store = std::make_shared<ImageStore>(*std::move(settings));
  }
  std::shared_ptr<ImageStore> replaced;
  {
    std::lock_guard<std::mutex> lock(StoreMutex());
    replaced = std::exchange(StoreSlot(), std::move(store));
  }
}

std::shared_ptr<ImageStore> ImageStore::Current() {
  std::lock_guard<std::mutex> lock(StoreMutex());
  return StoreSlot();
}

// Staging slots of 1 to 4 MiB, at least eight of them within the budget:
// Restore reads a slot's worth of an image file with one read (larger reads
// keep the disk busier), Backup fills at most a work item of a slot.
namespace {
uint64_t StagingSlotBytes(const ImageSettings& settings) {
  return std::clamp<uint64_t>(settings.host_buffer_bytes / 8, kMiB, 4 * kMiB);
}
}  // namespace

ImageStore::ImageStore(ImageSettings settings)
    : settings_(std::move(settings)),
      pool_(settings_.host_buffer_bytes, StagingSlotBytes(settings_)) {}

uint64_t ImageStore::NextBackup() {
  std::lock_guard<std::mutex> lock(mu_);
  return next_backup_++;
}

absl::StatusOr<std::string> ImageStore::Directory() {
  std::lock_guard<std::mutex> lock(mu_);
  // A child forked from the process that made it owns its own.
  if (dir_ != nullptr && dir_->owner() == getpid()) return dir_->path();
  dir_.reset();
  // Images an earlier store of this process wrote there may still be in
  // use (the same directory configured again): share their directory.
  static auto* last = new std::weak_ptr<ImageDir>;
  if (std::shared_ptr<ImageDir> live = last->lock();
      live != nullptr && live->owner() == getpid() &&
      absl::StartsWith(live->path(), absl::StrCat(settings_.image_dir, "/",
                                                  kImageDirPrefix))) {
    dir_ = std::move(live);
    return dir_->path();
  }
  absl::StatusOr<std::shared_ptr<ImageDir>> made =
      ImageDir::Make(settings_.image_dir);
  if (!made.ok()) return made.status();
  *last = *made;
  dir_ = *std::move(made);
  return dir_->path();
}

absl::StatusOr<std::shared_ptr<ImageFile>> ImageStore::Create(
    int32_t device, uint64_t backup, uint64_t data_bytes) {
  absl::StatusOr<std::string> made = Directory();
  if (!made.ok()) return made.status();
  std::shared_ptr<ImageDir> dir;
  {
    std::lock_guard<std::mutex> lock(mu_);
    dir = dir_;
  }
  const std::string path =
      absl::StrCat(dir->path(), "/dev", device, "-", backup, ".img");
  const std::string tmp = path + ".tmp";
  int fd = open(tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 && errno == ENOENT && dir->EnsureExists().ok()) {
    // The directory went (removed, or a file system mounted over its
    // parent went): made again, locked. Files of earlier images in it are
    // gone, which a Restore of those reports.
    fd = open(tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  }
  if (fd < 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot create image file ", tmp, ": ", Errno(errno)));
  }
  ImageHeader header{};
  std::memcpy(header.magic, kImageMagic, sizeof(header.magic));
  header.version = kImageFormatVersion;
  header.header_bytes = kImageHeaderBytes;
  std::memcpy(header.image_id, dir->id().data(), sizeof(header.image_id));
  header.backup = backup;
  header.pid = static_cast<uint32_t>(getpid());
  header.device = device;
  header.process_start = OwnStart();
  header.data_bytes = data_bytes;
  std::shared_ptr<ImageFile> file(
      new ImageFile(std::move(dir), path, fd, header));
  // Reserve the space now, so that a full disk fails the Backup before it
  // copies anything (where the file system cannot reserve, writes find out).
  if (fallocate(fd, 0, 0, static_cast<off_t>(kImageHeaderBytes + data_bytes)) !=
          0 &&
      errno != EOPNOTSUPP) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot reserve ", kImageHeaderBytes + data_bytes,
                     " bytes for image file ", tmp, ": ", Errno(errno)));
  }
  return file;
}

}  // namespace internal
}  // namespace ascend::snapshot
