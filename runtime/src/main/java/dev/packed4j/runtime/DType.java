package dev.packed4j.runtime;

import java.util.Arrays;
import java.util.Objects;

/**
 * The element type of an {@link NDArray}: DLPack's {@code DLDataType} (a type code, bits per lane, lanes).
 *
 * <p>Named as the C++ side and {@code numpy} print them: {@code "int8"} to {@code "int64"}, {@code "uint8"} to
 * {@code "uint64"}, {@code "float16"}, {@code "bfloat16"}, {@code "float32"}, {@code "float64"}, {@code "complex64"},
 * {@code "complex128"}, {@code "bool"}, and a vector type as {@code "float32x4"}. Those are the names {@link #parse}
 * accepts; other widths DLPack can describe are built with the constructor.
 *
 * <pre>{@code
 * DType type = DType.parse("float32"); // DType.FLOAT32
 * type.byteSize();                     // 4
 * type.toString();                     // "float32"
 * }</pre>
 *
 * @param code DLPack's type code ({@link #CODE_INT}, {@link #CODE_UINT}, {@link #CODE_FLOAT}, {@link #CODE_BFLOAT},
 *     {@link #CODE_BOOL}, ...), 0 to 255
 * @param bits bits per lane, 1 to 255
 * @param lanes lanes (1 for a scalar element), 1 to 65535
 */
public record DType(int code, int bits, int lanes) {
  /** {@code kDLInt}. */
  public static final int CODE_INT = 0;
  /** {@code kDLUInt}. */
  public static final int CODE_UINT = 1;
  /** {@code kDLFloat}. */
  public static final int CODE_FLOAT = 2;
  /** {@code kDLOpaqueHandle}. */
  public static final int CODE_OPAQUE_HANDLE = 3;
  /** {@code kDLBfloat}. */
  public static final int CODE_BFLOAT = 4;
  /** {@code kDLComplex}. */
  public static final int CODE_COMPLEX = 5;
  /** {@code kDLBool} (DLPack 0.8 and later): one byte per value. */
  public static final int CODE_BOOL = 6;

  public static final DType INT8 = new DType(CODE_INT, 8, 1);
  public static final DType INT16 = new DType(CODE_INT, 16, 1);
  public static final DType INT32 = new DType(CODE_INT, 32, 1);
  public static final DType INT64 = new DType(CODE_INT, 64, 1);
  public static final DType UINT8 = new DType(CODE_UINT, 8, 1);
  public static final DType UINT16 = new DType(CODE_UINT, 16, 1);
  public static final DType UINT32 = new DType(CODE_UINT, 32, 1);
  public static final DType UINT64 = new DType(CODE_UINT, 64, 1);
  public static final DType FLOAT16 = new DType(CODE_FLOAT, 16, 1);
  public static final DType BFLOAT16 = new DType(CODE_BFLOAT, 16, 1);
  public static final DType FLOAT32 = new DType(CODE_FLOAT, 32, 1);
  public static final DType FLOAT64 = new DType(CODE_FLOAT, 64, 1);
  public static final DType BOOL = new DType(CODE_BOOL, 8, 1);

  /** Checks the ranges of DLDataType's fields (uint8, uint8, uint16). */
  public DType {
    if (code < 0 || code > 255) {
      throw new IllegalArgumentException("a dtype code is 0 to 255, got " + code);
    }
    if (bits < 1 || bits > 255) {
      throw new IllegalArgumentException("a dtype has 1 to 255 bits per lane, got " + bits);
    }
    if (lanes < 1 || lanes > 65535) {
      throw new IllegalArgumentException("a dtype has 1 to 65535 lanes, got " + lanes);
    }
  }

