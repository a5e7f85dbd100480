// The formatted-input functions of securec.h (sscanf_s, fscanf_s, scanf_s
// and their va_list forms): one scanner over a character source, a string or
// a stdio stream. Numbers are collected into a token and converted with the
// C library's strto* functions; %s, %c and %[ take a buffer size after the
// buffer and never write past it.
#include <cctype>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "securec.h"
#include "securec/src/internal.h"

namespace ascend::securec {
namespace {

// Where the characters come from, with one character of push-back.
class Source {
 public:
  virtual ~Source() = default;
  // The next character as an unsigned char, or EOF.
  virtual int Get() = 0;
  // Gives back the character Get returned last (EOF: nothing).
  virtual void Unget(int c) = 0;
  size_t consumed() const { return consumed_; }

 protected:
  size_t consumed_ = 0;
};

class StringSource final : public Source {
 public:
  explicit StringSource(const char* text) : at_(text) {}
  int Get() override {
    if (*at_ == '\0') return EOF;
    ++consumed_;
    return static_cast<unsigned char>(*at_++);
  }
  void Unget(int c) override {
    if (c == EOF) return;
    --at_;
    --consumed_;
  }

 private:
  const char* at_;
};

class StreamSource final : public Source {
 public:
  explicit StreamSource(FILE* stream) : stream_(stream) {}
  int Get() override {
    const int c = std::getc(stream_);
    if (c != EOF) ++consumed_;
    return c;
  }
  void Unget(int c) override {
    if (c == EOF) return;
    std::ungetc(c, stream_);
    --consumed_;
  }

