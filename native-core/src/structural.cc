/*!
 * \file structural.cc
 * \brief packed4j.StructuralEqual, packed4j.StructuralHash and packed4j.DeepCopy over the reflected fields of
 *  objects, lists, maps and tensors (the rules are in serialization.h).
 *
 * All three walk the graph with ObjectGraph (object_graph.h) first: each node once, children before parents,
 * constant native stack at any depth, a cycle an error naming its path. Hashes and copies are then built in that
 * order, so a node's children are done before it; equality compares pairs of nodes from a work list, each pair
 * once, so shared nodes cost nothing extra and a large DAG stays linear.
 */
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "object_graph.h"

namespace packed4j {
namespace internal {
namespace {

constexpr const char* kEqualName = "packed4j.StructuralEqual";
constexpr const char* kHashName = "packed4j.StructuralHash";
constexpr const char* kCopyName = "packed4j.DeepCopy";

/*! \brief Whether a node is compared and copied as itself: opaque kinds and types that opted out. */
bool IsIdentityNode(const P4JObject* node, NodeKind kind) {
  if (kind == NodeKind::kOpaque) return true;
  if (kind == NodeKind::kTensor) return TensorOf(const_cast<P4JObject*>(node))->device.device_type != kDLCPU;
  return kind == NodeKind::kFields && ComparesByIdentity(node->type_index);
}

/*! \brief The bytes of a string or bytes value (object or view) when it is one. */
bool TextOf(const P4JAny& value, int32_t* kind, std::string_view* out) {
  if (value.type_index == kP4JStrView || value.type_index == kP4JBytesView) {
    *kind = value.type_index == kP4JStrView ? kP4JString : kP4JBytes;
    *out = std::string_view(static_cast<const char*>(value.v_ptr), value.small_len);
    return true;
  }
  if (details::IsObjectValue(value) &&
      (value.v_obj->type_index == kP4JString || value.v_obj->type_index == kP4JBytes)) {
    *kind = value.v_obj->type_index;
    *out = details::ViewOf(*details::CellOf<P4JByteArray>(value.v_obj));
    return true;
  }
  return false;
}

/*! \brief Floats are equal when == says so (0.0 and -0.0 are), and NaN equals NaN whatever its payload. */
bool SameFloat(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

/*! \brief The bits a float hashes as: one NaN, one zero. */
uint64_t FloatBits(double value) {
  if (std::isnan(value)) return 0x7ff8000000000000ULL;
  if (value == 0) return 0;
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

// ------------------------------------------------------------------------------------------------ hash

class Hasher {
 public:
  explicit Hasher(const ObjectGraph& graph) : graph_(graph), node_hashes_(graph.nodes().size()) {}

  uint64_t Hash(const P4JAny& root) {
    for (size_t i = 0; i < graph_.nodes().size(); ++i) {
      node_hashes_[i] = HashNode(graph_.nodes()[i], graph_.KindAt(static_cast<int64_t>(i)));
    }
    return Finish(HashValue(root));
  }

 private:
  static uint64_t Combine(uint64_t seed, uint64_t value) {
    seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 12) + (seed >> 4);
    return seed * 0xff51afd7ed558ccdULL;
  }

  static uint64_t Finish(uint64_t h) {
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
  }

  static uint64_t HashBytes(std::string_view bytes) {
    uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
    for (char c : bytes) {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001b3ULL;
    }
    return Combine(h, bytes.size());
  }

  uint64_t HashValue(const P4JAny& value) const {
    int32_t text_kind;
    std::string_view text;
    if (TextOf(value, &text_kind, &text)) return Combine(static_cast<uint64_t>(text_kind), HashBytes(text));
    uint64_t tag = static_cast<uint64_t>(value.type_index);
    switch (value.type_index) {
      case kP4JNone: return Combine(tag, 0);
      case kP4JBool:
      case kP4JInt: return Combine(tag, static_cast<uint64_t>(value.v_int64));
      case kP4JFloat: return Combine(tag, FloatBits(value.v_float64));
      case kP4JDataType:
        return Combine(tag, (uint64_t{value.v_dtype.code} << 24) | (uint64_t{value.v_dtype.bits} << 16) |
                                value.v_dtype.lanes);
      case kP4JDevice:
        return Combine(tag, (static_cast<uint64_t>(value.v_device.device_type) << 32) |
                                static_cast<uint32_t>(value.v_device.device_id));
      default: break;
    }
    if (details::IsObjectValue(value)) return node_hashes_[graph_.IndexOf(value.v_obj)];
    return Combine(tag, reinterpret_cast<uintptr_t>(value.v_ptr));  // pointers: by address
  }

  uint64_t HashNode(P4JObject* node, NodeKind kind) const {
    if (IsIdentityNode(node, kind)) return Combine(1, reinterpret_cast<uintptr_t>(node));
    switch (kind) {
      case NodeKind::kList: {
        const P4JListCell* cell = ListCellOf(node);
        uint64_t h = Combine(kP4JList, static_cast<uint64_t>(cell->size));
        for (int64_t i = 0; i < cell->size; ++i) h = Combine(h, HashValue(cell->data[i]));
        return h;
      }
      case NodeKind::kMap: {
        const P4JMapCell* cell = MapCellOf(node);
        uint64_t h = Combine(kP4JMap, static_cast<uint64_t>(cell->size));
        for (int64_t i = 0; i < 2 * cell->size; ++i) h = Combine(h, HashValue(cell->entries[i]));
        return h;
      }
      case NodeKind::kTensor: {
        const DLTensor* tensor = TensorOf(node);
        uint64_t h = Combine(kP4JNDArray, HashValue(DTypeValue(tensor->dtype)));
        for (int32_t d = 0; d < tensor->ndim; ++d) h = Combine(h, static_cast<uint64_t>(tensor->shape[d]));
        return Combine(h, HashBytes(TensorBytes(tensor, INT64_MAX, std::string(kHashName) + ": ")));
      }
      default: {
        const P4JTypeInfo* info = TypeInfoOf(node);
        uint64_t h = HashBytes(details::ViewOf(info->type_key));
        for (int32_t i = 0; i < info->num_fields; ++i) h = Combine(h, HashField(node, info->fields[i], i));
        return h;
      }
    }
  }

  uint64_t HashField(P4JObject* node, const P4JFieldInfo& field, int32_t index) const {
    const char* address = FieldAddress(node, field);
    switch (field.kind) {
      case kP4JFieldInt32: {
        int32_t value;
        std::memcpy(&value, address, sizeof(value));
        return static_cast<uint64_t>(static_cast<int64_t>(value));
      }
      case kP4JFieldInt64:
      case kP4JFieldUInt64: {
        uint64_t value;
        std::memcpy(&value, address, sizeof(value));
        return value;
      }
      case kP4JFieldFloat64: {
        double value;
        std::memcpy(&value, address, sizeof(value));
        return FloatBits(value);
      }
      case kP4JFieldBool: return *reinterpret_cast<const bool*>(address) ? 1 : 0;
      case kP4JFieldString: return HashBytes(CopyStringField(node, field));
      default: return HashValue(graph_.FieldValue(node, index));
    }
  }

  static P4JAny DTypeValue(DLDataType dtype) {
    P4JAny value = details::NoneValue();
    value.type_index = kP4JDataType;
    value.v_dtype = dtype;
    return value;
  }

  const ObjectGraph& graph_;
  std::vector<uint64_t> node_hashes_;
};

// ------------------------------------------------------------------------------------------------ equality

struct PairHash {
  size_t operator()(const std::pair<P4JObject*, P4JObject*>& pair) const noexcept {
    return std::hash<P4JObject*>()(pair.first) * 31 + std::hash<P4JObject*>()(pair.second);
  }
};

class Comparer {
 public:
  /*! \brief Compares values of graph_a (the first operand's) with values of graph_b, reading object fields there. */
  Comparer(const ObjectGraph& graph_a, const ObjectGraph& graph_b) : graph_a_(graph_a), graph_b_(graph_b) {}

  bool Equal(const P4JAny& a, const P4JAny& b) {
    if (!SameValue(a, b)) return false;
    while (!pending_.empty()) {
      std::pair<P4JObject*, P4JObject*> pair = pending_.back();
      pending_.pop_back();
      if (!SameNode(pair.first, pair.second)) return false;
    }
    return true;
  }

 private:
  /*! \brief Compares two values; a pair of distinct nodes is queued (once) instead of compared now. */
  bool SameValue(const P4JAny& a, const P4JAny& b) {
    int32_t kind_a = 0;  // set when TextOf returns true; initialised for -Wmaybe-uninitialized
    int32_t kind_b = 0;
    std::string_view text_a;
    std::string_view text_b;
    bool is_text_a = TextOf(a, &kind_a, &text_a);
    bool is_text_b = TextOf(b, &kind_b, &text_b);
    if (is_text_a || is_text_b) return is_text_a && is_text_b && kind_a == kind_b && text_a == text_b;
    if (a.type_index != b.type_index) return false;
    switch (a.type_index) {
      case kP4JNone: return true;
      case kP4JBool:
      case kP4JInt: return a.v_int64 == b.v_int64;
      case kP4JFloat: return SameFloat(a.v_float64, b.v_float64);
      case kP4JDataType: return SameDataType(a.v_dtype, b.v_dtype);
      case kP4JDevice:
        return a.v_device.device_type == b.v_device.device_type && a.v_device.device_id == b.v_device.device_id;
      default: break;
    }
    if (!details::IsObjectValue(a) || !details::IsObjectValue(b)) return a.v_ptr == b.v_ptr;
    if (a.v_obj == b.v_obj) return true;
    if (seen_.emplace(a.v_obj, b.v_obj).second) pending_.emplace_back(a.v_obj, b.v_obj);
    return true;
  }

  bool SameNode(P4JObject* a, P4JObject* b) {
    if (a->type_index != b->type_index) return false;
    NodeKind kind = KindOf(a);
    if (IsIdentityNode(a, kind) || IsIdentityNode(b, kind)) return false;  // distinct objects (a != b here)
    switch (kind) {
      case NodeKind::kList: {
        const P4JListCell* x = ListCellOf(a);
        const P4JListCell* y = ListCellOf(b);
        if (x->size != y->size) return false;
        for (int64_t i = 0; i < x->size; ++i) {
          if (!SameValue(x->data[i], y->data[i])) return false;
        }
        return true;
      }
      case NodeKind::kMap: {
        const P4JMapCell* x = MapCellOf(a);
        const P4JMapCell* y = MapCellOf(b);
        if (x->size != y->size) return false;
        for (int64_t i = 0; i < 2 * x->size; ++i) {
          if (!SameValue(x->entries[i], y->entries[i])) return false;
        }
        return true;
      }
      case NodeKind::kTensor: {
        const DLTensor* x = TensorOf(a);
        const DLTensor* y = TensorOf(b);
        if (!SameDataType(x->dtype, y->dtype) || x->ndim != y->ndim) return false;
        for (int32_t d = 0; d < x->ndim; ++d) {
          if (x->shape[d] != y->shape[d]) return false;
        }
        std::string where = std::string(kEqualName) + ": ";
        return TensorBytes(x, INT64_MAX, where) == TensorBytes(y, INT64_MAX, where);
      }
      default: {
        const P4JTypeInfo* info = TypeInfoOf(a);
        for (int32_t i = 0; i < info->num_fields; ++i) {
          if (!SameField(a, b, info->fields[i], i)) return false;
        }
        return true;
      }
    }
  }

  bool SameField(P4JObject* a, P4JObject* b, const P4JFieldInfo& field, int32_t index) {
    const char* x = FieldAddress(a, field);
    const char* y = FieldAddress(b, field);
    switch (field.kind) {
      case kP4JFieldInt32:
      case kP4JFieldInt64:
      case kP4JFieldUInt64: return std::memcmp(x, y, static_cast<size_t>(field.size)) == 0;
      case kP4JFieldFloat64: {
        double u;
        double v;
        std::memcpy(&u, x, sizeof(u));
        std::memcpy(&v, y, sizeof(v));
        return SameFloat(u, v);
      }
      case kP4JFieldBool: return *reinterpret_cast<const bool*>(x) == *reinterpret_cast<const bool*>(y);
      case kP4JFieldString: return CopyStringField(a, field) == CopyStringField(b, field);
      default: return SameValue(graph_a_.FieldValue(a, index), graph_b_.FieldValue(b, index));
    }
  }

  const ObjectGraph& graph_a_;
  const ObjectGraph& graph_b_;
  std::vector<std::pair<P4JObject*, P4JObject*>> pending_;
  std::unordered_set<std::pair<P4JObject*, P4JObject*>, PairHash> seen_;
};

// ------------------------------------------------------------------------------------------------ deep copy

class Copier {
 public:
  explicit Copier(const ObjectGraph& graph) : graph_(graph) {}

  Any Copy(const P4JAny& root) {
    copies_.reserve(graph_.nodes().size());
    for (size_t i = 0; i < graph_.nodes().size(); ++i) {
      copies_.push_back(CopyNode(graph_.nodes()[i], graph_.KindAt(static_cast<int64_t>(i))));
    }
    return Any::FromOwned(MapValue(root));
  }

 private:
  /*! \brief An owned value: the copy of a node, or the value itself (strings and bytes are immutable). */
  P4JAny MapValue(const P4JAny& value) const {
    if (IsNode(value)) {
      P4JAny copy = details::NoneValue();
      details::StoreObject(copies_[graph_.IndexOf(value.v_obj)].get(), &copy);
      return copy;
    }
    return details::CopyToOwned(value);
  }

  ObjectPtr<Object> CopyNode(P4JObject* node, NodeKind kind) const {
    if (IsIdentityNode(node, kind)) return ObjectPtr<Object>::FromBorrowedHandle(node);
    switch (kind) {
      case NodeKind::kList: {
        const P4JListCell* cell = ListCellOf(node);
        P4JObject* created = nullptr;
        details::CheckCall(P4JListCreateWithCapacity(cell->size, &created));
        auto list = ObjectPtr<Object>::FromOwnedHandle(created);
        for (int64_t i = 0; i < cell->size; ++i) Append(created, MapValue(cell->data[i]));
        return list;
      }
      case NodeKind::kMap: {
        const P4JMapCell* cell = MapCellOf(node);
        P4JObject* created = nullptr;
        details::CheckCall(P4JMapCreate(nullptr, 0, &created));
        auto map = ObjectPtr<Object>::FromOwnedHandle(created);
        for (int64_t i = 0; i < cell->size; ++i) {
          Any key = Any::FromOwned(MapValue(cell->entries[2 * i]));
          Any value = Any::FromOwned(MapValue(cell->entries[2 * i + 1]));
          details::CheckCall(P4JMapSetItem(created, &key.raw(), &value.raw()));
        }
        return map;
      }
      case NodeKind::kTensor: {
        const DLTensor* tensor = TensorOf(node);
        std::string bytes = TensorBytes(tensor, INT64_MAX, std::string(kCopyName) + ": ");
        P4JObject* created = nullptr;
        DLDevice cpu{kDLCPU, 0};
        details::CheckCall(P4JNDArrayCreateEmpty(tensor->shape, tensor->ndim, &tensor->dtype, &cpu, &created));
        auto copy = ObjectPtr<Object>::FromOwnedHandle(created);
        if (!bytes.empty()) std::memcpy(TensorOf(created)->data, bytes.data(), bytes.size());
        return copy;
      }
      default: {
        auto copy = ObjectPtr<Object>::FromOwnedHandle(
            CreateDefaultObject(node->type_index, [] { return std::string(kCopyName) + ": "; }));
        const P4JTypeInfo* info = TypeInfoOf(node);
        for (int32_t i = 0; i < info->num_fields; ++i) CopyField(node, copy.handle(), info->fields[i], i);
        return copy;
      }
    }
  }

  static void Append(P4JObject* list, P4JAny owned) {
    Any item = Any::FromOwned(owned);
    details::CheckCall(P4JListAppend(list, &item.raw()));
  }

  void CopyField(P4JObject* from, P4JObject* to, const P4JFieldInfo& field, int32_t index) const {
    switch (field.kind) {
      case kP4JFieldString:
        *reinterpret_cast<std::string*>(FieldAddress(to, field)) = CopyStringField(from, field);
        return;
      case kP4JFieldObject: {
        Any value = Any::FromOwned(MapValue(graph_.FieldValue(from, index)));
        SetObjectField(to, field, details::IsObjectValue(value.raw()) ? value.raw().v_obj : nullptr);
        return;
      }
      default:
        std::memcpy(FieldAddress(to, field), FieldAddress(from, field), static_cast<size_t>(field.size));
        return;
    }
  }

  const ObjectGraph& graph_;
  std::vector<ObjectPtr<Object>> copies_;
};

P4J_REGISTER_GLOBAL(kEqualName).set_body_typed([](Any a, Any b) {
  ObjectGraph graph_a(a.raw(), kEqualName, 0);
  ObjectGraph graph_b(b.raw(), kEqualName, 0);
  return Comparer(graph_a, graph_b).Equal(a.raw(), b.raw());
});

/*! \brief The uint64 hash as an int64 of the same bits (the wire has no unsigned 64-bit integer). */
P4J_REGISTER_GLOBAL(kHashName).set_body_typed([](Any value) {
  ObjectGraph graph(value.raw(), kHashName, 0);
  return static_cast<int64_t>(Hasher(graph).Hash(value.raw()));
});

P4J_REGISTER_GLOBAL(kCopyName).set_body_typed([](Any value) {
  ObjectGraph graph(value.raw(), kCopyName, 0);
  return Copier(graph).Copy(value.raw());
});

}  // namespace
}  // namespace internal
}  // namespace packed4j
