package dev.packed4j.runtime.internal.objects;

import dev.packed4j.runtime.ObjectTypeInfo;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.internal.capi.NativeLibraries;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lists every registered object type through {@code P4JTypeGetInfo}, without a C ABI function of its own.
 *
 * <p>The core's built-in types have the fixed indices {@code kP4JObject (64)} to {@code kP4JNDArray (71)}; types
 * registered by libraries get consecutive indices from {@code kP4JDynamicObjectBegin (128)} on, and an index is
 * never freed. So the first unknown index from 128 on ends the list.
 */
public final class ObjectTypeCatalog {
  private static final int STATIC_BEGIN = 64;
  private static final int STATIC_END = 72;
  private static final int DYNAMIC_BEGIN = 128;

  private ObjectTypeCatalog() {}

  /** Every registered type, in index order: the core's built-in types first, then by registration. */
  public static List<ObjectTypeInfo> all() {
    NativeLibraries.ensureLoaded();
    List<TypeInfo> infos = new ArrayList<>();
    for (int index = STATIC_BEGIN; index < STATIC_END; index++) {
      read(index).ifPresent(infos::add);
    }
    for (int index = DYNAMIC_BEGIN; ; index++) {
      Optional<TypeInfo> info = read(index);
      if (info.isEmpty()) {
        break;
      }
      infos.add(info.get());
    }
    return infos.stream().map(ObjectTypeCatalog::describe).toList();
  }

  /** The type registered under {@code key}, if any. */
  public static Optional<ObjectTypeInfo> find(String key) {
    int index = TypeInfos.indexOf(key);
    return index < 0 ? Optional.empty() : Optional.of(describe(TypeInfos.fresh(index)));
  }

  private static Optional<TypeInfo> read(int index) {
    try {
      // Fresh: fields may have been registered since the cache was filled.
      return Optional.of(TypeInfos.fresh(index));
    } catch (Packed4jException noSuchIndex) {
      return Optional.empty();
    }
  }

  private static ObjectTypeInfo describe(TypeInfo info) {
    Optional<String> parent =
        info.parentIndex() < 0 ? Optional.empty() : Optional.of(TypeInfos.keyOrIndex(info.parentIndex()));
    TypeInfo parentInfo = info.parentIndex() < 0 ? null : TypeInfos.info(info.parentIndex());
    List<ObjectTypeInfo.Field> fields = new ArrayList<>();
    for (TypeInfo.FieldInfo field : info.fields()) {
      fields.add(new ObjectTypeInfo.Field(field.name(), TypeInfos.fieldType(field),
          declaredBy(field.name(), info, parentInfo),
          field.mutable(), field.doc()));
    }
    List<ObjectTypeInfo.Member> members = new ArrayList<>();
    for (TypeInfo.MemberInfo member : info.members()) {
      ObjectTypeInfo.MemberKind kind = switch (member.kind()) {
        case TypeInfo.MemberInfo.STATIC_METHOD -> ObjectTypeInfo.MemberKind.STATIC_METHOD;
        case TypeInfo.MemberInfo.CONSTRUCTOR -> ObjectTypeInfo.MemberKind.CONSTRUCTOR;
        default -> ObjectTypeInfo.MemberKind.METHOD;
      };
      members.add(new ObjectTypeInfo.Member(member.name(), kind, member.signature(), member.parameterNames(),
          member.doc(), info.key()));
    }
    return new ObjectTypeInfo(info.key(), parent, fields, members, info.doc());
  }

  /** The key of the nearest ancestor (or the type itself) that declares the field, walking up while it is there. */
  private static String declaredBy(String fieldName, TypeInfo type, TypeInfo parent) {
    String owner = type.key();
    TypeInfo current = parent;
    while (current != null && current.field(fieldName) != null) {
      owner = current.key();
      current = current.parentIndex() < 0 ? null : TypeInfos.info(current.parentIndex());
    }
    return owner;
  }
}
