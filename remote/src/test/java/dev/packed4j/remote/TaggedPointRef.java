package dev.packed4j.remote;

import dev.packed4j.annotations.Object;

/** The test plugin's remote.TaggedPoint, a child of remote.Point. */
@Object("remote.TaggedPoint")
public interface TaggedPointRef extends PointRef {
  String tag();
}
