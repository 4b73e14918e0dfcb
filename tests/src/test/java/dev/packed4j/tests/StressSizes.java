package dev.packed4j.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The sizes of the stress and leak tests: issue 14's numbers times {@code packed4j.stress.scale}. The default
 * suite runs a small share of them (tests/pom.xml); the sanitize profile, which CI runs, runs them in full.
 */
final class StressSizes {
  private StressSizes() {}

  /** The share of the full sizes this run uses (1 outside Maven). */
  static final double SCALE = Double.parseDouble(System.getProperty("packed4j.stress.scale", "1"));

  /** {@code full} scaled to this run, at least 1. */
  static long of(long full) {
    return Math.max(1, Math.round(full * SCALE));
  }

  /** This process's resident set size in bytes (VmRSS of /proc/self/status). */
  static long residentBytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        String[] parts = line.substring("VmRSS:".length()).trim().split("\\s+");
        return Long.parseLong(parts[0]) * 1024;
      }
    }
    throw new IOException("no VmRSS line in /proc/self/status");
  }
}
