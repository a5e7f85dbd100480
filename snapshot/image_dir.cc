#include "snapshot/image_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "snapshot/image_file.h"

namespace ascend::snapshot::internal {
namespace {

std::string Errno(int err) { return std::strerror(err); }

// How a directory's lock went.
enum class Lock {
  kTaken,        // this process holds it now
  kBusy,         // another open holds it (its owner, or a process cleaning)
  kGone,         // the directory is not (or no longer) there
  kUnsupported,  // the file system cannot lock directories
};

// Opens the directory `path` and takes its lock without waiting. The open
// directory is returned in *fd when the lock is taken, or when the file
// system cannot lock (the caller decides without it); else *fd is -1.
Lock OpenAndLock(const std::string& path, int* fd) {
  *fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (*fd < 0) return Lock::kGone;
  if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK || errno == EINTR) {
      close(*fd);
      *fd = -1;
      return Lock::kBusy;
    }
    return Lock::kUnsupported;
  }
  // Still the directory named `path`: not removed (and perhaps made again
  // by another process) between the open and the lock.
  struct stat locked;
  struct stat named;
  if (fstat(*fd, &locked) != 0 || stat(path.c_str(), &named) != 0 ||
      locked.st_dev != named.st_dev || locked.st_ino != named.st_ino) {
    close(*fd);
    *fd = -1;
    return Lock::kGone;
  }
  return Lock::kTaken;
}

bool IsImageFile(absl::string_view name) {
  return (absl::StartsWith(name, "dev") &&
          (absl::EndsWith(name, ".img") || absl::EndsWith(name, ".img.tmp"))) ||
         absl::StartsWith(name, kManifestName);
}

// Removes the image files (and their unfinished ".tmp" versions, and the
// manifest) of the directory open as `fd` (its lock held), then, with
// `and_directory`, the directory `path` if it is still that one; other
// files are left, and then so is the directory.
void RemoveContents(int fd, const std::string& path, bool and_directory) {
  const int listing = fd >= 0 ? dup(fd) : -1;
  DIR* d = listing >= 0 ? fdopendir(listing) : opendir(path.c_str());
  if (d == nullptr) {
    if (listing >= 0) close(listing);
    return;
  }
  rewinddir(d);
  while (dirent* e = readdir(d)) {
    if (IsImageFile(e->d_name)) unlinkat(dirfd(d), e->d_name, 0);
  }
  closedir(d);
  if (!and_directory) return;
  struct stat open_dir;
  struct stat named;
  if (fd >= 0 &&
      (fstat(fd, &open_dir) != 0 || stat(path.c_str(), &named) != 0 ||
       open_dir.st_ino != named.st_ino || open_dir.st_dev != named.st_dev)) {
    return;
  }
  rmdir(path.c_str());
}

// Directories this process made and still uses, removed at exit: by path,
// the open (locked) directory.
std::mutex& LiveMutex() {
  static auto* mu = new std::mutex;
  return *mu;
}
std::map<std::string, std::pair<pid_t, int>>& Live() {
  static auto* dirs = new std::map<std::string, std::pair<pid_t, int>>;
  return *dirs;
}

void RemoveLiveAtExit() {
  std::lock_guard<std::mutex> lock(LiveMutex());
  for (const auto& [path, owner_fd] : Live()) {
    // A forked child's exit leaves its parent's directories alone.
    if (owner_fd.first == getpid()) {
      RemoveContents(owner_fd.second, path, true);
    }
  }
  Live().clear();
}

std::array<uint8_t, 16> NewImageId() {
  std::array<uint8_t, 16> id{};
  if (getrandom(id.data(), id.size(), 0) != static_cast<ssize_t>(id.size())) {
    const uint64_t now = static_cast<uint64_t>(absl::GetCurrentTimeNanos());
    std::memcpy(id.data(), &now, sizeof(now));
    const uint64_t pid = static_cast<uint64_t>(getpid());
    std::memcpy(id.data() + sizeof(now), &pid, sizeof(pid));
  }
  return id;
}

// Makes `path` (if it is not there) and locks it for this process, clearing
// image files an earlier owner left. kBusy: another live process holds it.
Lock Claim(const std::string& path, int* fd) {
  // A few tries: a process removing a stale directory of this name (a
  // dead process's, whose pid and start time this process has) may hold
  // it, or take it away, for a moment.
  for (int attempt = 0; attempt < 50; ++attempt) {
    const bool made = mkdir(path.c_str(), 0700) == 0;
    if (!made && errno != EEXIST) return Lock::kGone;
    const Lock lock = OpenAndLock(path, fd);
    if (lock == Lock::kTaken || lock == Lock::kUnsupported) {
      // Left by an earlier store of this process (aclFinalize, then
      // aclInit), or by a process gone whose name this one has.
      if (!made) RemoveContents(*fd, path, false);
      return lock;
    }
    if (lock == Lock::kBusy && !made) return Lock::kBusy;
    usleep(1000);
  }
  return Lock::kBusy;
}

}  // namespace

