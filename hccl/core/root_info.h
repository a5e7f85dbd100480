// What HcclGetRootInfo writes into HcclRootInfo's 4108 bytes: where the
// root's rendezvous store listens and which job the communicator is, with a
// check word, so bytes from anywhere else are refused (HCCL_E_PARA).
#ifndef ASCENDCL_HCCL_CORE_ROOT_INFO_H_
#define ASCENDCL_HCCL_CORE_ROOT_INFO_H_

#include <cstdint>
#include <string>

#include "hccl/hccl_types.h"

namespace ascend::hccl {

struct RootAddress {
  std::string ip;
  uint16_t port = 0;
  uint64_t job = 0;  // random per HcclGetRootInfo call
};

void EncodeRootInfo(const RootAddress& a, HcclRootInfo* out);
bool DecodeRootInfo(const HcclRootInfo& in, RootAddress* out);

// A random 64-bit number (job ids, name suffixes).
uint64_t RandomId();

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_ROOT_INFO_H_
