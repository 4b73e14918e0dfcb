/*!
 * \file serialization.cc
 * \brief packed4j.SaveJSON and packed4j.LoadJSON: any value as a "packed4j-json" document (see serialization.h
 *  for the format), with a JSON writer and a depth-bounded JSON parser of their own.
 *
 * Saving walks the graph once (object_graph.h: children first, each node once, cycles and nesting past 512
 * levels refused) and writes the nodes in that order, so a node only refers to nodes before it. Loading relies on
 * that order: it builds node i from nodes 0..i-1 in one forward pass, so a document cannot describe a cycle and no
 * recursion follows the graph.
 *
 * Loading has two readers of one meaning. StreamLoader builds the nodes as it reads the text, with no JSON tree,
 * for documents laid out as SaveJSON writes them; on anything else, and on every error, it gives up and Loader
 * reads the whole text again: Loader parses it into a tree first (so a malformed document is reported as such
 * wherever it breaks), then builds the nodes, and alone decides values and errors for what StreamLoader leaves.
 */
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "object_graph.h"

namespace packed4j {
namespace internal {
namespace {

constexpr const char* kSaveName = "packed4j.SaveJSON";
constexpr const char* kLoadName = "packed4j.LoadJSON";
constexpr const char* kFormatName = "packed4j-json";
constexpr int64_t kFormatVersion = 1;
/*! \brief The deepest JSON nesting LoadJSON parses; a document nests 6 levels at most (a map entry's pair). */
constexpr int kMaxJsonDepth = 32;

// ------------------------------------------------------------------------------------------------ base64

constexpr char kBase64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void AppendBase64(std::string_view data, std::string* out) {
  size_t i = 0;
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  for (; i + 3 <= data.size(); i += 3) {
    uint32_t group = (uint32_t{bytes[i]} << 16) | (uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    out->push_back(kBase64Alphabet[(group >> 18) & 63]);
    out->push_back(kBase64Alphabet[(group >> 12) & 63]);
    out->push_back(kBase64Alphabet[(group >> 6) & 63]);
    out->push_back(kBase64Alphabet[group & 63]);
  }
  size_t rest = data.size() - i;
  if (rest == 0) return;
  uint32_t group = uint32_t{bytes[i]} << 16;
  if (rest == 2) group |= uint32_t{bytes[i + 1]} << 8;
  out->push_back(kBase64Alphabet[(group >> 18) & 63]);
  out->push_back(kBase64Alphabet[(group >> 12) & 63]);
  out->push_back(rest == 2 ? kBase64Alphabet[(group >> 6) & 63] : '=');
  out->push_back('=');
}

int Base64Digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/*! \brief Strict standard base64 with padding; false on anything else. */
bool DecodeBase64(std::string_view text, std::string* out) {
  if (text.size() % 4 != 0) return false;
  out->clear();
  out->reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    int pad = 0;
    if (last && text[i + 3] == '=') pad = text[i + 2] == '=' ? 2 : 1;
    uint32_t group = 0;
    for (int k = 0; k < 4; ++k) {
      int digit = k >= 4 - pad ? 0 : Base64Digit(text[i + k]);
      if (digit < 0) return false;
      group = (group << 6) | static_cast<uint32_t>(digit);
    }
    out->push_back(static_cast<char>((group >> 16) & 0xff));
    if (pad < 2) out->push_back(static_cast<char>((group >> 8) & 0xff));
    if (pad < 1) out->push_back(static_cast<char>(group & 0xff));
  }
  return true;
}

// ------------------------------------------------------------------------------------------------ UTF-8

}  // namespace

/*! \brief The length of the valid UTF-8 sequence at text[i], or 0 (overlong forms and surrogates are invalid). */
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length;
  uint32_t code;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
    code = lead & 0x1f;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    code = lead & 0x0f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3f);
  }
  if ((length == 3 && (code < 0x800 || (code >= 0xd800 && code <= 0xdfff))) ||
      (length == 4 && (code < 0x10000 || code > 0x10ffff))) {
    return 0;
  }
  return length;
}

