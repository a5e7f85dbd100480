/* The HCCL headers compile as plain C99 with warnings as errors, and their
 * sizes and values are CANN's. */
#include <stddef.h>
#include <string.h>

#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_mc2.h"
#include "hccl/hccl_types.h"

typedef char root_info_is_4108_bytes[sizeof(HcclRootInfo) == 4108 ? 1 : -1];
typedef char config_header_is_24_bytes
    [offsetof(HcclCommConfig, hcclBufferSize) == 24 ? 1 : -1];
typedef char bfp16_is_11[HCCL_DATA_TYPE_BFP16 == 11 ? 1 : -1];
typedef char in_status_is_1041[HCCL_E_IN_STATUS == 1041 ? 1 : -1];

int main(void) {
  HcclCommConfig config;
  HcclConfigValue value;
  HcclSendRecvItem item;
  HcclCommConfigInit(&config);
  value.value = 1;
  item.sendRecvType = HCCL_SEND;
  (void)value;
  (void)item;
  /* A code outside the enumeration still gets a description. */
  if (strcmp(HcclGetErrorString((HcclResult)-3), "unknown error") != 0) {
    return 2;
  }
  return config.hcclBufferSize == HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET ? 0 : 1;
}
