/*
 * MindStudio Tools Extension (CANN's mstx/ms_tools_ext.h): marks and ranges
 * a program puts on the profiler's timeline, in the default domain or in
 * domains of its own.
 *
 *   mstxDomainHandle_t io = mstxDomainCreateA("io");
 *   mstxRangeId id = mstxDomainRangeStartA(io, "load batch", stream);
 *   ...
 *   mstxDomainRangeEnd(io, id);
 *   mstxMarkA("step done", NULL);
 *
 * Header-only, like CANN's: the functions are static inline and, at their
 * first call in a shared object, look up the profiler's InitInjectionMstx
 * (in the library named by the environment variable MSTX_INJECTION_PATH,
 * else among the symbols already loaded, e.g. libprofapi.so as a
 * dependency of libmsprofiler.so; link with -ldl on older C libraries) and
 * let it fill in its implementations. Without a profiler every call does
 * nothing and range ids are 0. With ours (DESIGN.md §5.24) the calls are
 * recorded while a collection with ACL_PROF_MSPROFTX runs; a non-NULL
 * stream also puts the mark at its place in that stream's task order. The
 * injection interface (InitInjectionMstx, the module and slot numbers
 * below) is CANN's, so either side works with the other's.
 * Thread-safe. Define MSTX_NO_IMPL for the declarations alone.
 */
#ifndef ASCENDCL_MSTX_MS_TOOLS_EXT_H_
#define ASCENDCL_MSTX_MS_TOOLS_EXT_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_rt.h"

#if defined(MSTX_NO_IMPL)
#define MSTX_DECLSPEC
#else
#define MSTX_DECLSPEC inline static
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

/* mstxGetToolId's answers. */
#define MSTX_TOOL_INVALID_ID 0x0
#define MSTX_TOOL_MSPROF_ID 0x1000
#define MSTX_TOOL_MSOPPROF_ID 0x1001
#define MSTX_TOOL_MSSANITIZER_ID 0x1002
#define MSTX_TOOL_MSLEAKS_ID 0x1003

typedef uint64_t mstxRangeId;

struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t *mstxDomainHandle_t;

/* An instant with `message` (not NULL); stream may be NULL. */
MSTX_DECLSPEC void mstxMarkA(const char *message, aclrtStream stream);
/* Begins a range; returns its id for mstxRangeEnd, 0 when not recorded. */
MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char *message,
                                          aclrtStream stream);
MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id);
/* The domain named `name`: the same handle for the same name until it is
 * destroyed; NULL without a profiler. */
MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char *name);
MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain);
MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain,
                                   const char *message, aclrtStream stream);
/* 0 when not recorded or for a domain that is not live. */
MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain,
                                                const char *message,
                                                aclrtStream stream);
MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain,
                                      mstxRangeId id);
/* The id of the profiler behind these calls, MSTX_TOOL_INVALID_ID without
 * one. */
MSTX_DECLSPEC void mstxGetToolId(uint64_t *id);

/* --- The injection interface ---------------------------------------------
 * The profiler's InitInjectionMstx(getModuleFuncTable) asks for each
 * module's table: *outTable[slot] is where it stores its function for that
 * slot, for slots 1 .. *outSize - 1. */
typedef enum mstxFuncModule {
  MSTX_API_MODULE_INVALID = 0,
  MSTX_API_MODULE_CORE = 1,
  MSTX_API_MODULE_CORE_DOMAIN = 2,
  MSTX_API_MODULE_CORE_MEM = 3,
  MSTX_API_MODULE_SIZE,
  MSTX_API_MODULE_FORCE_INT = 0x7fffffff
} mstxFuncModule;

typedef enum mstxImplCoreFuncId {
  MSTX_API_CORE_INVALID = 0,
  MSTX_API_CORE_MARK_A = 1,
  MSTX_API_CORE_RANGE_START_A = 2,
  MSTX_API_CORE_RANGE_END = 3,
  MSTX_API_CORE_GET_TOOL_ID = 4,
  MSTX_API_CORE_SIZE,
  MSTX_API_CORE_FORCE_INT = 0x7fffffff
} mstxImplCoreFuncId;

