package dev.packed4j.runtime.internal.upcall;

import dev.packed4j.runtime.binding.CallbackBodies;
import dev.packed4j.runtime.internal.capi.CApi;
import dev.packed4j.runtime.internal.capi.Errors;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The typed entries of Java functions: one upcall stub per machine shape ({@link WireShape#stubKey()}), made on first
 * use and kept for the life of the JVM, behind the core's guarded typed entry of its result type, which checks the
 * stack and forwards the argument registers to the stub. The stub's target finds the function's wire body through the function
 * handle (its first argument, as {@code P4JFunctionCell.typed_entry} defines it) and calls it; a float travels as
 * the bits of its double between the stub and the body, so the bodies of one arity share one interface.
 *
 * <p>Failure follows the typed entry's contract: the error raised on the thread and the sentinel of the result
 * type returned; a real result equal to the sentinel clears any older raised error. Nothing is thrown to the stub.
 */
final class TypedStubs {
  private TypedStubs() {}

  /** The index of each machine shape's stub, as registered with the core ({@code P4JHostSetTypedEntry}). */
  private static final ConcurrentHashMap<String, Integer> INDICES = new ConcurrentHashMap<>();
  private static final AtomicInteger NEXT_INDEX = new AtomicInteger();

  /**
   * The index of {@code shape}'s machine shape, whose stub is made and registered with the core on first use: the
   * core's guarded typed entry, which a Java function's cell holds, finds the stub by this index in the high 32 bits
   * of the cell's self.
   */
  static int indexOf(WireShape shape) {
    Integer index = INDICES.get(shape.stubKey());
    return index != null ? index : INDICES.computeIfAbsent(shape.stubKey(), key -> register(shape));
  }

  private static int register(WireShape shape) {
    int index = NEXT_INDEX.getAndIncrement();
    if (index >= CApi.P4J_HOST_TYPED_ENTRIES) {
      throw new IllegalStateException("more than " + CApi.P4J_HOST_TYPED_ENTRIES + " machine shapes of typed Java "
          + "functions");
    }
    Errors.check(CApi.P4JHostSetTypedEntry(index, make(shape).address()), null);
    return index;
  }

  /** The core's guarded typed entry for {@code shape}'s result type: what a Java function's cell holds. */
  static long guardedEntry(WireShape shape) {
    int kind = switch (shape.result()) {
      case FLOAT -> CApi.kP4JFloat;
      case BOOL, VOID -> CApi.kP4JBool;
      default -> CApi.kP4JInt;
    };
    return CApi.P4JHostTypedEntry(kind);
  }

  @SuppressWarnings("restricted") // an upcall stub with the wire shape the typed entry forwards
  private static MemorySegment make(WireShape shape) {
    int arity = shape.parameters().size();
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    List<Class<?>> wireParameters = new ArrayList<>();
    wireParameters.add(long.class); // the error sentinel, bound below
    wireParameters.add(long.class); // the function handle
    for (int i = 0; i < arity; i++) {
      wireParameters.add(long.class);
    }
    MethodHandle target;
    try {
      target = lookup.findStatic(TypedStubs.class, "dispatch" + arity, MethodType.methodType(long.class,
          wireParameters));
      MethodHandle toBits = lookup.findStatic(Double.class, "doubleToRawLongBits",
          MethodType.methodType(long.class, double.class));
      MethodHandle fromBits = lookup.findStatic(Double.class, "longBitsToDouble",
          MethodType.methodType(double.class, long.class));
      target = MethodHandles.insertArguments(target, 0, sentinel(shape.result()));
      for (int i = 0; i < arity; i++) {
        if (shape.parameters().get(i).isFloat()) {
          target = MethodHandles.filterArguments(target, 1 + i, toBits);
        }
      }
      switch (shape.result()) {
        case FLOAT -> target = MethodHandles.filterReturnValue(target, fromBits);
        case BOOL, VOID -> target = MethodHandles.explicitCastArguments(target,
            target.type().changeReturnType(int.class));
        default -> {
          // int64_t: the wire value itself.
        }
      }
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
    MemoryLayout[] arguments = new MemoryLayout[1 + arity];
    arguments[0] = ValueLayout.JAVA_LONG;
    for (int i = 0; i < arity; i++) {
      arguments[1 + i] = shape.parameters().get(i).isFloat() ? ValueLayout.JAVA_DOUBLE : ValueLayout.JAVA_LONG;
    }
    MemoryLayout result = switch (shape.result()) {
      case FLOAT -> ValueLayout.JAVA_DOUBLE;
      case BOOL, VOID -> ValueLayout.JAVA_INT;
      default -> ValueLayout.JAVA_LONG;
    };
    return Linker.nativeLinker().upcallStub(target, FunctionDescriptor.of(result, arguments), Arena.global());
  }

  /** The error sentinel of a result kind, as the wire value the stub's result is converted from. */
  static long sentinel(WireShape.Kind result) {
    return switch (result) {
      case FLOAT -> CApi.P4J_TYPED_ERROR_F64_BITS;
      case BOOL, VOID -> CApi.P4J_TYPED_ERROR_I32;
      default -> CApi.P4J_TYPED_ERROR_I64;
    };
  }

  /** A real result equal to the sentinel: an older error must not be taken for this call's. */
  private static long checked(long result, long sentinel) {
    if (result == sentinel) {
      Errors.clearRaised();
    }
    return result;
  }

  /**
   * Raises {@code thrown}, an argument's conversion failure named by {@code function}; the sentinel. Its callers
   * guard the call itself, which needs a stack frame too.
   */
  private static long failed(Throwable thrown, long sentinel, long function) {
    Throwable raised = thrown;
    if (thrown instanceof ConversionFailure failure && failure.argument() >= 0) {
      try {
        raised = JavaFunctions.argumentFailure(function, failure);
      } catch (Throwable unnamed) {
        // Out of memory for the message, say: the failure itself is raised, never a sentinel without an error.
      }
    }
    JavaErrors.raise(raised);
    return sentinel;
  }

  private static long dispatch0(long sentinel, long function) {
    try {
      return checked(((CallbackBodies.Wire0) JavaFunctions.wireOf(function)).call(), sentinel);
    } catch (Throwable thrown) {
      try {
        return failed(thrown, sentinel, function);
      } catch (Throwable nothingLeft) {
        return sentinel;
      }
    }
  }

  private static long dispatch1(long sentinel, long function, long a0) {
    try {
      return checked(((CallbackBodies.Wire1) JavaFunctions.wireOf(function)).call(a0), sentinel);
    } catch (Throwable thrown) {
      try {
        return failed(thrown, sentinel, function);
      } catch (Throwable nothingLeft) {
        return sentinel;
      }
    }
  }

  private static long dispatch2(long sentinel, long function, long a0, long a1) {
    try {
      return checked(((CallbackBodies.Wire2) JavaFunctions.wireOf(function)).call(a0, a1), sentinel);
    } catch (Throwable thrown) {
      try {
        return failed(thrown, sentinel, function);
      } catch (Throwable nothingLeft) {
        return sentinel;
      }
    }
  }

  private static long dispatch3(long sentinel, long function, long a0, long a1, long a2) {
    try {
      return checked(((CallbackBodies.Wire3) JavaFunctions.wireOf(function)).call(a0, a1, a2), sentinel);
    } catch (Throwable thrown) {
      try {
        return failed(thrown, sentinel, function);
      } catch (Throwable nothingLeft) {
        return sentinel;
      }
    }
  }

  private static long dispatch4(long sentinel, long function, long a0, long a1, long a2, long a3) {
    try {
      return checked(((CallbackBodies.Wire4) JavaFunctions.wireOf(function)).call(a0, a1, a2, a3), sentinel);
    } catch (Throwable thrown) {
      try {
        return failed(thrown, sentinel, function);
      } catch (Throwable nothingLeft) {
        return sentinel;
      }
    }
  }
}
