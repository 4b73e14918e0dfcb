package dev.packed4j.runtime;

import java.util.Objects;

/**
 * Where an {@link NDArray}'s memory is: DLPack's {@code DLDevice} (a device type and an index).
 *
 * <p>Printed and parsed as {@code "cpu"}, {@code "cuda:0"}, {@code "cuda_host:0"}, {@code "rocm:1"}, ... Java only
 * reads {@link #CPU} memory: a tensor elsewhere crosses through packed4j and DLPack untouched, but its
 * {@link NDArray#asSegment()} and {@code to...Array()} refuse.
 *
 * <pre>{@code
 * Device gpu = Device.parse("cuda:1"); // new Device(Device.TYPE_CUDA, 1)
 * gpu.isCpu();                         // false
 * }</pre>
 *
 * @param type DLPack's device type ({@link #TYPE_CPU}, {@link #TYPE_CUDA}, ...)
 * @param id the device index (0 for the CPU)
 */
public record Device(int type, int id) {
  public static final int TYPE_CPU = 1;
  public static final int TYPE_CUDA = 2;
  public static final int TYPE_CUDA_HOST = 3;
  public static final int TYPE_OPENCL = 4;
  public static final int TYPE_VULKAN = 7;
  public static final int TYPE_METAL = 8;
  public static final int TYPE_VPI = 9;
  public static final int TYPE_ROCM = 10;
  public static final int TYPE_ROCM_HOST = 11;
  public static final int TYPE_EXT_DEV = 12;
  public static final int TYPE_CUDA_MANAGED = 13;
  public static final int TYPE_ONEAPI = 14;
  public static final int TYPE_WEBGPU = 15;
  public static final int TYPE_HEXAGON = 16;
  public static final int TYPE_MAIA = 17;

  /** The host. */
  public static final Device CPU = new Device(TYPE_CPU, 0);

  private static final String[] NAMES = {
    null, "cpu", "cuda", "cuda_host", "opencl", null, null, "vulkan", "metal", "vpi", "rocm", "rocm_host",
    "ext_dev", "cuda_managed", "oneapi", "webgpu", "hexagon", "maia"
  };

  /** Checks that type is positive and id not negative. */
  public Device {
    if (type < 1) {
      throw new IllegalArgumentException("a DLPack device type is positive, got " + type);
    }
    if (id < 0) {
      throw new IllegalArgumentException("a device index is not negative, got " + id);
    }
  }

  /**
   * CUDA device {@code id}.
   *
   * @param id the CUDA device index, from 0
   * @return the device
   */
  public static Device cuda(int id) {
    return new Device(TYPE_CUDA, id);
  }

  /**
   * Parses {@code "cpu"}, {@code "cuda"} (index 0), {@code "cuda:1"}, or any DLPack device type name with an index.
   *
   * @param text a device name, optionally followed by {@code :index}
   * @return the device
   * @throws IllegalArgumentException naming the text and the known names
   */
  public static Device parse(String text) {
    Objects.requireNonNull(text, "text");
    int colon = text.indexOf(':');
    String name = colon < 0 ? text : text.substring(0, colon);
    int id = 0;
    if (colon >= 0) {
      try {
        id = Integer.parseInt(text.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + text + "' is not a device: the index after ':' must be a number");
      }
    }
    for (int type = 1; type < NAMES.length; type++) {
      if (name.equals(NAMES[type])) {
        return new Device(type, id);
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not a device: expected cpu, cuda, cuda_host, opencl, "
        + "vulkan, metal, vpi, rocm, rocm_host, ext_dev, cuda_managed, oneapi, webgpu, hexagon or maia, with an "
        + "optional ':index'");
  }

  /** {@return whether this is the host CPU, the only memory Java reads} */
  public boolean isCpu() {
    return type == TYPE_CPU;
  }

  /** {@code "cpu"}, or the type's name and index: {@code "cuda:0"}. */
  @Override
  public String toString() {
    if (type == TYPE_CPU) {
      return "cpu";
    }
    String name = type < NAMES.length && NAMES[type] != null ? NAMES[type] : "device" + type;
    return name + ":" + id;
  }
}
