/* Enum arguments outside their enum, passed from C (where an enum object may
 * hold any int): every entry point in acl/api and acl/lifecycle that takes an
 * enum must return its documented code and change nothing, without undefined
 * behaviour on the C++ side (run under clang's -fsanitize=enum with
 * --config=clang --config=ubsan). The sysinfo entry points are covered by
 * acl/sysinfo/sysinfo_c_test.c. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "runtime/rt_snapshot.h"

static int failures = 0;

#define EXPECT(cond)                                                     \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                        \
    }                                                                    \
  } while (0)

/* Out of range for every enum below: 99 (past the last value of the small
 * enums), -1 (negative: outside every enum without negative values) and a
 * large value with bits no enum uses. */
static const int32_t kBadValues[] = {99, -1, 0x40000000};
#define BAD_VALUE_COUNT (sizeof kBadValues / sizeof kBadValues[0])

enum { kBytes = 256 };

static void SetFlag(void *flag) { *(int *)flag = 1; }

static uint32_t StageCallback(int32_t devId, void *args) {
  (void)devId;
  (void)args;
  return 0;
}

static aclError InitCallback(const char *configStr, size_t len,
                             void *userData) {
  (void)configStr;
  (void)len;
  (void)userData;
  return ACL_SUCCESS;
}

static aclError FinalizeCallback(void *userData) {
  (void)userData;
  return ACL_SUCCESS;
}

static int DeviceHolds(void *dev, unsigned char byte) {
  unsigned char host[kBytes];
  size_t i;
  memset(host, (byte + 1) & 0xFF, sizeof host);
  if (aclrtMemcpy(host, sizeof host, dev, sizeof host,
                  ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
    return 0;
  }
  for (i = 0; i < sizeof host; ++i) {
    if (host[i] != byte) return 0;
  }
  return 1;
}

static void TestMalloc(void) {
  size_t i;
  void *dev = NULL;
  /* 11-01: a policy outside the enumeration is accepted (chosen by size). */
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    void *ptr = NULL;
    EXPECT(aclrtMalloc(&ptr, kBytes, (aclrtMemMallocPolicy)kBadValues[i]) ==
           ACL_SUCCESS);
    EXPECT(ptr != NULL);
    EXPECT(aclrtFree(ptr) == ACL_SUCCESS);
  }
  /* A base policy combined with the type and access flags is valid. */
  EXPECT(aclrtMalloc(&dev, kBytes,
                     (aclrtMemMallocPolicy)(ACL_MEM_MALLOC_HUGE1G_ONLY_P2P |
                                            ACL_MEM_TYPE_HIGH_BAND_WIDTH)) ==
         ACL_SUCCESS);
  EXPECT(aclrtFree(dev) == ACL_SUCCESS);
  EXPECT(
      aclrtMalloc(&dev, kBytes,
                  (aclrtMemMallocPolicy)(ACL_MEM_MALLOC_NORMAL_ONLY |
                                         ACL_MEM_TYPE_LOW_BAND_WIDTH |
                                         ACL_MEM_ACCESS_USER_SPACE_READONLY)) ==
      ACL_SUCCESS);
  EXPECT(aclrtFree(dev) == ACL_SUCCESS);
}

static void TestGetMemInfo(void) {
  size_t i;
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    size_t free_bytes = 7, total = 7;
    EXPECT(aclrtGetMemInfo((aclrtMemAttr)kBadValues[i], &free_bytes, &total) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(free_bytes == 7 && total == 7);
  }
  {
    size_t free_bytes = 0, total = 0;
    /* 12..17 (ACL_MEM_NORMAL .. ACL_MEM_P2P_HUGE1G) are valid; 18 is not. */
    EXPECT(aclrtGetMemInfo((aclrtMemAttr)18, &free_bytes, &total) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtGetMemInfo(ACL_HBM_MEM_P2P_HUGE1G, &free_bytes, &total) ==
           ACL_SUCCESS);
    EXPECT(aclrtGetMemInfo(ACL_MEM_NORMAL, &free_bytes, &total) == ACL_SUCCESS);
    EXPECT(aclrtGetMemInfo(ACL_MEM_P2P_HUGE1G, &free_bytes, &total) ==
               ACL_SUCCESS &&
           total > 0);
  }
}

/* Memory kinds (memory_ext_api.cc). aclrtMallocWithCfg takes any policy
 * integer (the page size then follows the size), so it is not here. */