typedef enum mstxImplCoreDomainFuncId {
  MSTX_API_CORE2_INVALID = 0,
  MSTX_API_CORE2_DOMAIN_CREATE_A = 1,
  MSTX_API_CORE2_DOMAIN_DESTROY = 2,
  MSTX_API_CORE2_DOMAIN_MARK_A = 3,
  MSTX_API_CORE2_DOMAIN_RANGE_START_A = 4,
  MSTX_API_CORE2_DOMAIN_RANGE_END = 5,
  MSTX_API_CORE2_SIZE,
  MSTX_API_CORE2_FORCE_INT = 0x7fffffff
} mstxImplCoreDomainFuncId;

typedef void (*mstxFuncPointer)(void);
typedef mstxFuncPointer **mstxFuncTable;
typedef int (*mstxGetModuleFuncTableFunc)(mstxFuncModule module,
                                          mstxFuncTable *outTable,
                                          unsigned int *outSize);
typedef int (*mstxInitInjectionFunc)(mstxGetModuleFuncTableFunc getFuncTable);

typedef void (*mstxMarkAFunc)(const char *message, aclrtStream stream);
typedef mstxRangeId (*mstxRangeStartAFunc)(const char *message,
                                           aclrtStream stream);
typedef void (*mstxRangeEndFunc)(mstxRangeId id);
typedef void (*mstxGetToolIdFunc)(uint64_t *id);
typedef mstxDomainHandle_t (*mstxDomainCreateAFunc)(const char *name);
typedef void (*mstxDomainDestroyFunc)(mstxDomainHandle_t domain);
typedef void (*mstxDomainMarkAFunc)(mstxDomainHandle_t domain,
                                    const char *message, aclrtStream stream);
typedef mstxRangeId (*mstxDomainRangeStartAFunc)(mstxDomainHandle_t domain,
                                                 const char *message,
                                                 aclrtStream stream);
typedef void (*mstxDomainRangeEndFunc)(mstxDomainHandle_t domain,
                                       mstxRangeId id);

#ifdef __cplusplus
}
#endif

#ifndef MSTX_NO_IMPL
#include <dlfcn.h>
#include <sched.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One per shared object (weak, hidden): the functions the profiler gave. */
typedef struct mstxImplContext_t {
  volatile int state; /* 0 not looked up, 1 looking, 2 done */
  mstxMarkAFunc markA;
  mstxRangeStartAFunc rangeStartA;
  mstxRangeEndFunc rangeEnd;
  mstxGetToolIdFunc getToolId;
  mstxDomainCreateAFunc domainCreateA;
  mstxDomainDestroyFunc domainDestroy;
  mstxDomainMarkAFunc domainMarkA;
  mstxDomainRangeStartAFunc domainRangeStartA;
  mstxDomainRangeEndFunc domainRangeEnd;
  mstxFuncPointer *core[MSTX_API_CORE_SIZE + 1];
  mstxFuncPointer *domain[MSTX_API_CORE2_SIZE + 1];
} mstxImplContext_t;

__attribute__((weak, visibility("hidden"))) mstxImplContext_t mstxImplContext;

static inline int mstxImplGetModuleFuncTable(mstxFuncModule module,
                                             mstxFuncTable *outTable,
                                             unsigned int *outSize) {
  mstxImplContext_t *c = &mstxImplContext;
  if (outTable == NULL || outSize == NULL) return MSTX_FAIL;
  if (module == MSTX_API_MODULE_CORE) {
    c->core[MSTX_API_CORE_MARK_A] = (mstxFuncPointer *)&c->markA;
    c->core[MSTX_API_CORE_RANGE_START_A] = (mstxFuncPointer *)&c->rangeStartA;
    c->core[MSTX_API_CORE_RANGE_END] = (mstxFuncPointer *)&c->rangeEnd;
    c->core[MSTX_API_CORE_GET_TOOL_ID] = (mstxFuncPointer *)&c->getToolId;
    *outTable = c->core;
    *outSize = MSTX_API_CORE_SIZE;
    return MSTX_SUCCESS;
  }
  if (module == MSTX_API_MODULE_CORE_DOMAIN) {
    c->domain[MSTX_API_CORE2_DOMAIN_CREATE_A] =
        (mstxFuncPointer *)&c->domainCreateA;
    c->domain[MSTX_API_CORE2_DOMAIN_DESTROY] =
        (mstxFuncPointer *)&c->domainDestroy;
    c->domain[MSTX_API_CORE2_DOMAIN_MARK_A] =
        (mstxFuncPointer *)&c->domainMarkA;
    c->domain[MSTX_API_CORE2_DOMAIN_RANGE_START_A] =
        (mstxFuncPointer *)&c->domainRangeStartA;
    c->domain[MSTX_API_CORE2_DOMAIN_RANGE_END] =
        (mstxFuncPointer *)&c->domainRangeEnd;
    *outTable = c->domain;
    *outSize = MSTX_API_CORE2_SIZE;
    return MSTX_SUCCESS;
  }
  return MSTX_FAIL; /* no memory-tracking functions here */
}

