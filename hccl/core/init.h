// Making communicators (DESIGN.md §5.27): every rank joins its job's
// rendezvous — the root's store for root information, rank 0's for a rank
// table — publishes who it is (process, device, address), and reads the
// others. When every rank is a thread of this process the ranks share one
// in-process world; otherwise each rank connects a Gloo context with its
// peers through the same store.
#ifndef ASCENDCL_HCCL_CORE_INIT_H_
#define ASCENDCL_HCCL_CORE_INIT_H_

#include <cstdint>
#include <string>

#include "hccl/hccl_types.h"

namespace ascend::hccl {

// HcclGetRootInfo: starts (or reuses) this process's store and describes a
// new job in `out`.
HcclResult MakeRootInfo(const char* api, HcclRootInfo* out);

// HcclCommInitRootInfo(Config), on `device` (-1: the calling thread's
// current device).
HcclResult InitFromRootInfo(const char* api, uint32_t nranks,
                            const HcclRootInfo& root, uint32_t rank,
                            const HcclCommConfig* config, int32_t device,
                            HcclComm* out);

// HcclCommInitClusterInfo(Config).
HcclResult InitFromRankTable(const char* api, const std::string& path,
                             uint32_t rank, const HcclCommConfig* config,
                             HcclComm* out);

// HcclCommInitAll: one in-process world of ndev ranks.
HcclResult InitAll(const char* api, uint32_t ndev, const int32_t* devices,
                   HcclComm* comms);

// HcclCreateSubCommConfig for a rank that joins (rankIds given).
HcclResult InitSubComm(const char* api, HcclComm parent, uint32_t nranks,
                       const uint32_t* rank_ids, uint64_t sub_id,
                       uint32_t sub_rank, const HcclCommConfig* config,
                       HcclComm* out);

// HcclCommDestroy.
HcclResult DestroyComm(const char* api, HcclComm comm);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_INIT_H_