static void TestMemoryKinds(void) {
  size_t i;
  void *managed = NULL;
  char pageable[256];
  EXPECT(aclrtMemAllocManaged(&managed, 2u << 20, ACL_RT_MEM_ATTACH_GLOBAL) ==
         ACL_SUCCESS);
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    aclrtMemManagedLocation host = {ACL_MEM_LOCATIONTYPE_HOST, 0};
    aclrtMemManagedLocation bad_type = {
        (aclrtMemManagedLocationType)kBadValues[i], 0};
    int32_t value = 7;
    void *dev_ptr = NULL;
    aclrtHostMemMapCapability capability = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    EXPECT(aclrtMemManagedAdvise(managed, 2u << 20,
                                 (aclrtMemManagedAdviseType)kBadValues[i],
                                 host) == ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemManagedAdvise(managed, 2u << 20,
                                 ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                 bad_type) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)kBadValues[i],
                                  managed, 2u << 20, &value,
                                  sizeof value) == ACL_ERROR_INVALID_PARAM);
    EXPECT(value == 7);
    EXPECT(aclrtHostMemMapCapabilities(0, (aclrtHacType)kBadValues[i],
                                       &capability) == ACL_ERROR_INVALID_PARAM);
    EXPECT(capability == ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED);
    /* A registration type is a set of bits: unknown bits are refused as
     * unsupported. */
    EXPECT(aclrtHostRegister(pageable, sizeof pageable,
                             (aclrtHostRegisterType)kBadValues[i],
                             &dev_ptr) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT(dev_ptr == NULL);
  }
  /* The preferred location was never set by the refused calls. */
  {
    int32_t preferred = 0;
    EXPECT(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
                                  managed, 2u << 20, &preferred,
                                  sizeof preferred) == ACL_SUCCESS);
    EXPECT(preferred == -2);
  }
  EXPECT(aclrtFree(managed) == ACL_SUCCESS);
}

static void TestMemcpy(void *dev, aclrtStream stream) {
  size_t i;
  unsigned char src[kBytes];
  memset(src, 0x5A, sizeof src);
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    EXPECT(aclrtMemcpy(dev, kBytes, src, sizeof src,
                       (aclrtMemcpyKind)kBadValues[i]) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpyAsync(dev, kBytes, src, sizeof src,
                            (aclrtMemcpyKind)kBadValues[i],
                            stream) == ACL_ERROR_INVALID_PARAM);
  }
  EXPECT(aclrtMemcpy(dev, kBytes, src, sizeof src, (aclrtMemcpyKind)8) ==
         ACL_ERROR_INVALID_PARAM);
  EXPECT(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  EXPECT(DeviceHolds(dev, 0));
}

/* The copy, fill and cache entry points of acl/api/memcpy_ext_api.cc, and
 * the enum fields of the structs they read (batch attribute locations,
 * barrier cache types). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void TestMemcpyExt(void *dev, aclrtStream stream) {
  size_t i;
  unsigned char src[kBytes];
  memset(src, 0x5A, sizeof src);
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    const aclrtMemcpyKind kind = (aclrtMemcpyKind)kBadValues[i];
    const aclrtCmoType cmo = (aclrtCmoType)kBadValues[i];
    size_t size = 7;
    void *dsts[1];
    void *srcs[1];
    size_t sizes[1] = {16};
    size_t zero = 0;
    size_t fail = 0;
    aclrtMemcpyBatchAttr attr;
    aclrtBarrierTaskInfo info;
    const void *cell = dev;
    EXPECT(aclrtMemcpy2d(dev, 16, src, 16, 16, 2, kind) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpy2dAsync(dev, 16, src, 16, 16, 2, kind, stream) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpyAsyncWithCondition(dev, kBytes, src, sizeof src, kind,
                                         stream) == ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpyAsyncWithOffset((void **)&dev, 16, 0, &cell, 16, 0, kind,
                                      stream) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtGetMemcpyDescSize(kind, &size) == ACL_ERROR_INVALID_PARAM);
    EXPECT(size == 7);
    EXPECT(aclrtSetMemcpyDesc(dev, kind, dev, dev, 16, NULL) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpyAsyncWithDesc(dev, kind, stream) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtCmoAsync(dev, 16, cmo, stream) ==
           ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT(aclrtCmoAsyncWithBarrier(dev, 16, cmo, 0, stream) ==
           ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT(aclrtCmoAsyncWithDesc(dev, cmo, stream, NULL) ==
           ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* Struct fields: a location type outside aclrtMemLocationType names no
     * location (107000, that copy's index), a barrier's cache type outside
     * aclrtCmoType is not INVALID (107000). */
    memset(&attr, 0, sizeof attr);
    memcpy(&attr.dstLoc.type, &kBadValues[i], sizeof kBadValues[i]);
    attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    dsts[0] = dev;
    srcs[0] = src;
    EXPECT(aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 1, &attr, &zero, 1,
                            &fail) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(fail == 0);
    memset(&info, 0, sizeof info);
    info.barrierNum = 1;
    memcpy(&info.cmoInfo[0].cmoType, &kBadValues[i], sizeof kBadValues[i]);
    info.cmoInfo[0].barrierId = 1;
    EXPECT(aclrtCmoWaitBarrier(&info, stream, 0) == ACL_ERROR_RT_PARAM_INVALID);
  }
  EXPECT(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  EXPECT(DeviceHolds(dev, 0));
}
#pragma GCC diagnostic pop

