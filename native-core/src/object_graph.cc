/*!
 * \file object_graph.cc
 * \brief The creation hooks of object types (recorded through packed4j_internal.RegisterObjectCreator by
 *  P4J_REGISTER_OBJECT_TYPE) and the iterative walk over object graphs shared by serialization and structural
 *  comparison.
 */
#include <algorithm>
#include "object_graph.h"

#include <cstring>
#include <mutex>

namespace packed4j {
namespace internal {
namespace {

/*! \brief What a type's registration told the core besides its fields. */
struct ObjectTraits {
  /*! \brief The creation hook (a function of no arguments returning a new default object), or NULL. */
  P4JObject* creator = nullptr;
  bool compare_by_identity = false;
};

/*!
 * \brief The traits of each type, first registration wins (as for a type's layout). Never destroyed: plugins may
 *  still create objects during exit. The creators are kept for the life of the process.
 */
class ObjectTraitsTable {
 public:
  static ObjectTraitsTable* Global() {
    static ObjectTraitsTable* table = new ObjectTraitsTable();
    return table;
  }

  void Record(int32_t type_index, P4JObject* creator, bool compare_by_identity) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto inserted = traits_.emplace(type_index, ObjectTraits{});
    ObjectTraits& traits = inserted.first->second;
    if (inserted.second) traits.compare_by_identity = compare_by_identity;
    if (traits.creator == nullptr && creator != nullptr) {
      details::IncRef(creator);
      traits.creator = creator;
    }
  }