namespace {

void AppendUtf8(uint32_t code, std::string* out) {
  if (code < 0x80) {
    out->push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (code >> 6)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  } else if (code < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (code >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (code >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  }
}

// ------------------------------------------------------------------------------------------------ dtype names

/*! \brief Parses DataTypeToString's names ("float32", "int8x4", "bool"); false for anything else. */
bool ParseDataType(std::string_view name, DLDataType* out) {
  struct Prefix {
    const char* text;
    uint8_t code;
  };
  static const Prefix kPrefixes[] = {{"bfloat", kDLBfloat}, {"float", kDLFloat}, {"uint", kDLUInt},
                                     {"int", kDLInt},       {"complex", kDLComplex}, {"handle", kDLOpaqueHandle},
                                     {"bool", P4J_DL_BOOL_CODE}};
  for (const Prefix& prefix : kPrefixes) {
    std::string_view text(prefix.text);
    if (name.substr(0, text.size()) != text) continue;
    std::string_view rest = name.substr(text.size());
    uint64_t bits = prefix.code == P4J_DL_BOOL_CODE ? 8 : 0;
    uint64_t lanes = 1;
    size_t x = rest.find('x');
    std::string_view bits_text = rest.substr(0, x);
    if (!bits_text.empty() || prefix.code != P4J_DL_BOOL_CODE) {
      auto parsed = std::from_chars(bits_text.data(), bits_text.data() + bits_text.size(), bits);
      if (bits_text.empty() || parsed.ec != std::errc() || parsed.ptr != bits_text.data() + bits_text.size() ||
          bits == 0 || bits > 255) {
        return false;
      }
    }
    if (x != std::string_view::npos) {
      std::string_view lanes_text = rest.substr(x + 1);
      auto parsed = std::from_chars(lanes_text.data(), lanes_text.data() + lanes_text.size(), lanes);
      if (lanes_text.empty() || parsed.ec != std::errc() || parsed.ptr != lanes_text.data() + lanes_text.size() ||
          lanes == 0 || lanes > 65535) {
        return false;
      }
    }
    *out = DLDataType{prefix.code, static_cast<uint8_t>(bits), static_cast<uint16_t>(lanes)};
    return DataTypeToString(*out) == name;  // one spelling per dtype ("float032" is not "float32")
  }
  return false;
}

// ------------------------------------------------------------------------------------------------ paths

/*!
 * \brief A place in a document ("nodes[3].fields.price"), built on the stack as the writer and the loader descend
 *  and turned into text only for an error message, so the common path allocates nothing for it.
 */
struct Path {
  const Path* parent = nullptr;
  /*! \brief A member (".name"; the first segment when there is no parent), or empty for an element. */
  std::string_view name;
  /*! \brief The element ("[index]") when name is empty. */
  int64_t index = -1;

  Path Member(std::string_view member) const { return Path{this, member, -1}; }
  Path Element(int64_t i) const { return Path{this, std::string_view(), i}; }
  std::string Text() const {
    std::string prefix = parent != nullptr ? parent->Text() : std::string();
    if (!name.empty()) return parent != nullptr ? prefix + "." + std::string(name) : std::string(name);
    return prefix + "[" + std::to_string(index) + "]";
  }
};

// ------------------------------------------------------------------------------------------------ writing

class Writer {
 public:
  /*! \brief Writes into *buffer (its contents are replaced; its memory is reused). */
  Writer(const ObjectGraph& graph, std::string* buffer) : graph_(graph), out_(*buffer) {}

  String Save(const P4JAny& root) {
    // A node of a few fields is some 110 bytes: start above that, so the buffer rarely grows (and is copied).
    size_t estimate = std::min<size_t>(graph_.nodes().size() * 128 + 256, size_t{64} << 20);
    if (out_.size() < estimate) out_.resize(estimate);
    Put("{\"format\":\"");
    Put(kFormatName);
    Put("\",\"version\":");
    WriteInt(kFormatVersion);
    Put(",\"root\":");
    WriteValue(root, Path{nullptr, "root"});
    Put(",\"nodes\":[");
    Path nodes{nullptr, "nodes"};
    for (size_t i = 0; i < graph_.nodes().size(); ++i) {
      if (i != 0) Put(',');
      WriteNode(graph_.nodes()[i], graph_.KindAt(static_cast<int64_t>(i)), nodes.Element(static_cast<int64_t>(i)));
    }
    Put("]}");
    return String(std::string_view(out_.data(), length_));
  }

 private:
  /*! \brief What a fields node of one type writes besides its values, encoded at the type's first node. */
  struct FieldsText {
    const P4JTypeInfo* info;
    /*! \brief {"type":"<key>","fields":{ */
    std::string header;
    /*! \brief "<name>": for each field, after a ',' but the first. */
    std::vector<std::string> names;
  };

  [[noreturn]] void Fail(const Path& where, const std::string& what) const {
    throw ValueError(std::string(kSaveName) + ": " + where.Text() + ": " + what);
  }

  /*!
   * \brief Room for n more bytes at the end of the text. The text is out_[0, length_): out_ is kept larger than
   *  the text so that writing is a store and a length, not a std::string append, per piece.
   */
  char* Room(size_t n) {
    if (out_.size() - length_ < n) out_.resize(std::max(out_.size() * 2, length_ + n + 4096));
    return &out_[length_];
  }

  void Put(char c) {
    *Room(1) = c;
    ++length_;
  }

  /*! \brief A literal: its length is known here, so the copy is a few stores. */
  template <size_t N>
  void Put(const char (&text)[N]) {
    std::memcpy(Room(N - 1), text, N - 1);
    length_ += N - 1;
  }

  void Put(std::string_view text) {
    std::memcpy(Room(text.size()), text.data(), text.size());
    length_ += text.size();
  }

  /*! \brief Whether a byte is written as it is inside a string: printable ASCII other than '"' and '\\'. */
  static bool Plain(unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; }

  void WriteString(std::string_view text, const Path& where) {
    // Room for the common case, a string of plain bytes, at once; escapes and UTF-8 take more room piece by piece.
    char* start = Room(text.size() + 2);
    *start = '"';
    ++length_;
    size_t i = 0;
    while (i < text.size()) {
      size_t run = i;
      while (run < text.size() && Plain(static_cast<unsigned char>(text[run]))) ++run;
      if (run != i) {
        std::memcpy(Room(run - i), text.data() + i, run - i);
        length_ += run - i;
        i = run;
        if (i == text.size()) break;
      }
      unsigned char c = static_cast<unsigned char>(text[i]);
      if (c >= 0x80) {
        size_t length = Utf8SequenceLength(text, i);
        if (length == 0) {
          Fail(where, "the string " + details::QuoteForMessage(text) + " is not valid UTF-8 (byte " +
                          std::to_string(i) + "); keep binary data in Bytes");
        }
        Put(text.substr(i, length));
        i += length;
        continue;
      }
      switch (c) {
        case '"': Put("\\\""); break;
        case '\\': Put("\\\\"); break;
        case '\n': Put("\\n"); break;
        case '\r': Put("\\r"); break;
        case '\t': Put("\\t"); break;
        case '\b': Put("\\b"); break;
        case '\f': Put("\\f"); break;
        default: {
          static const char kHex[] = "0123456789abcdef";
          char escape[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
          Put(std::string_view(escape, sizeof(escape)));
        }
      }
      ++i;
    }
    Put('"');
  }

  void WriteInt(int64_t value) {
    char* text = Room(24);
    length_ += static_cast<size_t>(std::to_chars(text, text + 24, value).ptr - text);
  }

  void WriteUInt(uint64_t value) {
    char* text = Room(24);
    length_ += static_cast<size_t>(std::to_chars(text, text + 24, value).ptr - text);
  }

  /*! \brief A finite float always has a '.' or an exponent (so it reads back as a float); others are tagged. */
  void WriteFloat(double value) {
    if (std::isnan(value)) {
      Put("{\"float\":\"nan\"}");
    } else if (std::isinf(value)) {
      Put(value > 0 ? "{\"float\":\"inf\"}" : "{\"float\":\"-inf\"}");
    } else {
      char* text = Room(40);
      char* end = std::to_chars(text, text + 40, value).ptr;
      std::string_view written(text, static_cast<size_t>(end - text));
      length_ += written.size();
      if (written.find_first_of(".e") == std::string_view::npos) Put(".0");
    }
  }

  void WriteBytes(std::string_view data) {
    Put("{\"bytes\":\"");
    std::string encoded;
    AppendBase64(data, &encoded);
    Put(encoded);
    Put("\"}");
  }

  void WriteValue(const P4JAny& value, const Path& where) {
    switch (value.type_index) {
      case kP4JNone: Put("null"); return;
      case kP4JBool: Put(value.v_int64 != 0 ? "true" : "false"); return;
      case kP4JInt: WriteInt(value.v_int64); return;
      case kP4JFloat: WriteFloat(value.v_float64); return;
      case kP4JStrView:
        WriteString(std::string_view(static_cast<const char*>(value.v_ptr), value.small_len), where);
        return;
      case kP4JBytesView: WriteBytes(std::string_view(static_cast<const char*>(value.v_ptr), value.small_len)); return;
      case kP4JDataType:
        Put("{\"dtype\":\"" + DataTypeToString(value.v_dtype) + "\"}");
        return;
      case kP4JDevice:
        Put("{\"device\":[" + std::to_string(static_cast<int>(value.v_device.device_type)) + "," +
            std::to_string(value.v_device.device_id) + "]}");
        return;
      default: break;
    }
    if (!details::IsObjectValue(value)) {
      Fail(where, details::DescribeValue(value) + " cannot be saved (it is not data)");
    }
    if (value.v_obj->type_index == kP4JString) {
      WriteString(details::ViewOf(*details::CellOf<P4JByteArray>(value.v_obj)), where);
    } else if (value.v_obj->type_index == kP4JBytes) {
      WriteBytes(details::ViewOf(*details::CellOf<P4JByteArray>(value.v_obj)));
    } else {
      Put("{\"ref\":");
      WriteInt(graph_.IndexOf(value.v_obj));
      Put('}');
    }
  }

  static bool ValidUtf8(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
      size_t length = Utf8SequenceLength(text, i);
      if (length == 0) return false;
      i += length;
    }
    return true;
  }

  /*!
   * \brief The fixed text of a type's nodes, encoded at its first node; NULL when its key or a field name is not
   *  UTF-8 (then the node is written piece by piece, failing where the piece is).
   */
  const FieldsText* TextFor(P4JObject* node) {
    int32_t type_index = node->type_index;
    if (last_text_ != nullptr && last_type_ == type_index) return last_text_;
    auto found = texts_.find(type_index);
    if (found == texts_.end()) {
      FieldsText text;
      text.info = TypeInfoOf(node);
      bool valid = ValidUtf8(details::ViewOf(text.info->type_key));
      for (int32_t i = 0; i < text.info->num_fields; ++i) {
        valid = valid && ValidUtf8(details::ViewOf(text.info->fields[i].name));
      }
      if (!valid) return nullptr;
      size_t start = length_;
      Path unused{nullptr, "unused"};
      Put("{\"type\":");
      WriteString(details::ViewOf(text.info->type_key), unused);
      Put(",\"fields\":{");
      text.header.assign(&out_[start], length_ - start);
      for (int32_t i = 0; i < text.info->num_fields; ++i) {
        length_ = start;
        if (i != 0) Put(',');
        WriteString(details::ViewOf(text.info->fields[i].name), unused);
        Put(':');
        text.names.emplace_back(&out_[start], length_ - start);
      }
      length_ = start;
      found = texts_.emplace(type_index, std::move(text)).first;
    }
    last_type_ = type_index;
    last_text_ = &found->second;
    return last_text_;
  }

  void WriteNode(P4JObject* node, NodeKind kind, const Path& where) {
    switch (kind) {
      case NodeKind::kList: {
        Put("{\"type\":\"List\",\"items\":[");
        const P4JListCell* cell = ListCellOf(node);
        Path items = where.Member("items");
        for (int64_t i = 0; i < cell->size; ++i) {
          if (i != 0) Put(',');
          WriteValue(cell->data[i], items.Element(i));
        }
        Put("]}");
        return;
      }
      case NodeKind::kMap: {
        Put("{\"type\":\"Map\",\"entries\":[");
        const P4JMapCell* cell = MapCellOf(node);
        Path entries = where.Member("entries");
        for (int64_t i = 0; i < cell->size; ++i) {
          Path entry = entries.Element(i);
          Put(i != 0 ? ",[" : "[");
          WriteValue(cell->entries[2 * i], entry);
          Put(',');
          WriteValue(cell->entries[2 * i + 1], entry);
          Put(']');
        }
        Put("]}");
        return;
      }
      case NodeKind::kTensor: {
        const DLTensor* tensor = TensorOf(node);
        std::string data = TensorBytes(tensor, kMaxTensorBytes, std::string(kSaveName) + ": " + where.Text() + ": ");
        Put("{\"type\":\"NDArray\",\"dtype\":\"" + DataTypeToString(tensor->dtype) + "\",\"shape\":[");
        for (int32_t d = 0; d < tensor->ndim; ++d) {
          if (d != 0) Put(',');
          WriteInt(tensor->shape[d]);
        }
        Put("],\"data\":\"");
        std::string encoded;
        AppendBase64(data, &encoded);
        Put(encoded);
        Put("\"}");
        return;
      }
      case NodeKind::kFields: {
        const FieldsText* text = TextFor(node);
        Path fields = where.Member("fields");
        if (text != nullptr) {
          Put(text->header);
          for (size_t i = 0; i < text->names.size(); ++i) {
            const P4JFieldInfo& field = text->info->fields[i];
            Put(text->names[i]);
            WriteField(node, field, static_cast<int32_t>(i), fields, field.name);
          }
        } else {
          const P4JTypeInfo* info = TypeInfoOf(node);
          Put("{\"type\":");
          WriteString(details::ViewOf(info->type_key), where);
          Put(",\"fields\":{");
          for (int32_t i = 0; i < info->num_fields; ++i) {
            const P4JFieldInfo& field = info->fields[i];
            if (i != 0) Put(',');
            WriteString(details::ViewOf(field.name), fields.Member(details::ViewOf(field.name)));
            Put(':');
            WriteField(node, field, i, fields, field.name);
          }
        }
        Put("}}");
        return;
      }
      case NodeKind::kOpaque:
        Fail(where, "a " + details::TypeKeyOf(node->type_index) +
                        " object cannot be saved (only lists, maps, NDArrays and objects of registered types are "
                        "data)");
    }
  }

  /*!
   * \brief Field index of node; fields and name make its path, built only when it is needed. A string is copied
   *  under the field lock and an object is the one the graph walked (a setter may run on another thread).
   */
  void WriteField(P4JObject* node, const P4JFieldInfo& field, int32_t index, const Path& fields,
                  const P4JByteArray& name) {
    const char* address = FieldAddress(node, field);
    switch (field.kind) {
      case kP4JFieldInt32: {
        int32_t value;
        std::memcpy(&value, address, sizeof(value));
        WriteInt(value);
        return;
      }
      case kP4JFieldInt64: {
        int64_t value;
        std::memcpy(&value, address, sizeof(value));
        WriteInt(value);
        return;
      }
      case kP4JFieldUInt64: {
        uint64_t value;
        std::memcpy(&value, address, sizeof(value));
        WriteUInt(value);
        return;
      }
      case kP4JFieldFloat64: {
        double value;
        std::memcpy(&value, address, sizeof(value));
        WriteFloat(value);
        return;
      }
      case kP4JFieldBool:
        Put(*reinterpret_cast<const bool*>(address) ? "true" : "false");
        return;
      case kP4JFieldString:
        WriteString(CopyStringField(node, field), fields.Member(details::ViewOf(name)));
        return;
      case kP4JFieldObject:
      default:
        WriteValue(graph_.FieldValue(node, index), fields.Member(details::ViewOf(name)));
        return;
    }
  }

  const ObjectGraph& graph_;
  std::string& out_;
  size_t length_ = 0;
  std::unordered_map<int32_t, FieldsText> texts_;
  int32_t last_type_ = -1;
  const FieldsText* last_text_ = nullptr;
};

// ------------------------------------------------------------------------------------------------ parsing

/*! \brief A parsed JSON value. Object members keep their order; keys are unique (the parser refuses repeats). */
struct Json {
  enum Kind : uint8_t { kNull, kBool, kInt, kUInt, kFloat, kString, kArray, kObject };
  Kind kind = kNull;
  bool boolean = false;
  int64_t integer = 0;
  uint64_t unsigned_integer = 0;
  double number = 0;
  std::string text;
  std::vector<Json> items;
  std::vector<std::string> keys;  // for kObject, items holds the values

  const Json* Find(std::string_view key) const {
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == key) return &items[i];
    }
    return nullptr;
  }
};

/*! \brief "an integer 3", "a string \"x\"", "an object": a JSON value in a message. */
/*! \brief "an Account", "a Calculator": a type key after the article it is read with. */
std::string WithArticle(const std::string& type_key) {
  bool vowel = !type_key.empty() && std::string_view("AEIOUaeiou").find(type_key[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + type_key;
}

std::string DescribeJson(const Json& value) {
  switch (value.kind) {
    case Json::kNull: return "null";
    case Json::kBool: return value.boolean ? "true" : "false";
    case Json::kInt: return "the integer " + std::to_string(value.integer);
    case Json::kUInt: return "the integer " + std::to_string(value.unsigned_integer);
    case Json::kFloat: {
      // Written as the JSON had it: 1.0 is a float, not the integer 1.
      std::string number = details::FormatDouble(value.number);
      if (number.find_first_of(".eEni") == std::string::npos) number += ".0";
      return "the number " + number;
    }
    case Json::kString: return "the string " + details::QuoteForMessage(value.text);
    case Json::kArray: return "an array of " + std::to_string(value.items.size()) + " elements";
    case Json::kObject: {
      std::string keys;
      for (size_t i = 0; i < value.keys.size() && i < 4; ++i) keys += (i != 0 ? ", " : "") + value.keys[i];
      if (value.keys.size() > 4) keys += ", ...";
      return "an object with keys {" + keys + "}";
    }
  }
  return "a value";
}

/*! \brief A recursive-descent parser bounded to kMaxJsonDepth levels, so its stack use is bounded too. */
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Json ParseDocument() {
    Json value = ParseValue(0);
    SkipWhitespace();
    if (pos_ != text_.size()) Fail("unexpected text after the document");
    return value;
  }

  /*! \brief The value at *pos, parsed as if nested depth levels deep; *pos moves past it. */
  Json ParseValueAt(size_t* pos, int depth) {
    pos_ = *pos;
    Json value = ParseValue(depth);
    *pos = pos_;
    return value;
  }

  /*! \brief The string whose opening quote is at *pos, unescaped into *out; *pos moves past its closing quote. */
  void ParseStringAt(size_t* pos, std::string* out) {
    pos_ = *pos;
    *out = ParseString();
    *pos = pos_;
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    size_t line = 1;
    size_t column = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw ValueError(std::string(kLoadName) + ": malformed JSON at line " + std::to_string(line) + ", column " +
                     std::to_string(column) + " (byte " + std::to_string(pos_) + "): " + what);
  }

  void SkipWhitespace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t')) {
      ++pos_;
    }
  }