static void TestLaunchCallback(aclrtStream stream) {
  size_t i;
  int ran = 0;
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    EXPECT(aclrtLaunchCallback(SetFlag, &ran,
                               (aclrtCallbackBlockType)kBadValues[i],
                               stream) == ACL_ERROR_INVALID_PARAM);
  }
  EXPECT(aclrtLaunchCallback(SetFlag, &ran, (aclrtCallbackBlockType)2,
                             stream) == ACL_ERROR_INVALID_PARAM);
  EXPECT(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  EXPECT(ran == 0);
}

static void TestBuiltinTasks(void *dev, aclrtStream stream) {
  size_t i;
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    aclrtRandomNumTaskInfo info;
    int32_t bad = kBadValues[i];
    EXPECT(aclrtReduceAsync(dev, dev, 4, (aclrtReduceKind)kBadValues[i],
                            ACL_FLOAT, stream,
                            NULL) == ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtReduceAsync(dev, dev, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
                            (aclDataType)kBadValues[i], stream,
                            NULL) == ACL_ERROR_INVALID_PARAM);
    memset(&info, 0, sizeof info);
    info.randomCounterAddr = dev;
    info.randomResultAddr = dev;
    memcpy(&info.dataType, &bad, sizeof bad);
    EXPECT(aclrtRandomNumAsync(&info, stream, NULL) == ACL_ERROR_INVALID_PARAM);
    info.dataType = ACL_FLOAT;
    memcpy(&info.randomNumFuncParaInfo.funcType, &bad, sizeof bad);
    EXPECT(aclrtRandomNumAsync(&info, stream, NULL) ==
           ACL_ERROR_RT_PARAM_INVALID);
  }
  EXPECT(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  EXPECT(DeviceHolds(dev, 0));
}

static void TestLastError(void) {
  size_t i;
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT(aclrtSetDevice(100000) == ACL_ERROR_RT_INVALID_DEVICEID);
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    EXPECT(aclrtPeekAtLastError((aclrtLastErrLevel)kBadValues[i]) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtGetLastError((aclrtLastErrLevel)kBadValues[i]) ==
           ACL_ERROR_INVALID_PARAM);
  }
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    /* Ignored: logs nothing, records nothing. */
    aclAppLog((aclLogLevel)kBadValues[i], "f", "file.c", 1, "ignored");
  }
  /* Neither recorded the bad level nor cleared the error. */
  EXPECT(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) ==
         ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT(aclrtGetLastError(ACL_RT_THREAD_LEVEL) ==
         ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_SUCCESS);
}

static void TestInjectFault(void *dev) {
  size_t i;
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    EXPECT(aclsimInjectFault(0, (aclsimFault)kBadValues[i]) ==
           ACL_ERROR_INVALID_PARAM);
  }
  EXPECT(aclsimInjectFault(0, (aclsimFault)3) == ACL_ERROR_INVALID_PARAM);
  /* No fault was injected: the device's memory reads back intact. */
  EXPECT(aclrtMemset(dev, kBytes, 0x33, kBytes) == ACL_SUCCESS);
  EXPECT(DeviceHolds(dev, 0x33));
  EXPECT(DeviceHolds(dev, 0x33));
}

