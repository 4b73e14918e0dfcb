/*!
 * \file packed4j/serialization.h
 * \brief Objects as data: SaveJSON / LoadJSON, StructuralEqual / StructuralHash and DeepCopy.
 *
 * Each is a global function of libpacked4j.so ("packed4j.SaveJSON", "packed4j.LoadJSON",
 * "packed4j.StructuralEqual", "packed4j.StructuralHash", "packed4j.DeepCopy"), so any language calls them by name;
 * the functions here are the C++ spelling. They work over every value packed4j carries, through the fields an
 * object's type declares in VisitAttrs (P4J_REGISTER_OBJECT_TYPE).
 *
 * The JSON format, "packed4j-json" version 1:
 * \code
 *   {"format": "packed4j-json", "version": 1, "root": <value>, "nodes": [<node>, ...]}
 * \endcode
 * A node is each list, map, tensor and object of a registered type, written once however often it is referred to,
 * after every node it refers to (so a node refers only to nodes with a smaller index, and a document cannot
 * describe a cycle):
 * \code
 *   {"type": "List", "items": [<value>, ...]}
 *   {"type": "Map", "entries": [[<key>, <value>], ...]}          (insertion order; keys: integer, string, ref)
 *   {"type": "NDArray", "dtype": "float32", "shape": [2, 3], "data": "<base64 of the row-major bytes>"}
 *   {"type": "<type key>", "fields": {"<field>": <field value>, ...}}   (every reflected field, by name)
 * \endcode
 * A value is null, true, false, an integer (int64), a float (a JSON number with a '.' or an exponent, so 1.0
 * stays a float), a string (UTF-8), or an object with exactly one key: {"ref": <node index>},
 * {"float": "nan" | "inf" | "-inf"}, {"bytes": "<base64>"}, {"dtype": "int8x4"}, {"device": [<type>, <id>]}.
 * A field value follows the field's kind: int32, int64 and uint64 fields are integers (a uint64 up to 2^64-1),
 * float64 a float (or an integer that converts exactly), bool, string, and an object field a value that is null or
 * refers to (or, for a String field, is) an object of the declared type.
 *
 * Limits: a value nests at most 512 levels (as Java values do); a tensor holds at most 16 MiB of data and must be
 * on the CPU; strings must be valid UTF-8 (keep binary data in Bytes). Function, Error and opaque pointer values
 * are not data: saving one is a ValueError naming where it is. Loading refuses, with a ValueError naming the place
 * (e.g. "nodes[3].fields.price"): another format name, a newer version, malformed JSON, an unregistered type key, a
 * missing, unknown or wrongly typed field (a list or map field whose ObjectDef declares its element types takes only
 * those, as P4JObjectSetField does), numbers out of range, and a type that cannot be created (see below).
 *
 * Creating objects: P4J_REGISTER_OBJECT_TYPE hands the core a creation hook for a default-constructible type, and
 * LoadJSON and DeepCopy create objects through it, then set the reflected fields (in place, at their offsets: the
 * plugin and the core share one C++ ABI, as reflection already assumes). Fields that VisitAttrs does not declare
 * keep what the default constructor gave them. A type without a default constructor can be saved, compared and
 * hashed, but loading or deep-copying one is a ValueError naming the type.
 *
 * Structural equality: values are equal when they have the same kind and equal contents: integers, bools, strings
 * and bytes by value (an integer never equals a float), floats by == except that NaN equals NaN (any payload) and
 * 0.0 equals -0.0, lists item by item, maps entry by entry in insertion order, CPU tensors by dtype, shape and
 * bytes, objects by type and every reflected field. Sharing does not matter (a DAG equals its tree). Functions,
 * errors, tensors on other devices and objects of types that declare
 * `static constexpr bool _type_compare_by_identity = true;` compare by identity (and are shared, not copied, by
 * DeepCopy). Equal values have equal hashes; a hash is stable within one process. A cycle (lists are mutable, so one
 * can hold itself) is a ValueError naming its path in every function here, never a stack overflow: graphs of any
 * depth are walked with constant native stack.
 */
#ifndef PACKED4J_SERIALIZATION_H_
#define PACKED4J_SERIALIZATION_H_

#include <packed4j/function.h>

#include <cstdint>
#include <string>

namespace packed4j {

namespace details {

/*! \brief The core's global function name, which must be registered (it is, by libpacked4j.so itself). */
inline PackedFunc CoreGlobal(const char* name) {
  PackedFunc function = PackedFunc::GetGlobal(name);
  if (!function.defined()) {
    throw RuntimeError(std::string(name) + " is not registered: libpacked4j.so is older than this header");
  }
  return function;
}

}  // namespace details

/*!
 * \brief Writes value as a "packed4j-json" document (format above); shared nodes are written once.
 * \code std::string json = SaveJSON(point); \endcode
 */
inline std::string SaveJSON(const Any& value) {
  return details::CoreGlobal("packed4j.SaveJSON")(value).cast<std::string>();
}

/*!
 * \brief Reads a document written by SaveJSON (in any language): a node referred to twice comes back as one object.
 * \code Any point = LoadJSON(json); \endcode
 */
inline Any LoadJSON(const std::string& json) { return details::CoreGlobal("packed4j.LoadJSON")(json); }

/*! \brief Whether a and b have the same structure and contents (rules above). */
inline bool StructuralEqual(const Any& a, const Any& b) {
  return details::CoreGlobal("packed4j.StructuralEqual")(a, b).cast<bool>();
}

/*! \brief A hash consistent with StructuralEqual: equal values hash alike. */
inline uint64_t StructuralHash(const Any& value) {
  return static_cast<uint64_t>(details::CoreGlobal("packed4j.StructuralHash")(value).cast<int64_t>());
}

/*! \brief A new graph with the same structure and the same sharing (each node copied once). */
inline Any DeepCopy(const Any& value) { return details::CoreGlobal("packed4j.DeepCopy")(value); }

}  // namespace packed4j

#endif  // PACKED4J_SERIALIZATION_H_
