package dev.packed4j.types;

/**
 * The object types a conversion check can see: a manifest at compile time, the loaded registry in the runtime.
 */
public interface ObjectHierarchy {

  /** No object type known: objects of any two keys may meet, and the runtime checks the actual object. */
  ObjectHierarchy UNKNOWN = new ObjectHierarchy() {
    @Override
    public boolean isRegistered(String key) {
      return false;
    }

    @Override
    public boolean derivesFrom(String key, String ancestor) {
      return false;
    }
  };

  /**
   * Whether a type of this key is registered.
   *
   * @param key the type key
   * @return whether it is known
   */
  boolean isRegistered(String key);

  /**
   * Whether the type {@code key} is {@code ancestor} or derives from it.
   *
   * @param key a registered type key
   * @param ancestor a registered type key
   * @return whether {@code key} is {@code ancestor} or one of its descendants
   */
  boolean derivesFrom(String key, String ancestor);
}
