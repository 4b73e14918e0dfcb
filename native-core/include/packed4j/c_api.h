/*!
 * \file packed4j/c_api.h
 * \brief The C ABI of packed4j: the only symbols libpacked4j.so exports.
 *
 * Everything a caller in another language (the Java runtime through FFM) or another shared library (a plugin
 * built against packed4j::core) needs goes through these functions and the structs below. The C++ headers are
 * inline code on top of this ABI, so a plugin never links against C++ symbols of libpacked4j.so.
 *
 * Conventions:
 *  - A function returning int returns 0 on success and -1 on failure; on failure the error is kept per thread
 *    and taken with P4JErrorMoveFromRaised. No function lets a C++ exception escape.
 *  - "borrowed" means the callee does not take a reference; "owned" means the receiver must release it
 *    (P4JObjectDecRef for an object handle).
 *  - Layouts are fixed: Java reads P4JAny, the object header and the container cells straight from memory.
 */
#ifndef PACKED4J_C_API_H_
#define PACKED4J_C_API_H_

#include <dlpack/dlpack.h>
#include <stdint.h>

/*! \brief Marks a function of the C ABI as exported from libpacked4j.so (the only symbols it exports). */
#if defined(_WIN32)
#define P4J_DLL __declspec(dllexport)
#else
#define P4J_DLL __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*!
 * \brief The version of this ABI, a major and a minor part.
 *
 *  A minor release only adds: new functions, and new trailing fields of a cell that callers hand over with their
 *  own size (P4JFunctionCreateFromCell's cell_size), so code built against an older minor keeps working. A major
 *  release breaks: it removes or changes a function, a layout or a contract, including the wire form of a typed or
 *  scalars entry (what an entry receives and returns), which plugins compile in as inline code of these headers.
 *  A caller built for (M, m) accepts a library (M, m') with m' >= m and refuses any other. The same rule holds
 *  between a plugin and the core: a plugin built with headers of (M, m) is registered by a core of (M, m') with
 *  m' >= m and refused by any other (P4JPluginCheckAbiVersion). P4JAbiVersion returns P4J_ABI_VERSION of the
 *  library. native-core/tests/abi_wire_form.txt records the wire form of this version; its test fails when the
 *  declarations here change without the version. History: 2.1 added the Tensors section, 2.2 the host entries,
 *  2.3 the plugin's version check and P4JBacktraceFormat, 2.4 typed entries for every signature set_body_typed
 *  takes (object words, packed values, span and object results, results through out; see
 *  P4JFunctionCell.typed_entry), 2.5 object definitions (methods, static methods, constructors, mutable fields,
 *  field writes through P4JObjectSetField) and doc strings with parameter names, for types and globals, 2.6 borrowed
 *  list cells for list parameters of typed entries (P4JFunctionCell.typed_forms, P4J_LIST_WORD_BORROWED), 2.7 dense
 *  list words of plain 8-byte numbers (P4J_TYPED_FORM_DENSE_LIST, P4J_LIST_WORD_DENSE_I64, _F64), 2.8 the host's
 *  exit guard (P4JHostArmExitGuard), 2.9 a TypedPackedFunc parameter or result of a typed entry as an object word,
 *  as its signature (function) says (2.8 headers took it as a packed value, which no caller passes: rebuild a plugin
 *  whose set_body_typed takes or returns a TypedPackedFunc), 2.10 the declared type of an object field
 *  (P4JTypeSetFieldType, P4JTypeGetFieldType: "list<string>" where the kind says only "object"), 2.11 the field
 *  lock for C++ code (P4JObjectLockFields, P4JObjectUnlockFields), 2.12 the host's shutdown notice
 *  (P4JHostShutdownBegins). Adding
 *  entries to signatures that had none is a minor change: a caller of an older minor does not take an entry whose
 *  signature it does not know.
 */
#define P4J_ABI_VERSION_MAJOR 2
#define P4J_ABI_VERSION_MINOR 12
#define P4J_ABI_VERSION ((P4J_ABI_VERSION_MAJOR << 16) | P4J_ABI_VERSION_MINOR)

/*!
 * \brief Type index of a value. Below kP4JStaticObjectBegin a value is a POD held in the P4JAny itself;
 *  from kP4JStaticObjectBegin on, the P4JAny holds an object handle and the index is the object's own type
 *  index (so the kind of an object is known without reading its header).
 */
typedef enum {
  kP4JNone = 0,         /*!< null; payload is 0 */
  kP4JInt = 1,          /*!< v_int64 */
  kP4JBool = 2,         /*!< v_int64, 0 or 1 */
  kP4JFloat = 3,        /*!< v_float64 */
  kP4JOpaquePtr = 4,    /*!< v_ptr, not owned */
  kP4JDataType = 5,     /*!< v_dtype */
  kP4JDevice = 6,       /*!< v_device */
  kP4JDLTensorPtr = 7,  /*!< v_ptr to a DLTensor, borrowed for the call; owning it makes an NDArray over its memory */
  kP4JStrView = 8,      /*!< borrowed UTF-8: v_ptr = first byte, small_len = byte length; only as an argument */
  kP4JBytesView = 9,    /*!< borrowed bytes: v_ptr = first byte, small_len = byte length; only as an argument */
  kP4JStaticObjectBegin = 64,
  kP4JObject = 64,      /*!< the root object type */
  kP4JFunction = 65,    /*!< a PackedFunc */
  kP4JString = 66,      /*!< immutable UTF-8 string, cell P4JByteArray */
  kP4JBytes = 67,       /*!< immutable bytes, cell P4JByteArray */
  kP4JList = 68,        /*!< mutable list of values, cell P4JListCell */
  kP4JMap = 69,         /*!< mutable insertion-ordered map, cell P4JMapCell */
  kP4JError = 70,       /*!< an error, cell P4JErrorCell */
  kP4JNDArray = 71,     /*!< a tensor over DLPack's DLTensor, cell P4JNDArrayCell */
  kP4JDynamicObjectBegin = 128 /*!< type indices allocated at registration start here */
} P4JTypeIndex;

/*! \brief A span of bytes; data is not owned by the span. */
typedef struct {
  const char* data;
  int64_t size;
} P4JByteArray;

/*!
 * \brief Intrusive header of every object. A handle (P4JObjectHandle) points at this header.
 *  ref_counter is updated atomically by the C++ side; other languages only call IncRef/DecRef.
 *  The deleter frees the whole object; it is set by whoever allocated it (so memory returns to that library).
 */
typedef struct P4JObject {
  int32_t type_index;
  uint32_t flags; /*!< reserved, 0 */
  uint64_t ref_counter;
  void (*deleter)(struct P4JObject* self);
} P4JObject;

/*! \brief An object as the ABI passes it: the address of its header; borrowed unless a function says owned. */
typedef P4JObject* P4JObjectHandle;

/*!
 * \brief A value: 16 bytes, a type index, 32 bits of small extra data and an 8-byte payload.
 *  As a function argument, a value is borrowed. As a result, it is owned by the caller.
 */
typedef struct {
  int32_t type_index;
  union {
    uint32_t small_len;    /*!< byte length of kP4JStrView / kP4JBytesView */
    uint32_t zero_padding; /*!< 0 for every other type */
  };
  union {
    int64_t v_int64;
    double v_float64;
    void* v_ptr;
    P4JObject* v_obj;
    DLDataType v_dtype;
    DLDevice v_device;
  };
} P4JAny;

/* ---- Cells: what follows the header of a built-in object, at handle + sizeof(P4JObject) ---- */

/*! \brief kP4JString and kP4JBytes: data is NUL-terminated (the NUL is not counted in size). */
typedef P4JByteArray P4JStringCell;

/*! \brief kP4JError. */
typedef struct {
  P4JByteArray kind;      /*!< "TypeError", "ValueError", "IndexError", "KeyError", "AttributeError", ... */
  P4JByteArray message;
  P4JByteArray backtrace; /*!< native frames, one per line, innermost first; may be empty */
} P4JErrorCell;

/*! \brief kP4JList: size values at data; the list owns them. data moves when the list grows. */
typedef struct {
  P4JAny* data;
  int64_t size;
  int64_t capacity;
} P4JListCell;

/*! \brief kP4JMap: size entries, key then value, in insertion order; the map owns them. */
typedef struct {
  P4JAny* entries; /*!< 2 * size values: entries[2*i] is a key, entries[2*i+1] its value */
  int64_t size;
  int64_t capacity;
} P4JMapCell;

/* ---- Reflection metadata ---- */

/*! \brief The kind of a field declared through VisitAttrs; the Java side reads primitive kinds from memory. */
typedef enum {
  kP4JFieldInt32 = 1,   /*!< int32_t / int */
  kP4JFieldInt64 = 2,   /*!< int64_t */
  kP4JFieldUInt64 = 3,  /*!< uint64_t */
  kP4JFieldFloat64 = 4, /*!< double */
  kP4JFieldBool = 5,    /*!< bool, one byte */
  kP4JFieldString = 6,  /*!< std::string; read with P4JObjectGetField */
  kP4JFieldObject = 7   /*!< an object; read only with P4JObjectGetField/GetAttr (see below) */
} P4JFieldKind;
/*
 * A kP4JFieldObject field of a plugin's type is an ObjectRef (pointer-sized, may be null) at its offset, and a
 * kP4JFieldString one a std::string. The core's NDArray (and any subtype) computes four of them when read: shape and
 * strides (at their offsets, the DLTensor's int64_t pointers; each read makes a new List<int64> of ndim elements),
 * dtype and device (at their offsets, the DLTensor's DLDataType and DLDevice; each read makes a new string such as
 * "float32" or "cpu"). So a reader goes through P4JObjectGetField/GetAttr for string and object fields, never
 * through the offset.
 */

/*! \brief One field of an object type, as P4JTypeRegisterFields takes it and P4JTypeGetInfo reports it. */
typedef struct {
  P4JByteArray name;
  int32_t kind;            /*!< P4JFieldKind */
  int32_t object_type_index; /*!< for kP4JFieldObject: the declared type (kP4JObject if any); else 0 */
  int64_t offset;          /*!< byte offset from the object handle (the header), valid for every instance */
  int64_t size;            /*!< size in bytes of the field */
} P4JFieldInfo;

/*! \brief An object type as P4JTypeGetInfo reports it: its place in the type tree, key, fields and size. */
typedef struct {
  int32_t type_index;
  int32_t parent_type_index; /*!< -1 for the root kP4JObject */
  int32_t depth;             /*!< 0 for the root, parent's depth + 1 otherwise */
  int32_t num_fields;
  P4JByteArray type_key;
  const P4JFieldInfo* fields; /*!< inherited fields first, then the type's own, each name once */
  int64_t instance_size;      /*!< sizeof the C++ class, measured from the handle */
} P4JTypeInfo;

/*!
 * \brief Field flag of P4JTypeGetFieldMeta: the field may be written (P4JObjectSetField, or for a number a store at
 *  its offset). Only fields an object definition declares with def_rw carry it; VisitAttrs fields are read-only.
 */
#define P4J_FIELD_MUTABLE 1

/*! \brief The registered name of a type's constructor in its method table. */
#define P4J_CONSTRUCTOR_NAME "__init__"

/*! \brief What a member of a type's method table is (P4JMethodInfo.kind). Added in ABI 2.5. */
typedef enum {
  kP4JMethodInstance = 1,   /*!< a method: the function's first parameter is the object (self) */
  kP4JMethodStatic = 2,     /*!< a static method: a plain function tied to the type */
  kP4JMethodConstructor = 3 /*!< the constructor, named P4J_CONSTRUCTOR_NAME: returns a new object of the type */
} P4JMethodKind;

/*!
 * \brief One member of a type's method table, as P4JTypeGetMethod and P4JTypeFindMethod report it. Entries are never
 *  freed: the pointer and every span in it stay valid for the life of the process. Added in ABI 2.5.
 */
typedef struct {
  P4JByteArray name;             /*!< "add"; P4J_CONSTRUCTOR_NAME for the constructor */
  int32_t kind;                  /*!< P4JMethodKind */
  int32_t num_param_names;       /*!< entries of param_names: 0 when none were given */
  int32_t type_index;            /*!< the type whose table holds it (an ancestor's, for an inherited method) */
  int32_t reserved;              /*!< 0 */
  P4JObjectHandle function;      /*!< borrowed; lives until exit. A method takes the object first */
  P4JByteArray signature;        /*!< as P4JFunctionGetSignature: "(Calculator, int64) -> int64"; may be empty */
  P4JByteArray doc;              /*!< the doc string, empty when none */
  const P4JByteArray* param_names; /*!< the parameters' names, after self for a method (self is not named) */
} P4JMethodInfo;

/* ===================================== Version ===================================== */

/*! \brief P4J_ABI_VERSION of the loaded library: (major << 16) | minor. */
P4J_DLL int32_t P4JAbiVersion(void);

/*!
 * \brief Checks that this library can read what a plugin compiled with headers of ABI plugin_abi_version hands it:
 *  the typed and scalars entries, cells and layouts that are inline code of those headers. The registration macros
 *  of the C++ API (P4J_REGISTER_GLOBAL, P4J_REGISTER_OBJECT_TYPE) call it with the version of the headers they were
 *  compiled with before each registration, and register nothing when it fails. Added in ABI 2.3: a plugin built
 *  with older headers does not call it and is not checked.
 *
 *  Accepted: the major version of this library and a minor version at most this library's (a minor release only
 *  adds, so this library reads every older minor). Refused: another major version (other wire forms), or a newer
 *  minor (the plugin may rely on what this library does not have). The plugin is the shared object that holds the
 *  caller's return address. A refusal raises a LoadError naming the plugin's file and both versions; the first
 *  refusal of each plugin is also kept for the global "packed4j.TakeRegistrationErrors" (so a loader, the Java
 *  runtime, reports it), as "LoadError: ABI version mismatch: ...".
 * \param plugin_abi_version P4J_ABI_VERSION of the headers the plugin was compiled with: (major << 16) | minor.
 * \return 0 when the plugin is accepted, -1 when it is refused.
 */
P4J_DLL int P4JPluginCheckAbiVersion(int32_t plugin_abi_version);

/* ===================================== Errors ====================================== */

/*!
 * \brief Moves this thread's raised error into *result (owned, a kP4JError object) and clears it.
 *  *result is NULL when no error is raised. Never fails.
 */
P4J_DLL int P4JErrorMoveFromRaised(P4JObjectHandle* result);

/*! \brief Raises an error on this thread; error is borrowed (a reference is taken). */
P4J_DLL void P4JErrorSetRaised(P4JObjectHandle error);

/*! \brief Raises an error built from a kind and a message (both NUL-terminated, copied). */
P4J_DLL void P4JErrorSetRaisedFromCStr(const char* kind, const char* message);

/*!
 * \brief Creates an error object. All three spans are copied; backtrace may be NULL.
 * \param out owned.
 */
P4J_DLL int P4JErrorCreate(const P4JByteArray* kind, const P4JByteArray* message, const P4JByteArray* backtrace,
                           P4JObjectHandle* out);

/*!
 * \brief Formats native return addresses (as backtrace(3) captures them) as text, one line per frame, innermost first:
 *  `#i function+0xoffset at file:line in module (+0xmodule_offset)`. Added in ABI 2.3.
 *
 *  The function comes from libdw (elfutils' libdw.so.1, loaded with dlopen when present and the environment
 *  variable PACKED4J_BACKTRACE_LIBDW is not 0), else from the module's .symtab (names of hidden functions of an
 *  unstripped library), else from the dynamic symbol table (dladdr); it is demangled, and "??" when none knows it.
 *  " at file:line" appears only with libdw and DWARF line tables, in the library or in a split debug file (found by
 *  .gnu_debuglink or build id next to it, in .debug/ or under /usr/lib/debug). An address outside every loaded
 *  module reads `#i ?? at 0xaddress`. packed4j::Error::backtrace() and every error a plugin raises use this.
 * \param frames num_frames return addresses; may be NULL when num_frames is 0.
 * \param num_frames how many frames, 0 or more.
 * \param out owned: a kP4JString with the text (empty for no frames).
 * \return 0, or -1 with a ValueError for a NULL out, a negative num_frames or NULL frames.
 */
P4J_DLL int P4JBacktraceFormat(void* const* frames, int32_t num_frames, P4JObjectHandle* out);

/* ===================================== Objects ===================================== */

/*! \brief Takes one more reference to obj (which must not be NULL). */
P4J_DLL int P4JObjectIncRef(P4JObjectHandle obj);

/*! \brief Releases one reference; the object is deleted when the count reaches zero. NULL is ignored. */
P4J_DLL int P4JObjectDecRef(P4JObjectHandle obj);

/*! \brief Objects created and not yet deleted, in this process, for leak tests. */
P4J_DLL int64_t P4JObjectLiveCount(void);

/*!
 * \brief The address of the process-wide live object counter that P4JObjectLiveCount reads.
 *  Code that allocates objects itself (the inline C++ make_object of a plugin) fetches it once and updates it
 *  with atomic increments (+1 on creation, -1 in the deleter), so counting costs no call. Never NULL.
 */
P4J_DLL int64_t* P4JObjectLiveCounterAddress(void);

/* ===================================== Types ======================================= */

/*!
 * \brief Returns the index of type_key, allocating one on first use.
 *  Called by P4J_REGISTER_OBJECT_TYPE / the C++ type info of each Object subclass; parent_type_index must be
 *  registered already. Registering a key again with a different parent is a ValueError.
 */
P4J_DLL int P4JTypeGetOrAllocIndex(const P4JByteArray* type_key, int32_t parent_type_index, int64_t instance_size,
                                   int32_t* out_type_index);

/*!
 * \brief Records the fields of a registered type (replacing earlier ones), copied from fields[0..num_fields).
 *  Field offsets are from the handle. Inherited fields are merged in by the registry.
 */
P4J_DLL int P4JTypeRegisterFields(int32_t type_index, const P4JFieldInfo* fields, int32_t num_fields);

/*! \brief The index of a registered type key; KeyError naming the key when none is registered. */
P4J_DLL int P4JTypeKeyToIndex(const P4JByteArray* type_key, int32_t* out_type_index);

/*!
 * \brief Metadata of a type; the pointer stays valid for the life of the process (updated in place when a
 *  library registers fields or a subtype's parent). Field arrays are never freed and are published before
 *  their count: read num_fields first, then fields.
 */
P4J_DLL int P4JTypeGetInfo(int32_t type_index, const P4JTypeInfo** out);

/*! \brief 1 when type_index is ancestor_type_index or derives from it, else 0. */
P4J_DLL int32_t P4JTypeIsInstanceOf(int32_t type_index, int32_t ancestor_type_index);

/*!
 * \brief Reads a field by exact name. AttributeError naming the type and the field when there is none.
 * \param result owned: kP4JInt/kP4JBool/kP4JFloat, a kP4JString object, an object or kP4JNone.
 */
P4J_DLL int P4JObjectGetAttr(P4JObjectHandle obj, const P4JByteArray* name, P4JAny* result);

/*! \brief Reads the field at field_index of the object's type info (IndexError when out of range). */
P4J_DLL int P4JObjectGetField(P4JObjectHandle obj, int32_t field_index, P4JAny* result);

/* ============================== Object definitions (2.5) =========================== */

/*
 * What packed4j::ObjectDef registers beside VisitAttrs: a doc string for the type, each field's mutability and doc,
 * and the type's method table: methods (the object is their first argument), static methods and one constructor,
 * each a function object with its signature, doc and parameter names. A type's table holds its own members; a
 * lookup (P4JTypeFindMethod) walks the parents, so a child inherits its parent's methods and static methods and
 * overrides one by registering the same name. Constructors are not inherited. Added in ABI 2.5.
 */

/*!
 * \brief Sets the doc string of a registered type (copied; replaces an earlier one).
 * \return -1 with a ValueError for an unknown type_index or a NULL doc.
 */
P4J_DLL int P4JTypeSetDoc(int32_t type_index, const P4JByteArray* doc);

/*! \brief The doc string of a type, a span valid for the life of the process (size 0 when none). */
P4J_DLL int P4JTypeGetDoc(int32_t type_index, P4JByteArray* out);

/*!
 * \brief Declares one field of a type with its flags and doc (the object definition's def_ro and def_rw): a field
 *  P4JTypeRegisterFields recorded already (by name, with the same kind, offset and size) takes the flags and doc; a
 *  new one is added after them, inherited by subtypes as they are. The same field again with the same layout
 *  replaces its flags and doc; with another layout it is a ValueError naming the type, the field and both layouts.
 * \param field name, kind, object_type_index, offset and size as P4JTypeRegisterFields takes them (copied).
 * \param flags 0 (read-only) or P4J_FIELD_MUTABLE.
 * \param doc copied; NULL for none.
 */
P4J_DLL int P4JTypeRegisterField(int32_t type_index, const P4JFieldInfo* field, int32_t flags,
                                 const P4JByteArray* doc);

/*!
 * \brief The flags (P4J_FIELD_MUTABLE or 0) and doc string (valid for the life of the process; size 0 when none)
 *  of the field at field_index of P4JTypeInfo.fields. IndexError naming the type when out of range.
 */
P4J_DLL int P4JTypeGetFieldMeta(int32_t type_index, int32_t field_index, int32_t* out_flags, P4JByteArray* out_doc);

/*!
 * \brief Records the declared type of a field (ABI 2.10): the name a typed signature gives the field's C++ type, such
 *  as "list<string>", "map<string, int64>", "Calculator" or "function", which the kind alone does not tell for a
 *  kP4JFieldObject field (whose object_type_index says only "a list"). Reflection records it for every object field
 *  VisitAttrs or an object definition declares; a subtype inherits it with the field, and a subtype that declares the
 *  field again records its own. Recording it again replaces it.
 * \param field_name the name of a field the type has registered itself (P4JTypeRegisterFields or
 *  P4JTypeRegisterField); another name is an AttributeError naming the type and the field.
 * \param type_name not empty (a ValueError otherwise); copied.
 */
P4J_DLL int P4JTypeSetFieldType(int32_t type_index, const P4JByteArray* field_name, const P4JByteArray* type_name);

/*!
 * \brief The declared type of the field at field_index of P4JTypeInfo.fields, as P4JTypeSetFieldType recorded it
 *  (valid for the life of the process), or size 0 when none was recorded: a field of another kind than
 *  kP4JFieldObject, whose kind is its type, or a field of a plugin built before ABI 2.10. IndexError naming the type
 *  when field_index is out of range.
 */
P4J_DLL int P4JTypeGetFieldType(int32_t type_index, int32_t field_index, P4JByteArray* out_type);

/*!
 * \brief Adds a member to a type's method table. The table takes a reference to function (borrowed) and keeps it
 *  until exit; the function's name in messages should be "TypeKey.name".
 * \param name the member's name (copied); the constructor's must be P4J_CONSTRUCTOR_NAME, and only it.
 * \param kind a P4JMethodKind.
 * \param doc copied; NULL for none.
 * \param param_names num_param_names names (copied), or NULL with 0 for none. When given and the function has a
 *  signature, there must be one per parameter, self not counted for a method (ValueError naming both counts).
 * \return -1 with a ValueError for a name the type's table holds already (the first stays; this refusal is also
 *  kept for "packed4j.TakeRegistrationErrors"), a bad kind, a parameter-name count that does not match, or a method
 *  whose signature does not take the type (or an ancestor) first.
 */
P4J_DLL int P4JTypeRegisterMethod(int32_t type_index, const P4JByteArray* name, int32_t kind, P4JObjectHandle function,
                                  const P4JByteArray* doc, const P4JByteArray* param_names, int32_t num_param_names);

/*! \brief How many members the type's own method table holds (inherited ones not counted). */
P4J_DLL int P4JTypeGetNumMethods(int32_t type_index, int32_t* out);

/*!
 * \brief The member at method_index (0 <= method_index < P4JTypeGetNumMethods) of the type's own table, in the order
 *  of registration. IndexError when out of range.
 */
P4J_DLL int P4JTypeGetMethod(int32_t type_index, int32_t method_index, const P4JMethodInfo** out);

/*!
 * \brief Finds a method or static method by name in the type's table, then in its parent's and so on (the nearest
 *  wins, so a child's override hides its parent's); P4J_CONSTRUCTOR_NAME finds the type's own constructor only.
 *  AttributeError naming the type and listing what it has when none is found.
 */
P4J_DLL int P4JTypeFindMethod(int32_t type_index, const P4JByteArray* name, const P4JMethodInfo** out);

/*!
 * \brief Writes the field at field_index of the object's type info from value (borrowed), thread-safely.
 *
 *  The field must carry P4J_FIELD_MUTABLE (else a ValueError naming the type and the field, "read-only"). The value
 *  is converted as a typed argument of the field's type: kP4JInt for int32 (range-checked), int64 and uint64 (not
 *  negative), kP4JFloat or kP4JInt for float64, kP4JBool for bool, a string (kP4JStrView or a String) for a string
 *  field, and for an object field None or an object of the declared type (a string view for a String field); a
 *  TypeError or ValueError names the type, the field and the expected type. A field whose declared type
 *  (P4JTypeSetFieldType) is a list or map also has each element, key and value checked as a typed argument of that
 *  type would be, nested containers included, before the lock is taken: the error names the declared type and the
 *  element's index or key, and the field keeps its value. A number is written with one store, as a caller that
 *  writes the offset itself does. A string or object field is swapped under a lock of the object that
 *  P4JObjectGetField and P4JObjectGetAttr also take, so concurrent writers and readers through these functions see
 *  a whole value; the old value is released once, after the swap. IndexError when field_index is out of range.
 */
P4J_DLL int P4JObjectSetField(P4JObjectHandle obj, int32_t field_index, const P4JAny* value);

/*! \brief P4JObjectSetField by the field's exact name; AttributeError naming the type and listing its fields. */
P4J_DLL int P4JObjectSetAttr(P4JObjectHandle obj, const P4JByteArray* name, const P4JAny* value);

/*!
 * \brief Takes the lock P4JObjectSetField and P4JObjectGetField hold while they assign or copy a string or object
 *  field of obj (ABI 2.11), so that C++ code can read or write such a field while Java sets it: the C++ API's
 *  FieldsLock, LockedRead and LockedWrite. The lock is shared by a stripe of objects and is not reentrant: hold it
 *  only to copy or assign values, call nothing of packed4j while holding it (a field read through packed4j on the
 *  same thread would wait for itself), and take one object's at a time. ValueError when obj is NULL.
 */
P4J_DLL int P4JObjectLockFields(P4JObjectHandle obj);

/*! \brief Gives back the lock P4JObjectLockFields took for obj (on the same thread). ValueError when obj is NULL. */
P4J_DLL int P4JObjectUnlockFields(P4JObjectHandle obj);

/*!
 * \brief Sets the doc string and parameter names of a registered global (the Registry's describe and params).
 * \param doc copied, replacing an earlier one; NULL keeps it.
 * \param param_names num_param_names names (copied); num_param_names -1 keeps the earlier ones. When the function has
 *  a signature there must be one name per parameter (ValueError naming the global and both counts).
 * \return -1 with a KeyError for a name no global has.
 */
P4J_DLL int P4JFunctionSetGlobalDoc(const P4JByteArray* name, const P4JByteArray* doc, const P4JByteArray* param_names,
                                    int32_t num_param_names);

/*!
 * \brief The doc string and parameter names of a registered global; spans and the array stay valid for the life of
 *  the process (a later P4JFunctionSetGlobalDoc makes new ones and keeps these). Empty doc and 0 names when none
 *  were set; KeyError for a name no global has.
 */
P4J_DLL int P4JFunctionGetGlobalDoc(const P4JByteArray* name, P4JByteArray* out_doc,
                                    const P4JByteArray** out_param_names, int32_t* out_num_param_names);

/* ===================================== Strings ===================================== */

/*! \brief Creates a kP4JString object holding a copy of input (owned, in out). */
P4J_DLL int P4JStringFromByteArray(const P4JByteArray* input, P4JAny* out);

/*! \brief Creates a kP4JBytes object holding a copy of input (owned, in out). */
P4J_DLL int P4JBytesFromByteArray(const P4JByteArray* input, P4JAny* out);

/* ===================================== Functions =================================== */

/*!
 * \brief The calling convention of every packed function.
 * \param self the cell's self (what P4JFunctionCreate was given).
 * \param args borrowed arguments. \param result uninitialised on entry; set (owned by the caller) on success.
 * \return 0 on success, -1 with the error raised on this thread (P4JErrorSetRaised*) on failure. A function that
 *  returns -1 without raising one is reported, by every way of calling it, as the RuntimeError
 *  "a function returned -1 without raising an error".
 */
typedef int (*P4JSafeCallType)(void* self, const P4JAny* args, int32_t num_args, P4JAny* result);

/*!
 * \brief Creates a function object that calls safe_call(self, ...): the simple form, for a function written in
 *  any language. It has no signature and no typed entry; its scalars entry is P4JFunctionCallScalars.
 *  deleter(self) runs when it is deleted (deleter may be NULL). \param out owned.
 */
P4J_DLL int P4JFunctionCreate(void* self, P4JSafeCallType safe_call, void (*deleter)(void* self),
                              P4JObjectHandle* out);

/*!
 * \brief Calls a function. args are borrowed; *result is owned by the caller on success and kP4JNone on failure.
 */
P4J_DLL int P4JFunctionCall(P4JObjectHandle func, const P4JAny* args, int32_t num_args, P4JAny* result);

/*! \brief Looks a global function up. *out is a borrowed handle (globals live until exit), NULL if none. */
P4J_DLL int P4JFunctionGetGlobal(const P4JByteArray* name, P4JObjectHandle* out);

/*!
 * \brief Registers func (borrowed; the registry takes a reference) under name.
 *  A name registered already is a ValueError unless allow_override is non-zero.
 */
P4J_DLL int P4JFunctionSetGlobal(const P4JByteArray* name, P4JObjectHandle func, int32_t allow_override);

/*! \brief The registered names, sorted, as an owned kP4JList of kP4JString in *out. */
P4J_DLL int P4JFunctionListGlobalNames(P4JAny* out);

/*!
 * \brief The signature recorded by set_body_typed, such as "(int64, int64) -> int64", as a borrowed span
 *  valid while func lives; size 0 for an untyped function (set_body).
 *  Type names: bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 string bytes any void
 *  function list<T> map<K, V> optional<T>, and an object type key for an ObjectRef type.
 */
P4J_DLL int P4JFunctionGetSignature(P4JObjectHandle func, P4JByteArray* out);

/* ===================================== Fast-path entries =========================== */

/*
 * A caller that knows more than P4JFunctionCall's array of values about a call (the Java runtime, which knows the
 * signature of the method it binds) calls a function without building that array: through its typed entry, when
 * it has one, or through its scalars entry, which every function has. Both are read from the function's cell.
 * A fast-path entry reports a failure in its result: it raises the error on the thread and returns the sentinel of
 * its result type, and a caller that sees the sentinel calls P4JErrorMoveFromRaised (a NULL error means the
 * sentinel was a real result; an entry clears any older raised error before returning such a result).
 */

/*! \brief The sentinel of an int64_t result: an unlikely value; a real result equal to it costs one more call. */
#define P4J_TYPED_ERROR_I64 ((int64_t)0x7ff4dead0badc0deLL)
/*! \brief The bit pattern of the sentinel of a double result: a quiet NaN with a payload no arithmetic makes. */
#define P4J_TYPED_ERROR_F64_BITS ((int64_t)0x7ffcdead0badc0deLL)
/*! \brief The sentinel of an int32_t result (bool and void). */
#define P4J_TYPED_ERROR_I32 ((int32_t)-0x0badc0de)

/*!
 * \brief The low bit of a typed entry's tensor word that marks a borrowed DLTensor; clear, the word is the
 *  P4JObjectHandle of an NDArray.
 *
 *  A borrowed tensor word is the address of a DLTensor in writable memory, 8-byte aligned, plus this bit. The caller
 *  writes only its data, ndim and dtype, and the ndim dimensions right after it (at address + sizeof(DLTensor)); the
 *  entry writes the rest, for a contiguous tensor on the CPU: device kDLCPU:0, shape pointing at those dimensions,
 *  strides NULL, byte_offset 0. The memory lives until the call returns. This spares the Java runtime, which passes
 *  a tensor it wrapped this way, writes on its side of every call.
 */
#define P4J_TENSOR_WORD_BORROWED 1

/*!
 * \brief The low bits of a typed entry's list word (a list<...> parameter) that mark a borrowed list cell (its low
 *  three bits, P4J_LIST_WORD_TAG_MASK, equal this); all three clear, the word is the P4JObjectHandle of a kP4JList,
 *  borrowed, or 0 for None. Only an entry whose cell has P4J_TYPED_FORM_BORROWED_LIST in typed_forms takes it
 *  (since 2.6).
 *
 *  A borrowed list word is the address of a P4JListCell in memory the caller owns, 8-byte aligned, plus this bit:
 *  its size values at data, each a number (kP4JInt, kP4JFloat, kP4JBool), None or a kP4JStrView, all read during the
 *  call only. The entry makes of it what the parameter's type asks: a std::vector of copies, a new List of its own
 *  (string views copied into strings), or a ListView over the caller's cell; no list object crosses the call. This
 *  spares the Java runtime the list object it would make, fill and release for every call.
 */
#define P4J_LIST_WORD_BORROWED 1

/*! \brief P4JFunctionCell.typed_forms: the typed entry takes a borrowed list cell (P4J_LIST_WORD_BORROWED). */
#define P4J_TYPED_FORM_BORROWED_LIST 1

/*!
 * \brief The low three bits of a typed entry's list word that say its form: 0 for an object word (a list's handle or
 *  0), P4J_LIST_WORD_BORROWED, P4J_LIST_WORD_DENSE_I64 or P4J_LIST_WORD_DENSE_F64; the other bits are the address.
 */
#define P4J_LIST_WORD_TAG_MASK 7

/*!
 * \brief The low three bits of a typed entry's list word that mark a dense list of int64_t values (since 2.7). Only
 *  an entry whose cell has P4J_TYPED_FORM_DENSE_LIST in typed_forms takes it.
 *
 *  A dense list word is the address of an int64_t count in memory the caller owns, 8-byte aligned, followed right
 *  after it by count int64_t values, plus this tag; all read during the call only. Each value is converted to the
 *  parameter's element type as the kP4JInt of a borrowed list cell would be (the same range checks and messages,
 *  naming the element's index). A caller passes it for a list of integers of any width; the 8 bytes of each value
 *  and no tag spare both sides the 16-byte P4JAny per element of a borrowed list cell, and a ListView<int64_t>
 *  reads the values in place.
 */
#define P4J_LIST_WORD_DENSE_I64 3

/*!
 * \brief The low three bits of a typed entry's list word that mark a dense list of double values (since 2.7): as
 *  P4J_LIST_WORD_DENSE_I64, each of the count values after the count being the bits of an IEEE 754 double, converted
 *  as the kP4JFloat of a borrowed list cell would be.
 */
#define P4J_LIST_WORD_DENSE_F64 5

/*!
 * \brief P4JFunctionCell.typed_forms: the typed entry takes a dense list word (P4J_LIST_WORD_DENSE_I64 and
 *  P4J_LIST_WORD_DENSE_F64) for a list parameter, since 2.7; an entry without it is given a borrowed list cell or
 *  an object word.
 */
#define P4J_TYPED_FORM_DENSE_LIST 2

/*! \brief The signature of P4JFunctionCallScalars and of every function's scalars entry (P4JFunctionCell). */
typedef int64_t (*P4JScalarsEntryType)(P4JObjectHandle func, int64_t shape, int64_t a0, int64_t a1, int64_t a2,
                                       int64_t a3);

/*!
 * \brief kP4JFunction cell, at handle + sizeof(P4JObject): how the function is called. Read-only for callers.
 *
 *  Every function object has a safe_call and a scalars entry, so a caller never needs to know where a function
 *  came from (a closure of the C++ API, a function written in C, a callback of another language).
 */
typedef struct {
  void* self; /*!< the state of the function, given to safe_call and found by the entries through the cell */
  /*!
   * The calling convention of every packed function. A caller that holds the handle may call
   * safe_call(self, ...) directly instead of P4JFunctionCall; on -1 it must set *result to kP4JNone itself and
   * treat a missing error as P4JFunctionCall does.
   */
  P4JSafeCallType safe_call;
  /*!
   * The typed entry, NULL when none: set by set_body_typed (since 2.4 for every signature it takes; before, only
   * when every parameter was a scalar, a string taken as std::string_view or std::string, or a tensor, and the
   * result a scalar or void). The signature alone says the wire form, so a caller that reads the signature knows
   * how to call the entry.
   *
   * It is a plain C function `R entry(P4JObjectHandle self, A1 a1, ..., An an)`, self being the function. A
   * parameter's wire type, by its signature type:
   *  - int64_t for every integer type and for bool (0 or 1); double for float32 and float64;
   *  - string and bytes: `const P4JByteArray*`, a borrowed span (valid UTF-8 for a string), read during the call;
   *  - NDArray: an int64_t tensor word, an NDArray's handle, borrowed, or a borrowed DLTensor marked with
   *    P4J_TENSOR_WORD_BORROWED (see there), so a TensorView parameter makes no object;
   *  - an object type key, list<...>, map<...>, function: an int64_t object word, the object's handle, borrowed,
   *    or 0 for None (which a typed parameter refuses as a packed call does); for list<...>, when typed_forms has
   *    P4J_TYPED_FORM_BORROWED_LIST, also a borrowed list cell (P4J_LIST_WORD_BORROWED), and when it has
   *    P4J_TYPED_FORM_DENSE_LIST, also a dense list (P4J_LIST_WORD_DENSE_I64, P4J_LIST_WORD_DENSE_F64);
   *  - any, Object, optional<...>: `const P4JAny*`, a borrowed value (never NULL), as P4JFunctionCall gets it.
   * Each is converted as the same packed argument would be (range checks, type checks, messages). The result:
   *  - int64_t for integers, double for floats, int32_t for bool (0 or 1) and for void (0);
   *  - string and bytes: `const P4JByteArray*`, a span the calling thread keeps until its next string or bytes
   *    result from an entry of the same library; the caller reads it at once. Data NULL stands for None; NULL
   *    itself is the failure;
   *  - NDArray, object type key, list<...>, map<...>, function: an int64_t object word, owned (the caller takes the
   *    reference), 0 for None;
   *  - any, Object, optional<...>: the entry has one more parameter, `P4JAny* out`, after the arguments, and returns
   *    int32_t 0 with *out set, owned, or P4J_TYPED_ERROR_I32 on a failure, *out untouched.
   * It packs nothing. On a failure it returns the sentinel of its result type (P4J_TYPED_ERROR_I64, a double with
   * the bits P4J_TYPED_ERROR_F64_BITS, P4J_TYPED_ERROR_I32, NULL for a span).
   */
  void* typed_entry;
  /*!
   * The scalars entry: P4JFunctionCallScalars for this function alone, with the same parameters (func being this
   * function) and contract. Never NULL: a closure of the C++ API has one compiled beside its body, so the body runs
   * in the entry's own frame; a function created without one gets P4JFunctionCallScalars itself.
   */
  P4JScalarsEntryType scalars_entry;
  /*!
   * Since 2.6: the wire forms the typed entry takes beyond those its signature says (bits P4J_TYPED_FORM_*), 0 for
   * none; a caller passes such a form only when its bit is set. A cell created with an older, shorter cell_size
   * has 0.
   */
  int64_t typed_forms;
} P4JFunctionCell;

/*!
 * \brief Creates a function object from a cell (copied): self, safe_call (required), typed_entry (NULL for none)
 *  and scalars_entry (NULL for P4JFunctionCallScalars), with deleter(self) run when it is deleted (may be NULL).
 * \param cell_size sizeof(P4JFunctionCell) as the caller was compiled: fields past it take their defaults (NULL,
 *  P4JFunctionCallScalars for the scalars entry, 0 for typed_forms), fields the caller has and this library does not know are ignored;
 *  at least self and safe_call (16 bytes).
 * \param signature copied; NULL or size 0 for none; the grammar of P4JFunctionGetSignature.
 * \param out owned.
 */
P4J_DLL int P4JFunctionCreateFromCell(const P4JFunctionCell* cell, int64_t cell_size, void (*deleter)(void* self),
                                      const P4JByteArray* signature, P4JObjectHandle* out);

/* ================================== Host entries =================================== */

/*!
 * \brief Guarded entries into a host language's VM, for function objects whose body is host code (packed4j's Java
 *  runtime). A VM cannot enter its own code with the native stack nearly exhausted (the JVM throws
 *  StackOverflowError in the entry frames, before any code that could catch it, and ends the process), so every
 *  call into the host goes through an entry of the core that first checks the thread's remaining stack: with less
 *  than the reserve left, the call is refused with a RecursionError (raised on the thread, -1 or the typed
 *  sentinel returned) and the host is not entered. Recursion host -> C++ -> host -> ... thus ends with an error
 *  in the outermost host caller, whatever the depth and the thread's stack size.
 *
 *  The host registers its entries once with P4JHostSetEntries, then creates its functions with
 *  P4JFunctionCreateFromCell, a cell whose safe_call is P4JHostSafeCall, deleter P4JHostRelease and typed_entry
 *  (if any) P4JHostTypedEntry(result kind). The headroom check costs a thread-local read and a compare.
 * \param safe_call the host's packed entry, called by P4JHostSafeCall with the same arguments.
 * \param release the host's deleter, called by P4JHostRelease with the same argument. With the stack below the
 *  reserve the release is deferred instead: P4JHostTakeDeferredReleases hands it to the host later.
 * \param stack_reserve the bytes of stack the host needs to enter and run, at least 128 KiB (below that the JVM's
 *  entry frames were seen to overflow); 0 for the default, P4J_HOST_DEFAULT_STACK_RESERVE.
 */
P4J_DLL int P4JHostSetEntries(P4JSafeCallType safe_call, void (*release)(void* self), int64_t stack_reserve);

/*! \brief The stack reserve P4JHostSetEntries uses when given 0: 192 KiB (196608 bytes). */
#define P4J_HOST_DEFAULT_STACK_RESERVE 196608

/*! \brief How many typed entries of the host P4JHostSetTypedEntry can hold (indices 0 to this minus 1). */
#define P4J_HOST_TYPED_ENTRIES 4096

/*!
 * \brief Registers the host's typed entry number index: a function `R entry(P4JObjectHandle self, A1 a1, ...)` of
 *  one machine shape (the typed entry contract of P4JFunctionCell.typed_entry, at most 4 parameters). A function
 *  object whose typed_entry is P4JHostTypedEntry(kind) keeps that index in the high 32 bits of its cell's self
 *  (the low 32 bits are the host's); the core's entry checks the stack and jumps to the registered one with the
 *  argument registers untouched (System V x86-64 and AArch64 pass integer and floating-point arguments in
 *  separate registers, so one forwarding entry per result type serves every shape of at most 4 parameters).
 */
P4J_DLL int P4JHostSetTypedEntry(int32_t index, void* entry);

/*!
 * \brief The core's guarded typed entry for a result of type index kind: kP4JInt (int64_t), kP4JFloat (double),
 *  kP4JBool or kP4JNone (int32_t); NULL for any other kind.
 */
P4J_DLL void* P4JHostTypedEntry(int32_t kind);

/*!
 * \brief The guarded packed entry: checks the stack and, on a thread's first call (every call once the host shuts
 *  down), that the host's JVM still exists and has the thread attached, attaching it as the upcall stub would; then
 *  calls the host's safe_call with the same arguments. A JVM that is gone or refuses the thread is a RuntimeError.
 */
P4J_DLL int P4JHostSafeCall(void* self, const P4JAny* args, int32_t num_args, P4JAny* result);

/*!
 * \brief The guarded deleter: calls the host's release (after the same check of the JVM as P4JHostSafeCall), defers
 *  it when the stack is below the reserve, and drops it once the JVM has ended.
 */
P4J_DLL void P4JHostRelease(void* self);

/*!
 * \brief Arms the exit guard (since 2.8): registers with atexit a handler from which on P4JHostSafeCall and the
 *  host's typed entries raise a RuntimeError instead of entering the host, and P4JHostRelease drops the release.
 *  A host VM runs no code once the process exits, yet static destructors and atexit handlers of plugins may still
 *  call or release a host function they kept (a PackedFunc in a global). Handlers run in the reverse order of their
 *  registration, so the host arms the guard again after each plugin library loads: it then runs before the static
 *  destructors of every library loaded so far. Returns 0, or -1 with the error raised when atexit refuses.
 */
P4J_DLL int P4JHostArmExitGuard(void);

/*!
 * \brief Tells the core that the host starts to shut down (since 2.12; the JVM's runtime calls it from a shutdown
 *  hook). Calls into the host go on as before while the host lives; but each first asks the JVM whether it still
 *  exists and whether the calling thread is attached, attaching a thread it has not seen, so that a call the JVM can
 *  no longer take (it was destroyed, or it refuses a new thread while it exits) is a RuntimeError, a release is
 *  dropped, instead of the JVM's fatal error. Before, only threads the core had not seen yet asked.
 */
P4J_DLL void P4JHostShutdownBegins(void);

/*!
 * \brief Moves up to capacity deferred releases (their self values) to out; returns how many. The host calls its
 *  release for each, on a thread with stack to spare.
 */
P4J_DLL int32_t P4JHostTakeDeferredReleases(void** out, int32_t capacity);

/*! \brief Bytes of native stack left below the caller's frame on this thread; -1 when unknown. */
P4J_DLL int64_t P4JStackHeadroom(void);

/*!
 * \brief A packed call whose arguments are scalars passed in registers and whose result comes back in one, so the
 *  caller writes no argument memory. The function runs exactly as through P4JFunctionCall (its safe_call sees
 *  ordinary arguments), and any function can be called this way.
 * \param shape one byte each: byte 0 is the number of arguments (0 to 4); byte 1 the result kind the caller takes:
 *  kP4JInt, kP4JBool, kP4JFloat, or kP4JNone for "any, released" (a void method); byte 2 + i the type index of
 *  argument i: kP4JInt, kP4JBool, kP4JFloat or kP4JNone. Other bits are 0; any other shape is a ValueError.
 * \param a0 payloads of the arguments in order (unused ones 0): the int64_t of kP4JInt, 0 or 1 for kP4JBool, the
 *  bit pattern of the double of kP4JFloat, ignored for kP4JNone.
 * \return the result's payload when its type index is the kind asked for (the bit pattern of a double for
 *  kP4JFloat), 0 for kP4JNone. P4J_TYPED_ERROR_I64 otherwise: the error is raised on the thread (a bad func or
 *  shape is a TypeError or ValueError), or the result had another kind and is kept for
 *  P4JFunctionCallScalarsTakeResult. A caller that sees P4J_TYPED_ERROR_I64 calls P4JErrorMoveFromRaised, then
 *  P4JFunctionCallScalarsTakeResult; when neither has anything, the sentinel was the real result.
 */
P4J_DLL int64_t P4JFunctionCallScalars(P4JObjectHandle func, int64_t shape, int64_t a0, int64_t a1, int64_t a2,
                                       int64_t a3);

/*!
 * \brief Moves the result this thread's last scalars call (P4JFunctionCallScalars or a scalars entry) kept because
 *  it was not of the kind asked for into *result (owned) and sets *found to 1; *found 0 and *result kP4JNone when
 *  none is kept. A thread keeps one such result at most: the next one releases it. Never fails.
 */
P4J_DLL int P4JFunctionCallScalarsTakeResult(P4JAny* result, int32_t* found);

/*!
 * \brief The end of a scalars entry whose body returned *result (owned; taken) that is not simply a payload of the
 *  kind shape asks for: returns what P4JFunctionCallScalars returns for it (0 for a void call, the payload of a real
 *  result equal to the sentinel, or P4J_TYPED_ERROR_I64 with the result kept for P4JFunctionCallScalarsTakeResult).
 *  For a scalars entry written outside libpacked4j.so. Never fails.
 */
P4J_DLL int64_t P4JFunctionScalarsResult(P4JAny* result, int64_t shape);

/* ===================================== Containers ================================== */

/*! \brief A new list of count values copied from items (borrowed; the list takes references). \param out owned */
P4J_DLL int P4JListCreate(const P4JAny* items, int64_t count, P4JObjectHandle* out);

/*! \brief A new list of count kP4JInt values; the bulk path for long arrays. \param out owned */
P4J_DLL int P4JListFromInt64s(const int64_t* values, int64_t count, P4JObjectHandle* out);

/*! \brief A new list of count kP4JFloat values. \param out owned */
P4J_DLL int P4JListFromFloat64s(const double* values, int64_t count, P4JObjectHandle* out);

/*!
 * \brief A new empty list (size 0) with room for capacity values, for a caller that writes
 *  values straight into the list's storage instead of passing them in an array of its own: the storage is the
 *  cell's data (at handle + sizeof(P4JObject)), uninitialised past size; P4JListAppendWritten then makes the
 *  written values elements. The list owns its storage (freed with the list). \param out owned
 */
P4J_DLL int P4JListCreateWithCapacity(int64_t capacity, P4JObjectHandle* out);

/*!
 * \brief Makes the count values the caller wrote at data[size .. size + count) of the list's
 *  cell elements: size grows by count (count <= capacity - size, else a ValueError). The written values are
 *  borrowed, as P4JListCreate's items are: the list takes its own reference to each object and copies string and
 *  bytes views into objects, replacing them in place. all_pods non-zero is the caller's promise that every value is
 *  kP4JNone, kP4JInt, kP4JBool, kP4JFloat, kP4JOpaquePtr, kP4JDataType or kP4JDevice, which need no owning, so the
 *  values are not read at all (a bulk write of numbers costs one pass over the memory, the caller's). On failure
 *  (a value that cannot be owned, such as a kP4JDLTensorPtr) the size is unchanged and the list holds no reference
 *  it took. Writing the values and this call must not be interleaved with other changes to the list.
 */
P4J_DLL int P4JListAppendWritten(P4JObjectHandle list, int64_t count, int32_t all_pods);

/*! \brief Appends item (borrowed). */
P4J_DLL int P4JListAppend(P4JObjectHandle list, const P4JAny* item);

/*! \brief Replaces the value at index (IndexError naming index and size). */
P4J_DLL int P4JListSetItem(P4JObjectHandle list, int64_t index, const P4JAny* item);

/*! \brief Inserts item before index (0 <= index <= size). */
P4J_DLL int P4JListInsert(P4JObjectHandle list, int64_t index, const P4JAny* item);

/*! \brief Removes the value at index and moves it to *removed (owned). */
P4J_DLL int P4JListErase(P4JObjectHandle list, int64_t index, P4JAny* removed);

/*! \brief Removes every value. */
P4J_DLL int P4JListClear(P4JObjectHandle list);

/*!
 * \brief A new map from num_pairs key/value pairs at keys_and_values (key, value, key, value, ...; borrowed).
 *  Keys: kP4JInt, a kP4JStrView / kP4JString (stored as kP4JString), or an object (by identity).
 *  A duplicate key keeps the last value at the position of its first occurrence. \param out owned
 */
P4J_DLL int P4JMapCreate(const P4JAny* keys_and_values, int64_t num_pairs, P4JObjectHandle* out);

/*! \brief Looks key up: *found is 1 and *value an owned copy, or *found is 0 and *value kP4JNone. */
P4J_DLL int P4JMapGetItem(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* value);

/*! \brief Inserts or replaces; a new key goes last. */
P4J_DLL int P4JMapSetItem(P4JObjectHandle map, const P4JAny* key, const P4JAny* value);

/*! \brief Removes key: *found is 1 and *removed the owned value, or 0 and kP4JNone. Order of the rest kept. */
P4J_DLL int P4JMapErase(P4JObjectHandle map, const P4JAny* key, int32_t* found, P4JAny* removed);

/*! \brief Removes every entry. */
P4J_DLL int P4JMapClear(P4JObjectHandle map);

/* ===================================== Tensors ===================================== */

/*
 * A kP4JNDArray object is a DLTensor with a reference count. Its cell (at handle + sizeof(P4JObject)) is the
 * DLTensor itself, read straight from memory by other languages; shape and strides always point at ndim values
 * owned by the object (strides are filled in for a contiguous tensor, so they are never NULL). The data is owned
 * as the creating function says: allocated by the core, borrowed with an owner to release, or a DLPack
 * producer's. Added in ABI 2.1.
 *
 * DLPack 1.0's DLManagedTensorVersioned is part of this ABI. Debian's libdlpack-dev (0.6) predates it, so when
 * the included dlpack.h does not define it, its layout (fixed by the DLPack 1.0 ABI) is declared here.
 */

/*! \brief kP4JNDArray cell: the tensor. Read-only for callers; shape and strides are never NULL. */
typedef DLTensor P4JNDArrayCell;

#ifndef DLPACK_MAJOR_VERSION
/*! \brief DLPack 1.0's version pair (declared here because the included dlpack.h predates it). */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/*! \brief DLPack 1.0's versioned managed tensor (declared here because the included dlpack.h predates it). */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#endif

/*! \brief The DLPack major version of the DLManagedTensorVersioned this ABI reads and writes. */
#define P4J_DLPACK_MAJOR_VERSION 1
/*! \brief DLPack's type code of bool (kDLBool since DLPack 0.8; 8 bits per value). */
#define P4J_DL_BOOL_CODE 6

/*!
 * \brief A new CPU tensor of the given shape and dtype, contiguous, its data allocated (64-byte aligned, zeroed)
 *  and freed by the core. dtype and device are read during the call (by pointer: every language can pass that).
 *  A non-CPU device is a ValueError (the core allocates host memory only); a negative
 *  dimension, ndim outside [0, 64], a dtype of 0 bits or 0 lanes, or dimensions whose product (0 counted as 1, as
 *  contiguous strides multiply them) exceeds INT64_MAX is a ValueError. \param out owned.
 */
P4J_DLL int P4JNDArrayCreateEmpty(const int64_t* shape, int32_t ndim, const DLDataType* dtype,
                                  const DLDevice* device, P4JObjectHandle* out);

/*!
 * \brief A new tensor over borrowed memory: data, device, dtype and byte_offset are taken from tensor, shape and
 *  strides are copied (NULL strides: contiguous). owner_deleter(owner) runs when the tensor is deleted (both may
 *  be NULL: the caller then keeps the memory alive as long as the tensor lives). On failure owner_deleter is not
 *  called. Checks as P4JNDArrayCreateEmpty, and a NULL data pointer with elements is a ValueError. \param out owned.
 */
P4J_DLL int P4JNDArrayCreateView(const DLTensor* tensor, void* owner, void (*owner_deleter)(void* owner),
                                 P4JObjectHandle* out);

/*!
 * \brief A new view of base's memory (a slice, a transpose): the data pointer, dtype and device are base's; ndim,
 *  shape, strides (NULL: contiguous) and byte_offset come from layout (its other fields are ignored). The view
 *  holds a reference to base, so the memory lives as long as either. Every element the layout reaches must lie
 *  within base's elements (ValueError naming the element otherwise); a layout whose reach in bytes does not fit
 *  in int64 is a ValueError. \param out owned.
 */
P4J_DLL int P4JNDArrayCreateViewOf(P4JObjectHandle base, const DLTensor* layout, P4JObjectHandle* out);

/*!
 * \brief A tensor over a DLPack producer's tensor, without copying: on success the tensor owns managed and calls
 *  its deleter when deleted (on failure managed is untouched). A tensor that P4JNDArrayToDLPack exported comes
 *  back as the same object (managed is released, a reference to the object returned). \param out owned.
 */
P4J_DLL int P4JNDArrayFromDLPack(DLManagedTensor* managed, P4JObjectHandle* out);

/*!
 * \brief As P4JNDArrayFromDLPack for DLPack 1.0's DLManagedTensorVersioned. A major version other than
 *  P4J_DLPACK_MAJOR_VERSION is a ValueError (managed untouched). \param out owned.
 */
P4J_DLL int P4JNDArrayFromDLPackVersioned(DLManagedTensorVersioned* managed, P4JObjectHandle* out);

/*!
 * \brief Exports a tensor (borrowed) as a new DLManagedTensor that holds one reference to it; the consumer calls
 *  its deleter once, which drops that reference. Its dl_tensor is the tensor's (same data pointer, shape and
 *  strides, valid while the managed tensor lives). \param out owned by the consumer.
 */
P4J_DLL int P4JNDArrayToDLPack(P4JObjectHandle array, DLManagedTensor** out);

/*! \brief As P4JNDArrayToDLPack, as DLPack 1.0's DLManagedTensorVersioned (version 1.0, flags 0). */
P4J_DLL int P4JNDArrayToDLPackVersioned(P4JObjectHandle array, DLManagedTensorVersioned** out);

/* =================================== end of Tensors ================================= */

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // PACKED4J_C_API_H_
