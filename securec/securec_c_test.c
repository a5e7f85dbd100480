/* securec.h compiles as C99 and its functions work from C (DESIGN.md
 * §5.25). Exits non-zero on the first failed check. */
#include <stdio.h>
#include <string.h>

#include "securec.h"

#define CHECK(cond)                                              \
  do {                                                           \
    if (!(cond)) {                                               \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                  \
    }                                                            \
  } while (0)

int main(void) {
  char buffer[8];
  int value = 0;
  errno_t code = memset_s(buffer, sizeof buffer, 0, sizeof buffer);
  CHECK(code == EOK);
  CHECK(memcpy_s(buffer, sizeof buffer, "abc", 4) == EOK);
  CHECK(strcmp(buffer, "abc") == 0);
  CHECK(strcat_s(buffer, sizeof buffer, "defgh") == ERANGE_AND_RESET);
  CHECK(buffer[0] == '\0');
  CHECK(strncpy_s(buffer, sizeof buffer, "xyz", 2) == EOK);
  CHECK(strcmp(buffer, "xy") == 0);
  CHECK(sprintf_s(buffer, sizeof buffer, "%d", 123) == 3);
  CHECK(snprintf_s(buffer, sizeof buffer, 2, "%s", "hello") == -1);
  CHECK(strcmp(buffer, "he") == 0);
  CHECK(sscanf_s("42 ok", "%d %s", &value, buffer, sizeof buffer) == 2);
  CHECK(value == 42 && strcmp(buffer, "ok") == 0);
  CHECK(memmove_s(buffer, sizeof buffer, NULL, 1) == EINVAL_AND_RESET);
  printf("securec from C: ok\n");
  return 0;
}
