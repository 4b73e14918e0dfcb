/**
 * The tensor room: how a tensor is written for native code (DLTensors in scratch memory, the tensor word of a typed
 * entry) and which wrapped segment lies under which tensor object. {@code NDArray} is the API over it; the layouts
 * are {@code internal.capi}'s {@code DLTensor} and {@code DLManagedTensor}. Imports the call stack
 * ({@code internal.ThreadStack}, {@code internal.Frame}), native memory and capi; never the public package.
 */
package dev.packed4j.runtime.internal.tensor;
