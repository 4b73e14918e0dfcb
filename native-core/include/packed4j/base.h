/*!
 * \file packed4j/base.h
 * \brief Macros and tiny helpers shared by every packed4j header.
 *
 * The C++ API of packed4j is inline code over the C ABI (c_api.h). A plugin library compiled against these
 * headers therefore links only `P4J*` C symbols of libpacked4j.so, allocates and frees its own objects, and
 * keeps its own C++ exceptions: nothing C++ crosses a library boundary.
 */
#ifndef PACKED4J_BASE_H_
#define PACKED4J_BASE_H_

#include <packed4j/c_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

/*! \brief Concatenates two tokens after expanding them (for unique static names). */
#define P4J_STR_CONCAT_(a, b) a##b
#define P4J_STR_CONCAT(a, b) P4J_STR_CONCAT_(a, b)

/*! \brief Marks a static registration variable as used, so -Wunused-variable stays quiet. */
#define P4J_ATTRIBUTE_UNUSED __attribute__((unused))

/*!
 * \brief The ABI version the registration macros record for the library they are compiled into: P4J_ABI_VERSION
 *  of these headers, which the core checks (P4JPluginCheckAbiVersion) before it registers anything of the library.
 *
 *  The macros evaluate it where they are expanded, in the plugin's own source. packed4j's tests define
 *  P4J_TEST_PLUGIN_ABI_VERSION to build a plugin that claims another version and see it refused; it is not for
 *  plugins (one that claims a version its headers are not of would be misread or refused for no reason).
 */
#ifdef P4J_TEST_PLUGIN_ABI_VERSION
#define P4J_PLUGIN_ABI_VERSION (P4J_TEST_PLUGIN_ABI_VERSION)
#else
#define P4J_PLUGIN_ABI_VERSION P4J_ABI_VERSION
#endif

namespace packed4j {
namespace details {

/*!
 * \brief The process-wide live object counter, fetched once per library.
 *
 * make_object runs in the library that calls it; counting must not cost a call per object, so each library
 * keeps the counter's address in a function-local static and updates it with an atomic add.
 */
inline int64_t* LiveCounter() {
  static int64_t* const counter = P4JObjectLiveCounterAddress();
  return counter;
}

/*! \brief A P4JByteArray over a string view (no copy; valid while the view's bytes live). */
inline P4JByteArray ByteArrayOf(std::string_view text) {
  return P4JByteArray{text.data(), static_cast<int64_t>(text.size())};
}

/*! \brief A std::string_view over a P4JByteArray. */
inline std::string_view ViewOf(const P4JByteArray& bytes) {
  return std::string_view(bytes.data, static_cast<size_t>(bytes.size));
}

/*! \brief The cell that follows an object's header; the layout of cells is fixed by c_api.h. */
template <typename Cell>
inline Cell* CellOf(P4JObject* handle) {
  return reinterpret_cast<Cell*>(handle + 1);
}

/*! \brief A P4JAny holding None. */
inline P4JAny NoneValue() {
  P4JAny value;
  value.type_index = kP4JNone;
  value.zero_padding = 0;
  value.v_int64 = 0;
  return value;
}

}  // namespace details
}  // namespace packed4j

#endif  // PACKED4J_BASE_H_
