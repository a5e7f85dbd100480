/*
 * ascendcl/dump.h: the data dump's C interface inside the runtime
 * (libascendcl.so), for the libraries beside it (DESIGN.md §5.25):
 * libascend_dump.so implements acl_dump.h with these functions, and the
 * operator library (libnnopbase.so, aclDumpOpTensors) reports operators
 * through them. Names carry the ascendcl prefix of this runtime's own
 * extensions; codes are aclError values.
 */
#ifndef ASCENDCL_ACL_DUMP_INCLUDE_ASCENDCL_DUMP_H_
#define ASCENDCL_ACL_DUMP_INCLUDE_ASCENDCL_DUMP_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "acl/acl_dump.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What operators should report now (ascendclDumpOperatorSwitch): */
/* their tensors, for the data dump of operators; */
#define ASCENDCL_DUMP_OPERATOR_DATA 0x1U
/* their signature, for aclopStartDumpArgs' record; */
#define ASCENDCL_DUMP_OPERATOR_INFO 0x2U
/* their tensors, kept for the exception dump of their kernel. */
#define ASCENDCL_DUMP_OPERATOR_EXCEPTION 0x4U

/* The ASCENDCL_DUMP_OPERATOR_* bits in force: 0 means an operator need not
 * call ascendclDumpOperator (a load and a lock; never fails). */
ACL_FUNC_VISIBILITY uint32_t ascendclDumpOperatorSwitch(void);

/* Reports an operator the calling thread has just launched on stream (NULL:
 * the current default stream): its type, its name and its tensors (inputs
 * then outputs, then workspaces, by their type), each with a raw device
 * address (addrType ACL_DUMP_ADDR_RAW; host tensors are skipped). The data
 * dump queues a task behind the operator's kernel that dumps the tensors
 * when it has run; the record writes the signature; the exception dump
 * keeps the tensors for the kernel. Does nothing for what is off.
 * ACL_ERROR_INVALID_PARAM (100000): opType or opName NULL or empty, tensors
 * NULL with count > 0, a tensor with more than ACL_DUMP_MAX_SHAPE_NUM
 * dimensions, a type outside acldumpTensorType, an address type other than
 * ACL_DUMP_ADDR_RAW, a NULL address with a size. ACL_ERROR_RT_PARAM_INVALID
 * (107000): a stream that is not live. Passes the snapshot gate. */
ACL_FUNC_VISIBILITY aclError ascendclDumpOperator(
    const char *opType, const char *opName, const acldumpTensorInfo *tensors,
    size_t count, aclrtStream stream);

/* The functions of acl_dump.h, with their documented behaviour and codes
 * (libascend_dump.so forwards each call here). */
ACL_FUNC_VISIBILITY aclError ascendclDumpRegCallback(
    int32_t (*messageCallback)(const acldumpChunk *, int32_t), int32_t flag);
ACL_FUNC_VISIBILITY void ascendclDumpUnregCallback(void);
ACL_FUNC_VISIBILITY const char *ascendclDumpGetPath(int32_t dumpType);
ACL_FUNC_VISIBILITY aclError ascendclDumpSaveExceptionInfo(
    const char *fileName, const char *userTag, const acldumpTensorInfo *tensors,
    size_t tensorCount);
ACL_FUNC_VISIBILITY aclError ascendclDumpGetExceptionInfoPath(char *path,
                                                              size_t maxLen);
ACL_FUNC_VISIBILITY aclError ascendclDumpStartArgs(uint32_t dumpType,
                                                   const char *path);
ACL_FUNC_VISIBILITY aclError ascendclDumpStopArgs(uint32_t dumpType);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACL_DUMP_INCLUDE_ASCENDCL_DUMP_H_ */
