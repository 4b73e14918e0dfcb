/*!
 * \file packed4j/packed4j.h
 * \brief The umbrella header of the packed4j C++ API: include this one.
 *
 * Read top-down: c_api.h (the ABI) -> base.h -> error.h -> object.h -> reflection.h -> any.h -> string.h ->
 * function.h -> container.h -> registry.h -> serialization.h.
 *
 * \code
 *   #include <packed4j/packed4j.h>
 *   using namespace packed4j;
 *
 *   P4J_REGISTER_GLOBAL("calculator.Mul").set_body_typed([](int64_t a, int64_t b) { return a * b; });
 * \endcode
 */
#ifndef PACKED4J_PACKED4J_H_
#define PACKED4J_PACKED4J_H_

#include <packed4j/c_api.h>
#include <packed4j/base.h>
#include <packed4j/error.h>
#include <packed4j/object.h>
#include <packed4j/reflection.h>
#include <packed4j/any.h>
#include <packed4j/string.h>
#include <packed4j/function.h>
#include <packed4j/container.h>
#include <packed4j/registry.h>
#include <packed4j/ndarray.h>
#include <packed4j/typed_function.h>
#include <packed4j/serialization.h>
#include <packed4j/object_def.h>

#endif  // PACKED4J_PACKED4J_H_