  void Expect(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) Fail("expected " + std::string(word));
    pos_ += word.size();
  }

  Json ParseValue(int depth) {
    SkipWhitespace();
    if (pos_ >= text_.size()) Fail("unexpected end of input, expected a value");
    Json value;
    char c = text_[pos_];
    switch (c) {
      case '{':
      case '[':
        if (depth >= kMaxJsonDepth) {
          Fail("the document nests deeper than " + std::to_string(kMaxJsonDepth) +
               " levels (a packed4j-json document nests 6 at most: nodes refer to each other by index)");
        }
        return c == '{' ? ParseObject(depth + 1) : ParseArray(depth + 1);
      case '"':
        value.kind = Json::kString;
        value.text = ParseString();
        return value;
      case 't':
        Expect("true");
        value.kind = Json::kBool;
        value.boolean = true;
        return value;
      case 'f':
        Expect("false");
        value.kind = Json::kBool;
        return value;
      case 'n':
        Expect("null");
        return value;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber();
        if (text_.compare(pos_, 3, "\xEF\xBB\xBF") == 0) {
          // Editors on Windows save one; JSON text (RFC 8259) has none, and as a character it would print garbled.
          Fail("unexpected UTF-8 byte order mark (bytes EF BB BF): save the document without one");
        }
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte >= 0x7f) {  // a control byte, or part of a non-ASCII character: no JSON value starts so
          static constexpr char kHex[] = "0123456789ABCDEF";
          Fail(std::string("unexpected byte 0x") + kHex[byte >> 4] + kHex[byte & 0xf] + ", expected a value");
        }
        Fail(std::string("unexpected character ") + details::QuoteForMessage(std::string_view(&text_[pos_], 1)));
    }
  }

  Json ParseObject(int depth) {
    Json value;
    value.kind = Json::kObject;
    ++pos_;
    SkipWhitespace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return value;
    }
    while (true) {
      SkipWhitespace();
      if (pos_ >= text_.size() || text_[pos_] != '"') Fail("expected a string key");
      size_t key_pos = pos_;
      std::string key = ParseString();
      if (value.Find(key) != nullptr) {
        pos_ = key_pos;
        Fail("the key " + details::QuoteForMessage(key) + " appears twice in one object");
      }
      SkipWhitespace();
      if (pos_ >= text_.size() || text_[pos_] != ':') Fail("expected ':' after a key");
      ++pos_;
      value.keys.push_back(std::move(key));
      value.items.push_back(ParseValue(depth));
      SkipWhitespace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return value;
      }
      Fail("expected ',' or '}' in an object");
    }
  }

  Json ParseArray(int depth) {
    Json value;
    value.kind = Json::kArray;
    ++pos_;
    SkipWhitespace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return value;
    }
    while (true) {
      value.items.push_back(ParseValue(depth));
      SkipWhitespace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return value;
      }
      Fail("expected ',' or ']' in an array");
    }
  }

  uint32_t ParseHex4() {
    if (pos_ + 4 > text_.size()) Fail("a \\u escape needs 4 hex digits");
    uint32_t code = 0;
    for (int k = 0; k < 4; ++k) {
      char c = text_[pos_++];
      int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                   : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (digit < 0) Fail("a \\u escape needs 4 hex digits");
      code = (code << 4) | static_cast<uint32_t>(digit);
    }
    return code;
  }

  std::string ParseString() {
    ++pos_;  // the opening quote
    std::string out;
    while (true) {
      // The common case first: a run of plain ASCII, appended at once.
      size_t run = pos_;
      while (run < text_.size()) {
        unsigned char plain = static_cast<unsigned char>(text_[run]);
        if (plain == '"' || plain == '\\' || plain < 0x20 || plain >= 0x80) break;
        ++run;
      }
      out.append(text_.data() + pos_, run - pos_);
      pos_ = run;
      if (pos_ >= text_.size()) Fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c < 0x20) Fail("a control character in a string must be escaped");
      if (c >= 0x80) {
        size_t length = Utf8SequenceLength(text_, pos_);
        if (length == 0) Fail("invalid UTF-8 in a string");
        out.append(text_.data() + pos_, length);
        pos_ += length;
        continue;
      }
      ++pos_;
      if (c != '\\') {
        out.push_back(static_cast<char>(c));
        continue;
      }
      if (pos_ >= text_.size()) Fail("unterminated escape");
      char escape = text_[pos_++];
      switch (escape) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          uint32_t code = ParseHex4();
          if (code >= 0xdc00 && code <= 0xdfff) Fail("a lone low surrogate in a \\u escape");
          if (code >= 0xd800 && code <= 0xdbff) {
            if (text_.substr(pos_, 2) != "\\u") Fail("a high surrogate without its low surrogate");
            pos_ += 2;
            uint32_t low = ParseHex4();
            if (low < 0xdc00 || low > 0xdfff) Fail("a high surrogate without its low surrogate");
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          }
          AppendUtf8(code, &out);
          break;
        }
        default: Fail("unknown escape");
      }
    }
  }

  Json ParseNumber() {
    size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    auto digits = [&]() {
      size_t first = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ - first;
    };
    size_t int_start = pos_;
    if (digits() == 0) Fail("a number needs digits");
    if (text_[int_start] == '0' && pos_ - int_start > 1) Fail("a number must not have leading zeros");
    bool is_float = false;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      is_float = true;
      if (digits() == 0) Fail("a number needs digits after '.'");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      is_float = true;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (digits() == 0) Fail("a number needs digits in its exponent");
    }
    std::string_view literal = text_.substr(start, pos_ - start);
    Json value;
    if (is_float) {
      value.kind = Json::kFloat;
      auto parsed = std::from_chars(literal.data(), literal.data() + literal.size(), value.number);
      if (parsed.ec != std::errc() || !std::isfinite(value.number)) {
        pos_ = start;
        Fail("the number " + std::string(literal.substr(0, 40)) + " is out of range for float64");
      }
      return value;
    }
    auto parsed = std::from_chars(literal.data(), literal.data() + literal.size(), value.integer);
    if (parsed.ec == std::errc()) {
      value.kind = Json::kInt;
      return value;
    }
    if (literal[0] != '-') {
      parsed = std::from_chars(literal.data(), literal.data() + literal.size(), value.unsigned_integer);
      if (parsed.ec == std::errc()) {
        value.kind = Json::kUInt;
        return value;
      }
    }
    pos_ = start;
    Fail("the integer " + std::string(literal.substr(0, 40)) + (literal.size() > 40 ? "..." : "") +
         " is out of range (integers are int64, or uint64 for a uint64 field)");
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// ------------------------------------------------------------------------------------------------ loading