 private:
  FILE* stream_;
};

enum class Length {
  kNone,
  kChar,
  kShort,
  kLong,
  kLongLong,
  kMax,
  kSize,
  kPtrdiff,
  kLongDouble
};

// A field width of 0 means "none"; numbers then read at most this many.
constexpr size_t kNumberLimit = 4096;

bool IsSpace(int c) { return c != EOF && std::isspace(c) != 0; }

void SkipSpace(Source& in) {
  int c;
  do {
    c = in.Get();
  } while (IsSpace(c));
  in.Unget(c);
}

bool IsDigitOf(int c, int base) {
  if (c == EOF) return false;
  if (base == 8) return c >= '0' && c <= '7';
  if (base == 16) return std::isxdigit(c) != 0;
  return std::isdigit(c) != 0;
}

// Reads an integer's characters (sign, base prefix, digits) into `token`;
// false when it holds no digit.
bool ReadInteger(Source& in, size_t width, int base, std::string* token) {
  const size_t limit = width == 0 ? kNumberLimit : width;
  bool digits = false;
  int c = in.Get();
  if ((c == '+' || c == '-') && token->size() < limit) {
    token->push_back(static_cast<char>(c));
    c = in.Get();
  }
  if ((base == 0 || base == 16) && c == '0' && token->size() < limit) {
    token->push_back('0');
    digits = true;
    c = in.Get();
    if ((c == 'x' || c == 'X') && token->size() < limit) {
      token->push_back(static_cast<char>(c));
      base = 16;
      c = in.Get();
    } else if (base == 0) {
      base = 8;
    }
  }
  if (base == 0) base = 10;
  while (token->size() < limit && IsDigitOf(c, base)) {
    token->push_back(static_cast<char>(c));
    digits = true;
    c = in.Get();
  }
  in.Unget(c);
  return digits;
}

// Reads a floating-point number's characters (decimal or hexadecimal, an
// exponent, or inf / infinity / nan) into `token`; false when it holds no
// number.
bool ReadFloat(Source& in, size_t width, std::string* token) {
  const size_t limit = width == 0 ? kNumberLimit : width;
  auto room = [&] { return token->size() < limit; };
  int c = in.Get();
  if ((c == '+' || c == '-') && room()) {
    token->push_back(static_cast<char>(c));
    c = in.Get();
  }
  if (c == 'i' || c == 'I' || c == 'n' || c == 'N') {
    const char* word = (c == 'i' || c == 'I') ? "infinity" : "nan";
    size_t matched = 0;
    while (room() && word[matched] != '\0' && c != EOF &&
           std::tolower(c) == word[matched]) {
      token->push_back(static_cast<char>(c));
      ++matched;
      c = in.Get();
    }
    in.Unget(c);
    return matched == 3 || matched == 8;
  }
  bool hex = false;
  bool digits = false;
  if (c == '0' && room()) {
    token->push_back('0');
    digits = true;
    c = in.Get();
    if ((c == 'x' || c == 'X') && room()) {
      token->push_back(static_cast<char>(c));
      hex = true;
      c = in.Get();
    }
  }
  const int base = hex ? 16 : 10;
  while (room() && IsDigitOf(c, base)) {
    token->push_back(static_cast<char>(c));
    digits = true;
    c = in.Get();
  }
  if (c == '.' && room()) {
    token->push_back('.');
    c = in.Get();
    while (room() && IsDigitOf(c, base)) {
      token->push_back(static_cast<char>(c));
      digits = true;
      c = in.Get();
    }
  }
  const bool exponent = hex ? (c == 'p' || c == 'P') : (c == 'e' || c == 'E');
  if (digits && exponent && room()) {
    token->push_back(static_cast<char>(c));
    c = in.Get();
    if ((c == '+' || c == '-') && room()) {
      token->push_back(static_cast<char>(c));
      c = in.Get();
    }
    while (room() && IsDigitOf(c, 10)) {
      token->push_back(static_cast<char>(c));
      c = in.Get();
    }
  }
  in.Unget(c);
  return digits;
}

void StoreSigned(void* to, Length length, long long value) {
  switch (length) {
    case Length::kChar:
      *static_cast<signed char*>(to) = static_cast<signed char>(value);
      break;
    case Length::kShort:
      *static_cast<short*>(to) = static_cast<short>(value);
      break;
    case Length::kLong:
      *static_cast<long*>(to) = static_cast<long>(value);
      break;
    case Length::kLongLong:
      *static_cast<long long*>(to) = value;
      break;
    case Length::kMax:
      *static_cast<intmax_t*>(to) = value;
      break;
    case Length::kSize:
      *static_cast<ptrdiff_t*>(to) = static_cast<ptrdiff_t>(value);
      break;
    case Length::kPtrdiff:
      *static_cast<ptrdiff_t*>(to) = static_cast<ptrdiff_t>(value);
      break;
    default:
      *static_cast<int*>(to) = static_cast<int>(value);
      break;
  }
}

void StoreUnsigned(void* to, Length length, unsigned long long value) {
  switch (length) {
    case Length::kChar:
      *static_cast<unsigned char*>(to) = static_cast<unsigned char>(value);
      break;
    case Length::kShort:
      *static_cast<unsigned short*>(to) = static_cast<unsigned short>(value);
      break;
    case Length::kLong:
      *static_cast<unsigned long*>(to) = static_cast<unsigned long>(value);
      break;
    case Length::kLongLong:
      *static_cast<unsigned long long*>(to) = value;
      break;
    case Length::kMax:
      *static_cast<uintmax_t*>(to) = value;
      break;
    case Length::kSize:
      *static_cast<size_t*>(to) = static_cast<size_t>(value);
      break;
    case Length::kPtrdiff:
      *static_cast<size_t*>(to) = static_cast<size_t>(value);
      break;
    default:
      *static_cast<unsigned int*>(to) = static_cast<unsigned int>(value);
      break;
  }
}

// The characters a %[ conversion accepts: the set between the brackets
// ("]" first and ranges a-z allowed), or its complement after "^".
struct ScanSet {
  bool accepts[256] = {};
  // Parses from `f` (just after '['); returns the character after ']', or
  // null for a set that is not closed.
  const unsigned char* Parse(const unsigned char* f) {
    bool negate = false;
    if (*f == '^') {
      negate = true;
      ++f;
    }
    bool in[256] = {};
    const unsigned char* start = f;
    while (*f != '\0' && (*f != ']' || f == start)) {
      if (f[1] == '-' && f[2] != '\0' && f[2] != ']' && f[2] >= f[0]) {
        for (int c = f[0]; c <= f[2]; ++c) in[c] = true;
        f += 3;
      } else {
        in[*f] = true;
        ++f;
      }
    }
    if (*f != ']') return nullptr;
    for (int c = 0; c < 256; ++c) accepts[c] = in[c] != negate;
    return f + 1;
  }
};

// Stores one character into a char or wchar_t buffer.
void Put(void* buffer, bool wide, size_t at, int c) {
  if (wide) {
    static_cast<wchar_t*>(buffer)[at] = static_cast<wchar_t>(c);
  } else {
    static_cast<char*>(buffer)[at] = static_cast<char>(c);
  }
}

// The size argument after a buffer: a size_t whose low 32 bits count (an
// int argument works too).
size_t BufferSize(va_list* args) {
  return static_cast<size_t>(va_arg(*args, size_t) & 0xffffffffULL);
}

int Scan(Source& in, const char* format, va_list* args) {
  int assigned = 0;
  bool converted = false;
  // An input failure: EOF before the first conversion, else the count.
  auto input_failure = [&] { return converted ? assigned : EOF; };
  const auto* f = reinterpret_cast<const unsigned char*>(format);
  while (*f != '\0') {
    if (std::isspace(*f)) {
      while (std::isspace(*f)) ++f;
      SkipSpace(in);
      continue;
    }
    if (*f != '%' || f[1] == '%') {
      if (*f == '%') {
        ++f;
        SkipSpace(in);
      }
      const int c = in.Get();
      if (c == EOF) return input_failure();
      if (c != *f) {
        in.Unget(c);
        return assigned;
      }
      ++f;
      continue;
    }
    ++f;
    const bool suppress = *f == '*';
    if (suppress) ++f;
    size_t width = 0;
    while (std::isdigit(*f)) {
      width = width < SECUREC_STRING_MAX_LEN ? width * 10 + (*f - '0') : width;
      ++f;
    }
    Length length = Length::kNone;
    switch (*f) {
      case 'h':
        length = f[1] == 'h' ? Length::kChar : Length::kShort;
        f += f[1] == 'h' ? 2 : 1;
        break;
      case 'l':
        length = f[1] == 'l' ? Length::kLongLong : Length::kLong;
        f += f[1] == 'l' ? 2 : 1;
        break;
      case 'q':
        length = Length::kLongLong;
        ++f;
        break;
      case 'j':
        length = Length::kMax;
        ++f;
        break;
      case 'z':
        length = Length::kSize;
        ++f;
        break;
      case 't':
        length = Length::kPtrdiff;
        ++f;
        break;
      case 'L':
        length = Length::kLongDouble;
        ++f;
        break;
      default:
        break;
    }
    const int conversion = *f;
    if (conversion == '\0') return assigned;  // a cut-off directive
    ++f;
    switch (conversion) {
      case 'n': {
        if (!suppress) {
          StoreSigned(va_arg(*args, void*), length,
                      static_cast<long long>(in.consumed()));
        }
        continue;
      }
      case 'c':
      case 's':
      case '[': {
        ScanSet set;
        if (conversion == '[') {
          f = set.Parse(f);
          if (f == nullptr) return assigned;
        } else if (conversion == 's') {
          for (int c = 0; c < 256; ++c) set.accepts[c] = !std::isspace(c);
        } else {
          for (bool& a : set.accepts) a = true;
        }
        const bool wide = length == Length::kLong;
        void* buffer = suppress ? nullptr : va_arg(*args, void*);
        const size_t size = suppress ? 0 : BufferSize(args);
        if (!suppress && buffer == nullptr) return assigned;
        if (conversion == 's') SkipSpace(in);
        const size_t want = conversion == 'c' && width == 0 ? 1 : width;
        // Characters to store; %s and %[ also need their terminator.
        const size_t capacity =
            conversion == 'c' ? size : (size > 0 ? size - 1 : 0);
        size_t n = 0;
        int c = in.Get();
        if (c == EOF) return input_failure();
        for (;;) {
          if (c == EOF || !set.accepts[c]) {
            in.Unget(c);
            break;
          }
          if (!suppress) {
            if (n >= capacity) {  // the field does not fit: empty buffer
              if (size > 0) Put(buffer, wide, 0, '\0');
              return assigned;
            }
            Put(buffer, wide, n, c);
          }
          ++n;
          if (want != 0 && n == want) break;
          c = in.Get();
        }
        if (conversion == 'c' && n < want) return input_failure();
        if (n == 0) return assigned;  // %[ matched nothing
        if (!suppress && conversion != 'c') Put(buffer, wide, n, '\0');
        converted = true;
        if (!suppress) ++assigned;
        continue;
      }
      case 'd':
      case 'i':
      case 'u':
      case 'o':
      case 'x':
      case 'X':
      case 'p': {
        SkipSpace(in);
        const int peek = in.Get();
        if (peek == EOF) return input_failure();
        in.Unget(peek);
        const int base = conversion == 'i'                          ? 0
                         : conversion == 'o'                        ? 8
                         : (conversion == 'd' || conversion == 'u') ? 10
                                                                    : 16;
        std::string token;
        if (!ReadInteger(in, width, base, &token)) return assigned;
        converted = true;
        if (suppress) continue;
        void* to = va_arg(*args, void*);
        if (conversion == 'p') {
          *static_cast<void**>(to) =
              reinterpret_cast<void*>(static_cast<uintptr_t>(
                  std::strtoull(token.c_str(), nullptr, 16)));
        } else if (conversion == 'd' || conversion == 'i') {
          StoreSigned(to, length, std::strtoll(token.c_str(), nullptr, base));
        } else {
          StoreUnsigned(to, length,
                        std::strtoull(token.c_str(), nullptr, base));
        }
        ++assigned;
        continue;
      }
      case 'a':
      case 'A':
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G': {
        SkipSpace(in);
        const int peek = in.Get();
        if (peek == EOF) return input_failure();
        in.Unget(peek);
        std::string token;
        if (!ReadFloat(in, width, &token)) return assigned;
        converted = true;
        if (suppress) continue;
        void* to = va_arg(*args, void*);
        if (length == Length::kLongDouble) {
          *static_cast<long double*>(to) = std::strtold(token.c_str(), nullptr);
        } else if (length == Length::kLong) {
          *static_cast<double*>(to) = std::strtod(token.c_str(), nullptr);
        } else {
          *static_cast<float*>(to) = std::strtof(token.c_str(), nullptr);
        }
        ++assigned;
        continue;
      }
      default:
        return assigned;  // not a conversion this library knows
    }
  }
  return assigned;
}

}  // namespace
}  // namespace ascend::securec

