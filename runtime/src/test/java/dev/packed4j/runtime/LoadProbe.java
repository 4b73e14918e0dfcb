package dev.packed4j.runtime;

/** Loads the core in a fresh JVM and prints what happens; exit status 3 when loading fails, twice the same way. */
public final class LoadProbe {
  private LoadProbe() {}

  public static void main(String[] args) {
    String first;
    try {
      System.out.println("loaded ABI version " + Packed4j.abiVersion());
      return;
    } catch (Packed4jException e) {
      first = e.getMessage();
      System.out.println(first);
    }
    try {
      Packed4j.liveObjectCount();
    } catch (Packed4jException e) {
      // A failure is reported again, the same way, on every use.
      System.exit(e.getMessage().equals(first) ? 3 : 4);
    }
    System.exit(5);
  }
}