  /**
   * Parses a dtype name: {@code "int8"}, {@code "int16"}, {@code "int32"}, {@code "int64"}, the same widths of
   * {@code "uint"}, {@code "float16"}, {@code "float32"}, {@code "float64"}, {@code "bfloat16"}, {@code "complex64"},
   * {@code "complex128"}, {@code "bool"}, and any of those with lanes: {@code "float32x4"}. Nothing else: DLPack can
   * describe other widths (a 4-bit int, a 33-bit float) and {@link #DType(int, int, int)} builds them, but no reader
   * here knows their layout, so a name that asks for one is a mistake, not a type.
   *
   * @param name a dtype name such as {@code "float32"} or {@code "int8x4"}
   * @return the dtype
   * @throws IllegalArgumentException naming the text and the accepted forms
   */
  public static DType parse(String name) {
    Objects.requireNonNull(name, "name");
    if (name.equals("bool")) {
      return BOOL;
    }
    String prefix;
    int code;
    int[] widths;
    if (name.startsWith("uint")) {
      prefix = "uint";
      code = CODE_UINT;
      widths = INT_WIDTHS;
    } else if (name.startsWith("int")) {
      prefix = "int";
      code = CODE_INT;
      widths = INT_WIDTHS;
    } else if (name.startsWith("bfloat")) {
      prefix = "bfloat";
      code = CODE_BFLOAT;
      widths = BFLOAT_WIDTHS;
    } else if (name.startsWith("float")) {
      prefix = "float";
      code = CODE_FLOAT;
      widths = FLOAT_WIDTHS;
    } else if (name.startsWith("complex")) {
      prefix = "complex";
      code = CODE_COMPLEX;
      widths = COMPLEX_WIDTHS;
    } else {
      throw badName(name);
    }
    String rest = name.substring(prefix.length());
    int x = rest.indexOf('x');
    String bitsText = x < 0 ? rest : rest.substring(0, x);
    String lanesText = x < 0 ? "1" : rest.substring(x + 1);
    if (!isDigits(bitsText) || !isDigits(lanesText)) {
      throw badName(name);
    }
    int bits;
    int lanes;
    try {
      bits = Integer.parseInt(bitsText);
      lanes = Integer.parseInt(lanesText);
    } catch (NumberFormatException e) {
      throw badName(name);
    }
    if (Arrays.stream(widths).noneMatch(w -> w == bits)
        || !bitsText.equals(Integer.toString(bits)) || !lanesText.equals(Integer.toString(lanes))) {
      throw badName(name);
    }
    try {
      return new DType(code, bits, lanes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + name + "' is not a valid dtype: " + e.getMessage(), e);
    }
  }

  private static final int[] INT_WIDTHS = {8, 16, 32, 64};
  private static final int[] FLOAT_WIDTHS = {16, 32, 64};
  private static final int[] BFLOAT_WIDTHS = {16};
  private static final int[] COMPLEX_WIDTHS = {64, 128};

  private static boolean isDigits(String text) {
    return !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static IllegalArgumentException badName(String name) {
    return new IllegalArgumentException("'" + name + "' is not a dtype name: expected int8..int64, uint8..uint64, "
        + "float16, bfloat16, float32, float64, complex64, complex128, bool, or such a name with lanes as in "
        + "float32x4");
  }

  /** {@return bytes per element: bits times lanes, rounded up to whole bytes} */
  public long byteSize() {
    return ((long) bits * lanes + 7) / 8;
  }

  /**
   * The name: {@code "float32"}, which {@link #parse} reads back for the widths it accepts; an odd width prints the
   * same way ({@code "int4"}) but does not parse.
   */
  @Override
  public String toString() {
    String name = switch (code) {
      case CODE_INT -> "int";
      case CODE_UINT -> "uint";
      case CODE_FLOAT -> "float";
      case CODE_BFLOAT -> "bfloat";
      case CODE_OPAQUE_HANDLE -> "handle";
      case CODE_COMPLEX -> "complex";
      case CODE_BOOL -> "bool";
      default -> "code" + code + "_";
    };
    if (code != CODE_BOOL || bits != 8) {
      name += bits;
    }
    return lanes == 1 ? name : name + "x" + lanes;
  }
}