/* Looks the profiler up once; the calls of other threads wait for it. */
static inline void mstxImplInitOnce(void) {
  mstxImplContext_t *c = &mstxImplContext;
  if (c->state == 2) return;
  __sync_synchronize();
  if (__sync_bool_compare_and_swap(&c->state, 0, 1)) {
    union {
      void *object;
      mstxInitInjectionFunc function;
    } init;
    void *library = NULL; /* NULL: the symbols already loaded */
    const char *path = getenv("MSTX_INJECTION_PATH");
    if (path != NULL) library = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    init.object = dlsym(library, "InitInjectionMstx");
    if (init.function == NULL ||
        init.function(mstxImplGetModuleFuncTable) != MSTX_SUCCESS) {
      c->markA = NULL;
      c->rangeStartA = NULL;
      c->rangeEnd = NULL;
      c->getToolId = NULL;
      c->domainCreateA = NULL;
      c->domainDestroy = NULL;
      c->domainMarkA = NULL;
      c->domainRangeStartA = NULL;
      c->domainRangeEnd = NULL;
    }
    __sync_synchronize();
    c->state = 2;
    return;
  }
  while (c->state != 2) {
    sched_yield();
    __sync_synchronize();
  }
}

MSTX_DECLSPEC void mstxMarkA(const char *message, aclrtStream stream) {
  mstxImplInitOnce();
  if (mstxImplContext.markA != NULL) mstxImplContext.markA(message, stream);
}

MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char *message,
                                          aclrtStream stream) {
  mstxImplInitOnce();
  if (mstxImplContext.rangeStartA == NULL) return 0;
  return mstxImplContext.rangeStartA(message, stream);
}

MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id) {
  mstxImplInitOnce();
  if (mstxImplContext.rangeEnd != NULL) mstxImplContext.rangeEnd(id);
}

MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char *name) {
  mstxImplInitOnce();
  if (mstxImplContext.domainCreateA == NULL) return NULL;
  return mstxImplContext.domainCreateA(name);
}

MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain) {
  mstxImplInitOnce();
  if (mstxImplContext.domainDestroy != NULL)
    mstxImplContext.domainDestroy(domain);
}

MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain,
                                   const char *message, aclrtStream stream) {
  mstxImplInitOnce();
  if (mstxImplContext.domainMarkA != NULL)
    mstxImplContext.domainMarkA(domain, message, stream);
}

MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain,
                                                const char *message,
                                                aclrtStream stream) {
  mstxImplInitOnce();
  if (mstxImplContext.domainRangeStartA == NULL) return 0;
  return mstxImplContext.domainRangeStartA(domain, message, stream);
}

MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain,
                                      mstxRangeId id) {
  mstxImplInitOnce();
  if (mstxImplContext.domainRangeEnd != NULL)
    mstxImplContext.domainRangeEnd(domain, id);
}

MSTX_DECLSPEC void mstxGetToolId(uint64_t *id) {
  mstxImplInitOnce();
  if (id == NULL) return;
  *id = MSTX_TOOL_INVALID_ID;
  if (mstxImplContext.getToolId != NULL) mstxImplContext.getToolId(id);
}

#ifdef __cplusplus
}
#endif
#endif /* MSTX_NO_IMPL */

#endif /* ASCENDCL_MSTX_MS_TOOLS_EXT_H_ */
