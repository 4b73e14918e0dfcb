/**
 * The call room: the route of each generated method, built once from the method's type and codecs. A typed entry
 * ({@code TypedEntryRoute}), the register call of {@code set_body} numbers ({@code RegisterCallRoute}) or the call
 * frame ({@code FrameRoute}), chosen in one place ({@code LinkedRoute}), with scratch memory for spans and words
 * ({@code ScratchScope}) and one filter per result kind ({@code ResultFilters}); relinked when the registry changes.
 *
 * <p>May import: {@code values}, {@code objects}, {@code capi}, {@code errors}, {@code Packed4jException}.
 */
package dev.packed4j.runtime.internal.route;
