// The integrity checksum used for device memory: one function, shared by the
// device backends (Device::Checksum) and by the snapshot (which hashes its
// host copies), so both sides of a transfer can be compared.
//
// 64-bit, four independent lanes over 32-byte blocks with an xxHash64-style
// round (multiply, rotate, multiply), then a mix of the lanes, the tail and
// the length. Not cryptographic: it detects corruption (a flipped byte
// changes the result), it does not resist tampering. Runs near memory
// bandwidth when the data is in cache.
#ifndef ASCENDCL_DEVICE_CHECKSUM_H_
#define ASCENDCL_DEVICE_CHECKSUM_H_

#include <cstddef>
#include <cstdint>

namespace ascend::device {

uint64_t Checksum(const void* data, size_t size);

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_CHECKSUM_H_