static void TestSnapshotStage(void) {
  size_t i;
  int stage;
  /* The RT layer's code for a bad stage (107000), as the reference. */
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    EXPECT(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)kBadValues[i],
                                         StageCallback,
                                         NULL) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)kBadValues[i],
                                           StageCallback) ==
           ACL_ERROR_RT_PARAM_INVALID);
  }
  EXPECT(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)6, StageCallback,
                                       NULL) == ACL_ERROR_RT_PARAM_INVALID);
  /* The same through the RT entry points directly. */
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    EXPECT(rtSnapShotCallbackRegister((rtSnapShotStage)kBadValues[i],
                                      StageCallback,
                                      NULL) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(rtSnapShotCallbackUnregister((rtSnapShotStage)kBadValues[i],
                                        StageCallback) ==
           ACL_ERROR_RT_PARAM_INVALID);
  }
  /* Nothing was registered: each stage accepts the callback once. */
  for (stage = ACL_RT_SNAPSHOT_LOCK_PRE; stage <= ACL_RT_SNAPSHOT_UNLOCK_POST;
       ++stage) {
    EXPECT(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)stage,
                                         StageCallback, NULL) == ACL_SUCCESS);
    EXPECT(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)stage,
                                           StageCallback) == ACL_SUCCESS);
  }
}

/* Registration types are not range-checked (DESIGN.md §3.9): any value is a
 * key of its own. */
static void TestLifecycleTypes(void) {
  size_t i;
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    const aclRegisterCallbackType type = (aclRegisterCallbackType)kBadValues[i];
    EXPECT(aclInitCallbackRegister(type, InitCallback, NULL) == ACL_SUCCESS);
    EXPECT(aclInitCallbackUnRegister(type, InitCallback) == ACL_SUCCESS);
    EXPECT(aclFinalizeCallbackRegister(type, FinalizeCallback, NULL) ==
           ACL_SUCCESS);
    EXPECT(aclFinalizeCallbackUnRegister(type, FinalizeCallback) ==
           ACL_SUCCESS);
  }
}

