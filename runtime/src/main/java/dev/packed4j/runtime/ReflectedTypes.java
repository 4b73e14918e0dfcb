package dev.packed4j.runtime;

import dev.packed4j.runtime.internal.objects.GeneratedClasses;
import dev.packed4j.runtime.internal.objects.TypeView;
import dev.packed4j.types.JavaType;
import dev.packed4j.types.JavaType.PrimitiveKind;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code java.lang.reflect.Type} in packed4j-types' Java model: the runtime's side of the conversion check that
 * packed4j-processor makes from {@code javax.lang.model} (its {@code TypeModel.javaType()}), so that
 * {@code bindChecked} and the processor ask packed4j-types the same question.
 */
final class ReflectedTypes {
  private ReflectedTypes() {}

  /** The model of {@code type}; a type with no conversion is {@link JavaType.Unsupported}. */
  static JavaType of(Type type) {
    Class<?> raw = rawClass(type);
    if (raw == null) {
      return new JavaType.Unsupported(type.getTypeName()); // a type variable, a wildcard, a generic array
    }
    if (raw == void.class) {
      return new JavaType.Void();
    }
    if (raw.isPrimitive()) {
      PrimitiveKind kind = primitiveKind(raw);
      return kind == null ? new JavaType.Unsupported(raw.getName()) : new JavaType.Primitive(kind);
    }
    PrimitiveKind boxed = boxedKind(raw);
    if (boxed != null) {
      return new JavaType.Boxed(boxed);
    }
    if (raw == String.class) {
      return new JavaType.Text();
    }
    if (raw == byte[].class) {
      return new JavaType.Bytes();
    }
    if (raw == Object.class) {
      return new JavaType.Any();
    }
    if (raw.isArray()) {
      PrimitiveKind element = raw.getComponentType().isPrimitive() ? primitiveKind(raw.getComponentType()) : null;
      boolean tensor = element == PrimitiveKind.FLOAT || element == PrimitiveKind.DOUBLE
          || element == PrimitiveKind.INT || element == PrimitiveKind.LONG;
      return tensor ? new JavaType.NumericArray(element) : new JavaType.Unsupported(raw.getTypeName());
    }
    if (raw == List.class || raw == NativeList.class) {
      return new JavaType.ListOf(of(typeArgument(type, 0)));
    }
    if (raw == Map.class || raw == NativeMap.class) {
      return new JavaType.MapOf(of(typeArgument(type, 0)), of(typeArgument(type, 1)));
    }
    if (raw == Optional.class) {
      return new JavaType.OptionalOf(of(typeArgument(type, 0)));
    }
    if (raw == NDArray.class) {
      return new JavaType.Tensor();
    }
    if (raw == NativeObject.class) {
      return new JavaType.NativeObject();
    }
    if (raw == PackedFunction.class) {
      return new JavaType.PackedFunction();
    }
    if (raw.isInterface()) {
      String packageName = raw.getPackageName();
      boolean jdk = packageName.startsWith("java.") || packageName.startsWith("javax.");
      String key = jdk ? null : objectKey(raw);
      if (key != null) {
        return new JavaType.ObjectInterface(key);
      }
      if (JavaType.isFunctionalInterface(raw.isAnnotationPresent(FunctionalInterface.class), packageName,
          abstractMethods(raw))) {
        return new JavaType.Functional(raw.getName());
      }
    }
    return new JavaType.Unsupported(raw.getTypeName());
  }

  /** The abstract methods of an interface, not counting the methods of Object it redeclares. */
  private static int abstractMethods(Class<?> iface) {
    int count = 0;
    for (Method method : iface.getMethods()) {
      if (Modifier.isAbstract(method.getModifiers()) && !isObjectMethod(method)) {
        count++;
      }
    }
    return count;
  }

  private static boolean isObjectMethod(Method method) {
    String name = method.getName();
    int parameters = method.getParameterCount();
    return (name.equals("equals") && parameters == 1)
        || ((name.equals("hashCode") || name.equals("toString")) && parameters == 0);
  }

  /** The type key of an {@code @Object} interface, from its generated class; null when it has none. */
  private static String objectKey(Class<?> iface) {
    TypeView<?> view = TypeView.forJavaType(iface);
    if (view == null) {
      try {
        GeneratedClasses.load(iface, "@Object");
      } catch (IllegalStateException notAnObjectInterface) {
        return null;
      }
      view = TypeView.forJavaType(iface);
    }
    return view == null ? null : view.typeKey();
  }

  private static PrimitiveKind primitiveKind(Class<?> type) {
    if (type == boolean.class) {
      return PrimitiveKind.BOOLEAN;
    } else if (type == byte.class) {
      return PrimitiveKind.BYTE;
    } else if (type == short.class) {
      return PrimitiveKind.SHORT;
    } else if (type == int.class) {
      return PrimitiveKind.INT;
    } else if (type == long.class) {
      return PrimitiveKind.LONG;
    } else if (type == float.class) {
      return PrimitiveKind.FLOAT;
    } else if (type == double.class) {
      return PrimitiveKind.DOUBLE;
    }
    return null; // char
  }

  private static PrimitiveKind boxedKind(Class<?> type) {
    if (type == Boolean.class) {
      return PrimitiveKind.BOOLEAN;
    } else if (type == Byte.class) {
      return PrimitiveKind.BYTE;
    } else if (type == Short.class) {
      return PrimitiveKind.SHORT;
    } else if (type == Integer.class) {
      return PrimitiveKind.INT;
    } else if (type == Long.class) {
      return PrimitiveKind.LONG;
    } else if (type == Float.class) {
      return PrimitiveKind.FLOAT;
    } else if (type == Double.class) {
      return PrimitiveKind.DOUBLE;
    }
    return null;
  }

  private static Class<?> rawClass(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> c) {
      return c;
    }
    return null;
  }

  /** A type argument, or Object for a raw type (which then converts any element). */
  private static Type typeArgument(Type type, int index) {
    return type instanceof ParameterizedType parameterized ? parameterized.getActualTypeArguments()[index]
        : Object.class;
  }
}
