package dev.packed4j.runtime.internal.upcall;

import static dev.packed4j.runtime.internal.capi.CApi.kP4JBool;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JFloat;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JInt;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JStrView;
import static dev.packed4j.runtime.internal.capi.CApi.kP4JString;

import dev.packed4j.runtime.binding.CallbackBodies;
import dev.packed4j.runtime.internal.capi.NativeMemory;
import dev.packed4j.runtime.internal.capi.P4JAny;
import dev.packed4j.runtime.internal.errors.ConversionFailure;
import dev.packed4j.runtime.internal.values.CallTarget;
import dev.packed4j.runtime.internal.values.Frame;
import dev.packed4j.runtime.internal.values.ThreadStack;
import dev.packed4j.runtime.internal.values.Values;
import dev.packed4j.types.Narrowing;

/** A packed call of a typed Java function: the packed arguments turned into wire values, the wire result back. */
final class TypedCalls {
  private TypedCalls() {}

  private static final CallTarget TARGET = CallTarget.operation("a typed Java callback");

  /**
   * Calls {@code wire} with the packed arguments. {@code subject} names the function in errors
   * ({@link JavaFunctions#typedSubject}).
   */
  static void callPacked(Object wire, WireShape shape, String subject, long arguments, int count, long result)
      throws Throwable {
    int arity = shape.parameters().size();
    if (count != arity) {
      throw PackedArgs.arityError(subject, arity, count);
    }
    try (Frame frame = ThreadStack.current().push(TARGET, 0)) {
      long a0 = arity > 0 ? wireArgument(shape, subject, 0, arguments, frame) : 0;
      long a1 = arity > 1 ? wireArgument(shape, subject, 1, arguments, frame) : 0;
      long a2 = arity > 2 ? wireArgument(shape, subject, 2, arguments, frame) : 0;
      long a3 = arity > 3 ? wireArgument(shape, subject, 3, arguments, frame) : 0;
      long value;
      try {
        value = switch (arity) {
          case 0 -> ((CallbackBodies.Wire0) wire).call();
          case 1 -> ((CallbackBodies.Wire1) wire).call(a0);
          case 2 -> ((CallbackBodies.Wire2) wire).call(a0, a1);
          case 3 -> ((CallbackBodies.Wire3) wire).call(a0, a1, a2);
          default -> ((CallbackBodies.Wire4) wire).call(a0, a1, a2, a3);
        };
      } catch (ConversionFailure failure) {
        throw failure.argument() >= 0 ? argumentFailure(subject, failure) : failure;
      }
      switch (shape.result()) {
        case INTEGER -> NativeMemory.putAny(result, kP4JInt, 0, value);
        case FLOAT -> NativeMemory.putAny(result, kP4JFloat, 0, value);
        case BOOL -> NativeMemory.putAny(result, kP4JBool, 0, value != 0 ? 1 : 0);
        default -> NativeMemory.putAny(result, 0, 0, 0);
      }
    }
  }

  /** A typed body's argument that did not convert (a narrowing, {@code Callbacks.toInt}), named by the function. */
  static RuntimeException argumentFailure(String subject, ConversionFailure failure) {
    return failure.toException("argument " + failure.argument() + " of " + subject, null);
  }

  private static long wireArgument(WireShape shape, String subject, int index, long arguments, Frame frame) {
    long any = arguments + (long) index * P4JAny.SIZE;
    int type = NativeMemory.anyTypeIndex(any);
    WireShape.Kind kind = shape.parameters().get(index);
    switch (kind) {
      case INTEGER -> {
        if (type == kP4JInt) {
          return NativeMemory.anyPayload(any);
        }
      }
      case FLOAT -> {
        if (type == kP4JFloat) {
          return NativeMemory.anyPayload(any);
        }
        if (type == kP4JInt) {
          long value = NativeMemory.anyPayload(any);
          if (!Narrowing.isExactDouble(value)) { // as FloatCodec.decode: never a silent rounding
            throw new ConversionFailure(ConversionFailure.Kind.VALUE, value
                + ", which does not fit in a double without rounding")
                .toException("argument " + index + " of " + subject, null);
          }
          return Double.doubleToRawLongBits(value);
        }
      }
      case BOOL -> {
        if (type == kP4JBool) {
          return NativeMemory.anyPayload(any) != 0 ? 1 : 0;
        }
      }
      case STRING -> {
        if (type == kP4JString) {
          return NativeMemory.cell(NativeMemory.anyPayload(any)); // the object's cell is its span
        }
        if (type == kP4JStrView) {
          long span = frame.scratch(16, 8);
          NativeMemory.putLong(span, NativeMemory.anyPayload(any));
          NativeMemory.putLong(span + 8, Integer.toUnsignedLong(NativeMemory.getInt(any + 4)));
          return span;
        }
      }
      default -> {
        // VOID is never a parameter kind.
      }
    }
    String expected = switch (kind) {
      case INTEGER -> "int";
      case FLOAT -> "float";
      case BOOL -> "bool";
      default -> "string";
    };
    throw ConversionFailure.typeMismatch(Values.describe(any), expected)
        .toException("argument " + index + " of " + subject, null);
  }
}
