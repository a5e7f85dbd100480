// A process's image subdirectory and the rule for removing those of others
// (DESIGN.md §4.15).
//
// Each process writes its images into IMAGE_DIR/ascendcl-snapshot-<pid>-<start>
// (<start>: the process's start time, so a reused pid is told apart; a name
// already held by a live process, which can happen across PID namespaces,
// gets a "-<n>" suffix). The owner holds an exclusive flock(2) on the
// directory for as long as it uses it; the kernel drops the lock when the
// process ends, however it ends. An image directory is removed by another
// process only when both say its owner is gone: its lock can be taken, and
// no process with its pid and start time runs. Whoever removes one holds
// its lock while doing so, so two processes cleaning the same directory, or
// one cleaning while another creates, never remove what the other uses.
//
// A child forked from the owner (without exec) inherits the lock (its
// parent's image is kept while it lives) but owns nothing: it removes
// neither its parent's directory nor its files, and makes a directory of
// its own for its images.
#ifndef ASCENDCL_SNAPSHOT_IMAGE_DIR_H_
#define ASCENDCL_SNAPSHOT_IMAGE_DIR_H_

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"

namespace ascend::snapshot::internal {

// Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or
// nullopt when no such process runs. `pid` "self": this process.
std::optional<uint64_t> ProcessStart(const std::string& pid);
// This process's start time (read again after a fork).
uint64_t OwnStart();

class ImageDir {
 public:
  // Makes (or takes over, when its owner is gone) this process's image
  // subdirectory of `image_dir`, locked, with a fresh image id.
  static absl::StatusOr<std::shared_ptr<ImageDir>> Make(
      const std::string& image_dir);
  // Removes the directory and the image files in it, when this process
  // made it (not in a forked child).
  ~ImageDir();
  ImageDir(const ImageDir&) = delete;
  ImageDir& operator=(const ImageDir&) = delete;

  const std::string& path() const { return path_; }
  const std::array<uint8_t, 16>& id() const { return id_; }
  // The process that made it.
  pid_t owner() const { return owner_; }
  // Makes the directory again, locked, if it went (removed behind this
  // process's back, or a file system mounted over its parent went).
  absl::Status EnsureExists();

 private:
  ImageDir(std::string path, int fd);

  const std::string path_;
  int fd_;  // the directory, flock'ed; -1 where the file system cannot lock
  const pid_t owner_;
  std::array<uint8_t, 16> id_{};
};

// Removes the image subdirectories under `image_dir` whose process is gone
// (see above). Returns how many.
int RemoveStaleImages(const std::string& image_dir);

}  // namespace ascend::snapshot::internal

#endif  // ASCENDCL_SNAPSHOT_IMAGE_DIR_H_
