/* What every operator header of aclnnop/ uses to declare its functions. */
#ifndef ASCENDCL_ACLNNOP_ACLNN_UTIL_H_
#define ASCENDCL_ACLNNOP_ACLNN_UTIL_H_

#define ACLNN_API __attribute__((visibility("default")))

#endif /* ASCENDCL_ACLNNOP_ACLNN_UTIL_H_ */
