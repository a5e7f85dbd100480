/*
 * Umbrella header: everything a plain ACL program needs.
 *   #include "acl/acl.h"
 */
#ifndef ASCENDCL_ACL_ACL_H_
#define ASCENDCL_ACL_ACL_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#endif /* ASCENDCL_ACL_ACL_H_ */
