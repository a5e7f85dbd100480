/*
 * ACL stream allocators: a framework describes its own device-memory
 * allocator (an object and its alloc, free, alloc-advise and block-address
 * callbacks) in a descriptor and registers it for a stream, so that work the
 * runtime enqueues on that stream takes its workspace from the framework.
 * Included by "acl/acl_rt.h"; include that instead.
 *
 * The runtime's own work (copies, memsets, built-in tasks) needs no
 * workspace and does not call these callbacks; single-operator and model
 * execution read a stream's registration with aclrtAllocatorGetByStream.
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

/* The descriptor and callbacks registered for a stream (100000 when none);
 * NULL outputs other than allocatorDesc are skipped. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(
    aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
    aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
    aclrtAllocatorFreeFunc *freeFunc,
    aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
    aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc);

/* ---------------------------------------------------------------------------
 * Allocator descriptors
 * ------------------------------------------------------------------------- */

/* A new, empty allocator descriptor (NULL when out of memory). */
ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);
/* Destroys a descriptor (registrations keep their copy). */
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);
/* Sets the allocator object (NULL: 100000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);
/* Sets the alloc callback (NULL: 100000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func);
/* Sets the free callback (NULL: 100000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func);
/* Sets the alloc-advise callback (NULL: 100000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func);
/* Sets the block-address callback (NULL: 100000). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorGetAddrFromBlockFunc func);
/* Registers a copy of a descriptor (object, alloc, free and block-address
 * callbacks required: 100000) for a live stream, replacing an earlier one. */
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);
/* Removes a stream's registration (none: no-op). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACL_ACL_RT_ALLOCATOR_H_ */
