/**
 * The objects room: native objects as Java sees them, without their values. Type metadata read once per type
 * ({@code TypeInfo}, {@code TypeInfos}, {@code ObjectTypeCatalog}); the Java view of each type key and the generated
 * classes behind it ({@code TypeView}, {@code ObjectTypeIndex}, {@code GeneratedClasses}); the single-use token an
 * object is built from ({@code OwnedHandles}); and the deferred release that lets a getter read an object's memory
 * while another thread closes it ({@code ReleaseEpochs}).
 *
 * <p>May import: {@code capi}, {@code errors}, {@code Packed4jException}, {@code OwnedHandle}, {@code ObjectTypeInfo}.
 */
package dev.packed4j.runtime.internal.objects;
