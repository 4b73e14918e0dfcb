package dev.packed4j.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.PackedFunction;
import java.io.Closeable;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Which declared results RemoteClosures makes a view for, and the result type its functional method converts to,
 * through the generic super-interfaces of what a method declares.
 */
class RemoteClosuresTest {
  /** A user's interface that fixes Function's type arguments. */
  interface Scale extends Function<Long, Double> {}

  /** One more level, a variable passed on. */
  interface Labelled<T> extends Supplier<T> {}

  interface Names extends Labelled<List<String>> {}

  @Test
  void functionalInterfacesAndPackedFunctionAreClosuresAndCloseablesAreNot() {
    assertTrue(RemoteClosures.converts(PackedFunction.class));
    assertTrue(RemoteClosures.converts(LongUnaryOperator.class));
    assertTrue(RemoteClosures.converts(Scale.class));
    // A result declared AutoCloseable is a remote object to close, never a function called by close().
    assertFalse(RemoteClosures.converts(AutoCloseable.class));
    assertFalse(RemoteClosures.converts(Closeable.class));
    assertFalse(RemoteClosures.converts(Object.class));
    assertFalse(RemoteClosures.converts(List.class), "many abstract methods");
    assertNull(RemoteClosures.functionalMethod(String.class), "a class");
  }

  @Test
  void theResultTypeIsResolvedThroughSuperInterfaces() throws Exception {
    Method apply = RemoteClosures.functionalMethod(Scale.class);
    assertEquals("apply", apply.getName());
    assertEquals(Double.class, RemoteClosures.resolve(apply.getGenericReturnType(), Scale.class));
    Method get = RemoteClosures.functionalMethod(Names.class);
    ParameterizedType names = (ParameterizedType) RemoteClosures.resolve(get.getGenericReturnType(), Names.class);
    assertEquals(List.class, names.getRawType());
    assertEquals(String.class, names.getActualTypeArguments()[0]);
    // Declared with its own arguments, and with none (raw): the argument, or Object.
    ParameterizedType declared = (ParameterizedType) RemoteClosuresTest.class.getDeclaredMethod("declared")
        .getGenericReturnType();
    Method function = RemoteClosures.functionalMethod(Function.class);
    assertEquals(Long.class, RemoteClosures.resolve(function.getGenericReturnType(), declared));
    assertEquals(Object.class, RemoteClosures.resolve(function.getGenericReturnType(), Function.class));
  }

  private static Function<String, Long> declared() {
    return Long::valueOf;
  }
}