/*! \brief An owned value that is released unless taken. */
struct OwnedValue {
  P4JAny value = details::NoneValue();
  OwnedValue() = default;
  explicit OwnedValue(P4JAny owned) : value(owned) {}
  OwnedValue(OwnedValue&& other) noexcept : value(other.value) { other.value = details::NoneValue(); }
  OwnedValue& operator=(OwnedValue&& other) noexcept {
    std::swap(value, other.value);
    return *this;
  }
  OwnedValue(const OwnedValue&) = delete;
  OwnedValue& operator=(const OwnedValue&) = delete;
  ~OwnedValue() { ReleaseValue(&value); }
  P4JAny Release() {
    P4JAny out = value;
    value = details::NoneValue();
    return out;
  }
};

/*! \brief The value of an owned object handle. */
OwnedValue OwnedObject(P4JObject* handle) {
  P4JAny value = details::NoneValue();
  details::StoreOwnedObject(handle, &value);
  return OwnedValue(value);
}

class Loader {
 public:
  Any Load(std::string_view text) {
    Json document = Parser(text).ParseDocument();
    const Path doc{nullptr, "the document"};
    const Path format_path{nullptr, "format"};
    const Path version_path{nullptr, "version"};
    const Path nodes_path{nullptr, "nodes"};
    if (document.kind != Json::kObject) Fail(doc, "expected an object, got " + DescribeJson(document));
    const Json* format = document.Find("format");
    if (format == nullptr) Fail(doc, "not a packed4j-json document: it has no \"format\"");
    if (format->kind != Json::kString || format->text != kFormatName) {
      Fail(format_path, "unknown format " + DescribeJson(*format) + " (expected \"" + kFormatName + "\")");
    }
    const Json* version = document.Find("version");
    if (version == nullptr) Fail(doc, "missing \"version\"");
    if (version->kind == Json::kUInt || (version->kind == Json::kInt && version->integer > kFormatVersion)) {
      Fail(version_path, "version " + DescribeJson(*version).substr(12) + " is newer than this reader's (" +
                          std::to_string(kFormatVersion) + "); load it with a newer packed4j");
    }
    if (version->kind != Json::kInt || version->integer < 1) {
      Fail(version_path, "expected a format version from 1 to " + std::to_string(kFormatVersion) + ", got " +
                          DescribeJson(*version));
    }
    CheckKeys(document, doc, {"format", "version", "root", "nodes"});
    const Json& nodes = Member(document, "nodes", doc);
    if (nodes.kind != Json::kArray) Fail(nodes_path, "expected an array, got " + DescribeJson(nodes));
    nodes_.reserve(nodes.items.size());
    depths_.reserve(nodes.items.size());
    for (size_t i = 0; i < nodes.items.size(); ++i) {
      LoadNode(nodes.items[i], nodes_path.Element(static_cast<int64_t>(i)));
    }
    int depth = 0;
    OwnedValue root = DecodeValue(Member(document, "root", doc), nodes_.size(), Path{nullptr, "root"}, &depth);
    return Any::FromOwned(root.Release());
  }

 protected:
  [[noreturn]] static void Fail(const Path& where, const std::string& what) {
    throw ValueError(std::string(kLoadName) + ": " + where.Text() + ": " + what);
  }

  static const Json& Member(const Json& object, std::string_view key, const Path& where) {
    const Json* found = object.Find(key);
    if (found == nullptr) Fail(where, "missing \"" + std::string(key) + "\"");
    return *found;
  }

  /*! \brief Refuses a key that is not one of allowed (the first found, named). */
  static void CheckKeys(const Json& object, const Path& where, std::initializer_list<std::string_view> allowed) {
    for (const std::string& key : object.keys) {
      bool known = false;
      for (std::string_view name : allowed) known = known || key == name;
      if (!known) Fail(where, "unknown key " + details::QuoteForMessage(key));
    }
    for (std::string_view name : allowed) Member(object, name, where);
  }

