// What the last snapshot operation did, for ascendclSnapshotGetReport
// (ascendcl/snapshot.h, DESIGN.md §4.14): rendered as one JSON object.
#ifndef ASCENDCL_SNAPSHOT_REPORT_H_
#define ASCENDCL_SNAPSHOT_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "snapshot/backup_image.h"

namespace ascend::snapshot {

struct SnapshotReport {
  struct Participant {
    std::string name;
    uint64_t duration_us = 0;
    uint64_t bytes = 0;  // device contents it copied
  };

  // "backup", "restore", "precopy" or "none"
  std::string operation = "none";
  bool incremental = false;
  std::string write_tracking = "none";
  uint64_t bytes_copied = 0;
  uint64_t bytes_unchanged = 0;
  // Of bytes_copied, those copied into host memory the previous capture
  // held (an incremental Backup rewriting it in place).
  uint64_t bytes_in_place = 0;
  // The plan each participant that had a choice took, and why; distinct
  // sentences joined with "; ".
  std::string plan;
  uint64_t host_bytes = 0;
  // An image on disk (DESIGN.md §4.15): its directory ("" when the image
  // is in host memory) and the bytes its files hold.
  std::string image_dir;
  uint64_t disk_bytes = 0;
  uint64_t duration_us = 0;
  std::vector<Participant> participants;  // in registration order

  // The report of `operation` over `image`, whose states hold what that
  // operation moved; `duration_us` as the coordinator measured it.
  static SnapshotReport Of(std::string operation, const BackupImage& image,
                           uint64_t duration_us);
  std::string ToJson() const;
};

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_REPORT_H_
