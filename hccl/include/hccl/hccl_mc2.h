/*
 * CANN's MC2 (fused compute-and-communication kernel) framework interface
 * (hccl/hccl_mc2.h of hicann/hccl). MC2 kernels run on the device's AI CPU
 * and communication engines, which the simulator does not have: every
 * function here answers HCCL_E_NOT_SUPPORT.
 */
#ifndef HCCL_MC2_H
#define HCCL_MC2_H

#include <hccl/hccl_types.h>

#ifdef __cplusplus
extern "C" {
#endif /* __cplusplus */

extern HcclResult HcclKfcAllocOpArgs(void **opArgs);
extern HcclResult HcclKfcFreeOpArgs(void *opArgs);
extern HcclResult HcclKfcOpArgsSetSrcDataType(void *opArgs,
                                              uint8_t srcDataType);
extern HcclResult HcclKfcOpArgsSetDstDataType(void *opArgs,
                                              uint8_t dstDataType);
extern HcclResult HcclKfcOpArgsSetReduceType(void *opArgs, uint32_t reduceType);
extern HcclResult HcclKfcOpArgsSetCount(void *opArgs, uint64_t count);
extern HcclResult HcclKfcOpArgsSetAlgConfig(void *opArgs, char *algConfig);
extern HcclResult HcclKfcOpArgsSetCommEngine(void *opArgs, uint8_t commEngine);
extern HcclResult HcclCreateOpResCtx(HcclComm comm, uint8_t opType,
                                     void *opArgs, void **opResCtx);

#ifdef __cplusplus
}
#endif /* __cplusplus */
#endif /* HCCL_MC2_H */