  /*!
   * \brief A value (see serialization.h); refs must name a node below limit. *depth grows to the depth of a
   *  referenced node.
   */
  OwnedValue DecodeValue(const Json& json, size_t limit, const Path& where, int* depth) {
    P4JAny value = details::NoneValue();
    switch (json.kind) {
      case Json::kNull: return OwnedValue();
      case Json::kBool:
        value.type_index = kP4JBool;
        value.v_int64 = json.boolean ? 1 : 0;
        return OwnedValue(value);
      case Json::kInt:
        details::StoreInt(json.integer, &value);
        return OwnedValue(value);
      case Json::kUInt:
        Fail(where, DescribeJson(json) + " is out of range for int64");
      case Json::kFloat:
        value.type_index = kP4JFloat;
        value.v_float64 = json.number;
        return OwnedValue(value);
      case Json::kString:
        return OwnedObject(details::NewStringObject(json.text));
      case Json::kArray:
        Fail(where, "expected a value, got " + DescribeJson(json) +
                        " (a list is a node in \"nodes\", referred to as {\"ref\": index})");
      case Json::kObject:
        break;
    }
    if (json.keys.size() != 1) {
      Fail(where, "expected a value, got " + DescribeJson(json) +
                      " (a tagged value has exactly one of the keys ref, float, bytes, dtype, device)");
    }
    const std::string& tag = json.keys[0];
    const Json& payload = json.items[0];
    Path inner = where.Member(tag);
    if (tag == "ref") {
      if (payload.kind != Json::kInt || payload.integer < 0 || static_cast<uint64_t>(payload.integer) >= limit) {
        Fail(inner, (limit == 0 ? std::string("expected the index of an earlier node, but none comes before this one;")
                                : "expected the index of an earlier node (0 to " +
                                      std::to_string(static_cast<int64_t>(limit) - 1) + "),") +
                        " got " + DescribeJson(payload) + " (a node refers only to nodes before it)");
      }
      size_t index = static_cast<size_t>(payload.integer);
      *depth = std::max(*depth, depths_[index]);
      P4JAny ref = details::NoneValue();
      details::StoreObject(nodes_[index].value.v_obj, &ref);
      return OwnedValue(ref);
    }
    if (tag == "float") {
      value.type_index = kP4JFloat;
      if (payload.kind == Json::kString && payload.text == "nan") {
        value.v_float64 = std::nan("");
      } else if (payload.kind == Json::kString && payload.text == "inf") {
        value.v_float64 = HUGE_VAL;
      } else if (payload.kind == Json::kString && payload.text == "-inf") {
        value.v_float64 = -HUGE_VAL;
      } else {
        Fail(inner, "expected \"nan\", \"inf\" or \"-inf\", got " + DescribeJson(payload));
      }
      return OwnedValue(value);
    }
    if (tag == "bytes") {
      std::string data;
      if (payload.kind != Json::kString || !DecodeBase64(payload.text, &data)) {
        Fail(inner, "expected base64 text (standard alphabet, padded), got " + DescribeJson(payload));
      }
      return OwnedObject(details::NewBytesObject(data));
    }
    if (tag == "dtype") {
      if (payload.kind != Json::kString || !ParseDataType(payload.text, &value.v_dtype)) {
        Fail(inner, "expected a dtype name such as \"float32\", got " + DescribeJson(payload));
      }
      value.type_index = kP4JDataType;
      return OwnedValue(value);
    }
    if (tag == "device") {
      if (payload.kind != Json::kArray || payload.items.size() != 2 || payload.items[0].kind != Json::kInt ||
          payload.items[1].kind != Json::kInt || payload.items[0].integer < 0 ||
          payload.items[0].integer > INT32_MAX || payload.items[1].integer < 0 ||
          payload.items[1].integer > INT32_MAX) {
        Fail(inner, "expected [device type, device id] (two non-negative int32), got " + DescribeJson(payload));
      }
      value.type_index = kP4JDevice;
      value.v_device.device_type = static_cast<DLDeviceType>(payload.items[0].integer);
      value.v_device.device_id = static_cast<int32_t>(payload.items[1].integer);
      return OwnedValue(value);
    }
    Fail(where, "unknown value tag " + details::QuoteForMessage(tag) +
                    " (a tagged value has exactly one of the keys ref, float, bytes, dtype, device)");
  }

  void LoadNode(const Json& json, const Path& where) {
    if (json.kind != Json::kObject) Fail(where, "expected a node object, got " + DescribeJson(json));
    const Json& type = Member(json, "type", where);
    if (type.kind != Json::kString) Fail(where.Member("type"), "expected a type key, got " + DescribeJson(type));
    int depth = 0;
    OwnedValue node;
    if (type.text == "List") {
      node = LoadList(json, where, &depth);
    } else if (type.text == "Map") {
      node = LoadMap(json, where, &depth);
    } else if (type.text == "NDArray") {
      node = LoadTensor(json, where);
    } else {
      node = LoadObject(json, type.text, where, &depth);
    }
    if (depth + 1 > kMaxSerializedDepth) {
      Fail(where, "the value nests deeper than " + std::to_string(kMaxSerializedDepth) + " levels");
    }
    depths_.push_back(depth + 1);
    nodes_.push_back(std::move(node));
  }

  OwnedValue LoadList(const Json& json, const Path& where, int* depth) {
    CheckKeys(json, where, {"type", "items"});
    const Json& items = Member(json, "items", where);
    Path items_path = where.Member("items");
    if (items.kind != Json::kArray) Fail(items_path, "expected an array, got " + DescribeJson(items));
    std::vector<OwnedValue> values;
    values.reserve(items.items.size());
    for (size_t i = 0; i < items.items.size(); ++i) {
      values.push_back(DecodeValue(items.items[i], nodes_.size(), items_path.Element(static_cast<int64_t>(i)), depth));
    }
    static_assert(sizeof(OwnedValue) == sizeof(P4JAny), "OwnedValue is one P4JAny");
    P4JObject* list = nullptr;
    details::CheckCall(P4JListCreate(values.empty() ? nullptr : &values[0].value,
                                     static_cast<int64_t>(values.size()), &list));
    return OwnedObject(list);
  }

  OwnedValue LoadMap(const Json& json, const Path& where, int* depth) {
    CheckKeys(json, where, {"type", "entries"});
    const Json& entries = Member(json, "entries", where);
    Path entries_path = where.Member("entries");
    if (entries.kind != Json::kArray) Fail(entries_path, "expected an array, got " + DescribeJson(entries));
    P4JObject* created = nullptr;
    details::CheckCall(P4JMapCreate(nullptr, 0, &created));
    OwnedValue map = OwnedObject(created);
    for (size_t i = 0; i < entries.items.size(); ++i) {
      Path entry_where = entries_path.Element(static_cast<int64_t>(i));
      Path key_where = entry_where.Element(0);
      const Json& entry = entries.items[i];
      if (entry.kind != Json::kArray || entry.items.size() != 2) {
        Fail(entry_where, "expected a [key, value] pair, got " + DescribeJson(entry));
      }
      OwnedValue key = DecodeValue(entry.items[0], nodes_.size(), key_where, depth);
      if (key.value.type_index != kP4JInt && !details::IsObjectValue(key.value)) {
        Fail(key_where, "a map key must be an integer, a string or an object, got " +
                                      details::DescribeValue(key.value));
      }
      OwnedValue item = DecodeValue(entry.items[1], nodes_.size(), entry_where.Element(1), depth);
      int64_t before = MapCellOf(created)->size;
      details::CheckCall(P4JMapSetItem(created, &key.value, &item.value));
      if (MapCellOf(created)->size == before) {
        Fail(key_where, "the key " + details::DescribeValue(key.value) + " appears twice in one map");
      }
    }
    return map;
  }

  OwnedValue LoadTensor(const Json& json, const Path& where) {
    CheckKeys(json, where, {"type", "dtype", "shape", "data"});
    const Json& dtype_json = Member(json, "dtype", where);
    DLDataType dtype{};
    if (dtype_json.kind != Json::kString || !ParseDataType(dtype_json.text, &dtype)) {
      Fail(where.Member("dtype"), "expected a dtype name such as \"float32\", got " + DescribeJson(dtype_json));
    }
    const Json& shape_json = Member(json, "shape", where);
    if (shape_json.kind != Json::kArray || shape_json.items.size() > 64) {
      Fail(where.Member("shape"), "expected an array of at most 64 dimensions, got " + DescribeJson(shape_json));
    }
    std::vector<int64_t> shape;
    for (size_t d = 0; d < shape_json.items.size(); ++d) {
      const Json& extent = shape_json.items[d];
      if (extent.kind != Json::kInt || extent.integer < 0) {
        Fail(where.Member("shape").Element(static_cast<int64_t>(d)), "expected a non-negative integer, got " +
                                                            DescribeJson(extent));
      }
      shape.push_back(extent.integer);
    }
    int64_t expected = TensorByteCount(shape, dtype);
    if (expected < 0 || expected > kMaxTensorBytes) {
      Fail(where, "a tensor of dtype " + dtype_json.text + " and shape " +
                      TupleToString(shape.data(), static_cast<int32_t>(shape.size())) +
                      (expected < 0 ? " has no whole number of bytes"
                                    : " has " + std::to_string(expected) + " bytes, more than the limit of " +
                                          std::to_string(kMaxTensorBytes)));
    }
    const Json& data_json = Member(json, "data", where);
    if (data_json.kind != Json::kString || data_json.text.size() / 4 * 3 > static_cast<size_t>(expected) + 3) {
      Fail(where.Member("data"), "expected the base64 text of " + std::to_string(expected) + " bytes, got " +
                                DescribeJson(data_json).substr(0, 80));
    }
    std::string data;
    if (!DecodeBase64(data_json.text, &data) || static_cast<int64_t>(data.size()) != expected) {
      Fail(where.Member("data"), "expected the base64 text of " + std::to_string(expected) + " bytes (dtype " +
                                dtype_json.text + ", shape " +
                                TupleToString(shape.data(), static_cast<int32_t>(shape.size())) + ")");
    }
    DLDevice cpu{kDLCPU, 0};
    P4JObject* tensor = nullptr;
    details::CheckCall(P4JNDArrayCreateEmpty(shape.data(), static_cast<int32_t>(shape.size()), &dtype, &cpu,
                                             &tensor));
    OwnedValue owned = OwnedObject(tensor);
    if (!data.empty()) std::memcpy(TensorOf(tensor)->data, data.data(), data.size());
    return owned;
  }

