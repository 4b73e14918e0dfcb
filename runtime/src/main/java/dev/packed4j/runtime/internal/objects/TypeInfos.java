package dev.packed4j.runtime.internal.objects;

import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JByteArray;
import dev.packed4j.runtime.internal.capi.P4JFieldInfo;
import dev.packed4j.runtime.internal.capi.P4JMethodInfo;
import dev.packed4j.runtime.internal.capi.P4JTypeInfo;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Native type metadata, read once per type index and cached.
 *
 * <p>Plugins register types and fields while they load, so {@link #invalidate()} (called after each
 * {@code Packed4j.loadLibrary}) drops the cache; a lookup that misses a key or field reads again before failing.
 */
public final class TypeInfos {
  private TypeInfos() {}

  private static volatile TypeInfo[] byIndex = new TypeInfo[256];
  private static final ConcurrentHashMap<String, Integer> INDEX_BY_KEY = new ConcurrentHashMap<>();
  private static volatile int generation;

  /** Bumped on every invalidation; caches derived from type metadata compare it. */
  public static int generation() {
    return generation;
  }

  /** Forgets what was read: plugins may have registered types or fields since. */
  public static void invalidate() {
    synchronized (TypeInfos.class) {
      byIndex = new TypeInfo[byIndex.length];
      INDEX_BY_KEY.clear();
      generation++;
    }
  }

  /** The metadata of a registered type index (a Packed4jException when the index is unknown). */
  public static TypeInfo info(int typeIndex) {
    TypeInfo[] cache = byIndex;
    if (typeIndex >= 0 && typeIndex < cache.length) {
      TypeInfo cached = cache[typeIndex];
      if (cached != null) {
        return cached;
      }
    }
    int readIn = generation;
    return store(read(typeIndex), readIn);
  }

  /** The metadata of a type index read again from native memory (fields may have been registered since). */
  public static TypeInfo fresh(int typeIndex) {
    int readIn = generation;
    return store(read(typeIndex), readIn);
  }

  /**
   * Caches {@code info}, read while {@link #generation()} was {@code readIn}, unless an invalidation came since: a
   * read that raced with a library's load may miss what the library registered, and must not outlive the
   * invalidation that followed the load.
   */
  static TypeInfo store(TypeInfo info, int readIn) {
    int typeIndex = info.index();
    synchronized (TypeInfos.class) {
      if (generation != readIn) {
        return info;
      }
      TypeInfo[] current = byIndex;
      if (typeIndex >= current.length) {
        current = Arrays.copyOf(current, Math.max(typeIndex + 1, current.length * 2));
      } else {
        current = current.clone();
      }
      current[typeIndex] = info;
      byIndex = current;
    }
    return info;
  }

  /** The type key of an index, for messages: never fails. */
  public static String keyOrIndex(int typeIndex) {
    try {
      return info(typeIndex).key();
    } catch (RuntimeException e) {
      return "type#" + typeIndex;
    }
  }

  /**
   * The native type of a field as a signature names it: its declared type when the library recorded one
   * ({@code "list<string>"}, ABI 2.10), else its kind's name, or for an object field its declared type's key
   * ({@code "List"} for a list of a plugin built before ABI 2.10).
   */
  public static String fieldType(TypeInfo.FieldInfo field) {
    if (!field.declaredType().isEmpty()) {
      return field.declaredType();
    }
    return field.kind() == 7 ? keyOrIndex(field.objectTypeIndex()) : field.kindName();
  }

  /** The index of a registered type key, or -1 when no library registered it. */
  public static int indexOf(String typeKey) {
    Integer cached = INDEX_BY_KEY.get(typeKey);
    if (cached != null) {
      return cached;
    }
    NativeLibraries.ensureLoaded();
    try (Arena arena = Arena.ofConfined()) {
      byte[] bytes = typeKey.getBytes(StandardCharsets.UTF_8);
      MemorySegment data = arena.allocate(bytes.length + 1L);
      MemorySegment.copy(bytes, 0, data, ValueLayout.JAVA_BYTE, 0, bytes.length);
      MemorySegment span = arena.allocate(P4JByteArray.LAYOUT);
      span.set(ValueLayout.JAVA_LONG, P4JByteArray.DATA, data.address());
      span.set(ValueLayout.JAVA_LONG, P4JByteArray.BYTE_SIZE, bytes.length);
      MemorySegment out = arena.allocate(ValueLayout.JAVA_INT);
      if (CApi.P4JTypeKeyToIndex(span.address(), out.address()) != 0) {
        Errors.clearRaised();
        return -1;
      }
      int index = out.get(ValueLayout.JAVA_INT, 0);
      INDEX_BY_KEY.put(typeKey, index);
      return index;
    }
  }

  /** Whether {@code typeIndex} is {@code ancestorIndex} or derives from it. */
  public static boolean isInstanceOf(int typeIndex, int ancestorIndex) {
    if (typeIndex == ancestorIndex) {
      return true;
    }
    return CApi.P4JTypeIsInstanceOf(typeIndex, ancestorIndex) != 0;
  }

  /** Every registered key of the index and its ancestors, nearest first, for messages and lookups. */
  public static List<TypeInfo> lineage(int typeIndex) {
    List<TypeInfo> lineage = new ArrayList<>();
    for (int index = typeIndex; index >= 0 && lineage.size() < 1024; ) {
      TypeInfo info = info(index);
      lineage.add(info);
      index = info.parentIndex();
    }
    return lineage;
  }

