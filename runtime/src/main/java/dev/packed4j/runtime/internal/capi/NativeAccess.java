package dev.packed4j.runtime.internal.capi;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AccessFlag;

/**
 * The gate of the public entry points that reach native memory the way a restricted method of the JDK does
 * (loading a library, taking over a DLPack tensor, reading a string span by its address): the caller's module
 * must have native access, with the JDK's own rule.
 *
 * <p>A caller whose module has native access ({@code --enable-native-access}, or a module that already called a
 * restricted method) passes at the cost of one check. Any other caller is made to call a harmless restricted
 * method of the JDK ({@code MemorySegment.NULL.reinterpret(0)}) as itself, so the JDK decides: under the default
 * {@code --illegal-native-access=warn} it prints its standard warning naming the caller's module once, after which
 * the module counts as enabled; under {@code --illegal-native-access=deny} it throws IllegalCallerException, which
 * this class rethrows naming the packed4j entry point. The caller is bound through its own {@code Lookup} (generated
 * code passes {@code MethodHandles.lookup()}), or, for a user call found by a stack walk, through a one-method
 * probe class defined in the caller's package (open to packed4j: every package of the unnamed module is); a named
 * module that does not open the caller's package to packed4j must grant native access on the command line.
 */
public final class NativeAccess {
  private NativeAccess() {}

  private static final MethodType REINTERPRET = MethodType.methodType(MemorySegment.class, long.class);
  private static final String PROBE = "Packed4jNativeAccessProbe";
  private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  /**
   * Checks the native access of the class that called the caller of this method (a public entry point of
   * packed4j): for rare calls, as it walks the stack.
   *
   * @param entryPoint the entry point, for the message: {@code "Packed4j.loadLibrary"}
   * @return the calling class
   * @throws IllegalCallerException when the JDK refuses the caller native access
   */
  public static Class<?> checkCaller(String entryPoint) {
    Class<?> caller = WALKER.walk(frames -> frames.skip(2).findFirst()).orElseThrow().getDeclaringClass();
    check(caller, entryPoint);
    return caller;
  }

  /**
   * Checks the native access of {@code caller}'s module.
   *
   * @param caller the class calling a gated entry point
   * @param entryPoint the entry point, for the message
   * @throws IllegalCallerException when the JDK refuses it native access
   */
  public static void check(Class<?> caller, String entryPoint) {
    if (caller.getModule().isNativeAccessEnabled()) {
      return;
    }
    MethodHandles.Lookup lookup;
    try {
      lookup = probeLookup(caller);
    } catch (ReflectiveOperationException | LinkageError | SecurityException e) { // a package closed or sealed
      throw refused(caller, entryPoint, e);
    }
    callRestricted(lookup, caller, entryPoint);
  }

  /**
   * Checks the native access of the lookup class's module; {@code lookup} must have its original access, as
   * {@code MethodHandles.lookup()} in that class gives.
   *
   * @param lookup the caller's own lookup
   * @param entryPoint the entry point, for the message
   * @throws IllegalCallerException when the JDK refuses the lookup class native access, or {@code lookup} is not
   *     the caller's own
   */
  public static void check(MethodHandles.Lookup lookup, String entryPoint) {
    Class<?> caller = lookup.lookupClass();
    if (!caller.getModule().isNativeAccessEnabled()) {
      callRestricted(lookup, caller, entryPoint);
    }
  }

  /** Calls the restricted method as {@code lookup}'s class, a class of {@code caller}'s module. */
  private static void callRestricted(MethodHandles.Lookup lookup, Class<?> caller, String entryPoint) {
    MethodHandle reinterpret;
    try {
      // A caller-sensitive method looked up through the caller's lookup is bound to the caller.
      reinterpret = lookup.findVirtual(MemorySegment.class, "reinterpret", REINTERPRET);
    } catch (ReflectiveOperationException e) {
      throw refused(caller, entryPoint, e);
    }
    try {
      MemorySegment ignored = (MemorySegment) reinterpret.invokeExact(MemorySegment.NULL, 0L);
    } catch (IllegalCallerException e) {
      throw refused(caller, entryPoint, e);
    } catch (Throwable e) {
      throw new IllegalStateException("checking the native access of " + caller.getName() + " failed", e);
    }
  }

  private static IllegalCallerException refused(Class<?> caller, String entryPoint, Throwable cause) {
    IllegalCallerException error = new IllegalCallerException(entryPoint + " reaches native memory and needs "
        + "native access, which " + caller.getModule() + " (of " + caller.getName() + ") does not have: run with "
        + "--enable-native-access=" + (caller.getModule().isNamed() ? caller.getModule().getName() : "ALL-UNNAMED")
        + " (" + cause.getMessage() + ")");
    error.initCause(cause);
    return error;
  }

  /** The original lookup of a probe class in {@code caller}'s package, defined there at the first need. */
  private static synchronized MethodHandles.Lookup probeLookup(Class<?> caller)
      throws ReflectiveOperationException {
    NativeAccess.class.getModule().addReads(caller.getModule());
    MethodHandles.Lookup inCaller = MethodHandles.privateLookupIn(caller, MethodHandles.lookup());
    String packageName = caller.getPackageName();
    String name = packageName.isEmpty() ? PROBE : packageName + "." + PROBE;
    Class<?> probe;
    try {
      probe = Class.forName(name, false, caller.getClassLoader());
      if (probe.getModule() != caller.getModule()) {
        throw new IllegalAccessException(name + " is not in " + caller.getModule());
      }
    } catch (ClassNotFoundException missing) {
      probe = inCaller.defineClass(probeClass(name));
    }
    // The probe hands out its own original lookup: the JDK then sees the probe, of the caller's module, call.
    MethodHandle lookup = inCaller.findStatic(probe, "lookup", MethodType.methodType(MethodHandles.Lookup.class));
    try {
      return (MethodHandles.Lookup) lookup.invokeExact();
    } catch (Throwable e) {
      throw new IllegalStateException("the native access probe of " + caller.getName() + " failed", e);
    }
  }

  /** {@code final class <name> { static Lookup lookup() { return MethodHandles.lookup(); } }}. */
  private static byte[] probeClass(String name) {
    ClassDesc lookupDesc = ClassDesc.of("java.lang.invoke.MethodHandles$Lookup");
    return ClassFile.of().build(ClassDesc.of(name), type -> type
        .withFlags(AccessFlag.FINAL, AccessFlag.SYNTHETIC)
        .withMethodBody("lookup", MethodTypeDesc.of(lookupDesc), ClassFile.ACC_STATIC, code -> code
            .invokestatic(ConstantDescs.CD_MethodHandles, "lookup", MethodTypeDesc.of(lookupDesc))
            .areturn()));
  }
}
