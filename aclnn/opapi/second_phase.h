// Every operator's second phase is the same: run the executor its first
// phase planned on the stream (aclnn/nnopbase/executor.h).
#ifndef ASCENDCL_ACLNN_OPAPI_SECOND_PHASE_H_
#define ASCENDCL_ACLNN_OPAPI_SECOND_PHASE_H_

#include "aclnn/nnopbase/entry.h"
#include "aclnn/nnopbase/executor.h"

// Defines `aclnnStatus NAME(workspace, workspaceSize, executor, stream)`.
#define ACLNN_SECOND_PHASE(NAME)                                       \
  extern "C" aclnnStatus NAME(void* workspace, uint64_t workspaceSize, \
                              aclOpExecutor* executor,                 \
                              aclrtStream stream) try {                \
    return ::ascend::nn::RunExecutor(#NAME, workspace, workspaceSize,  \
                                     executor, stream);                \
  }                                                                    \
  ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

#endif  // ASCENDCL_ACLNN_OPAPI_SECOND_PHASE_H_
