package dev.packed4j.cli;

/**
 * The jar's entry point, compiled for Java 8 so that an older {@code java} says which JDK to use instead of failing
 * with {@code UnsupportedClassVersionError}: the command loads native code through FFM, final since JDK 22, and the
 * rest of packed4j is built for JDK 25.
 */
public final class Launcher {
  private static final int REQUIRED_FEATURE = 25;

  private Launcher() {}

  public static void main(String[] args) throws Exception {
    String version = System.getProperty("java.specification.version");
    int feature = version.startsWith("1.") ? 8 : Integer.parseInt(version.split("\\.")[0]);
    if (feature < REQUIRED_FEATURE) {
      System.err.println("packed4j needs Java " + REQUIRED_FEATURE + " or later, and this is Java " + version
          + " (" + System.getProperty("java.home") + "). Run it with a JDK " + REQUIRED_FEATURE + "'s java, for"
          + " example /usr/lib/jvm/<jdk-25>/bin/java -jar packed4j-cli.jar describe <library.so>");
      System.exit(2);
    }
    // Loaded only now: Main is compiled for JDK 25.
    Class.forName("dev.packed4j.cli.Main").getMethod("main", String[].class).invoke(null, (Object) args);
  }
}
