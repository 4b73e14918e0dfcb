// A header the doc check must refuse (packed4j_header_docs_check_fails): one undocumented declaration of each
// kind it checks, beside documented ones it must accept.
#ifndef PACKED4J_TESTS_UNDOCUMENTED_H_
#define PACKED4J_TESTS_UNDOCUMENTED_H_

#include <stdint.h>

#define P4J_UNDOCUMENTED_MACRO 1

/*! \brief Documented. */
#define P4J_DOCUMENTED_MACRO 2
#define P4J_DOCUMENTED_GROUP_MEMBER 3

typedef int32_t P4JUndocumentedTypedef;

namespace packed4j {

class UndocumentedClass {
 public:
  /*! \brief Documented. */
  int documented() const { return 0; }
  int documented_overload(int value) const { return value; }

  int undocumented() const { return 1; }
  UndocumentedClass() = default;

 private:
  int hidden() const { return 2; }
};

template <typename T>
T UndocumentedTemplate(T value) { return value; }

namespace details {
inline int NotPublic() { return 3; }
}  // namespace details

}  // namespace packed4j

#endif  // PACKED4J_TESTS_UNDOCUMENTED_H_
