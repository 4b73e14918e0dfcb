package dev.packed4j.integrity;

import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.PackedFunction;
import dev.packed4j.runtime.Registry;
import dev.packed4j.runtime.binding.Callbacks;
import dev.packed4j.runtime.OwnedHandle;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs in a child JVM of IntegrityTest, in the unnamed module, with packed4j as the named module
 * {@code dev.packed4j.runtime} on the module path: tries every entry point that reaches native memory, and the
 * safe API, and prints one {@code PASS} or {@code FAIL} line per check; exits with 1 when any check failed.
 *
 * <p>Mode {@code denied}: this module has no native access and the JVM denies illegal native access; every gated
 * entry point must throw IllegalCallerException naming itself, the rest of the API must work. Mode {@code allowed}:
 * the same calls pass the gate. Mode {@code warned}: no native access but the JDK's default, warn: the calls pass
 * after the JDK's warning. Mode {@code runtime-denied}: packed4j's module has no native access either, under deny.
 */
public final class IntegrityProbe {
  private IntegrityProbe() {}

  private static final List<String> FAILURES = new ArrayList<>();

  /** A check that runs a gated entry point. */
  @FunctionalInterface
  private interface Gated {
    void run() throws Throwable;
  }

  public static void main(String[] args) throws Throwable {
    String mode = args[0];
    if (mode.equals("runtime-denied")) {
      // packed4j's own module has no native access either: its first call says which flag to add, every time.
      for (int attempt = 0; attempt < 2; attempt++) {
        try {
          fail("Packed4j.abiVersion ran without native access: " + Packed4j.abiVersion());
        } catch (IllegalCallerException e) {
          pass("Packed4j.abiVersion refused: " + e.getMessage());
        }
        try (NDArray array = NDArray.allocate(DType.FLOAT32, 2)) {
          fail("NDArray.allocate ran without native access: " + array);
        } catch (IllegalCallerException e) {
          pass("NDArray.allocate refused: " + e.getMessage());
        }
      }
      System.out.println(FAILURES.isEmpty() ? "ALL PASSED" : FAILURES.size() + " FAILED");
      System.exit(FAILURES.isEmpty() ? 0 : 1);
    }
    boolean denied = mode.equals("denied");
    check(!IntegrityProbe.class.getModule().isNativeAccessEnabled() || mode.equals("allowed"),
        "the probe's module starts " + (mode.equals("allowed") ? "with" : "without") + " native access");
    check(Packed4j.class.getModule().isNamed(), "packed4j is the named module " + Packed4j.class.getModule());

    // The safe API works whatever the caller's access: packed4j's own module calls native code.
    try (NDArray array = NDArray.fromArray(new float[] {1, 2, 3}, 3);
        PackedFunction twice = PackedFunction.of(a -> 2 * (Long) a[0])) {
      check(Arrays.equals(array.toFloatArray(), new float[] {1, 2, 3}), "NDArray.fromArray and toFloatArray work");
      check(Long.valueOf(42).equals(twice.invoke(21L)), "a Java function called through native code works");
      check(Registry.find("no.such.function").isEmpty(), "the registry answers");
    }

    // Loading native code.
    Path missing = Path.of("/nonexistent/libpacked4j-probe.so");
    gated(denied, "Packed4j.loadLibrary", () -> Packed4j.loadLibrary(missing), Packed4jException.class);
    gated(denied, "Packed4j.loadLibrary", () -> Packed4j.loadLibrary("packed4jprobe"), Packed4jException.class);

    // A managed tensor whose data pointer and deleter the caller wrote.
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment forged = arena.allocate(128, 8);
      forged.set(ValueLayout.JAVA_LONG, 0, 0x1000L); // data: an address of the caller's choosing
      forged.set(ValueLayout.JAVA_INT, 16, 1);       // ndim
      if (denied) {
        gated(true, "NDArray.fromDLPack", () -> NDArray.fromDLPack(forged), null);
        gated(true, "NDArray.fromDLPackVersioned", () -> NDArray.fromDLPackVersioned(forged), null);
      }
    }
    try (NDArray source = NDArray.fromArray(new float[] {4, 5}, 2)) {
      gated(denied, "NDArray.fromDLPack", () -> {
        MemorySegment exported = source.toDLPack();
        try (NDArray back = NDArray.fromDLPack(exported)) {
          check(Arrays.equals(back.toFloatArray(), new float[] {4, 5}), "a DLPack round trip gives the tensor back");
        }
      }, null);
    }

    // The reader of string spans, which reads any address.
    gated(denied, "Callbacks.withStringSpans", () -> {
      String made = Callbacks.withStringSpans(MethodHandles.lookup(), spans -> "reader " + (spans != null));
      check(made.equals("reader true"), "withStringSpans hands the reader over");
    }, null);

    // No way around the gates: the internal packages are not exported, the handle token cannot be made.
    try {
      Class.forName("dev.packed4j.runtime.internal.capi.NativeMemory").getMethod("getLong", long.class).invoke(null, 0L);
      fail("an internal class of packed4j was callable");
    } catch (IllegalAccessException expected) {
      pass("the internal classes are not accessible: " + expected.getMessage());
    }
    try {
      OwnedHandle.class.getDeclaredConstructor(long.class, int.class).setAccessible(true);
      fail("OwnedHandle's constructor was made accessible");
    } catch (RuntimeException expected) { // InaccessibleObjectException
      pass("OwnedHandle cannot be made by reflection: " + expected.getClass().getSimpleName());
    }

    System.out.println(FAILURES.isEmpty() ? "ALL PASSED" : FAILURES.size() + " FAILED");
    System.exit(FAILURES.isEmpty() ? 0 : 1);
  }

  /**
   * Runs a gated entry point: when {@code denied}, it must throw IllegalCallerException naming
   * {@code entryPoint}; else it must pass the gate (and may then fail with {@code laterFailure}, as a missing
   * library does).
   */
  private static void gated(boolean denied, String entryPoint, Gated call, Class<? extends Throwable> laterFailure) {
    try {
      call.run();
      if (denied) {
        fail(entryPoint + " ran without native access");
      } else {
        pass(entryPoint + " passes the gate");
      }
    } catch (IllegalCallerException e) {
      if (denied && e.getMessage().startsWith(entryPoint + " reaches native memory")
          && e.getMessage().contains("--enable-native-access=ALL-UNNAMED")) {
        pass(entryPoint + " refused: " + e.getMessage());
      } else {
        fail(entryPoint + " threw " + e);
      }
    } catch (Throwable e) {
      if (!denied && laterFailure != null && laterFailure.isInstance(e)) {
        pass(entryPoint + " passes the gate, then: " + e.getMessage());
      } else {
        fail(entryPoint + " threw " + e);
      }
    }
  }

  private static void check(boolean condition, String what) {
    if (condition) {
      pass(what);
    } else {
      fail(what);
    }
  }

  private static void pass(String what) {
    System.out.println("PASS " + what);
  }

  private static void fail(String what) {
    FAILURES.add(what);
    System.out.println("FAIL " + what);
  }
}
