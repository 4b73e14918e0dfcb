package dev.packed4j.runtime.internal.values;

import static dev.packed4j.runtime.internal.capi.CApi.*;

import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.objects.TypeInfos;

/** Names of wire values, for messages. */
public final class Values {
  private Values() {}

  /** What the P4JAny at {@code any} holds, as a message names it: "int", "string", "Calculator object", ... */
  public static String describe(long any) {
    return typeName(NativeMemory.anyTypeIndex(any));
  }

  /** The name of a type index. */
  public static String typeName(int typeIndex) {
    return switch (typeIndex) {
      case kP4JNone -> "None";
      case kP4JInt -> "int";
      case kP4JBool -> "bool";
      case kP4JFloat -> "float";
      case kP4JOpaquePtr -> "pointer";
      case kP4JDataType -> "dtype";
      case kP4JDevice -> "device";
      case kP4JDLTensorPtr -> "DLTensor pointer";
      case kP4JStrView, kP4JString -> "string";
      case kP4JBytesView, kP4JBytes -> "bytes";
      case kP4JFunction -> "function";
      case kP4JList -> "list";
      case kP4JMap -> "map";
      case kP4JError -> "error";
      case kP4JNDArray -> "ndarray";
      default -> typeIndex >= kP4JStaticObjectBegin
          ? TypeInfos.keyOrIndex(typeIndex) + " object"
          : "unknown value (type index " + typeIndex + ")";
    };
  }

  /** Whether the type index is an object's (the payload is a handle the value owns or borrows). */
  public static boolean isObject(int typeIndex) {
    return typeIndex >= kP4JStaticObjectBegin;
  }
}
