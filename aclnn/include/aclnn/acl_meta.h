/*
 * The operator-call objects of CANN's aclnn interface (nnopbase): tensors
 * (a view over device memory: shape, strides, offset, format and the storage
 * behind it), scalars, value arrays, tensor and scalar lists, and the
 * executor an operator's first phase returns.
 *
 * An operator is called in two phases:
 *
 *   uint64_t ws = 0;
 *   aclOpExecutor *exec = NULL;
 *   aclnnAddGetWorkspaceSize(x, y, alpha, out, &ws, &exec);  // checks, plans
 *   aclnnAdd(workspace, ws, exec, stream);                   // queues kernels
 *
 * The first phase checks the arguments and plans the kernels; the second
 * queues them on the stream. An executor is used once (the second phase
 * releases it) unless aclSetAclOpExecutorRepeatable made it repeatable; a
 * repeatable executor is released with aclDestroyAclOpExecutor, and
 * aclSetInputTensorAddr / aclSetOutputTensorAddr point its tensors at other
 * device memory between runs.
 *
 * Objects are owned by the caller: each create has its destroy. The objects
 * a first phase is given may be destroyed once it returns; the executor
 * keeps what it needs.
 */
#ifndef ASCENDCL_ACLNN_ACL_META_H_
#define ASCENDCL_ACLNN_ACL_META_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACLNN_META
#define ACLNN_META
typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;

/* 0 for success, else one of the codes of aclnn/opdev/op_errno.h. */
typedef int32_t aclnnStatus;
#ifdef __cplusplus
constexpr aclnnStatus OK = 0;
#endif
#endif

/* A tensor: viewDimsNum (at most 25; each operator says how many it takes)
 * dimensions of sizes viewDims, element
 * strides `stride` (one per view dimension; NULL: contiguous row-major),
 * starting `offset` elements into the storage of storageDims at tensorData
 * (device memory; NULL for a tensor described before its memory exists).
 * Sizes, strides and offset are non-negative, and every element of the view
 * lies inside the storage. NULL when an argument is invalid (logged). */
ACL_FUNC_VISIBILITY aclTensor *aclCreateTensor(
    const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
    const int64_t *stride, int64_t offset, aclFormat format,
    const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData);

/* A scalar holding the value at `value`, read as dataType. */
ACL_FUNC_VISIBILITY aclScalar *aclCreateScalar(void *value,
                                               aclDataType dataType);
/* Arrays copy their size values (size 0 with a NULL value is an empty
 * array). */
ACL_FUNC_VISIBILITY aclIntArray *aclCreateIntArray(const int64_t *value,
                                                   uint64_t size);
ACL_FUNC_VISIBILITY aclFloatArray *aclCreateFloatArray(const float *value,
                                                       uint64_t size);
ACL_FUNC_VISIBILITY aclBoolArray *aclCreateBoolArray(const bool *value,
                                                     uint64_t size);
/* Lists refer to the tensors (scalars) given: they are not copied, and
 * destroying the list destroys them. */
ACL_FUNC_VISIBILITY aclTensorList *aclCreateTensorList(
    const aclTensor *const *value, uint64_t size);
ACL_FUNC_VISIBILITY aclScalarList *aclCreateScalarList(
    const aclScalar *const *value, uint64_t size);

/* Destroys return 0, also for NULL (nothing to do). */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor *tensor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar *scalar);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray *array);
ACL_FUNC_VISIBILITY aclnnStatus
aclDestroyFloatArray(const aclFloatArray *array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray *array);
ACL_FUNC_VISIBILITY aclnnStatus
aclDestroyTensorList(const aclTensorList *array);
ACL_FUNC_VISIBILITY aclnnStatus
aclDestroyScalarList(const aclScalarList *array);

/* Getters. The arrays returned through int64_t** are allocated with new[]:
 * the caller releases them with delete[]. 161001 for a NULL argument. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor *tensor,
                                                int64_t **viewDims,
                                                uint64_t *viewDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor *tensor,
                                                   int64_t **storageDims,
                                                   uint64_t *storageDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor *tensor,
                                                  int64_t **stridesValue,
                                                  uint64_t *stridesNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor *tensor,
                                                 int64_t *offset);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor *tensor,
                                             aclFormat *format);
ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor *tensor,
                                               aclDataType *dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclGetIntArraySize(const aclIntArray *array,
                                                   uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFloatArraySize(const aclFloatArray *array,
                                                     uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetBoolArraySize(const aclBoolArray *array,
                                                    uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus
aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus
aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size);

/* Re-describes an existing tensor (the arguments of aclCreateTensor). */
ACL_FUNC_VISIBILITY aclnnStatus
aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum,
              aclDataType dataType, const int64_t *stride, int64_t offset,
              aclFormat format, const int64_t *storageDims,
              uint64_t storageDimsNum, void *tensorDataAddr);

/* Keeps the executor after its run, for more runs, until
 * aclDestroyAclOpExecutor. */
ACL_FUNC_VISIBILITY aclnnStatus
aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
ACL_FUNC_VISIBILITY aclnnStatus
aclDestroyAclOpExecutor(aclOpExecutor *executor);

/* Points input (output) `index` of a repeatable executor, in the order of
 * the operator's parameters, at `addr`; `tensor`, when not NULL, is updated
 * too. Tensors of a list count one by one. 161002 for an index past the
 * executor's tensors. The Acl-spelled names are the same functions. */
ACL_FUNC_VISIBILITY aclnnStatus AclSetInputTensorAddr(aclOpExecutor *executor,
                                                      const size_t index,
                                                      aclTensor *tensor,
                                                      void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetOutputTensorAddr(aclOpExecutor *executor,
                                                       const size_t index,
                                                       aclTensor *tensor,
                                                       void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicInputTensorAddr(
    aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
    aclTensorList *tensors, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicOutputTensorAddr(
    aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
    aclTensorList *tensors, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetTensorAddr(aclOpExecutor *executor,
                                                 const size_t index,
                                                 aclTensor *tensor, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicTensorAddr(
    aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
    aclTensorList *tensors, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor,
                                                      const size_t index,
                                                      aclTensor *tensor,
                                                      void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor,
                                                       const size_t index,
                                                       aclTensor *tensor,
                                                       void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicInputTensorAddr(
    aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
    aclTensorList *tensors, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicOutputTensorAddr(
    aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
    aclTensorList *tensors, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetTensorAddr(aclOpExecutor *executor,
                                                 const size_t index,
                                                 aclTensor *tensor, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicTensorAddr(
    aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
    aclTensorList *tensors, void *addr);

/* The device address of a tensor's storage (what aclCreateTensor got). */
ACL_FUNC_VISIBILITY aclnnStatus aclSetRawTensorAddr(aclTensor *tensor,
                                                    void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor,
                                                    void **addr);

/* Dumps the first inputTensorNum + outputTensorNum tensors of an operator
 * when data dump is on for operators (aclmdlSetDump); 0 and nothing written
 * otherwise. */
ACL_FUNC_VISIBILITY aclnnStatus aclDumpOpTensors(
    const char *opType, const char *opName, aclTensor **tensors,
    size_t inputTensorNum, size_t outputTensorNum, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNN_ACL_META_H_ */
