// ACL entry points: shared buffers (mbufs) and their chains
// (DESIGN.md §5.16).
#include <string>

#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/mbuf/mbuf.h"

using ascend::rt::MbufPool;

namespace {

// The process runtime's mbuf family (DESIGN.md §1.4).
MbufPool& Pool() { return ascend::acl::Fam<MbufPool>(); }

// offset + size must stay inside the user-data region.
bool UserDataRangeOk(size_t size, size_t offset) {
  return size <= MbufPool::kUserDataSize &&
         offset <= MbufPool::kUserDataSize - size;
}

aclError RejectUserDataRange(const char* api, size_t size, size_t offset) {
  return ascend::rt::ReportErrorCode(
      api, ACL_ERROR_INVALID_PARAM,
      "size " + std::to_string(size) + " + offset " + std::to_string(offset) +
          " exceeds the 96-byte user data region");
}

}  // namespace

extern "C" {

aclError aclrtAllocBuf(aclrtMbuf* buf, size_t size) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_RETURN_VALUE(buf, Pool().Alloc(size));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFreeBuf(aclrtMbuf buf) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(buf);
  return ACL_RESULT(Pool().Free(buf));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetBufData(const aclrtMbuf buf, void** dataPtr,
                         size_t* size) try {
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_REQUIRE_NOT_NULL(dataPtr);
  ACL_REQUIRE_NOT_NULL(size);
  absl::StatusOr<MbufPool::Data> data = Pool().GetData(buf);
  if (!data.ok()) return ACL_RESULT(data.status());
  *dataPtr = data->ptr;
  *size = data->size;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t* len) try {
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_REQUIRE_NOT_NULL(len);
  ACL_RETURN_VALUE(len, Pool().GetDataLen(buf));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(buf);
  return ACL_RESULT(Pool().SetDataLen(buf, len));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetBufUserData(const aclrtMbuf buf, void* dataPtr, size_t size,
                             size_t offset) try {
  if (!UserDataRangeOk(size, offset)) {
    return RejectUserDataRange(__func__, size, offset);
  }
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_REQUIRE_NOT_NULL(dataPtr);
  return ACL_RESULT(Pool().GetUserData(buf, dataPtr, size, offset));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetBufUserData(aclrtMbuf buf, const void* dataPtr, size_t size,
                             size_t offset) try {
  if (!UserDataRangeOk(size, offset)) {
    return RejectUserDataRange(__func__, size, offset);
  }
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_REQUIRE_NOT_NULL(dataPtr);
  return ACL_RESULT(Pool().SetUserData(buf, dataPtr, size, offset));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf* newBuf) try {
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_REQUIRE_NOT_NULL(newBuf);
  ACL_RETURN_VALUE(newBuf, Pool().CopyRef(buf));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf) try {
  ACL_REQUIRE_NOT_NULL(headBuf);
  ACL_REQUIRE_NOT_NULL(buf);
  return ACL_RESULT(Pool().Append(headBuf, buf));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t* num) try {
  ACL_REQUIRE_NOT_NULL(headBuf);
  ACL_REQUIRE_NOT_NULL(num);
  ACL_RETURN_VALUE(num, Pool().ChainLength(headBuf));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index,
                              aclrtMbuf* buf) try {
  ACL_REQUIRE_NOT_NULL(headBuf);
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_RETURN_VALUE(buf, Pool().ChainAt(headBuf, index));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