  private static TypeInfo read(int typeIndex) {
    NativeLibraries.ensureLoaded();
    long address;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
      Errors.check(CApi.P4JTypeGetInfo(typeIndex, out.address()), null);
      address = out.get(ValueLayout.JAVA_LONG, 0);
    }
    int index = NativeMemory.getInt(address + P4JTypeInfo.TYPE_INDEX);
    int parent = NativeMemory.getInt(address + P4JTypeInfo.PARENT_TYPE_INDEX);
    int depth = NativeMemory.getInt(address + P4JTypeInfo.DEPTH);
    int fieldCount = NativeMemory.getInt(address + P4JTypeInfo.NUM_FIELDS);
    String key = NativeMemory.spanString(address + P4JTypeInfo.TYPE_KEY);
    long fields = NativeMemory.getLong(address + P4JTypeInfo.FIELDS);
    long instanceSize = NativeMemory.getLong(address + P4JTypeInfo.INSTANCE_SIZE);
    List<TypeInfo.FieldInfo> fieldList = new ArrayList<>(fieldCount);
    List<TypeInfo.MemberInfo> members = new ArrayList<>();
    String doc;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment span = arena.allocate(P4JByteArray.LAYOUT);
      MemorySegment flags = arena.allocate(ValueLayout.JAVA_INT);
      MemorySegment declared = arena.allocate(P4JByteArray.LAYOUT);
      for (int i = 0; i < fieldCount; i++) {
        long field = fields + i * P4JFieldInfo.SIZE;
        Errors.check(CApi.P4JTypeGetFieldMeta(typeIndex, i, flags.address(), span.address()), null);
        Errors.check(CApi.P4JTypeGetFieldType(typeIndex, i, declared.address()), null);
        fieldList.add(new TypeInfo.FieldInfo(i,
            NativeMemory.spanString(field + P4JFieldInfo.NAME),
            NativeMemory.getInt(field + P4JFieldInfo.KIND),
            NativeMemory.getInt(field + P4JFieldInfo.OBJECT_TYPE_INDEX),
            NativeMemory.getLong(field + P4JFieldInfo.OFFSET),
            NativeMemory.getLong(field + P4JFieldInfo.FIELD_SIZE),
            (flags.get(ValueLayout.JAVA_INT, 0) & CApi.P4J_FIELD_MUTABLE) != 0,
            NativeMemory.spanString(span.address()),
            NativeMemory.spanString(declared.address())));
      }
      Errors.check(CApi.P4JTypeGetDoc(typeIndex, span.address()), null);
      doc = NativeMemory.spanString(span.address());
      Errors.check(CApi.P4JTypeGetNumMethods(typeIndex, flags.address()), null);
      int memberCount = flags.get(ValueLayout.JAVA_INT, 0);
      MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
      for (int i = 0; i < memberCount; i++) {
        Errors.check(CApi.P4JTypeGetMethod(typeIndex, i, out.address()), null);
        members.add(member(out.get(ValueLayout.JAVA_LONG, 0)));
      }
    }
    return new TypeInfo(index, parent, depth, key, List.copyOf(fieldList), instanceSize, doc,
        List.copyOf(members));
  }

  /**
   * The method or static method {@code name} as a call on an object of {@code typeIndex} finds it: the type's own
   * table first, then its ancestors' (an override wins); the constructor ({@code "__init__"}) only in the type's
   * own table. Null when there is none (no native call, so no error is raised).
   */
  public static TypeInfo.MemberInfo findMember(int typeIndex, String name) {
    for (TypeInfo type : lineage(typeIndex)) {
      TypeInfo.MemberInfo member = type.ownMember(name);
      if (member != null) {
        return member;
      }
      if (name.equals(CONSTRUCTOR)) {
        return null;
      }
    }
    return null;
  }

  /** Every member callable on an object of {@code typeIndex}: its own, then inherited ones it does not override. */
  public static List<TypeInfo.MemberInfo> callableMembers(int typeIndex) {
    List<TypeInfo.MemberInfo> callable = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (TypeInfo type : lineage(typeIndex)) {
      for (TypeInfo.MemberInfo member : type.members()) {
        boolean inheritedConstructor = member.kind() == TypeInfo.MemberInfo.CONSTRUCTOR && type.index() != typeIndex;
        if (!inheritedConstructor && seen.add(member.name())) {
          callable.add(member);
        }
      }
    }
    return callable;
  }

  /** The constructor's name in a type's method table ({@code P4J_CONSTRUCTOR_NAME}). */
  public static final String CONSTRUCTOR = "__init__";

  private static TypeInfo.MemberInfo member(long address) {
    int nameCount = NativeMemory.getInt(address + P4JMethodInfo.NUM_PARAM_NAMES);
    long names = NativeMemory.getLong(address + P4JMethodInfo.PARAM_NAMES);
    List<String> parameterNames = new ArrayList<>(nameCount);
    for (int i = 0; i < nameCount; i++) {
      parameterNames.add(NativeMemory.spanString(names + i * P4JByteArray.SIZE));
    }
    return new TypeInfo.MemberInfo(
        NativeMemory.spanString(address + P4JMethodInfo.NAME),
        NativeMemory.getInt(address + P4JMethodInfo.KIND),
        NativeMemory.getInt(address + P4JMethodInfo.TYPE_INDEX),
        NativeMemory.getLong(address + P4JMethodInfo.FUNCTION),
        NativeMemory.spanString(address + P4JMethodInfo.SIGNATURE),
        NativeMemory.spanString(address + P4JMethodInfo.DOC),
        List.copyOf(parameterNames));
  }
}