  ObjectTraits Get(int32_t type_index) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = traits_.find(type_index);
    return found == traits_.end() ? ObjectTraits{} : found->second;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<int32_t, ObjectTraits> traits_;
};

/*!
 * \brief (type index, creator or None, compare by identity) from RegisterObjectType. Deliberately outside the
 *  "packed4j." names: it is plumbing for the headers, not an API, and only a dynamic type registered with fields
 *  is accepted. A type keeps its first hook.
 */
P4J_REGISTER_GLOBAL(details::kRegisterObjectCreatorName).set_body([](Args args, RetValue* rv) {
  const char* name = details::kRegisterObjectCreatorName;
  if (args.size() != 3) {
    throw TypeError(std::string(name) + ": expected 3 arguments (type index, creator, identity), got " +
                    std::to_string(args.size()));
  }
  int32_t type_index = args[0];
  const P4JAny& creator = args[1].raw();
  bool identity = args[2];
  if (type_index < kP4JDynamicObjectBegin) {
    throw ValueError(std::string(name) + ": argument 0 must be a registered dynamic type index, got " +
                     std::to_string(type_index));
  }
  const P4JTypeInfo* info = nullptr;
  if (P4JTypeGetInfo(type_index, &info) != 0) details::ThrowLastError();
  if (creator.type_index != kP4JNone && creator.type_index != kP4JFunction) {
    throw TypeError(std::string(name) + ": argument 1 expected a function or None, got " +
                    details::DescribeValue(creator));
  }
  ObjectTraitsTable::Global()->Record(type_index, creator.type_index == kP4JFunction ? creator.v_obj : nullptr,
                                      identity);
  *rv = nullptr;
});

/*! \brief An object field of a path: ".name". */
std::string FieldLabel(const P4JFieldInfo& field) { return "." + std::string(details::ViewOf(field.name)); }

/*! \brief One node being walked: which slot comes next and how it was reached. */
struct Frame {
  P4JObject* node;
  NodeKind kind;
  int64_t next_slot;
  /*! \brief SlotCount, taken once. */
  int64_t slot_count;
  /*! \brief For kFields, the type info, taken once (SlotValue would look it up per slot). */
  const P4JTypeInfo* info;
  /*! \brief For kFields, the node's first slot in the graph's field objects; else -1. */
  int64_t field_start;
};

/*! \brief "root", then each frame's label: root.children[2].next. */
std::string PathOf(const std::vector<Frame>& stack, size_t count) {
  // A deep path keeps its first and last steps: a message naming 512 levels would bury the rest of it.
  constexpr size_t kEnds = 8;
  size_t steps = std::min(count == 0 ? 0 : count - 1, stack.size());
  std::string path = "root";
  for (size_t i = 0; i < steps; ++i) {
    if (steps > 2 * kEnds && i == kEnds) {
      path += "... (" + std::to_string(steps - 2 * kEnds) + " more steps) ...";
      i = steps - kEnds - 1;
      continue;
    }
    path += SlotLabel(stack[i].node, stack[i].kind, stack[i].next_slot - 1);
  }
  return path;
}

}  // namespace

NodeKind KindOf(const P4JObject* node) {
  switch (node->type_index) {
    case kP4JList: return NodeKind::kList;
    case kP4JMap: return NodeKind::kMap;
    case kP4JNDArray: return NodeKind::kTensor;
    case kP4JFunction:
    case kP4JError:
    case kP4JObject: return NodeKind::kOpaque;
    default: break;
  }
  if (HandleIsInstance(node, kP4JNDArray)) return NodeKind::kOpaque;
  return NodeKind::kFields;
}

bool ComparesByIdentity(int32_t type_index) {
  return ObjectTraitsTable::Global()->Get(type_index).compare_by_identity;
}

P4JObject* CreateDefaultObject(int32_t type_index, const std::function<std::string()>& where) {
  ObjectTraits traits = ObjectTraitsTable::Global()->Get(type_index);
  if (traits.creator == nullptr) {
    throw ValueError(where() + "type \"" + details::TypeKeyOf(type_index) +
                     "\" cannot be created from data: it has no default constructor, or it was not registered with "
                     "P4J_REGISTER_OBJECT_TYPE by headers that record the creation hook");
  }
  P4JAny result = details::NoneValue();
  details::CheckCall(P4JFunctionCall(traits.creator, nullptr, 0, &result));
  if (!details::IsObjectValue(result) || result.v_obj->type_index != type_index) {
    ReleaseValue(&result);
    throw RuntimeError(where() + "the creation hook of type \"" + details::TypeKeyOf(type_index) +
                       "\" returned something else");
  }
  return result.v_obj;
}

P4JObject* ObjectCreatorOf(int32_t type_index) { return ObjectTraitsTable::Global()->Get(type_index).creator; }

const P4JTypeInfo* TypeInfoOf(const P4JObject* node) {
  const P4JTypeInfo* info = nullptr;
  details::CheckCall(P4JTypeGetInfo(node->type_index, &info));
  return info;
}

void SetObjectField(P4JObject* node, const P4JFieldInfo& field, P4JObject* value) {
  P4JObject** slot = reinterpret_cast<P4JObject**>(FieldAddress(node, field));
  if (value != nullptr) details::IncRef(value);
  P4JObject* old = *slot;
  *slot = value;
  if (old != nullptr) details::DecRef(old);
}

int64_t TensorByteCount(const std::vector<int64_t>& shape, DLDataType dtype) {
  if (dtype.bits == 0 || dtype.bits % 8 != 0 || dtype.lanes == 0) return -1;
  int64_t count = static_cast<int64_t>(dtype.bits / 8) * dtype.lanes;
  for (int64_t extent : shape) {
    if (extent < 0) return -1;
    if (extent != 0 && count > INT64_MAX / extent) return -1;
    count *= extent;
  }
  return count;
}

std::string TensorBytes(const DLTensor* tensor, int64_t max_bytes, const std::string& where) {
  if (tensor->device.device_type != kDLCPU) {
    throw ValueError(where + "a tensor on " + DeviceToString(tensor->device) +
                     " has no bytes in host memory (only CPU tensors are saved and copied)");
  }
  std::vector<int64_t> shape(tensor->shape, tensor->shape + tensor->ndim);
  int64_t total = TensorByteCount(shape, tensor->dtype);
  if (total < 0) {
    throw ValueError(where + "a tensor of dtype " + DataTypeToString(tensor->dtype) + " and shape " +
                     TupleToString(tensor->shape, tensor->ndim) + " has no whole number of bytes");
  }
  if (total > max_bytes) {
    throw ValueError(where + "a tensor of " + std::to_string(total) + " bytes is larger than the limit of " +
                     std::to_string(max_bytes) + " bytes");
  }
  std::string bytes(static_cast<size_t>(total), '\0');
  if (total == 0) return bytes;
  const char* base = static_cast<const char*>(tensor->data) + tensor->byte_offset;
  int64_t element = static_cast<int64_t>(tensor->dtype.bits / 8) * tensor->dtype.lanes;
  if (IsContiguousLayout(tensor->shape, tensor->strides, tensor->ndim)) {
    std::memcpy(&bytes[0], base, static_cast<size_t>(total));
    return bytes;
  }
  // Strided: walk the index like an odometer, innermost dimension fastest.
  std::vector<int64_t> index(static_cast<size_t>(tensor->ndim), 0);
  int64_t count = total / element;
  for (int64_t i = 0; i < count; ++i) {
    int64_t offset = 0;
    for (int32_t d = 0; d < tensor->ndim; ++d) offset += index[d] * tensor->strides[d];
    std::memcpy(&bytes[static_cast<size_t>(i * element)], base + offset * element, static_cast<size_t>(element));
    for (int32_t d = tensor->ndim - 1; d >= 0; --d) {
      if (++index[d] < tensor->shape[d]) break;
      index[d] = 0;
    }
  }
  return bytes;
}

int64_t SlotCount(P4JObject* node, NodeKind kind) {
  switch (kind) {
    case NodeKind::kList: return ListCellOf(node)->size;
    case NodeKind::kMap: return 2 * MapCellOf(node)->size;
    case NodeKind::kFields: return TypeInfoOf(node)->num_fields;
    default: return 0;
  }
}

P4JAny SlotValue(P4JObject* node, NodeKind kind, int64_t slot) {
  switch (kind) {
    case NodeKind::kList: return ListCellOf(node)->data[slot];
    case NodeKind::kMap: return MapCellOf(node)->entries[slot];
    default: return details::NoneValue();  // kFields: ObjectGraph::FieldValue, which a setter cannot free
  }
}

std::string SlotLabel(P4JObject* node, NodeKind kind, int64_t slot) {
  switch (kind) {
    case NodeKind::kList: return "[" + std::to_string(slot) + "]";
    case NodeKind::kMap: {
      const P4JAny& key = MapCellOf(node)->entries[slot - slot % 2];
      std::string name;
      if (key.type_index == kP4JInt) {
        name = std::to_string(key.v_int64);
      } else if (details::IsObjectValue(key) && key.v_obj->type_index == kP4JString) {
        name = details::QuoteForMessage(details::ViewOf(*details::CellOf<P4JByteArray>(key.v_obj)));
      } else {
        name = "<key " + std::to_string(slot / 2) + ">";
      }
      return slot % 2 == 0 ? "<key of [" + name + "]>" : "[" + name + "]";
    }
    case NodeKind::kFields: return FieldLabel(TypeInfoOf(node)->fields[slot]);
    default: return "";
  }
}

ObjectGraph::ObjectGraph(const P4JAny& root, const char* function, int max_depth) {
  if (!IsNode(root)) return;
  // One lookup per edge: index_ holds a finished node's position (>= 0), or -(stack position + 1) while the node
  // is on the stack, where a second visit is a cycle.
  std::vector<Frame> stack;
  auto push = [&](P4JObject* node) {
    if (max_depth > 0 && static_cast<int>(stack.size()) >= max_depth) {
      throw ValueError(std::string(function) + ": the value nests deeper than " + std::to_string(max_depth) +
                       " levels at " + PathOf(stack, stack.size() + 1));
    }
    index_.Set(node, -static_cast<int64_t>(stack.size()) - 1);
    NodeKind kind = KindOf(node);
    const P4JTypeInfo* info = kind == NodeKind::kFields ? TypeInfoOf(node) : nullptr;
    int64_t count = info != nullptr ? info->num_fields : SlotCount(node, kind);
    int64_t field_start = -1;
    if (info != nullptr) {
      field_start = static_cast<int64_t>(field_objects_.objects.size());
      field_objects_.objects.resize(field_objects_.objects.size() + static_cast<size_t>(count), nullptr);
    }
    stack.push_back(Frame{node, kind, 0, count, info, field_start});
  };
  push(root.v_obj);
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next_slot < top.slot_count) {
      P4JAny child = details::NoneValue();
      if (top.info != nullptr) {
        // A field holds a node only when it is an object field: skip the others without building a value.
        int64_t slot = top.next_slot++;
        const P4JFieldInfo& field = top.info->fields[slot];
        if (field.kind != kP4JFieldObject) continue;
        // Read once, under the field lock, with a reference the graph keeps (see the class comment).
        P4JObject* object = TakeObjectField(top.node, field);
        if (object == nullptr) continue;
        field_objects_.objects[static_cast<size_t>(top.field_start + slot)] = object;
        child.type_index = object->type_index;
        child.v_obj = object;
      } else {
        child = SlotValue(top.node, top.kind, top.next_slot++);
      }
      if (!IsNode(child)) continue;
      const int64_t* found = index_.Find(child.v_obj);
      if (found == nullptr) {
        push(child.v_obj);
      } else if (*found < 0) {
        size_t cycle = static_cast<size_t>(-*found - 1);
        throw ValueError(std::string(function) + ": the value has a cycle: " + PathOf(stack, stack.size() + 1) +
                         " refers back to " + PathOf(stack, cycle + 1));
      }
      continue;
    }
    index_.Set(top.node, static_cast<int64_t>(nodes_.size()));
    nodes_.push_back(top.node);
    kinds_.push_back(top.kind);
    field_starts_.push_back(top.field_start);
    stack.pop_back();
  }
}

}  // namespace internal
}  // namespace packed4j
