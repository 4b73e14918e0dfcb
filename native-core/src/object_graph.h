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
#include <stdexcept>
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
 *  object fields by index. A slot holding no node reads as None, and so does every slot of a kFields node, whose
 *  objects only the walk reads (ObjectGraph::FieldValue).
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
 *
 * Object fields may change while the graph is used: their setters are thread-safe (P4JObjectSetField swaps the
 * object under the field lock and releases the old one). So the walk reads each object field once, under that lock
 * and with a reference of its own, and the operations read an object field through FieldValue, never from the
 * object again: the graph they see is the one walked, and no node is freed under them.
 */
class ObjectGraph {
 public:
  /*! \brief Walks root; function names the caller in errors. */
  ObjectGraph(const P4JAny& root, const char* function, int max_depth);
  ObjectGraph(const ObjectGraph&) = delete;
  ObjectGraph& operator=(const ObjectGraph&) = delete;

  /*!
   * \brief The object field field_index of node (a kFields node of this graph) as the walk read it, or None for
   *  an empty field or one of another kind (borrowed: the graph holds a reference).
   */
  P4JAny FieldValue(P4JObject* node, int32_t field_index) const {
    P4JAny value = details::NoneValue();
    int64_t start = field_starts_[static_cast<size_t>(IndexOf(node))];
    P4JObject* object = start < 0 ? nullptr : field_objects_.objects[static_cast<size_t>(start + field_index)];
    if (object != nullptr) {
      value.type_index = object->type_index;
      value.v_obj = object;
    }
    return value;
  }

  /*!
   * \brief The nodes in post order (borrowed: kept alive by the root, or by the graph's reference for a node
   *  reached through an object field).
   */
  const std::vector<P4JObject*>& nodes() const { return nodes_; }
  /*! \brief The position of a node in nodes() (std::out_of_range for another object). */
  int64_t IndexOf(P4JObject* node) const {
    const int64_t* found = index_.Find(node);
    if (found == nullptr) throw std::out_of_range("ObjectGraph::IndexOf: not a node of this graph");
    return *found;
  }
  /*! \brief The kind of nodes()[i]. */
  NodeKind KindAt(int64_t i) const { return kinds_[i]; }

 private:
  /*!
   * \brief A map from node to number: open addressing over one array (a graph of 100,000 nodes makes one
   *  allocation per doubling, not one per node as std::unordered_map does).
   */
  class NodeIndex {
   public:
    /*! \brief The number of key, or NULL. */
    const int64_t* Find(P4JObject* key) const {
      if (slots_.empty()) return nullptr;
      for (size_t i = Hash(key) & mask_;; i = (i + 1) & mask_) {
        if (slots_[i].key == key) return &slots_[i].value;
        if (slots_[i].key == nullptr) return nullptr;
      }
    }
    /*! \brief Sets the number of key, adding it when it is new. */
    void Set(P4JObject* key, int64_t value) {
      if ((size_ + 1) * 2 > slots_.size()) Grow();
      for (size_t i = Hash(key) & mask_;; i = (i + 1) & mask_) {
        if (slots_[i].key == key) {
          slots_[i].value = value;
          return;
        }
        if (slots_[i].key == nullptr) {
          slots_[i] = Slot{key, value};
          ++size_;
          return;
        }
      }
    }

   private:
    struct Slot {
      P4JObject* key;
      int64_t value;
    };
    /*!
     * \brief Keeps nearby objects in nearby slots: objects allocated one after the other (the usual graph) are
     *  then probed nearly in order, in cache, where a mixing hash would make each probe a cache miss. The higher
     *  bits folded in spread objects that lie a power of two apart.
     */
    static size_t Hash(P4JObject* key) {
      uint64_t units = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(key)) >> 4;
      return static_cast<size_t>(units ^ (units >> 12) ^ (units >> 24));
    }
    void Grow() {
      std::vector<Slot> old = std::move(slots_);
      slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{nullptr, 0});
      mask_ = slots_.size() - 1;
      size_ = 0;
      for (const Slot& slot : old) {
        if (slot.key != nullptr) Set(slot.key, slot.value);
      }
    }
    std::vector<Slot> slots_;
    size_t mask_ = 0;
    size_t size_ = 0;
  };

  /*! \brief References that are released with the graph, also when its walk throws. */
  struct OwnedObjects {
    OwnedObjects() = default;
    OwnedObjects(const OwnedObjects&) = delete;
    OwnedObjects& operator=(const OwnedObjects&) = delete;
    ~OwnedObjects() {
      for (P4JObject* object : objects) {
        if (object != nullptr) details::DecRef(object);
      }
    }
    std::vector<P4JObject*> objects;
  };

  std::vector<P4JObject*> nodes_;
  std::vector<NodeKind> kinds_;
  NodeIndex index_;
  /*! \brief The objects of every kFields node's fields, one slot per field (NULL but for object fields), owned. */
  OwnedObjects field_objects_;
  /*! \brief By position in nodes_: the node's first slot in field_objects_, or -1 for a node of another kind. */
  std::vector<int64_t> field_starts_;
};

}  // namespace internal
}  // namespace packed4j

#endif  // PACKED4J_SRC_OBJECT_GRAPH_H_