using ascend::securec::Scan;
using ascend::securec::StreamSource;
using ascend::securec::StringSource;

extern "C" {

SECUREC_EXPORT int vsscanf_s(const char* buffer, const char* format,
                             va_list argList) {
  if (buffer == nullptr || format == nullptr) return -1;
  StringSource in(buffer);
  va_list args;
  va_copy(args, argList);
  const int n = Scan(in, format, &args);
  va_end(args);
  return n;
}

SECUREC_EXPORT int sscanf_s(const char* buffer, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsscanf_s(buffer, format, args);
  va_end(args);
  return n;
}

SECUREC_EXPORT int vfscanf_s(FILE* stream, const char* format,
                             va_list argList) {
  if (stream == nullptr || format == nullptr) return -1;
  StreamSource in(stream);
  va_list args;
  va_copy(args, argList);
  const int n = Scan(in, format, &args);
  va_end(args);
  return n;
}

SECUREC_EXPORT int fscanf_s(FILE* stream, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vfscanf_s(stream, format, args);
  va_end(args);
  return n;
}

SECUREC_EXPORT int vscanf_s(const char* format, va_list argList) {
  return vfscanf_s(stdin, format, argList);
}

SECUREC_EXPORT int scanf_s(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vfscanf_s(stdin, format, args);
  va_end(args);
  return n;
}

}  // extern "C"
