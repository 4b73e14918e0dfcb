package dev.packed4j.remote.internal;

import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.NativeList;
import dev.packed4j.runtime.NativeMap;
import dev.packed4j.runtime.NativeObject;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.binding.Codec;
import dev.packed4j.runtime.binding.Codecs;
import dev.packed4j.runtime.binding.FunctionSite;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The null checks a call in this process makes, made by a session's client before it sends the call, so that a null
 * argument, or a null element, key or value of a List or Map argument, is the same {@link NullPointerException}
 * with the same message in this process and through a session (it used to reach the server as None). The checks
 * and their messages are the runtime's ({@code Codecs.checkNulls}), with the codec the local binding
 * converts each parameter with, and each argument named as the local call names it: by the {@link FunctionSite}
 * packed4j-processor generated for the method ({@code "inv.TotalCount argument 0 (items)"}).
 *
 * <p>The sites are private fields of the generated class, read reflectively; where they cannot be (the interface's
 * module does not open its package to this one), an argument is named by the Java method and, when the class was
 * compiled with {@code -parameters}, the parameter's name.
 */
final class NullChecks {
  /** The codec of each parameter; null for a primitive, and for a type no codec converts locally. */
  private final Codec<?>[] codecs;
  /** How messages name each argument. */
  private final String[] arguments;
  /** For a parameter without a codec: the declared method, whose whole-argument check is ClientValues'. */
  private final Method method;
  private final String site;
  private final int first;
  /**
   * A typed setter's null value, refused as the generated setter refuses it ({@link FunctionSite#nullFieldValue}):
   * the setter's parameter class for a string, list or map field; null for a call's checks, and for a setter whose
   * field takes null (an object field, as "no object").
   */
  private final Class<?> nonNullField;
  /** The setter's type key and field, for {@link #nonNullField}'s message. */
  private final String typeKey;
  private final String field;

  private NullChecks(Codec<?>[] codecs, String[] arguments, Method method, String site, int first,
      Class<?> nonNullField, String typeKey, String field) {
    this.codecs = codecs;
    this.arguments = arguments;
    this.method = method;
    this.site = site;
    this.first = first;
    this.nonNullField = nonNullField;
    this.typeKey = typeKey;
    this.field = field;
  }

  /**
   * The checks of {@code method}, whose site in its generated class calls {@code function} (a global's name, or
   * {@code "Type.member"}); {@code site} names the call where no generated site is found, and {@code first} is the
   * position of the method's first parameter in the call ({@code 1} for a method, the object being argument 0).
   */
  static NullChecks of(Method method, Class<?> declaring, String function, String site, int first) {
    FunctionSite generated = function == null ? null : find(declaring, function, method);
    Type[] types = method.getGenericParameterTypes();
    Parameter[] parameters = method.getParameters();
    Codec<?>[] codecs = new Codec<?>[types.length];
    String[] arguments = new String[types.length];
    for (int i = 0; i < types.length; i++) {
      codecs[i] = codecOf(types[i]);
      arguments[i] = generated != null ? generated.describeArgument(first + i)
          : site + " argument " + (first + i) + (parameters[i].isNamePresent() ? " (" + parameters[i].getName()
              + ")" : "");
    }
    return new NullChecks(codecs, arguments, method, site, first, null, null, null);
  }

  /**
   * The checks of a typed setter of {@code typeKey}'s field {@code field}, named as the runtime's setter names its
   * value ({@code "inv.Item.tags(value)"}): a null value of a string, list or map field, and the elements of a List
   * or Map value. A null for an object field is sent: it is "no object".
   */
  static NullChecks ofSetter(Method method, String typeKey, String field) {
    Type[] types = method.getGenericParameterTypes();
    Codec<?>[] codecs = new Codec<?>[types.length];
    String[] arguments = new String[types.length];
    for (int i = 0; i < types.length; i++) {
      codecs[i] = codecOf(types[i]);
      arguments[i] = FunctionSite.describeFieldValue(typeKey, field);
    }
    Class<?> value = types.length == 1 ? ClientValues.raw(types[0]) : null;
    boolean neverNull = value == String.class || value == List.class || value == Map.class
        || value == NativeList.class || value == NativeMap.class;
    return new NullChecks(codecs, arguments, method, typeKey + "." + field, 0, neverNull ? value : null, typeKey,
        field);
  }

