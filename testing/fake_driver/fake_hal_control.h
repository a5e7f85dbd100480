/* Test-control entry points of the stand-in driver library
 * (//testing/fake_driver:libascend_hal.so and its variants). They are not part
 * of the Ascend driver ABI; tests resolve them with dlsym from the library the
 * code under test loaded (see fake_hal_control_client.h), or call them
 * directly when linked with //testing/fake_driver:fake_hal_impl.
 *
 * Every function is thread-safe. Errors are drvError_t values.
 */
#ifndef ASCENDCL_TESTING_FAKE_DRIVER_FAKE_HAL_CONTROL_H_
#define ASCENDCL_TESTING_FAKE_DRIVER_FAKE_HAL_CONTROL_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the next `count` calls of the exported entry point named `function`
 * (e.g. "halMemAlloc") return `error` without any other effect. count < 0:
 * every call until re-armed; count 0 disarms. Returns 0, or
 * DRV_ERROR_INVALID_VALUE (3) for a null name. */
int fakeHalInjectError(const char* function, int error, int count);

/* Sets the normal-page and huge-page pool capacity of every device, in bytes.
 * Returns DRV_ERROR_OUT_OF_MEMORY (6) without change if a device already uses
 * more than the new capacity. */
int fakeHalSetCapacity(unsigned long long normal_bytes,
                       unsigned long long huge_bytes);

/* How many times the entry point named `function` was called since load
 * (calls answered by an injected error included). */
unsigned long long fakeHalCallCount(const char* function);

/* The `flag` of the most recent halMemAlloc call (0 before the first). */
unsigned long long fakeHalLastAllocFlag(void);

/* The close_type of the most recent halDeviceClose call (-1 before the
 * first). */
int fakeHalLastCloseType(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ASCENDCL_TESTING_FAKE_DRIVER_FAKE_HAL_CONTROL_H_ */
