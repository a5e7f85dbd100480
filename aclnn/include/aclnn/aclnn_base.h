/*
 * aclnn's initialisation. aclInit also makes the operators ready, so a
 * program that called aclInit need not call aclnnInit; calling both is
 * harmless.
 */
#ifndef ASCENDCL_ACLNN_ACLNN_BASE_H_
#define ASCENDCL_ACLNN_ACLNN_BASE_H_

#include <stdint.h>
#include <stdlib.h>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* configPath: NULL, or a JSON file whose "op_debug_config" object may set
 * "enable_debug_kernel" to "on" or "off". With "on", each operator waits
 * for each of its kernels and reports a kernel's failure (361001, the
 * runtime's code logged) from the operator call that launched it. 161002
 * for a file that cannot be read or parsed, or another value. Calling it
 * again replaces the setting. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
/* Ends what aclnnInit configured (debug kernels off again). Operators need
 * neither call on this runtime: the first operator call makes the runtime
 * ready, as aclInit does. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNN_ACLNN_BASE_H_ */