  /** Throws the NullPointerException a local call would throw for a null in {@code args}. */
  void check(Object[] args) {
    if (args == null) {
      return;
    }
    boolean setter = typeKey != null;
    for (int i = 0; i < args.length && i < codecs.length; i++) {
      if (args[i] == null && setter) {
        if (nonNullField != null) {
          throw FunctionSite.nullFieldValue(typeKey, field, nonNullField);
        }
        continue;
      }
      if (codecs[i] != null) {
        Codecs.checkNulls(codecs[i], args[i], arguments[i]);
      } else if (args[i] == null) {
        ClientValues.checkNulls(method, args, site, first);
      }
    }
  }

  /**
   * The site of {@code declaring}'s generated class that calls {@code function} from {@code method}, or null: the
   * generated class is {@code declaring}'s ({@code Packed4j_Name}) and keeps its sites in static fields.
   */
  private static FunctionSite find(Class<?> declaring, String function, Method method) {
    List<FunctionSite> matches = new ArrayList<>();
    try {
      Class<?> generated = Class.forName(ObjectInterfaces.generatedName(declaring), true,
          declaring.getClassLoader());
      for (Field field : generated.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers()) && field.getType() == FunctionSite.class
            && field.trySetAccessible()
            && field.get(null) instanceof FunctionSite site && site.globalName().equals(function)
            && site.javaMethod().endsWith("." + method.getName())) {
          matches.add(site);
        }
      }
    } catch (ReflectiveOperationException | LinkageError | RuntimeException unreadable) {
      return null; // named by the Java method instead
    }
    // Overloads of one name that call one function with different parameters: which is which is not recorded.
    return matches.size() == 1 ? matches.getFirst() : null;
  }

  /** The codec the local binding converts a parameter of {@code type} with, or null (a primitive, or none). */
  static Codec<?> codecOf(Type type) {
    Class<?> raw = ClientValues.raw(type);
    if (raw.isPrimitive()) {
      return null;
    }
    try {
      return switch (raw.getName()) {
        case "java.lang.Boolean" -> Codecs.BOOLEAN;
        case "java.lang.Byte" -> Codecs.BYTE;
        case "java.lang.Short" -> Codecs.SHORT;
        case "java.lang.Integer" -> Codecs.INT;
        case "java.lang.Long" -> Codecs.LONG;
        case "java.lang.Float" -> Codecs.FLOAT;
        case "java.lang.Double" -> Codecs.DOUBLE;
        case "java.lang.String" -> Codecs.STRING;
        case "java.lang.Object" -> Codecs.ANY;
        case "[B" -> Codecs.BYTES;
        case "[F" -> Codecs.FLOAT_ARRAY;
        case "[D" -> Codecs.DOUBLE_ARRAY;
        case "[I" -> Codecs.INT_ARRAY;
        case "[J" -> Codecs.LONG_ARRAY;
        default -> containerOrObject(raw, type);
      };
    } catch (IllegalArgumentException unsupported) {
      return null; // a map key type no codec takes: the server refuses it
    }
  }

  private static Codec<?> containerOrObject(Class<?> raw, Type type) {
    if (raw == NDArray.class) {
      return Codecs.NDARRAY;
    }
    if (raw == NativeObject.class) {
      return Codecs.NATIVE_OBJECT;
    }
    if (raw == PackedFunction.class) {
      return Codecs.PACKED_FUNCTION;
    }
    if (raw == List.class || raw == NativeList.class) {
      Codec<?> element = codecOf(argument(type, 0));
      return element == null ? null : raw == List.class ? Codecs.list(element) : Codecs.nativeList(element);
    }
    if (raw == Map.class || raw == NativeMap.class) {
      Codec<?> keys = codecOf(argument(type, 0));
      Codec<?> values = codecOf(argument(type, 1));
      return keys == null || values == null ? null
          : raw == Map.class ? Codecs.map(keys, values) : Codecs.nativeMap(keys, values);
    }
    if (raw == Optional.class) {
      Codec<?> value = codecOf(argument(type, 0));
      return value == null ? null : Codecs.optional(value);
    }
    return ObjectInterfaces.isObjectInterface(raw) ? Codecs.object(raw) : null;
  }

  private static Type argument(Type type, int index) {
    if (type instanceof ParameterizedType parameterized) {
      Type argument = parameterized.getActualTypeArguments()[index];
      return argument instanceof WildcardType wildcard ? wildcard.getUpperBounds()[0] : argument;
    }
    return Object.class; // a raw List: elements of any type, None included
  }
}
