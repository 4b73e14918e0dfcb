/*!
 * \file object_graph.h
 * \brief What SaveJSON/LoadJSON (serialization.cc) and StructuralEqual/StructuralHash/DeepCopy (structural.cc)
 *  share: the creation hooks of object types, the kinds of nodes, and an iterative walk over an object graph.
 *
 * A node is an object value other than a String or Bytes (those are values, compared and copied by content). The
 * walk visits each node once, children before parents, with an explicit stack: a graph of any depth takes constant
 * native stack, a cycle is an error naming the path around it, and an optional depth limit is an error naming the
 * path at which it was passed.
 */
#ifndef PACKED4J_SRC_OBJECT_GRAPH_H_
#define PACKED4J_SRC_OBJECT_GRAPH_H_

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "internal.h"

namespace packed4j {
namespace internal {

/*! \brief The deepest nesting SaveJSON and LoadJSON accept: the 512 levels of Java's Nesting.LIMIT. */
constexpr int kMaxSerializedDepth = 512;

/*! \brief The most tensor data SaveJSON writes and LoadJSON reads per tensor: 16 MiB. */
constexpr int64_t kMaxTensorBytes = int64_t{16} << 20;

/*! \brief How a node takes part in the operations. */
enum class NodeKind {
  kList,    //!< its items
  kMap,     //!< its keys and values, in insertion order
  kTensor,  //!< exactly kP4JNDArray: dtype, shape and bytes
  kFields,  //!< an object of a registered type: its reflected fields
  kOpaque,  //!< Function, Error, a bare Object or a subtype of NDArray: no data to reach, only the object itself
};

/*! \brief The kind of a node (an object handle that is not a String or Bytes). */
NodeKind KindOf(const P4JObject* node);

/*! \brief Whether a value is a node: an object other than a String or Bytes. */
inline bool IsNode(const P4JAny& value) {
  return details::IsObjectValue(value) && value.v_obj->type_index != kP4JString &&
         value.v_obj->type_index != kP4JBytes;
}

/*! \brief Whether objects of type_index opted out of structural comparison (_type_compare_by_identity). */
bool ComparesByIdentity(int32_t type_index);

/*!
 * \brief A new default object of type_index through its creation hook (owned). ValueError, prefixed with where()
 *  (only called for an error), when the type has none (no default constructor, or its library was built before the
 *  hook existed).
 */
P4JObject* CreateDefaultObject(int32_t type_index, const std::function<std::string()>& where);

/*!
 * \brief The creation hook of type_index (borrowed: the core keeps hooks for the life of the process), or NULL
 *  when it has none. For a caller that creates many objects of one type: look the hook up once, not per object.
 */
P4JObject* ObjectCreatorOf(int32_t type_index);

/*! \brief The type info of an object's type (never NULL for a live object). */
const P4JTypeInfo* TypeInfoOf(const P4JObject* node);

/*! \brief The list cell of a kP4JList object. */
inline P4JListCell* ListCellOf(P4JObject* node) { return details::CellOf<P4JListCell>(node); }
/*! \brief The map cell of a kP4JMap object. */
inline P4JMapCell* MapCellOf(P4JObject* node) { return details::CellOf<P4JMapCell>(node); }
/*! \brief The tensor of a kP4JNDArray object. */
inline const DLTensor* TensorOf(P4JObject* node) { return details::CellOf<DLTensor>(node); }

/*! \brief The address of a field in an object. */
inline char* FieldAddress(P4JObject* node, const P4JFieldInfo& field) {
  return reinterpret_cast<char*>(node) + field.offset;
}

/*! \brief The object (or NULL) held by a kP4JFieldObject field: an ObjectRef is exactly one handle. */
inline P4JObject* ObjectFieldOf(P4JObject* node, const P4JFieldInfo& field) {
  return *reinterpret_cast<P4JObject* const*>(FieldAddress(node, field));
}

/*! \brief Replaces the object of a kP4JFieldObject field by value (borrowed; NULL for none). */
void SetObjectField(P4JObject* node, const P4JFieldInfo& field, P4JObject* value);

/*!
 * \brief The bytes of a CPU tensor in row-major order (strides and byte_offset applied). ValueError, prefixed
 *  with where, for a tensor on another device, with elements narrower than a byte, or above max_bytes.
 */
std::string TensorBytes(const DLTensor* tensor, int64_t max_bytes, const std::string& where);

/*! \brief The number of bytes of a tensor of shape and dtype, or -1 when it overflows int64. */
int64_t TensorByteCount(const std::vector<int64_t>& shape, DLDataType dtype);

/*!
 * \brief The child slots of a node, for the walk: list items, map keys and values (key, value, key, ...),
 *  object fields by index. A slot holding no node reads as None.
 */
int64_t SlotCount(P4JObject* node, NodeKind kind);

/*! \brief The value of a slot, borrowed (valid while the node is alive and unchanged). */
P4JAny SlotValue(P4JObject* node, NodeKind kind, int64_t slot);

/*! \brief "[3]", "{\"key\"}", ".price": how a path names a slot. */
std::string SlotLabel(P4JObject* node, NodeKind kind, int64_t slot);

/*!
 * \brief The nodes reachable from a value, each once, children before parents.
 *
 * Built by an iterative depth-first walk. A cycle is a ValueError "<function>: the value has a cycle: <path>
 * refers back to <path>"; with max_depth > 0, nesting deeper than it is a ValueError naming the path.
 */
class ObjectGraph {
 public:
  /*! \brief Walks root; function names the caller in errors. */
  ObjectGraph(const P4JAny& root, const char* function, int max_depth);

  /*! \brief The nodes in post order (borrowed: kept alive by the root). */
  const std::vector<P4JObject*>& nodes() const { return nodes_; }
  /*! \brief The position of a node in nodes(). */
  int64_t IndexOf(P4JObject* node) const { return index_.at(node); }
  /*! \brief The kind of nodes()[i]. */
  NodeKind KindAt(int64_t i) const { return kinds_[i]; }

 private:
  std::vector<P4JObject*> nodes_;
  std::vector<NodeKind> kinds_;
  std::unordered_map<P4JObject*, int64_t> index_;
};

}  // namespace internal
}  // namespace packed4j

#endif  // PACKED4J_SRC_OBJECT_GRAPH_H_
