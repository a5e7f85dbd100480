/*
 * Base ACL declarations: pulls in the shared types (acl_base_rt.h) and the
 * runtime error codes. Include "acl/acl.h" rather than this file directly.
 */
#ifndef ASCENDCL_ACL_ACL_BASE_H_
#define ASCENDCL_ACL_ACL_BASE_H_

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"

#endif /* ASCENDCL_ACL_ACL_BASE_H_ */
