package dev.packed4j.server;

/**
 * packed4j-server.jar's entry point, compiled for Java 8 so that an older {@code java} says which JDK to use
 * instead of failing with {@code UnsupportedClassVersionError}; then it runs
 * {@code dev.packed4j.remote.Packed4jServer}.
 */
public final class Launcher {
  private static final int REQUIRED_FEATURE = 25;

  private Launcher() {}

  /**
   * Checks the Java version and runs the server.
   *
   * @param args the server's command line ({@code --help} lists it)
   * @throws Exception what starting the server throws
   */
  public static void main(String[] args) throws Exception {
    String version = System.getProperty("java.specification.version");
    int feature = version.startsWith("1.") ? 8 : Integer.parseInt(version.split("\\.")[0]);
    if (feature < REQUIRED_FEATURE) {
      System.err.println("packed4j-server needs Java " + REQUIRED_FEATURE + " or later, and this is Java " + version
          + " (" + System.getProperty("java.home") + "). Run it with a JDK " + REQUIRED_FEATURE + "'s java, for"
          + " example /usr/lib/jvm/<jdk-25>/bin/java -jar packed4j-server.jar --port 7000 <library.so>");
      System.exit(2);
    }
    // Loaded only now: the server is compiled for JDK 25.
    Class.forName("dev.packed4j.remote.Packed4jServer").getMethod("main", String[].class)
        .invoke(null, (Object) args);
  }
}