  OwnedValue LoadObject(const Json& json, const std::string& key, const Path& where, int* depth) {
    P4JByteArray key_bytes = details::ByteArrayOf(key);
    int32_t type_index = -1;
    if (P4JTypeKeyToIndex(&key_bytes, &type_index) != 0) {
      details::ClearRaisedError();
      Fail(where.Member("type"), "type key " + details::QuoteForMessage(key) +
                                " is not registered (load the library that defines it before loading the data)");
    }
    if (type_index < kP4JDynamicObjectBegin) {
      Fail(where.Member("type"), "a " + key + " cannot be a node (nodes are List, Map, NDArray or a registered type)");
    }
    CheckKeys(json, where, {"type", "fields"});
    const Json& fields = Member(json, "fields", where);
    Path fields_path = where.Member("fields");
    if (fields.kind != Json::kObject) Fail(fields_path, "expected an object, got " + DescribeJson(fields));
    const P4JTypeInfo* info = nullptr;
    details::CheckCall(P4JTypeGetInfo(type_index, &info));
    for (const std::string& name : fields.keys) {
      bool known = false;
      for (int32_t i = 0; i < info->num_fields && !known; ++i) known = details::ViewOf(info->fields[i].name) == name;
      if (!known) {
        Fail(fields_path, key + " has no field " + details::QuoteForMessage(name) + "; " + FieldList(info));
      }
    }
    auto prefix = [&] { return std::string(kLoadName) + ": " + where.Text() + ": "; };
    OwnedValue object = OwnedObject(CreateDefaultObject(type_index, prefix));
    for (int32_t i = 0; i < info->num_fields; ++i) {
      const P4JFieldInfo& field = info->fields[i];
      std::string name(details::ViewOf(field.name));
      const Json* value = fields.Find(name);
      if (value == nullptr) {
        Fail(fields_path, "missing field " + details::QuoteForMessage(name) + " of " + key + "; " +
                                    FieldList(info));
      }
      SetField(object.value.v_obj, i, field, *value, fields_path.Member(details::ViewOf(field.name)), depth);
    }
    return object;
  }

  static std::string FieldList(const P4JTypeInfo* info) {
    if (info->num_fields == 0) return "it has no fields";
    std::string names = "its fields are: ";
    for (int32_t i = 0; i < info->num_fields; ++i) {
      names += (i != 0 ? ", " : "") + std::string(details::ViewOf(info->fields[i].name));
    }
    return names;
  }

  [[noreturn]] static void WrongField(const Path& where, const char* expected, const Json& got) {
    Fail(where, std::string("expected ") + expected + ", got " + DescribeJson(got));
  }

  void SetField(P4JObject* object, int32_t field_index, const P4JFieldInfo& field, const Json& value,
                const Path& where, int* depth) {
    char* address = FieldAddress(object, field);
    switch (field.kind) {
      case kP4JFieldInt32: {
        if (value.kind != Json::kInt || value.integer < INT32_MIN || value.integer > INT32_MAX) {
          WrongField(where, "an int32", value);
        }
        int32_t narrowed = static_cast<int32_t>(value.integer);
        std::memcpy(address, &narrowed, sizeof(narrowed));
        return;
      }
      case kP4JFieldInt64:
        if (value.kind != Json::kInt) WrongField(where, "an int64", value);
        std::memcpy(address, &value.integer, sizeof(int64_t));
        return;
      case kP4JFieldUInt64: {
        uint64_t number;
        if (value.kind == Json::kInt && value.integer >= 0) {
          number = static_cast<uint64_t>(value.integer);
        } else if (value.kind == Json::kUInt) {
          number = value.unsigned_integer;
        } else {
          WrongField(where, "a uint64", value);
        }
        std::memcpy(address, &number, sizeof(number));
        return;
      }
      case kP4JFieldFloat64: {
        double number;
        if (value.kind == Json::kFloat) {
          number = value.number;
        } else if (value.kind == Json::kInt && details::IsExactDouble(value.integer)) {
          number = static_cast<double>(value.integer);
        } else if (value.kind == Json::kObject) {
          int ignored = 0;
          OwnedValue tagged = DecodeValue(value, 0, where, &ignored);
          if (tagged.value.type_index != kP4JFloat) WrongField(where, "a float64", value);
          number = tagged.value.v_float64;
        } else {
          WrongField(where, "a float64", value);
        }
        std::memcpy(address, &number, sizeof(number));
        return;
      }
      case kP4JFieldBool:
        if (value.kind != Json::kBool) WrongField(where, "a bool", value);
        *reinterpret_cast<bool*>(address) = value.boolean;
        return;
      case kP4JFieldString:
        if (value.kind != Json::kString) WrongField(where, "a string", value);
        // The core reads and writes a std::string field in place, as reflection does: one C++ ABI per process.
        *reinterpret_cast<std::string*>(address) = value.text;
        return;
      case kP4JFieldObject:
      default: {
        if (value.kind != Json::kNull && value.kind != Json::kString && value.kind != Json::kObject) {
          WrongField(where, (WithArticle(details::TypeKeyOf(field.object_type_index)) + " or null").c_str(), value);
        }
        OwnedValue decoded = DecodeValue(value, nodes_.size(), where, depth);
        P4JObject* handle = details::IsObjectValue(decoded.value) ? decoded.value.v_obj : nullptr;
        if (decoded.value.type_index != kP4JNone && handle == nullptr) {
          Fail(where, "expected " + WithArticle(details::TypeKeyOf(field.object_type_index)) + " or null, got " +
                          details::DescribeValue(decoded.value));
        }
        if (handle != nullptr && field.object_type_index != kP4JObject &&
            !HandleIsInstance(handle, field.object_type_index)) {
          Fail(where, "expected " + WithArticle(details::TypeKeyOf(field.object_type_index)) + " or null, got " +
                          details::DescribeValue(decoded.value));
        }
        if (handle != nullptr) {
          // A list or map field that declares its elements (List<Expr>) takes only those, as a write from Java or
          // C++ does: a wrong element fails here, at its path, not later when C++ reads the field.
          try {
            CheckFieldElementTypes(object->type_index, field_index, field, decoded.value);
          } catch (const Error& wrong) {
            Fail(where, wrong.message());
          }
        }
        SetObjectField(object, field, handle);
        return;
      }
    }
  }

  std::vector<OwnedValue> nodes_;
  std::vector<int> depths_;
};

// ------------------------------------------------------------------------------------------------ streaming

/*! \brief Thrown by StreamLoader for whatever it leaves to Loader: LoadJSON then loads the text again with Loader. */
struct StreamMiss {};

/*!
 * \brief LoadJSON's fast path: builds the nodes as it reads the text, with no tree, for documents laid out the way
 *  SaveJSON writes them (keys in SaveJSON's order, field names without escapes). Whatever else it meets (another
 *  layout, a node kind it does not stream, any error at all) makes it give up (StreamMiss or the error), release
 *  what it built and leave the whole text to Loader, which accepts the same documents, builds the same values and
 *  alone decides the errors: a document has one meaning and one error whichever path reads it.
 *
 *  Fields are matched by position (the order SaveJSON writes them), by name when that fails; each type's info and
 *  creation hook are looked up once per load. Lists and maps are read here; an NDArray node is parsed as one small
 *  tree and built by Loader::LoadNode.
 */
class StreamLoader : public Loader {
 public:
  explicit StreamLoader(std::string_view text)
      : text_(text), p_(text.data()), end_(text.data() + text.size()), parser_(text) {}

  Any Load() {
    Punct('{');
    Key("format");
    if (PlainString() != kFormatName) Miss();
    Punct(',');
    Key("version");
    Number version = ReadNumber();
    if (version.kind != Number::kInt || version.integer != kFormatVersion) Miss();
    Punct(',');
    Key("root");
    Space();
    const char* root = p_;
    SkipValue(0);
    const char* root_end = p_;
    Punct(',');
    Key("nodes");
    Punct('[');
    if (!TryPunct(']')) {
      do {
        ReadNode();
      } while (TryPunct(','));
      Punct(']');
    }
    Punct('}');
    Space();
    if (p_ != end_) Miss();
    p_ = root;
    int depth = 0;
    OwnedValue value = ReadValue(nodes_.size(), &depth);
    if (p_ != root_end) Miss();
    return Any::FromOwned(value.Release());
  }

