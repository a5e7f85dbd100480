/*
 * The task timeline: our own extension (not CANN's), through which a
 * profiler sees every task the runtime runs. libprofapi.so and
 * libmsprofiler.so (the aclprof* and Msprof* functions, DESIGN.md §5.24) are
 * built on it; another tool can be too.
 *
 *   static void OnTask(const ascendclTaskRecord *r, void *user) {
 *     printf("%s on stream %u: %llu ns\n", r->api, r->streamId,
 *            (unsigned long long)(r->endNs - r->startNs));
 *   }
 *   ascendclTimelineSetObserver(OnTask, NULL);   // from now on
 *   ...
 *   ascendclTimelineSetObserver(NULL, NULL);     // no call after this
 *
 * While no observer is set the runtime does nothing per task but read one
 * pointer when the task is submitted.
 */
#ifndef ASCENDCL_TIMELINE_H_
#define ASCENDCL_TIMELINE_H_

#include <stdint.h>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a task is. */
typedef enum ascendclTaskKind {
  ASCENDCL_TASK_COPY = 0,           /* copies of every shape */
  ASCENDCL_TASK_MEMSET = 1,         /* memsets and fills */
  ASCENDCL_TASK_VALUE_WRITE = 2,    /* aclrtValueWrite */
  ASCENDCL_TASK_VALUE_WAIT = 3,     /* aclrtValueWait */
  ASCENDCL_TASK_EVENT_RECORD = 4,   /* event records */
  ASCENDCL_TASK_EVENT_WAIT = 5,     /* a stream waiting for an event */
  ASCENDCL_TASK_EVENT_RESET = 6,    /* aclrtResetEvent */
  ASCENDCL_TASK_NOTIFY = 7,         /* notify records, waits and resets */
  ASCENDCL_TASK_HOST_FUNC = 8,      /* host functions and report callbacks */
  ASCENDCL_TASK_KERNEL = 9,         /* kernel launches */
  ASCENDCL_TASK_BUILTIN = 10,       /* built-in device tasks */
  ASCENDCL_TASK_MODEL_EXECUTE = 11, /* a model runtime instance's execution,
                                      and each of its stream programs */
  ASCENDCL_TASK_MARKER = 12         /* no work of its own (barriers, trace
                                       points, ascendclTimelineMark) */
} ascendclTaskKind;

/* modelId of a task that is not part of a model's execution. */
#define ASCENDCL_TIMELINE_NO_MODEL 0xFFFFFFFFU

/* One task that ran. Strings live as long as the call to the observer. */
typedef struct ascendclTaskRecord {
  uint32_t kind;     /* ascendclTaskKind */
  int32_t deviceId;  /* the device of the stream that ran it */
  uint32_t streamId; /* that stream's id (aclrtStreamGetId); a task of a
                        model runs on the stream of the model that runs
                        its stream's program */
  uint32_t modelId;  /* the model runtime instance (aclmdlRIGetId) whose
                        execution it belongs to, or
                        ASCENDCL_TIMELINE_NO_MODEL */
  uint32_t threadId; /* kernel thread id of the thread that submitted it
                        (for a recorded task: the recording thread) */
  int32_t result;    /* ACL_SUCCESS, or the code the task failed with */
  uint64_t startNs;  /* when it began and ended to run: CLOCK_MONOTONIC, */
  uint64_t endNs;    /* nanoseconds */
  const char *api;   /* the entry point that made it ("aclrtMemcpyAsync") */
  const char *name;  /* a kernel's function name, a mark's message, or "" */
} ascendclTaskRecord;

/* Called once for every task that ran to its end (failed ones included;
 * discarded ones are not reported), on the thread that ran it, right after
 * it ended and before the next task of its stream starts. It must not
 * block for long and must not wait for a stream; it may be called from
 * several threads at once. */
typedef void (*ascendclTaskObserver)(const ascendclTaskRecord *record,
                                     void *userData);

/* Sets the process's one observer (NULL removes it) and returns when no
 * call of the previous one is in progress: after it returns the previous
 * observer is never called again. Tasks submitted while no observer was set
 * are not reported, except those recorded into a model runtime instance,
 * which are reported whenever an execution runs them while an observer is
 * set. ACL_ERROR_RT_PARAM_INVALID (107000) when called from an observer
 * (it would wait for itself). Works before aclInit too. */
aclError ascendclTimelineSetObserver(ascendclTaskObserver observer,
                                     void *userData);

/* Enqueues on `stream` (NULL: the current context's default stream) a task
 * that does nothing and is reported with kind ASCENDCL_TASK_MARKER, api
 * "ascendclTimelineMark" and name `message` (copied; at most 255 bytes are
 * kept): a point on the device's timeline. ACL_ERROR_INVALID_PARAM (100000)
 * for a NULL message; ACL_ERROR_RT_PARAM_INVALID (107000) for a stream that
 * is not live; the codes of aclrtRecordEvent otherwise (capture rules
 * included: a mark on a capturing stream is recorded into the model). */
aclError ascendclTimelineMark(aclrtStream stream, const char *message);

/* The device of the live model runtime instance whose id is `modelId`.
 * ACL_ERROR_INVALID_PARAM (100000) for a NULL deviceId;
 * ACL_ERROR_INVALID_MODEL_ID (100011) when no live model has that id. */
aclError ascendclTimelineModelDevice(uint32_t modelId, int32_t *deviceId);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_TIMELINE_H_ */
