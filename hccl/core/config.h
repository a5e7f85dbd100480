// A communicator's settings: its HcclCommConfig (when given) over HCCL's
// environment variables over the defaults, as the HcclCommConfig page orders
// them. Every field a configuration of the program's version holds is
// checked (its "参数说明" ranges); a structure not filled by
// HcclCommConfigInit is refused.
#ifndef ASCENDCL_HCCL_CORE_CONFIG_H_
#define ASCENDCL_HCCL_CORE_CONFIG_H_

#include <cstdint>
#include <string>

#include "hccl/core/env.h"
#include "hccl/hccl_types.h"

namespace ascend::hccl {

struct CommSettings {
  std::string name;  // empty: the library names it
  std::string udi;
  std::string algo;
  std::string buffer_name;
  Millis exec_timeout{std::chrono::seconds(1836)};
  uint32_t buffer_mb = 200;
  uint32_t deterministic = 0;
  uint32_t op_expansion_mode = 0;
};

// HCCL_E_PARA for a bad configuration or environment (logged under api).
HcclResult ReadSettings(const char* api, const HcclCommConfig* config,
                        CommSettings* out);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_CONFIG_H_