 private:
  /*! \brief What a fields node of one type needs, looked up at its first node of a load. */
  struct TypeEntry {
    std::string key;
    int32_t type_index;
    const P4JTypeInfo* info;
    P4JObject* creator;
  };

  struct Number {
    enum Kind : uint8_t { kInt, kUInt, kFloat };
    Kind kind = kInt;
    int64_t integer = 0;
    uint64_t unsigned_integer = 0;
    double number = 0;
  };

  [[noreturn]] static void Miss() { throw StreamMiss(); }

  /*! \brief The next character, or '\0' at the end (never valid where the loader looks for punctuation). */
  char Peek() const { return p_ < end_ ? *p_ : '\0'; }

  void Space() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  void Punct(char c) {
    Space();
    if (Peek() != c) Miss();
    ++p_;
  }

  bool TryPunct(char c) {
    Space();
    if (Peek() != c) return false;
    ++p_;
    return true;
  }

  /*! \brief "name" and the ':' after it, the name spelled without escapes. */
  void Key(std::string_view name) {
    Space();
    if (static_cast<size_t>(end_ - p_) < name.size() + 2 || p_[0] != '"' ||
        std::memcmp(p_ + 1, name.data(), name.size()) != 0 || p_[name.size() + 1] != '"') {
      Miss();
    }
    p_ += name.size() + 2;
    Punct(':');
  }

  void Word(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) Miss();
    p_ += word.size();
  }

  /*! \brief Whether a byte needs no attention inside a string: not a quote, backslash, control or non-ASCII byte. */
  static bool Plain(unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; }

  /*! \brief A string without escapes or non-ASCII bytes, as a view of the text. */
  std::string_view PlainString() {
    Space();
    if (Peek() != '"') Miss();
    const char* start = ++p_;
    while (p_ < end_ && Plain(static_cast<unsigned char>(*p_))) ++p_;
    if (Peek() != '"') Miss();
    return std::string_view(start, static_cast<size_t>(p_++ - start));
  }

  /*! \brief Any string: a view of the text when it needs no decoding, else decoded by Parser into scratch_. */
  std::string_view ReadString() {
    Space();
    if (Peek() != '"') Miss();
    const char* start = p_ + 1;
    const char* q = start;
    while (q < end_ && Plain(static_cast<unsigned char>(*q))) ++q;
    if (q < end_ && *q == '"') {
      p_ = q + 1;
      return std::string_view(start, static_cast<size_t>(q - start));
    }
    size_t pos = static_cast<size_t>(p_ - text_.data());
    parser_.ParseStringAt(&pos, &scratch_);
    p_ = text_.data() + pos;
    return scratch_;
  }

  /*! \brief A JSON number, read by the grammar Parser::ParseNumber reads, and converted the way it converts. */
  Number ReadNumber() {
    Space();
    const char* start = p_;
    if (Peek() == '-') ++p_;
    const char* int_start = p_;
    uint64_t magnitude = 0;
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') {
      magnitude = magnitude * 10 + static_cast<uint64_t>(*p_ - '0');
      ++p_;
    }
    size_t int_digits = static_cast<size_t>(p_ - int_start);
    if (int_digits == 0 || (*int_start == '0' && int_digits > 1)) Miss();
    bool is_float = false;
    if (Peek() == '.') {
      ++p_;
      is_float = true;
      const char* first = p_;
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
      if (p_ == first) Miss();
    }
    if (Peek() == 'e' || Peek() == 'E') {
      ++p_;
      is_float = true;
      if (Peek() == '+' || Peek() == '-') ++p_;
      const char* first = p_;
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
      if (p_ == first) Miss();
    }
    Number number;
    if (is_float) {
      number.kind = Number::kFloat;
      auto parsed = std::from_chars(start, p_, number.number);
      if (parsed.ec != std::errc() || parsed.ptr != p_ || !std::isfinite(number.number)) Miss();
      return number;
    }
    bool negative = start != int_start;
    if (int_digits <= 18) {  // no overflow below 10^18
      number.integer = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
      return number;
    }
    auto parsed = std::from_chars(start, p_, number.integer);
    if (parsed.ec == std::errc() && parsed.ptr == p_) return number;
    if (negative) Miss();
    parsed = std::from_chars(start, p_, number.unsigned_integer);
    if (parsed.ec != std::errc() || parsed.ptr != p_) Miss();
    number.kind = Number::kUInt;
    return number;
  }

  int64_t ReadInt() {
    Number number = ReadNumber();
    if (number.kind != Number::kInt) Miss();
    return number.integer;
  }

  /*! \brief Moves past one JSON value without building it (the root, read once the nodes it refers to exist). */
  void SkipValue(int depth) {
    if (depth > 8) Miss();
    Space();
    switch (Peek()) {
      case '{':
      case '[': {
        char close = *p_ == '{' ? '}' : ']';
        bool object = *p_ == '{';
        ++p_;
        if (TryPunct(close)) return;
        do {
          if (object) {
            ReadString();
            Punct(':');
          }
          SkipValue(depth + 1);
        } while (TryPunct(','));
        Punct(close);
        return;
      }
      case '"': ReadString(); return;
      case 't': Word("true"); return;
      case 'f': Word("false"); return;
      case 'n': Word("null"); return;
      default: ReadNumber(); return;
    }
  }

  /*! \brief {"float": "nan" | "inf" | "-inf"} after its '{'. */
  double ReadTaggedFloatPayload() {
    std::string_view text = ReadString();
    if (text == "nan") return std::nan("");
    if (text == "inf") return HUGE_VAL;
    if (text == "-inf") return -HUGE_VAL;
    Miss();
  }

  /*! \brief A value, as Loader::DecodeValue decodes it; refs name a node below limit. */
  OwnedValue ReadValue(size_t limit, int* depth) {
    Space();
    P4JAny value = details::NoneValue();
    switch (Peek()) {
      case 'n': Word("null"); return OwnedValue();
      case 't':
      case 'f': {
        bool truth = *p_ == 't';
        Word(truth ? "true" : "false");
        value.type_index = kP4JBool;
        value.v_int64 = truth ? 1 : 0;
        return OwnedValue(value);
      }
      case '"': return OwnedObject(details::NewStringObject(ReadString()));
      case '{': break;
      default: {
        Number number = ReadNumber();
        if (number.kind == Number::kUInt) Miss();
        if (number.kind == Number::kInt) {
          details::StoreInt(number.integer, &value);
        } else {
          value.type_index = kP4JFloat;
          value.v_float64 = number.number;
        }
        return OwnedValue(value);
      }
    }
    ++p_;
    std::string_view tag = PlainString();
    Punct(':');
    OwnedValue result;
    if (tag == "ref") {
      int64_t index = ReadInt();
      if (index < 0 || static_cast<uint64_t>(index) >= limit) Miss();
      *depth = std::max(*depth, depths_[static_cast<size_t>(index)]);
      details::StoreObject(nodes_[static_cast<size_t>(index)].value.v_obj, &value);
      result = OwnedValue(value);
    } else if (tag == "float") {
      value.type_index = kP4JFloat;
      value.v_float64 = ReadTaggedFloatPayload();
      result = OwnedValue(value);
    } else if (tag == "bytes") {
      std::string data;
      if (!DecodeBase64(ReadString(), &data)) Miss();
      result = OwnedObject(details::NewBytesObject(data));
    } else if (tag == "dtype") {
      if (!ParseDataType(ReadString(), &value.v_dtype)) Miss();
      value.type_index = kP4JDataType;
      result = OwnedValue(value);
    } else if (tag == "device") {
      Punct('[');
      int64_t type = ReadInt();
      Punct(',');
      int64_t id = ReadInt();
      Punct(']');
      if (type < 0 || type > INT32_MAX || id < 0 || id > INT32_MAX) Miss();
      value.type_index = kP4JDevice;
      value.v_device.device_type = static_cast<DLDeviceType>(type);
      value.v_device.device_id = static_cast<int32_t>(id);
      result = OwnedValue(value);
    } else {
      Miss();
    }
    Punct('}');
    return result;
  }

  void ReadNode() {
    Space();
    const char* node_start = p_;
    Punct('{');
    Key("type");
    std::string_view type = PlainString();
    Punct(',');
    int depth = 0;
    OwnedValue node;
    if (type == "List") {
      node = ReadList(&depth);
    } else if (type == "Map") {
      node = ReadMap(&depth);
    } else if (type == "NDArray") {
      size_t pos = static_cast<size_t>(node_start - text_.data());
      Json json = parser_.ParseValueAt(&pos, 2);
      p_ = text_.data() + pos;
      LoadNode(json, Path{nullptr, "nodes"}.Element(static_cast<int64_t>(nodes_.size())));
      return;
    } else {
      node = ReadObject(type, &depth);
    }
    Punct('}');
    if (depth + 1 > kMaxSerializedDepth) Miss();
    depths_.push_back(depth + 1);
    nodes_.push_back(std::move(node));
  }

  OwnedValue ReadList(int* depth) {
    Key("items");
    Punct('[');
    items_.clear();
    if (!TryPunct(']')) {
      do {
        items_.push_back(ReadValue(nodes_.size(), depth));
      } while (TryPunct(','));
      Punct(']');
    }
    P4JObject* created = nullptr;
    details::CheckCall(P4JListCreate(items_.empty() ? nullptr : &items_[0].value, static_cast<int64_t>(items_.size()),
                                     &created));
    OwnedValue list = OwnedObject(created);
    items_.clear();
    return list;
  }

  OwnedValue ReadMap(int* depth) {
    Key("entries");
    Punct('[');
    P4JObject* created = nullptr;
    details::CheckCall(P4JMapCreate(nullptr, 0, &created));
    OwnedValue map = OwnedObject(created);
    if (TryPunct(']')) return map;
    do {
      Punct('[');
      OwnedValue key = ReadValue(nodes_.size(), depth);
      if (key.value.type_index != kP4JInt && !details::IsObjectValue(key.value)) Miss();
      Punct(',');
      OwnedValue item = ReadValue(nodes_.size(), depth);
      Punct(']');
      int64_t before = MapCellOf(created)->size;
      details::CheckCall(P4JMapSetItem(created, &key.value, &item.value));
      if (MapCellOf(created)->size == before) Miss();
    } while (TryPunct(','));
    Punct(']');
    return map;
  }

  const TypeEntry& TypeFor(std::string_view key) {
    if (last_type_ != nullptr && last_type_->key == key) return *last_type_;
    for (TypeEntry& entry : types_) {
      if (entry.key == key) return *(last_type_ = &entry);
    }
    P4JByteArray key_bytes = details::ByteArrayOf(key);
    int32_t type_index = -1;
    if (P4JTypeKeyToIndex(&key_bytes, &type_index) != 0) {
      details::ClearRaisedError();
      Miss();
    }
    if (type_index < kP4JDynamicObjectBegin) Miss();
    const P4JTypeInfo* info = nullptr;
    details::CheckCall(P4JTypeGetInfo(type_index, &info));
    P4JObject* creator = ObjectCreatorOf(type_index);
    if (creator == nullptr) Miss();
    types_.push_back(TypeEntry{std::string(key), type_index, info, creator});
    last_type_ = nullptr;  // types_ may have moved
    return types_.back();
  }

  OwnedValue ReadObject(std::string_view key, int* depth) {
    const TypeEntry& type = TypeFor(key);
    const P4JTypeInfo* info = type.info;
    Key("fields");
    Punct('{');
    P4JAny created = details::NoneValue();
    details::CheckCall(P4JFunctionCall(type.creator, nullptr, 0, &created));
    OwnedValue object(created);
    if (!details::IsObjectValue(created) || created.v_obj->type_index != type.type_index) Miss();
    int32_t count = info->num_fields;
    seen_.assign(static_cast<size_t>(count), 0);
    int32_t matched = 0;
    int32_t next = 0;
    if (!TryPunct('}')) {
      do {
        std::string_view name = PlainString();
        Punct(':');
        int32_t i = next;
        if (i >= count || details::ViewOf(info->fields[i].name) != name) {
          for (i = 0; i < count && details::ViewOf(info->fields[i].name) != name; ++i) {
          }
          if (i == count) Miss();
        }
        if (seen_[static_cast<size_t>(i)] != 0) Miss();
        seen_[static_cast<size_t>(i)] = 1;
        ++matched;
        next = i + 1;
        ReadField(object.value.v_obj, i, info->fields[i], depth);
      } while (TryPunct(','));
      Punct('}');
    }
    if (matched != count) Miss();
    return object;
  }

  /*! \brief A field's value, by the rules of Loader::SetField. */
  void ReadField(P4JObject* object, int32_t field_index, const P4JFieldInfo& field, int* depth) {
    char* address = FieldAddress(object, field);
    switch (field.kind) {
      case kP4JFieldInt32: {
        int64_t number = ReadInt();
        if (number < INT32_MIN || number > INT32_MAX) Miss();
        int32_t narrowed = static_cast<int32_t>(number);
        std::memcpy(address, &narrowed, sizeof(narrowed));
        return;
      }
      case kP4JFieldInt64: {
        int64_t number = ReadInt();
        std::memcpy(address, &number, sizeof(number));
        return;
      }
      case kP4JFieldUInt64: {
        Number parsed = ReadNumber();
        uint64_t number;
        if (parsed.kind == Number::kInt && parsed.integer >= 0) {
          number = static_cast<uint64_t>(parsed.integer);
        } else if (parsed.kind == Number::kUInt) {
          number = parsed.unsigned_integer;
        } else {
          Miss();
        }
        std::memcpy(address, &number, sizeof(number));
        return;
      }
      case kP4JFieldFloat64: {
        double number;
        Space();
        if (Peek() == '{') {
          ++p_;
          Key("float");
          number = ReadTaggedFloatPayload();
          Punct('}');
        } else {
          Number parsed = ReadNumber();
          if (parsed.kind == Number::kFloat) {
            number = parsed.number;
          } else if (parsed.kind == Number::kInt && details::IsExactDouble(parsed.integer)) {
            number = static_cast<double>(parsed.integer);
          } else {
            Miss();
          }
        }
        std::memcpy(address, &number, sizeof(number));
        return;
      }
      case kP4JFieldBool:
        Space();
        if (Peek() == 't') {
          Word("true");
          *reinterpret_cast<bool*>(address) = true;
        } else {
          Word("false");
          *reinterpret_cast<bool*>(address) = false;
        }
        return;
      case kP4JFieldString: {
        std::string_view text = ReadString();
        reinterpret_cast<std::string*>(address)->assign(text.data(), text.size());
        return;
      }
      case kP4JFieldObject:
      default: {
        Space();
        if (Peek() != 'n' && Peek() != '"' && Peek() != '{') Miss();
        OwnedValue decoded = ReadValue(nodes_.size(), depth);
        P4JObject* handle = details::IsObjectValue(decoded.value) ? decoded.value.v_obj : nullptr;
        if (decoded.value.type_index != kP4JNone && handle == nullptr) Miss();
        if (handle != nullptr && field.object_type_index != kP4JObject &&
            !HandleIsInstance(handle, field.object_type_index)) {
          Miss();
        }
        if (handle != nullptr) {
          try {
            CheckFieldElementTypes(object->type_index, field_index, field, decoded.value);
          } catch (const Error&) {
            Miss();  // Loader reports it, at its path
          }
        }
        SetObjectField(object, field, handle);
        return;
      }
    }
  }

  std::string_view text_;
  const char* p_;
  const char* end_;
  Parser parser_;
  std::string scratch_;
  std::vector<OwnedValue> items_;
  std::vector<char> seen_;
  std::vector<TypeEntry> types_;
  TypeEntry* last_type_ = nullptr;
};

