/*
 * ACL stream allocators: a framework describes its own device-memory
 * allocator (an object and its alloc, free, alloc-advise and block-address
 * callbacks) in a descriptor and registers it for a stream, so that work the
 * runtime enqueues on that stream takes its workspace from the framework.
 * Included by "acl/acl_rt.h"; include that instead.
 *
 * Not available on this runtime yet (issue 15): every function returns
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000), or NULL for
 * aclrtAllocatorCreateDesc, logs one line naming itself and changes nothing.
 */
#ifndef ASCENDCL_ACL_ACL_RT_ALLOCATOR_H_
#define ASCENDCL_ACL_ACL_RT_ALLOCATOR_H_

#include <stddef.h>

#include "acl/acl_base.h"
/* aclrtStream; acl_rt.h includes this file at its end, after declaring it. */
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Allocator callbacks
 * ------------------------------------------------------------------------- */

/* Argument type of aclrtAllocatorSetAllocFuncToDesc, aclrtAllocatorGetByStream.
 */
typedef void *(*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);

/* Argument type of aclrtAllocatorSetFreeFuncToDesc, aclrtAllocatorGetByStream.
 */
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator,
                                       aclrtAllocatorBlock block);

/* Argument type of aclrtAllocatorSetAllocAdviseFuncToDesc,
 * aclrtAllocatorGetByStream. */
typedef void *(*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator,
                                               size_t size,
                                               aclrtAllocatorAddr addr);

/* Argument type of aclrtAllocatorSetGetAddrFromBlockFuncToDesc,
 * aclrtAllocatorGetByStream. */
typedef void *(*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

/* ---------------------------------------------------------------------------
 * Streams, stream configuration, groups and stream attributes
 * ------------------------------------------------------------------------- */

/* Not implemented yet (issue 15): returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(
    aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
    aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
    aclrtAllocatorFreeFunc *freeFunc,
    aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
    aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc);

/* ---------------------------------------------------------------------------
 * Allocator descriptors
 * ------------------------------------------------------------------------- */

/* Not implemented yet (issue 15): returns NULL. */
ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);
/* Not implemented yet (issue 15): returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000). */
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);
/* Not implemented yet (issue 15): returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);
/* Not implemented yet (issue 15): returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func);
/* Not implemented yet (issue 15): returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func);
/* Not implemented yet (issue 15): returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func);
/* Not implemented yet (issue 15): returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorGetAddrFromBlockFunc func);
/* Not implemented yet (issue 15): returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000). */
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);
/* Not implemented yet (issue 15): returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACL_ACL_RT_ALLOCATOR_H_ */
