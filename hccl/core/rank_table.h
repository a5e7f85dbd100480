// CANN's rank table (the JSON file HcclCommInitClusterInfo reads; hicann/hccl
// docs/zh/user_guide/cluster_info_config): status "completed", version
// "1.0" (or "1.2"), server_count, server_list of {server_id, device: [{
// device_id, device_ip, device_port, rank_id}]}. Numbers may be JSON strings,
// as CANN writes them.
#ifndef ASCENDCL_HCCL_CORE_RANK_TABLE_H_
#define ASCENDCL_HCCL_CORE_RANK_TABLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"

namespace ascend::hccl {

struct RankTable {
  struct Rank {
    std::string server_id;
    int32_t device_id = 0;
    std::string device_ip;     // may be empty (one server)
    uint16_t device_port = 0;  // 0: not given
  };
  std::vector<Rank> ranks;  // indexed by rank_id
  uint64_t digest = 0;      // of the file's bytes: the same table, the same job
};

// HCCL_E_OPEN_FILE_FAILURE: unreadable; HCCL_E_PARA: anything malformed
// (logged under `api` with the reason).
HcclResult LoadRankTable(const char* api, const std::string& path,
                         RankTable* out);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_RANK_TABLE_H_