/* Device information, limits and system parameters (DESIGN.md §5.12). */
static void TestDeviceInfo(aclrtStream stream) {
  size_t i;
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    const int32_t bad = kBadValues[i];
    int64_t value64 = 7;
    uint32_t value32 = 7;
    size_t size_value = 7;
    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
    aclCANNPackageVersion version;
    const aclrtAtomicOperation ops[1] = {(aclrtAtomicOperation)bad};
    uint32_t caps[1] = {7};
    EXPECT(aclGetDeviceCapability(0, (aclDeviceInfo)bad, &value64) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtGetDeviceInfo(0, (aclrtDevAttr)bad, &value64) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(value64 == 7);
    EXPECT(aclrtGetDeviceResLimit(0, (aclrtDevResLimitType)bad, &value32) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtSetDeviceResLimit(0, (aclrtDevResLimitType)bad, 1) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtGetStreamResLimit(stream, (aclrtDevResLimitType)bad,
                                  &value32) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtSetStreamResLimit(stream, (aclrtDevResLimitType)bad, 1) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtGetResInCurrentThread((aclrtDevResLimitType)bad, &value32) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(value32 == 7);
    EXPECT(aclrtDeviceGetLimit((aclrtDeviceLimit)bad, &size_value) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtDeviceSetLimit((aclrtDeviceLimit)bad, 1) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(size_value == 7);
    EXPECT(aclrtGetSysParamOpt((aclSysParamOpt)bad, &value64) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtSetSysParamOpt((aclSysParamOpt)bad, 0) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtCtxGetSysParamOpt((aclSysParamOpt)bad, &value64) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtCtxSetSysParamOpt((aclSysParamOpt)bad, 0) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtSetDeviceSatMode((aclrtFloatOverflowMode)bad) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtGetDeviceSatMode(&mode) == ACL_SUCCESS);
    EXPECT(mode == ACL_RT_OVERFLOW_MODE_INFNAN);
    EXPECT(aclrtSetTsDevice((aclrtTsId)bad) == ACL_ERROR_INVALID_PARAM);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    EXPECT(aclsysGetCANNVersion((aclCANNPackageName)bad, &version) ==
           ACL_ERROR_INVALID_PARAM);
#pragma GCC diagnostic pop
    EXPECT(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 1, 0) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 1, 0, 1) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(caps[0] == 7);
  }
}

static void TestStreamConfigAndAttributes(aclrtStream stream) {
  size_t i;
  aclrtStreamConfigHandle *config = aclrtCreateStreamConfigHandle();
  EXPECT(config != NULL);
  if (config == NULL) return;
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    uint32_t value = 5;
    aclrtStreamAttrValue attr;
    EXPECT(aclrtSetStreamConfigOpt(config, (aclrtStreamConfigAttr)kBadValues[i],
                                   &value,
                                   sizeof value) == ACL_ERROR_INVALID_PARAM);
    memset(&attr, 0, sizeof attr);
    attr.reserve[0] = 3;
    EXPECT(aclrtSetStreamAttribute(stream, (aclrtStreamAttr)kBadValues[i],
                                   &attr) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtGetStreamAttribute(stream, (aclrtStreamAttr)kBadValues[i],
                                   &attr) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(attr.reserve[0] == 3);
  }
  {
    /* 0 lies below the first aclrtStreamAttr (1). */
    aclrtStreamAttrValue attr;
    memset(&attr, 0, sizeof attr);
    EXPECT(aclrtGetStreamAttribute(stream, (aclrtStreamAttr)0, &attr) ==
           ACL_ERROR_RT_PARAM_INVALID);
  }
  EXPECT(config->priority == 0 && config->flag == 0);
  EXPECT(aclrtDestroyStreamConfigHandle(config) == ACL_SUCCESS);
}

static void TestCntNotifyModes(aclrtStream stream) {
  size_t i;
  aclrtCntNotify notify = NULL;
  EXPECT(aclrtCntNotifyCreate(&notify, 0) == ACL_SUCCESS);
  if (notify == NULL) return;
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    aclrtCntNotifyRecordInfo record;
    aclrtCntNotifyWaitInfo wait;
    memset(&record, 0, sizeof record);
    memset(&wait, 0, sizeof wait);
    record.mode = (aclrtCntNotifyRecordMode)kBadValues[i];
    record.value = 1;
    wait.mode = (aclrtCntNotifyWaitMode)kBadValues[i];
    wait.timeout = 1;
    EXPECT(aclrtCntNotifyRecord(notify, stream, &record) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtCntNotifyWaitWithTimeout(notify, stream, &wait) ==
           ACL_ERROR_RT_PARAM_INVALID);
  }
  {
    /* 3 lies between the record modes (0, 1, 2, 4). */
    aclrtCntNotifyRecordInfo record;
    aclrtCntNotifyWaitInfo wait;
    memset(&record, 0, sizeof record);
    memset(&wait, 0, sizeof wait);
    record.mode = (aclrtCntNotifyRecordMode)3;
    record.value = 1;
    EXPECT(aclrtCntNotifyRecord(notify, stream, &record) ==
           ACL_ERROR_RT_PARAM_INVALID);
    /* The count is still 0: an EQUAL 0 wait is released at once. */
    wait.mode = ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE;
    wait.value = 0;
    wait.timeout = 1;
    EXPECT(aclrtCntNotifyWaitWithTimeout(notify, stream, &wait) == ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  }
  EXPECT(aclrtCntNotifyDestroy(notify) == ACL_SUCCESS);
}

/* Model runtime instances (model_api.cc): capture modes, stream-switch
 * conditions and data types, condition flags and types, task types. */
static void TestModelEnums(void *dev, aclrtStream stream) {
  size_t i;
  aclrtStream persistent = NULL;
  aclrtStream target = NULL;
  aclmdlRI model = NULL;
  aclmdlRICondHandle cond = NULL;
  uint32_t num_streams = 1, num_tasks = 1;
  aclrtStream model_stream = NULL;
  aclmdlRITask task = NULL;
  EXPECT(aclrtCreateStreamWithConfig(&persistent, 0, ACL_STREAM_PERSISTENT) ==
         ACL_SUCCESS);
  EXPECT(aclrtCreateStreamWithConfig(&target, 0, ACL_STREAM_PERSISTENT) ==
         ACL_SUCCESS);
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    aclmdlRICaptureMode mode = (aclmdlRICaptureMode)kBadValues[i];
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    EXPECT(aclmdlRICaptureBegin(stream, (aclmdlRICaptureMode)kBadValues[i]) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclmdlRICaptureGetInfo(stream, &status, NULL) == ACL_SUCCESS);
    EXPECT(status == ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    EXPECT(aclmdlRICaptureThreadExchangeMode(&mode) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT((int32_t)mode == kBadValues[i]);
    EXPECT(aclrtSwitchStream(dev, (aclrtCondition)kBadValues[i], dev,
                             ACL_RT_SWITCH_INT32, target, NULL,
                             persistent) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclrtSwitchStream(dev, ACL_RT_EQUAL, dev,
                             (aclrtCompareDataType)kBadValues[i], target, NULL,
                             persistent) == ACL_ERROR_RT_PARAM_INVALID);
  }
  /* 3 is the runtime's "no capture", not a mode a caller may pass. */
  EXPECT(aclmdlRICaptureBegin(stream, (aclmdlRICaptureMode)3) ==
         ACL_ERROR_RT_PARAM_INVALID);
  EXPECT(aclrtSwitchStream(dev, (aclrtCondition)6, dev, ACL_RT_SWITCH_INT32,
                           target, NULL,
                           persistent) == ACL_ERROR_RT_PARAM_INVALID);
  EXPECT(aclrtSwitchStream(dev, ACL_RT_EQUAL, dev, (aclrtCompareDataType)2,
                           target, NULL,
                           persistent) == ACL_ERROR_RT_PARAM_INVALID);

  /* Condition flags and types, and task types, inside a capture. */
  EXPECT(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) ==
         ACL_SUCCESS);
  EXPECT(aclmdlRICaptureGetInfo(stream, NULL, &model) == ACL_SUCCESS);
  EXPECT(aclrtValueWrite(dev, 1, 0, stream) == ACL_SUCCESS);
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    aclmdlRICondHandle untouched = NULL;
    aclmdlRI subs[1] = {NULL};
    aclmdlRICondTaskParams params;
    EXPECT(aclmdlRICondHandleCreate(model, 0,
                                    (aclmdlRICondHandleFlag)kBadValues[i],
                                    &untouched) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(untouched == NULL);
    if (cond == NULL) {
      EXPECT(aclmdlRICondHandleCreate(model, 0,
                                      ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT,
                                      &cond) == ACL_SUCCESS);
    }
    memset(&params, 0, sizeof params);
    params.handle = cond;
    params.type = (aclmdlRICondTaskType)kBadValues[i];
    params.size = 1;
    params.modelRIArray = subs;
    EXPECT(aclmdlRIAddCondTask(params, stream, 0) ==
           ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(subs[0] == NULL);
  }
  EXPECT(aclmdlRICaptureEnd(stream, &model) == ACL_SUCCESS);
  EXPECT(aclmdlRIGetStreams(model, &model_stream, &num_streams) == ACL_SUCCESS);
  EXPECT(aclmdlRIGetTasksByStream(model_stream, &task, &num_tasks) ==
         ACL_SUCCESS);
  EXPECT(num_tasks == 1);
  for (i = 0; i < BAD_VALUE_COUNT; ++i) {
    aclmdlRITaskParams params;
    aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
    memset(&params, 0, sizeof params);
    params.type = (aclmdlRITaskType)kBadValues[i];
    EXPECT(aclmdlRITaskSetParams(task, &params) == ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(aclmdlRITaskGetType(task, &type) == ACL_SUCCESS);
    EXPECT(type == ACL_MODEL_RI_TASK_VALUE_WRITE);
  }
  EXPECT(aclmdlRIDestroy(model) == ACL_SUCCESS);
  EXPECT(aclrtDestroyStream(target) == ACL_SUCCESS);
  EXPECT(aclrtDestroyStream(persistent) == ACL_SUCCESS);
}

int main(void) {
  void *dev = NULL;
  aclrtStream stream = NULL;
  if (aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS) {
    fprintf(stderr, "setup failed\n");
    return 1;
  }
  TestMalloc();
  TestGetMemInfo();
  TestMemoryKinds();
  TestMemcpy(dev, stream);
  TestMemcpyExt(dev, stream);
  TestLaunchCallback(stream);
  TestStreamConfigAndAttributes(stream);
  TestCntNotifyModes(stream);
  TestBuiltinTasks(dev, stream);
  TestLastError();
  TestInjectFault(dev);
  TestSnapshotStage();
  TestLifecycleTypes();
  TestDeviceInfo(stream);
  TestModelEnums(dev, stream);
  EXPECT(aclrtDestroyStream(stream) == ACL_SUCCESS);
  EXPECT(aclrtFree(dev) == ACL_SUCCESS);
  EXPECT(aclrtResetDevice(0) == ACL_SUCCESS);
  if (failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