std::optional<uint64_t> ProcessStart(const std::string& pid) {
  FILE* f = std::fopen(absl::StrCat("/proc/", pid, "/stat").c_str(), "re");
  if (f == nullptr) return std::nullopt;
  char buf[1024];
  const size_t n = std::fread(buf, 1, sizeof(buf) - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  const char* end_of_name = std::strrchr(buf, ')');
  if (end_of_name == nullptr) return std::nullopt;
  // After ") " come fields 3 (state) onwards: field 22 is the 20th.
  std::vector<absl::string_view> fields =
      absl::StrSplit(absl::string_view(end_of_name + 2), ' ');
  uint64_t start = 0;
  if (fields.size() < 20 || !absl::SimpleAtoi(fields[19], &start)) {
    return std::nullopt;
  }
  return start;
}

uint64_t OwnStart() {
  static std::mutex mu;
  static pid_t known_pid = 0;
  static uint64_t known_start = 0;
  std::lock_guard<std::mutex> lock(mu);
  if (known_pid != getpid()) {
    known_start = ProcessStart("self").value_or(0);
    known_pid = getpid();
  }
  return known_start;
}

ImageDir::ImageDir(std::string path, int fd)
    : path_(std::move(path)), fd_(fd), owner_(getpid()), id_(NewImageId()) {
  std::lock_guard<std::mutex> lock(LiveMutex());
  Live()[path_] = {owner_, fd_};
}

ImageDir::~ImageDir() {
  if (owner_ == getpid()) {
    {
      std::lock_guard<std::mutex> lock(LiveMutex());
      Live().erase(path_);
    }
    RemoveContents(fd_, path_, true);
  }
  if (fd_ >= 0) close(fd_);
}

absl::StatusOr<std::shared_ptr<ImageDir>> ImageDir::Make(
    const std::string& image_dir) {
  static std::once_flag at_exit;
  std::call_once(at_exit, [] { std::atexit(RemoveLiveAtExit); });
  const std::string base =
      absl::StrCat(image_dir, "/", kImageDirPrefix, getpid(), "-", OwnStart());
  // The name is another live process's only where PID namespaces share
  // the directory (same pid, same start tick): then the next free suffix.
  for (int n = 0; n < 64; ++n) {
    const std::string path = n == 0 ? base : absl::StrCat(base, "-", n);
    int fd = -1;
    const Lock lock = Claim(path, &fd);
    if (lock == Lock::kBusy) continue;
    if (lock == Lock::kGone) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "cannot create snapshot image directory ", path, ": ", Errno(errno)));
    }
    return std::shared_ptr<ImageDir>(new ImageDir(path, fd));
  }
  return absl::ResourceExhaustedError(
      absl::StrCat("cannot create snapshot image directory ", base,
                   ": that name and its suffixes are held by other processes"));
}

absl::Status ImageDir::EnsureExists() {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  struct stat open_dir;
  struct stat named;
  if (fd_ >= 0 && fstat(fd_, &open_dir) == 0 &&
      stat(path_.c_str(), &named) == 0 && open_dir.st_ino == named.st_ino &&
      open_dir.st_dev == named.st_dev) {
    return absl::OkStatus();
  }
  if (fd_ < 0 && access(path_.c_str(), F_OK) == 0) return absl::OkStatus();
  int fd = -1;
  if (Claim(path_, &fd) == Lock::kTaken || fd >= 0) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
    std::lock_guard<std::mutex> live(LiveMutex());
    Live()[path_] = {owner_, fd_};
    return absl::OkStatus();
  }
  return absl::ResourceExhaustedError(absl::StrCat(
      "cannot create snapshot image directory ", path_, ": ", Errno(errno)));
}

int RemoveStaleImages(const std::string& image_dir) {
  DIR* d = opendir(image_dir.c_str());
  if (d == nullptr) return 0;
  std::vector<std::string> candidates;
  while (dirent* e = readdir(d)) {
    absl::string_view name = e->d_name;
    if (!absl::ConsumePrefix(&name, kImageDirPrefix)) continue;
    // <pid>-<start>, or <pid>-<start>-<n>.
    std::vector<std::string> parts = absl::StrSplit(name, '-');
    uint64_t number = 0;
    bool numbers = parts.size() == 2 || parts.size() == 3;
    for (const std::string& part : parts) {
      numbers = numbers && absl::SimpleAtoi(part, &number);
    }
    if (!numbers) continue;
    uint64_t start = 0;
    (void)absl::SimpleAtoi(parts[1], &start);
    // A process with this pid and start time runs: its (in this PID
    // namespace; another namespace's process is told by its lock).
    const std::optional<uint64_t> running = ProcessStart(parts[0]);
    if (running.has_value() && *running == start) continue;
    candidates.push_back(absl::StrCat(image_dir, "/", e->d_name));
  }
  closedir(d);
  int removed = 0;
  for (const std::string& path : candidates) {
    int fd = -1;
    const Lock lock = OpenAndLock(path, &fd);
    // Held: its owner is alive (in another PID namespace, or a child it
    // forked still runs), or another process is removing it.
    if (lock == Lock::kBusy || lock == Lock::kGone) continue;
    RemoveContents(fd, path, true);
    if (fd >= 0) close(fd);
    ++removed;
  }
  return removed;
}

}  // namespace ascend::snapshot::internal