/*!
 * \brief The largest text buffer a thread keeps between saves. Reusing it spares a large save the page faults of
 *  fresh memory (11 MB of text are some 2,800 pages); a larger one is released after its save.
 */
constexpr size_t kKeptSaveBuffer = size_t{32} << 20;

// Returns the text as a String object (the result is the same string value as a std::string's, signature
// "(any) -> string"), made straight from the writer's buffer.
P4J_REGISTER_GLOBAL(kSaveName).set_body_typed([](Any value) {
  ObjectGraph graph(value.raw(), kSaveName, kMaxSerializedDepth);
  // The thread's kept buffer, unless a save on this thread is using it already.
  thread_local std::string kept;
  thread_local bool kept_in_use = false;
  std::string local;
  struct Lease {
    std::string* buffer;
    bool* in_use;  // the kept buffer's flag, or NULL for a local buffer
    ~Lease() {
      if (in_use == nullptr) return;
      *in_use = false;
      if (buffer->size() > kKeptSaveBuffer) std::string().swap(*buffer);
    }
  } lease = kept_in_use ? Lease{&local, nullptr} : Lease{&kept, &kept_in_use};
  if (lease.in_use != nullptr) kept_in_use = true;
  std::string& buffer = *lease.buffer;
  return Writer(graph, &buffer).Save(value.raw());
});

P4J_REGISTER_GLOBAL(kLoadName).set_body_typed([](std::string_view json) {
  try {
    return StreamLoader(json).Load();
  } catch (const StreamMiss&) {
  } catch (const std::exception&) {
  }
  // Off the fast path or in error: the tree loader decides (the same value, or the error with its place).
  return Loader().Load(json);
});

}  // namespace
}  // namespace internal
}  // namespace packed4j
